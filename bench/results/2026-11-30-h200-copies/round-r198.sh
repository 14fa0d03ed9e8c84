#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r198: main (590bc18) on the GPU, all in one call: one build, copied twice; racecheck and memcheck
# of gpu_codec_test (GPULZ_TEST_QUICK=2 / 1, 18fa3a4's smaller inputs), the whole make check but
# the sanitizer, and the GPULZ_BACKEND=gpu set, side by side
START=$(date +%s); R=$PWD; W=/tmp/w198; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c198.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
cp -a $W/new $W/chk; cp -a $W/new $W/gset
log built
END=$(( START + 580 ))
N=$(echo $W/new/gpulz-*); cd $N
SAN=/usr/local/cuda/bin/compute-sanitizer
( T0=$(date +%s); GPULZ_TEST_QUICK=2 timeout $(( END - T0 )) $SAN --tool racecheck --error-exitcode 99 --print-limit 20 h5tests/gpu_codec_test > $W/res/racecheck.log 2>&1; echo "racecheck exit $? in $(( $(date +%s) - T0 )) s" >> $S ) &
( T0=$(date +%s); GPULZ_TEST_QUICK=1 timeout 200 $SAN --tool memcheck --error-exitcode 99 --print-limit 20 h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $? in $(( $(date +%s) - T0 )) s" >> $S ) &
cd $W/chk/gpulz-*
ALL=$(printf 'p:\n\t@echo $(TESTS)\n' | make -s -f Makefile -f - p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
( timeout $(( END - $(date +%s) )) make -j8 check TESTS="$ALL" > $W/res/check.log 2>&1; echo "make check (all but gpu_sanitizer.sh) exit $?" >> $S
  grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S; grep -h "^SKIP" $W/res/check.log >> $S
  grep -h "failures\|smaller\|unranged\|picked" h5tests/gpu_codec_test.log | tail -14 >> $S ) &
cd $W/gset/gpulz-*
GS="h5tests/gpu_batch_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/h5_gpu h5tests/h5_types h5tests/h5_shapes h5tests/codec_corrupt h5tests/bench_direct_smoke.sh h5tests/codec_concurrent h5tests/codec_copy_bulk"
GPULZ_BACKEND=gpu timeout $(( END - $(date +%s) )) make -j4 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait
grep -h " s)$\|hazard\|ERROR SUMMARY\|RACECHECK SUMMARY" $W/res/racecheck.log | tail -30 >> $S
tail -n 4 $W/res/memcheck.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp $W/chk/gpulz-*/h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
