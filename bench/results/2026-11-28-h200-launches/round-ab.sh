#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# fewer launches, larger encoder batches on few segments, wider tokeniser blocks on few blocks (new; new16: batch 16;
# newnt: without the wider tokeniser) against b382b12 (prev) on the H200:
# launch costs; GPU tests; gpu_bench --v2 256 MB and probe2 at 16/4/1 MB alternating; h5bench auto (new, prev) beside 0.1
START=$(date +%s); R=$PWD; W=/tmp/w47; rm -rf $W; mkdir -p $W/prev $W/new $W/new16 $W/newnt $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
cp $R/.dev/b382.tar.gz $W/prev.tar.gz; cp $R/.dev/new.tar.gz $W/new.tar.gz; cp $R/.dev/new.tar.gz $W/new16.tar.gz; cp $R/.dev/new.tar.gz $W/newnt.tar.gz
for v in prev new new16 newnt; do
  ( cd $W/$v && tar xzf $W/$v.tar.gz && cd gpulz-* && N=$PWD && { [ $v != new16 ] || sed -i 's/#define GPU_V2_ENC_BATCH_FEW 32/#define GPU_V2_ENC_BATCH_FEW 16/' kernels/gpu_v2.cuh; } && { [ $v != newnt ] || sed -i 's/#define GPU_V2_TOKENS_FEW_PER_SM 2/#define GPU_V2_TOKENS_FEW_PER_SM 0/' kernels/gpu_v2.h; } && ./configure -q --with-cuda-arch=90 && make -j4 && make -j4 bench/gpu_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ] || [ $v = prev ]; then make -j4 check TESTS= && make -j4 bench/h5bench; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
grep -c "ENC_BATCH_FEW 16" $W/new16/gpulz-*/kernels/gpu_v2.cuh >> $S; grep -c "TOKENS_FEW_PER_SM 0" $W/newnt/gpulz-*/kernels/gpu_v2.h >> $S
log built
$R/.dev/lc/lc_test >> $S 2>&1
N=$(echo $W/new/gpulz-*)
cd $N
for seed in 0 1 2; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2; do grep -h "failures" $W/res/gpu_codec_test-$seed.log | tail -4 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in prev new new16 newnt; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
for r in 1 2; do for v in prev new new16 newnt; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 16 fast,ratio,auto 11 && ./probe2 $W/gq/genquant.u16 4 fast,ratio,auto 21 && ./probe2 $W/gq/genquant.u16 1 fast,ratio,auto 21) >> $S 2>&1; done; done
log probed
HDF5_PLUGIN_PATH=$N/test-plugins timeout 130 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-new.csv 2>>$W/res/bench.err; echo "h5bench new exit $?" >> $S
P=$(echo $W/prev/gpulz-*)
left=$((580 - $(date +%s) + START))
[ $left -gt 40 ] && { HDF5_PLUGIN_PATH=$P/test-plugins timeout $left $P/bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-auto-gpu > $W/res/h5bench-prev.csv 2>>$W/res/bench.err; echo "h5bench prev exit $?" >> $S; }
log done
tar czf $OUT/res.tgz -C $W res
