#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HEAD on the GPU: the whole make check (the sanitizer ran on 7fb88c3's kernels), and the direct path once
R=$PWD; W=/tmp/w13; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
nvidia-smi --query-gpu=name --format=csv,noheader >> $S
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* || exit 9
( ./configure -q --with-cuda-arch=90 && make -j16 ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log; exit 9; }
echo "== built $(date -u +%T)" >> $S
COMPUTE_SANITIZER=/nonexistent timeout 300 make -j16 check > $W/res/check-full.log 2>&1; echo "make check rc $?" >> $S
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)" $W/res/check-full.log >> $S; grep -E "^(FAIL|ERROR)" $W/res/check-full.log >> $S
grep -E "^SKIP" $W/res/check-full.log | tr '\n' ' ' >> $S; echo >> $S
echo "== checked $(date -u +%T)" >> $S
timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device > $W/res/h5d-auto.txt 2>&1
grep -E "^memory" $W/res/h5d-auto.txt >> $S
cp $W/res/check-full.log $OUT/ 2>/dev/null
echo "== done $(date -u +%T)" >> $S
