#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# stats branch: checksum beside the histograms, packed range pass. Correctness (GPU bytes == CPU, damaged chunks, refdec on the GPU, GPU tests, memcheck) and A/B/C against 17e77d7 and the reciprocal encoder at 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w29; rm -rf $W; mkdir -p $W/head $W/recip $W/stats $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in head recip stats; do
( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
cd $W/stats/gpulz-* && make -j16 h5tests/gpu_codec_test h5tests/codec_refdec_test h5tests/codec_rans_step > $W/res/build2.log 2>&1 || { tail -30 $W/res/build2.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
./h5tests/codec_rans_step >> $S 2>&1
for seed in 0 1 2; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2; do grep -h "FAIL\|failures" $W/res/gpu_codec_test-$seed.log | tail -4 | sed "s/^/seed $seed: /" >> $S; done
tail -2 $W/res/refdec-gpu.log >> $S
log tested
timeout 120 make -j16 check TESTS="h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/gpu_multidev_test" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -3 $W/res/memcheck.log >> $S
log checked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16
for rep in 1 2; do for v in head recip stats; do echo "-- $v" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,ratio,auto 5 && ./probe2 $W/gq/genquant.u16 4 fast,auto 5) >> $S 2>&1; done; done
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
log done
tar czf $OUT/res.tgz -C $W res
