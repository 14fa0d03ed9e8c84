#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r176: c176 (configure's -fmacro-prefix-map) on the GPU: built in a build directory as CI does,
# the filter's error-stack check and the GPU tests that cross the plugin and the host path
START=$(date +%s); R=$PWD; W=/tmp/w176; rm -rf $W; mkdir -p $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
cd $W && tar xzf $R/.dk/c176.tar.gz && cd gpulz-* && mkdir build && cd build && ( ../configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
grep -c "fmacro-prefix-map" Makefile >> $S; grep SOURCE_NAMES config.h >> $S
log built
timeout 150 make -j8 check TESTS="h5tests/h5_corrupt h5tests/h5_gpu h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/codec_v2" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
grep -m2 "read fails" h5tests/h5_corrupt.log >> $S
log done
