#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ca3361a..342b76b, written for the next GPU run (not run yet): damaged chunks' status on the GPU as on the CPU (four input sequences), refdec on the GPU, GPU tests
R=$PWD; W=/tmp/w26; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2 h5tests/codec_refdec_test h5tests/h5_corrupt h5tests/codec_golden2 h5tests/h5_fixture ) > $W/res/build.log 2>&1 || { tail -20 $W/res/build.log >> $S; exit 9; }
log built
cd $W/new/gpulz-*
for seed in 0 1 2 3; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1 2 3; do grep -h "FAIL\|failures" $W/res/gpu_codec_test-$seed.log | tail -4 | sed "s/^/seed $seed: /" >> $S; done
tail -2 $W/res/refdec-gpu.log >> $S
log tested
timeout 90 make -j16 check TESTS="h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
GPULZ_BACKEND=gpu timeout 60 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log done
tar czf $OUT/res.tgz -C $W res
