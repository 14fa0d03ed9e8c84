#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the decoder's refill put together a refill later (new) against 9cdb6b9 (prev) on the H200: GPU tests of new; probe2
# 256/16/4/1 MB alternating twice; ncu decoder times at 1 and 256 MB; memcheck of gpu_codec_test (quick)
START=$(date +%s); R=$PWD; W=/tmp/w55; rm -rf $W; mkdir -p $W/prev $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
cp $R/.dev/cand3.tar.gz $W/prev.tar.gz; cp $R/.dev/cand4.tar.gz $W/new.tar.gz
for v in prev new; do
  ( cd $W/$v && tar xzf $W/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j7 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j7 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
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
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 256 fast 5 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 1 fast,auto 21) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 1 256; do ( cd $W/$v/gpulz-* && timeout 30 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq.u16 $mb fast 1 > $W/res/ncu-$v-$mb.csv 2>> $W/res/ncu.err )
  grep -h "decode_kernel" $W/res/ncu-$v-$mb.csv | awk -F'","' '{print "'$v' '$mb' MB " substr($5,1,40) " " $NF}' >> $S
done; done
log ncu
left=$((225 - $(date +%s) + START))
[ $left -gt 20 ] && { GPULZ_TEST_QUICK=1 timeout $left /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -4 $W/res/memcheck.log >> $S; }
log done
tar czf $OUT/res.tgz -C $W res
