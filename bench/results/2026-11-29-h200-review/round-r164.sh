#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r164: where a 1 MB chunk's rANS passes spend their time: ncu of c163's coder and decoder kernels
# (fast, levitus_temp_q1e-4, 1 MB, device API): warp states, scheduler statistics, and the
# per-instruction stall samples (source page, SASS)
START=$(date +%s); R=$PWD; W=/tmp/w164; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; which ncu >> $S 2>&1; ncu --version >> $S 2>&1
mkdir -p $W/corpus && xz -dc $R/.dk/corpus/levitus_temp_q1e-4.u16.xz > $W/corpus/l.u16
( cd $W/new && tar xzf $R/.dk/c163.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 --enable-lineinfo 2>/dev/null || ./configure -q --with-cuda-arch=90; make -j16 libgpulz.la && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
log built
cd $W/new/gpulz-*
for k in encode decode; do
  timeout 120 ncu --kernel-name regex:gpu_v2_${k}_kernel --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters ./probe2 $W/corpus/l.u16 1 fast 1 > $W/res/ncu-$k.txt 2>&1
  echo "ncu $k exit $?" >> $S
  grep -E "Duration|Registers Per|Block Size|Grid Size|Achieved Occupancy|Issued Warp|No Eligible|Active Warps Per Scheduler|Eligible Warps|Warp Cycles Per Issued|Stall|stall|Executed Ipc" $W/res/ncu-$k.txt | head -40 >> $S
  timeout 120 ncu --kernel-name regex:gpu_v2_${k}_kernel --launch-count 1 --section SourceCounters --section WarpStateStats --page source --print-source sass --csv ./probe2 $W/corpus/l.u16 1 fast 1 > $W/res/src-$k.csv 2>&1
  echo "ncu source $k exit $? $(wc -l < $W/res/src-$k.csv) lines" >> $S
done
log ncu
tar czf $OUT/res.tgz -C $W res
