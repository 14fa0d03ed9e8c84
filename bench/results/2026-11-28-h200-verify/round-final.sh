#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The new HEAD: full make check (GPU tests; the sanitizer as far as the time allows), then probe2 A/B of the checksum's place (prev: beside the histograms; new: after them) at 256 and 4 MB, kernel times, the encoder's stall reasons
START=$(date +%s); R=$PWD; W=/tmp/w31; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
timeout 380 make -j16 check > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h ":test-result:" h5tests/*.trs | sort | uniq -c >> $S
grep -L ":test-result:" h5tests/*.log 2>/dev/null | head >> $S
grep -h "FAIL\|SKIP" h5tests/*.trs | head -30 >> $S
cat h5tests/gpu_sanitizer.sh.log >> $S 2>/dev/null
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16
for r in 1 2; do for v in prev new; do echo "-- $v" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 5 && ./probe2 $W/gq/genquant.u16 4 fast,auto 5) >> $S 2>&1; done; done
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
timeout 60 ncu --clock-control none -k regex:gpu_v2_encode_kernel -c 1 --section WarpStateStats --section ComputeWorkloadAnalysis --section SchedulerStats --section Occupancy ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-encode.txt 2>> $W/res/ncu.err
echo "ncu encode exit $?" >> $S
log done
tar czf $OUT/res.tgz -C $W res
