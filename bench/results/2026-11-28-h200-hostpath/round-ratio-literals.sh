#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ratio's literals packed (new) against b5e2663 (prev) on the H200: GPU tests, probe2 auto/ratio, h5direct_bench auto, memcheck
R=$PWD; W=/tmp/w40; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start
for v in prev new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test h5tests/codec_refdec_test; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*)
cd $N
for seed in 0 1 2; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2; do grep -h "failures" $W/res/gpu_codec_test-$seed.log | tail -1 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
./gpulz gen quant 64M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 16 auto,ratio 11 && ./probe2 $W/gq.u16 4 auto,ratio 21) >> $S 2>&1; done; done
log probed
for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 50 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths filter,direct-host,direct-device --csv $W/res/h5d-auto-$v.csv > $W/res/h5d-auto-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-auto-$v.txt | sed "s/^/auto $v: /" >> $S
done
log direct
GPULZ_TEST_QUICK=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
