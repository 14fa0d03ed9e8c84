#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r155: c155 (c153 with host decoding's staging sized by the chunks' declared sizes, and
# gpu_batch_test's generous_caps): the GPU set through make check, gpu_batch_test's log
START=$(date +%s); R=$PWD; W=/tmp/w155; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c155.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
GS="h5tests/gpu_batch_test h5tests/codec_batch h5tests/h5_direct h5tests/gpu_codec_test h5tests/codec_v2 h5tests/h5_gpu h5tests/bench_direct_smoke.sh h5tests/gpu_multidev_test"
GPULZ_BACKEND=gpu timeout 300 make -j8 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
grep -h "rooms\|pinned\|check failed" h5tests/gpu_batch_test.log | head -8 >> $S
tail -n 2 h5tests/gpu_codec_test.log >> $S
log done
cp h5tests/*.log $W/res/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
