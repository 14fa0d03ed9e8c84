#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 57fe95b (new: packed statistics) on the H200: GPU tests (four sequences, refdec on the GPU, GPU-backend set),
# then A/B against d51b1ac (head; 2dbbada's SASS): gpu_bench --v2, probe2 at 256 and 4 MB, h5direct_bench auto, kernel times
R=$PWD; W=/tmp/w33; rm -rf $W; mkdir -p $W/head $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in head new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/gpu_bench bench/h5direct_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test h5tests/codec_refdec_test; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); H=$(echo $W/head/gpulz-*)
cd $N
for seed in 0 1 2 3; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2 3; do grep -h "FAIL\|failures" $W/res/gpu_codec_test-$seed.log | tail -4 | sed "s/^/seed $seed: /" >> $S; done
tail -2 $W/res/refdec-gpu.log >> $S
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
log benched
for r in 1 2; do for v in head new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 7 && ./probe2 $W/gq/genquant.u16 4 fast,auto 31) >> $S 2>&1; done; done
log probed
for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 50 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths filter,direct-host,direct-device --csv $W/res/h5d-auto-$v.csv > $W/res/h5d-auto-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-auto-$v.txt | sed "s/^/auto $v: /" >> $S
done
log direct
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
log done
tar czf $OUT/res.tgz -C $W res
