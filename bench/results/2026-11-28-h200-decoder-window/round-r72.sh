#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 2cd960c (c9f8b29's code) on the H200: the whole make check without the sanitizer test, gpu_codec_test seed 2
START=$(date +%s); R=$PWD; W=/tmp/w72; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/h72.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 150 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures" h5tests/gpu_codec_test.log | tail -3 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
GPULZ_TEST_SEED=2 timeout 60 ./h5tests/gpu_codec_test > $W/res/gct2.log 2>&1; echo "gpu_codec_test seed 2: exit $?" >> $S
log done
tar czf $OUT/res.tgz -C $W res
