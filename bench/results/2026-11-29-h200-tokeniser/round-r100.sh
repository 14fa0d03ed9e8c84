#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c99 (sweep in rounds, walk with the next key): ncu source counters of gpu_v2_lz_kernel in one auto call at
# 4 MB and at 1 MB; bench/ncu_stalls.py over them; the CSVs back for per-instruction reading
START=$(date +%s); R=$PWD; W=/tmp/w100; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/c99.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
./gpulz gen quant 16M -o $W/gq.u16
for mb in 4 1; do k=lz$mb
timeout 150 ncu --clock-control none --import-source no -k regex:"gpu_v2_lz_kernel" -c 1 --section SourceCounters --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats -o $W/res/$k ./probe2 $W/gq.u16 $mb auto 1 > $W/res/ncu-$k.log 2>&1; echo "ncu $k exit $?" >> $S
timeout 60 ncu -i $W/res/$k.ncu-rep --page source --csv --print-source sass > $W/res/$k-source.csv 2> $W/res/$k-source.err; echo "source $k exit $? $(wc -l < $W/res/$k-source.csv) lines" >> $S
timeout 60 ncu -i $W/res/$k.ncu-rep --page details --print-details all > $W/res/$k-details.txt 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Issued Warp|No Eligible|Active Warps Per|Eligible Warps" $W/res/$k-details.txt | head -12 >> $S
python3 $R/bench/ncu_stalls.py --top 14 $W/res/$k-source.csv "lz kernel, auto $mb MB" >> $S 2>&1
cp $W/res/$k-source.csv $OUT/
done
log done
