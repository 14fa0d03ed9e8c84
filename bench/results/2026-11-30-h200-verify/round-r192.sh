#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r192: compute-sanitizer racecheck over gpu_codec_test (GPULZ_TEST_QUICK=2, as gpu_sanitizer.sh runs
# it), which r191's sanitizer run ran out of time for after memcheck came out clean
START=$(date +%s); R=$PWD; W=/tmp/w192; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c190.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j14 && make -j14 h5tests/gpu_codec_test ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
log built
cd $W/new/gpulz-*
GPULZ_TEST_QUICK=2 timeout 480 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 h5tests/gpu_codec_test > $W/res/racecheck.log 2>&1; echo "racecheck exit $?" >> $S
tail -n 8 $W/res/racecheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
