#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r188: c188 (the range fix after r187) on the GPU: the GPU tests that compare the GPU's bytes with the
# CPU's (GPULZ_BACKEND=gpu), then the whole make check with gpu_sanitizer.sh; c185p (34bac06) and 0.1
# built beside it, and the corpus's six largest arrays staged, for r189's HDF5 round on the same machine
START=$(date +%s); R=$PWD; W=/tmp/w188; rm -rf $W; mkdir -p $W/res $W/v01p /tmp/stage188
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
cp .dk/stage178/*.xz /tmp/stage188/ &
for v in new prev; do T=$([ $v = new ] && echo c188 || echo c185p); mkdir -p $W/$v
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j7 && make -j7 bench/h5bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo check TESTS=) ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
( mkdir -p $W/v01 && cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j2 libH5Zgpulz.la && cp .libs/libH5Zgpulz.so $W/v01p/ ) > $W/res/build-v01.log 2>&1 || echo "BUILD v01 FAILED" >> $S &
wait
log built
cd $W/new/gpulz-*
GPULZ_BACKEND=gpu timeout 240 make -j8 check TESTS="h5tests/gpu_codec_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/codec_corpus h5tests/codec_refdec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_model_ref h5tests/codec_roundtrip h5tests/h5_shuffle h5tests/h5_corrupt h5tests/codec_batch h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/bench_direct_smoke.sh" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
grep -h "failures\|FAIL\|differ" h5tests/gpu_codec_test.log | tail -8 >> $S
mkdir -p $W/res/gtests && cp h5tests/*.log $W/res/gtests/ 2>/dev/null
log tested
timeout 450 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
ls -la /tmp/stage188 >> $S
log checked
tar czf $OUT/res.tgz -C $W res
