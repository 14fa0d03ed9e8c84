#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r195: c195 (7f0c9ce) on the GPU: gpu_sanitizer.sh alone and timed (777e350's smaller sanitizer
# inputs had not run on a GPU), then the whole make check but the sanitizer beside the
# GPULZ_BACKEND=gpu set in a second tree (19f1c66/391e207's batch rooms and size queries, 7f0c9ce's
# host batch copies)
START=$(date +%s); R=$PWD; W=/tmp/w195; rm -rf $W; mkdir -p $W/new $W/gset $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for b in new gset; do
( cd $W/$b && tar xzf $R/.dk/c195.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-$b.log 2>&1 || { echo "BUILD $b FAILED" >> $S; tail -30 $W/res/build-$b.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
T0=$(date +%s)
top_builddir=. timeout 330 sh h5tests/gpu_sanitizer.sh > $W/res/gpu_sanitizer.log 2>&1; echo "gpu_sanitizer.sh exit $? in $(( $(date +%s) - T0 )) s" >> $S
tail -n 6 $W/res/gpu_sanitizer.log >> $S; ls -la --time-style=+%T gpu_sanitizer_*.log >> $S 2>&1
cp gpu_sanitizer_*.log $W/res/ 2>/dev/null
log sanitizer
ALL=$(printf 'p:\n\t@echo $(TESTS)\n' | make -s -f Makefile -f - p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
END=$(( START + 585 )); LEFT=$(( END - $(date +%s) ))
echo "make check gets $LEFT s" >> $S
( timeout $LEFT make -j10 check TESTS="$ALL" > $W/res/check.log 2>&1; echo "make check (all but gpu_sanitizer.sh) exit $?" >> $S ) &
cd $W/gset/gpulz-*
GS="h5tests/gpu_batch_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/h5_gpu h5tests/h5_types h5tests/h5_shapes h5tests/codec_corrupt h5tests/bench_direct_smoke.sh h5tests/codec_concurrent h5tests/codec_copy_bulk"
GPULZ_BACKEND=gpu timeout $LEFT make -j4 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
grep -h "null\|FAIL\|check failed\|pinned" h5tests/gpu_batch_test.log | tail -6 >> $S
log gset
wait
cd $N
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
grep -h "failures\|smaller\|unranged\|picked" h5tests/gpu_codec_test.log | tail -14 >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
