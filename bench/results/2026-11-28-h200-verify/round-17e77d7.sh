#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 17e77d7 on the H200: round-next (damaged-chunk status, four input sequences; refdec on the GPU; GPU tests), kernel times, full make check with the sanitizer
START=$(date +%s); R=$PWD; W=/tmp/w27; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && N=$PWD
( ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 h5tests/gpu_codec_test h5tests/codec_refdec_test && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
for seed in 0 1 2 3; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2 3; do grep -h "FAIL\|failures" $W/res/gpu_codec_test-$seed.log | tail -4 | sed "s/^/seed $seed: /" >> $S; done
tail -2 $W/res/refdec-gpu.log >> $S
log tested
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log gpuchecked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16
./probe2 $W/gq/genquant.u16 256 fast,ratio,auto,lz 5 >> $S 2>&1
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
log probed
timeout $((570 - $(date +%s) + START)) make -j16 check > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
tar czf $OUT/res.tgz -C $W res
