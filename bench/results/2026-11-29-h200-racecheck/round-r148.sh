#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r148: main (cfff99b) on the GPU: make check without the sanitizer test, then racecheck of
# gpu_codec_test at GPULZ_TEST_QUICK=2 (gpu_sanitizer.sh's run) with its progress timed
START=$(date +%s); R=$PWD; W=/tmp/w148; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c148.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=2 timeout 220 stdbuf -oL /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test 2>&1 | while IFS= read -r l; do echo "$(( $(date +%s) - START )) $l"; done > $W/res/racecheck.log ) &
RP=$!
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 230 make -j8 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check (no sanitizer) exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|sampled DELTA" h5tests/gpu_codec_test.log | tail -12 >> $S
log checked
wait $RP
echo "racecheck progress (s since start, line):" >> $S; cat $W/res/racecheck.log | grep -v "^[0-9]* *$" | tail -25 >> $S
log done
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
