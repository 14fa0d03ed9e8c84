#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ratio's tokens with more warps a block on small grids (new) against e00453b (prev) on the H200: GPU tests;
# probe2 at 1/4/16 MB alternating; h5bench auto beside 0.1; racecheck and memcheck with the time left
START=$(date +%s); R=$PWD; W=/tmp/w45; rm -rf $W; mkdir -p $W/prev $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
for v in prev new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j7 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j7 check TESTS= && make -j7 bench/h5bench; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*)
cd $N
for seed in 0 1; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1; do grep -h "failures" $W/res/gpu_codec_test-$seed.log | tail -1 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
./gpulz gen quant 64M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 16 ratio,auto 11 && ./probe2 $W/gq.u16 4 ratio,auto 21 && ./probe2 $W/gq.u16 1 fast,ratio,auto 21) >> $S 2>&1; done; done
log probed
HDF5_PLUGIN_PATH=$N/test-plugins timeout 60 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench.csv 2>>$W/res/bench.err; echo "h5bench exit $?" >> $S
log h5bench
for tool in racecheck memcheck; do
  left=$((385 - $(date +%s) + START))
  [ $left -gt 20 ] && { GPULZ_TEST_QUICK=1 timeout $left /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/$tool.log 2>&1; echo "$tool exit $? ($left s allowed)" >> $S; tail -2 $W/res/$tool.log >> $S; }
done
log done
tar czf $OUT/res.tgz -C $W res
