#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r197 (prepared 2026-11-30, run in the next session at 590bc18). .dk/base.tar.gz = `make dist` of
# main; three builds of it: as it is, with experiment-c197-pieces.patch (a host batch's output
# downloaded and copied out a piece of an eighth, at least 2 MiB, at a time) and with
# experiment-c197p-pinned-host-chunks.patch (a host call's compressed chunks in pinned kept memory
# when its batches run on the GPU, so that they are uploaded and downloaded in place). direct-host
# 4 and 16 MiB, mode auto, 1 GiB of codes, file in memory, alternating twice, the filter path once;
# then gpu_batch_test, h5_direct and codec_batch with GPULZ_BACKEND=gpu on each variant, side by side.
START=$(date +%s); R=$PWD; W=/tmp/w197; rm -rf $W; mkdir -p $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
P=$R/bench/results/2026-11-30-h200-copies
for v in base pieces pinned; do
  mkdir -p $W/$v
  ( cd $W/$v && tar xzf $R/.dk/base.tar.gz && cd gpulz-* &&
    case $v in pieces) patch -p1 < $P/experiment-c197-pieces.patch ;; pinned) patch -p1 < $P/experiment-c197p-pinned-host-chunks.patch ;; esac &&
    ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 check TESTS= ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -20 $W/res/build-$v.log >> $S; } &
done
wait
log built
run() { timeout 60 $W/$2/gpulz-*/bench/h5direct_bench --mode auto --files memory --chunks $3 --repeats 3 --paths $4 --csv $W/res/r197-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep "GB/s" $W/res/h5d-$1.txt | grep -v "^file\|>=" | sed "s/^h5direct_bench: /$1 /" >> $S; }
for i in 1 2; do for v in base pieces pinned; do run $v$i $v 4,16 direct-host; done; done
run filter base 16 filter
log benched
for v in pieces pinned base; do
  ( cd $W/$v/gpulz-* && GPULZ_BACKEND=gpu timeout 120 make -j4 check TESTS="h5tests/gpu_batch_test h5tests/h5_direct h5tests/codec_batch" > $W/res/check-$v.log 2>&1; echo "$v tests exit $?" >> $S
    grep -h "^PASS\|^FAIL\|^ERROR\|^SKIP" $W/res/check-$v.log | sed "s/^/$v /" >> $S ) &
done
wait
log done
tar czf $OUT/res.tgz -C $W res
