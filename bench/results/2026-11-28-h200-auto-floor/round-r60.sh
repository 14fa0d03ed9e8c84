#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the encoder's batches of full rows without an escape as one run of steps (cand, 78f9b57 + kernels/gpu_v2.cuh)
# against 78f9b57 (new) on the H200: cand's GPU tests and memcheck; gpu_bench --v2 256 MB and probe2 1/4/16 MB
# alternating twice; ncu kernel times of fast at 1 MB and 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w60; rm -rf $W; mkdir -p $W/new $W/cand $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in new cand; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/gpu_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = cand ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || tail -30 $W/res/build-$v.log >> $S &
done
wait
log built
cd $W/cand/gpulz-*
for seed in 0 1; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1; do grep -h "failures" $W/res/gpu_codec_test-$seed.log | tail -1 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_floor" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in new cand; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err ); grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
log benched
for r in 1 2; do for v in new cand; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 16 fast,auto 11 && ./probe2 $W/gq/genquant.u16 4 fast,auto 21 && ./probe2 $W/gq/genquant.u16 1 fast,ratio,auto 21) >> $S 2>&1; done; done
log probed
for v in new cand; do for mb in 256 1; do ( cd $W/$v/gpulz-* && timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 $mb fast 1 > $W/res/ncu-$v-$mb.csv 2>> $W/res/ncu.err )
  grep -h "encode_kernel" $W/res/ncu-$v-$mb.csv | awk -F'","' '{print "'$v' '$mb' MB " substr($5,1,40) " " $NF}' >> $S
done; done
log ncu
left=$((570 - $(date +%s) + START))
[ $left -gt 20 ] && { GPULZ_TEST_QUICK=1 timeout $left /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $? ($left s allowed)" >> $S; tail -4 $W/res/memcheck.log >> $S; }
log done
tar czf $OUT/res.tgz -C $W res
