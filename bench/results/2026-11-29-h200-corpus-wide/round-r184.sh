#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r184: c184 (a13dc42 + f5480f8 + docs: the merged review fixes) on the GPU: the CUDA wheel's
# python/device-test.sh (CuPy paths after the Python fixes), and the filter and direct-path tests
# under GPULZ_BACKEND=gpu
START=$(date +%s); R=$PWD; W=/tmp/w184; rm -rf $W; mkdir -p $W/res $W/b
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( PYTHON=python3 sh $R/python/device-test.sh $R/.dk/gpulz_cu13-0.1.0-py3-none-manylinux_2_34_x86_64.whl $W/res/python-device-test.log > /dev/null 2>&1; echo "python device-test exit $?" >> $S ) &
( cd $W/b && tar xzf $R/.dk/c184.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j12 && make -j12 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/b/gpulz-*
GPULZ_BACKEND=gpu timeout 150 make -j6 check TESTS="h5tests/h5_shuffle h5tests/h5_gpu h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_v2 h5tests/codec_roundtrip h5tests/h5_corrupt" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
wait
grep -h "FAIL\|passed\|checks\|skipped\|CuPy" $W/res/python-device-test.log | tail -12 >> $S
log done
tar czf $OUT/res.tgz -C $W res
