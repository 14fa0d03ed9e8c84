#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r157: c157 (crafted chunks for the GPU decoders; format 1 TRUNCATED on the device; host
# decoding split by declared sizes): gpu_codec_test quick under memcheck, gpu_codec_test in full,
# and GPULZ_BACKEND=gpu make check of gpu_batch_test, codec_batch, codec_corrupt, side by side
START=$(date +%s); R=$PWD; W=/tmp/w157; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start
( cd $W/new && tar xzf $R/.dk/c157.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
( GPULZ_TEST_QUICK=1 timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S ) &
M=$!
( timeout 120 ./h5tests/gpu_codec_test > $W/res/gct-full.log 2>&1; echo "gpu_codec_test full: exit $?" >> $S ) &
G=$!
GPULZ_BACKEND=gpu timeout 150 make -j4 check TESTS="h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corrupt h5tests/h5_gpu" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
wait $G; grep -h "crafted\|FAIL\|PASS" $W/res/gct-full.log | tail -4 >> $S
wait $M; grep -h "crafted\|ERROR SUMMARY\|PASS\|FAIL" $W/res/memcheck.log | tail -5 >> $S
log done
cp h5tests/*.log $W/res/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
