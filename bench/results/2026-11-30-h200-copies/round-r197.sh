#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r197 (not run: no device time was left; for the next session): c197 (84d8cd2 with
# experiment-c197-pieces.patch applied: the host batch's output downloaded and copied out a piece of up to an
# eighth at a time, at least 2 MiB) beside c196b (84d8cd2): direct-host 4 and 16 MiB, mode auto,
# 1 GiB of codes, file in memory, alternating twice, the filter path once; then gpu_batch_test
# and h5_direct with GPULZ_BACKEND=gpu on c197
START=$(date +%s); R=$PWD; W=/tmp/w197; rm -rf $W; mkdir -p $W/old $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/old && tar xzf $R/.dk/c196b.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 libgpulz.la libh5gpulz.la && make -j6 bench/h5direct_bench ) > $W/res/build-old.log 2>&1 || { echo "BUILD old FAILED" >> $S; tail -20 $W/res/build-old.log >> $S; } &
( cd $W/new && tar xzf $R/.dk/c197.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -20 $W/res/build-new.log >> $S; } &
wait
log built
run() { timeout 40 $W/$2/gpulz-*/bench/h5direct_bench --mode auto --files memory --chunks $3 --repeats 3 --paths $4 --csv $W/res/r197-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep "GB/s" $W/res/h5d-$1.txt | grep -v "^file\|>=" | sed "s/^h5direct_bench: /$1 /" >> $S; }
for i in 1 2; do run old$i old 4,16 direct-host; run new$i new 4,16 direct-host; done
run filter new 16 filter
log benched
cd $W/new/gpulz-*
GPULZ_BACKEND=gpu timeout 100 make -j4 check TESTS="h5tests/gpu_batch_test h5tests/h5_direct h5tests/codec_batch" > $W/res/check.log 2>&1; echo "tests exit $?" >> $S
grep -h "^PASS\|^FAIL\|^ERROR\|^SKIP" $W/res/check.log >> $S
grep -h "FAIL\|check failed" h5tests/gpu_batch_test.log | head -5 >> $S
log done
cp h5tests/*.log $W/res/ 2>/dev/null; tar czf $OUT/res.tgz -C $W res
