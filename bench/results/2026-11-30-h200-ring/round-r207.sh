#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r207 (nvidia-h200-x2): main at 076f432 (the batch calls' overlap refusal, the ring's device
# staging apart, the ring test's mid-stream damage, device dsts overlapping). 1. h5direct_bench,
# 1 GiB, auto, memory file, 4 and 16 MiB, filter and direct-host, one GPU, two passes; 2. the
# whole make check but gpu_sanitizer.sh on two GPUs, beside memcheck of gpu_batch_test and the
# GPULZ_BACKEND=gpu set.
START=$(date +%s); R=$PWD; W=/tmp/w207; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/b && tar xzf $R/.dk/c207.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j30 && make -j30 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
cp -a $W/b $W/chk; cp -a $W/b $W/gset
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
for p in 1 2; do
  timeout 60 $B --files memory --chunks 4,16 --mode auto --paths filter,direct-host --repeats 3 --csv $W/res/r207-one-$p.csv > $W/res/h5d-one-$p.txt 2>&1; echo "one-$p exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-one-$p.txt | sed "s/^h5direct_bench: /one-$p /" >> $S
done
log benched
END=$(( START + 420 ))
( cd $W/b/gpulz-* && T0=$(date +%s); HDF5_PLUGIN_PATH=$PWD/test-plugins timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 h5tests/gpu_batch_test > $W/res/memcheck-batch.log 2>&1; echo "memcheck gpu_batch_test exit $? in $(( $(date +%s) - T0 )) s" >> $S; tail -n 3 $W/res/memcheck-batch.log >> $S ) &
( cd $W/chk/gpulz-*
  ALL=$(printf 'p:\n\t@echo $(TESTS)\n' | make -s -f Makefile -f - p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
  timeout $(( END - $(date +%s) )) make -j8 check TESTS="$ALL" > $W/res/check.log 2>&1; echo "make check (all but gpu_sanitizer.sh) exit $?" >> $S
  grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
  grep -h "ring\|overlap\|no buffer refused\|all checks" h5tests/gpu_batch_test.log h5tests/gpu_multidev_test.log 2>/dev/null | tail -8 >> $S ) &
( cd $W/gset/gpulz-*
  GS="h5tests/gpu_batch_test h5tests/h5_direct h5tests/codec_batch h5tests/h5_gpu h5tests/bench_direct_smoke.sh h5tests/codec_concurrent h5tests/gpu_multidev_test"
  GPULZ_BACKEND=gpu timeout $(( END - $(date +%s) )) make -j4 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
  grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S ) &
wait
log done
mkdir -p $W/res/tests $W/res/gtests && cp $W/chk/gpulz-*/h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
