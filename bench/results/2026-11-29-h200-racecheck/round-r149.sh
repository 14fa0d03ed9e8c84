#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r149: gpu_codec_test's racecheck run (GPULZ_TEST_QUICK=2) trimmed: its time and result on main + the trim
START=$(date +%s); R=$PWD; W=/tmp/w149; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c149.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 h5tests/gpu_codec_test ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
N=$(echo $W/new/gpulz-*); cd $N
GPULZ_TEST_QUICK=2 timeout 60 ./h5tests/gpu_codec_test > $W/res/gct2.log 2>&1; echo "gpu_codec_test QUICK=2 (no sanitizer): exit $?" >> $S; tail -1 $W/res/gct2.log >> $S
log plain
GPULZ_TEST_QUICK=2 timeout 270 stdbuf -oL /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test 2>&1 | while IFS= read -r l; do echo "$(( $(date +%s) - START )) $l"; done > $W/res/racecheck.log
echo "racecheck progress (s since start, line):" >> $S; grep -v "^[0-9]* *$" $W/res/racecheck.log | tail -22 >> $S
log done
tar czf $OUT/res.tgz -C $W res
