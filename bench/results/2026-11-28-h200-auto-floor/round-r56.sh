#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# f898ba9 on the H200: make check without the sanitizer test, beside gpu_sanitizer.sh (memcheck quick 1, racecheck quick 2)
START=$(date +%s); R=$PWD; W=/tmp/w56; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/head.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 h5tests/gpu_codec_test ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
( timeout $((580 - $(date +%s) + START)) make check TESTS=h5tests/gpu_sanitizer.sh > $W/res/sanitizer.log 2>&1; echo "sanitizer make check exit $? at $(date -u +%T)" >> $S; cp h5tests/gpu_sanitizer.sh.log $W/res/ 2>/dev/null ) &
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout $((500 - $(date +%s) + START)) make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures" h5tests/gpu_codec_test.log | tail -3 >> $S
log checked
wait
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR\|^# " $W/res/sanitizer.log >> $S
tail -8 $W/res/gpu_sanitizer.sh.log >> $S 2>/dev/null; cp gpu_sanitizer_*.log h5tests/gpu_sanitizer_*.log $W/res/ 2>/dev/null; tail -3 $W/res/gpu_sanitizer_*.log >> $S 2>/dev/null
log done
tar czf $OUT/res.tgz -C $W res
