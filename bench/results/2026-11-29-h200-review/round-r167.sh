#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r167: ncu of c166 (d1a3737) at 1 MB (levitus_temp_q1e-4, device API): ratio's token kernel
# (gpu_v2_lz_kernel) and the coder after d1a3737, warp states and per-instruction stall samples
START=$(date +%s); R=$PWD; W=/tmp/w167; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && xz -dc $R/.dk/corpus/levitus_temp_q1e-4.u16.xz > $W/corpus/l.u16
( cd $W/new && tar xzf $R/.dk/c166.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
log built
cd $W/new/gpulz-*
for k in v2_lz:ratio v2_encode:fast; do n=${k%%:*}; mode=${k##*:}
  timeout 120 ncu --kernel-name regex:gpu_${n}_kernel --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters ./probe2 $W/corpus/l.u16 1 $mode 1 > $W/res/ncu-$n.txt 2>&1
  echo "ncu $n exit $?" >> $S
  grep -E "Duration|Registers Per|Block Size|Grid Size|Achieved Occupancy|Issued Warp|No Eligible|Warp Cycles Per Issued" $W/res/ncu-$n.txt | head -12 >> $S
  timeout 120 ncu --kernel-name regex:gpu_${n}_kernel --launch-count 1 --section SourceCounters --section WarpStateStats --page source --print-source sass --csv ./probe2 $W/corpus/l.u16 1 $mode 1 > $W/res/src-$n.csv 2>&1
  echo "ncu source $n exit $? $(wc -l < $W/res/src-$n.csv) lines" >> $S
done
log ncu
tar czf $OUT/res.tgz -C $W res
