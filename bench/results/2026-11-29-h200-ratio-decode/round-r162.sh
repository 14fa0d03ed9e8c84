#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r162: c162 (18c9ef4: the ratio decoder's flags opening in one helper) on the GPU: the whole make check
# with gpu_sanitizer.sh, and the GPULZ_BACKEND=gpu set in a second tree
START=$(date +%s); R=$PWD; W=/tmp/w162; rm -rf $W; mkdir -p $W/new $W/gset $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c162.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/gset && tar xzf $R/.dk/c162.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 && make -j4 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
wait
log built
D=$(echo $W/new/gpulz-*)
cd $D
( timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait $CP
cd $D
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|sampled DELTA\|tail piece\|refused\|crafted" h5tests/gpu_codec_test.log | tail -16 >> $S
grep -h "pinned\|check failed\|generous" h5tests/gpu_batch_test.log | head -6 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
