#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 9cdb6b9 on the H200: the whole make check but the sanitizer test, beside racecheck over gpu_codec_test (quick)
START=$(date +%s); R=$PWD; W=/tmp/w54; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/cand3.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 h5tests/gpu_codec_test ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
( GPULZ_TEST_QUICK=1 timeout $((575 - $(date +%s) + START)) stdbuf -oL /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test 2>&1 | while IFS= read -r l; do echo "$(date -u +%T) $l"; done > $W/res/racecheck.log; echo "racecheck exit ${PIPESTATUS[0]} at $(date -u +%T)" >> $S ) &
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout $((500 - $(date +%s) + START)) make -j14 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures" h5tests/gpu_codec_test.log | tail -3 >> $S
log checked
wait
cat $W/res/racecheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
