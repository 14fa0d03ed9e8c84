#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r190: c190 (2fc1c82 with the Python out fix and h5direct_bench --optional) on the GPU: the last
# session's GPU-side changes (gpu_ctx_quiesce, host batch NULL buffers, gpu_tune_smem_most's
# smaller_device, gpu_tune_unranged's v2_unranged, picked_wide) had never run on a GPU. The
# GPULZ_BACKEND=gpu set, the whole make check with gpu_sanitizer.sh, the CUDA wheel's device-test.sh
START=$(date +%s); R=$PWD; W=/tmp/w190; rm -rf $W; mkdir -p $W/new $W/gset $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for b in new gset; do
( cd $W/$b && tar xzf $R/.dk/c190.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-$b.log 2>&1 || { echo "BUILD $b FAILED" >> $S; tail -30 $W/res/build-$b.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*)
cd $N
( timeout 470 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
( PYTHON=python3 sh $R/python/device-test.sh $R/.dk/gpulz_cu13-0.1.0-py3-none-manylinux_2_34_x86_64.whl $W/res/python-device-test.log > /dev/null 2>&1; echo "python device-test exit $?" >> $S ) &
cd $W/gset/gpulz-*
GS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/h5_shuffle h5tests/codec_stack h5tests/codec_corrupt h5tests/codec_roundtrip h5tests/codec_model_ref h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
grep -h "failures\|FAIL\|differ\|smaller\|unranged\|picked" h5tests/gpu_codec_test.log | tail -14 >> $S
grep -h "null\|FAIL\|check failed" h5tests/gpu_batch_test.log | tail -6 >> $S
log gset
wait
cd $N
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
grep -h "FAIL\|passed\|checks\|skipped\|CuPy\|out with only" $W/res/python-device-test.log | tail -20 >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
