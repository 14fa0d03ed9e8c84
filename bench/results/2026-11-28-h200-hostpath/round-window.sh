#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the decoder's word window and the encoder's units one batch ahead (new: 96 registers; new80: launch bounds for 80)
# against b6569e9 (prev): GPU tests of new; probe2 at 256, 16, 4 and 1 MB alternating twice; kernel times
R=$PWD; W=/tmp/w36; rm -rf $W; mkdir -p $W/prev $W/new $W/new80 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new new80; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j6 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v != prev ]; then make -j6 h5tests/gpu_codec_test; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*)
cd $N
for seed in 0 1; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( cd $W/new80/gpulz-* && GPULZ_TEST_SEED=2 ./h5tests/gpu_codec_test > $W/res/gpu_codec_test-80.log 2>&1; echo "new80 gpu_codec_test seed 2: exit $?" >> $S ) &
wait
for seed in 0 1 80; do grep -h "FAIL\|failures" $W/res/gpu_codec_test-$seed.log | tail -2 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16
for r in 1 2; do for v in prev new new80; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 5 && ./probe2 $W/gq/genquant.u16 16 fast,auto 21 && ./probe2 $W/gq/genquant.u16 4 fast 31 && ./probe2 $W/gq/genquant.u16 1 fast 31) >> $S 2>&1; done; done
log probed
for v in prev new new80; do
( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256-$v.csv 2>> $W/res/ncu.err; timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 4 fast 1 > $W/res/ncu-4-$v.csv 2>> $W/res/ncu.err )
done
log done
tar czf $OUT/res.tgz -C $W res
