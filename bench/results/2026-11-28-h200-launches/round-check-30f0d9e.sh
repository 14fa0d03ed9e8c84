#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 30f0d9e on the H200: the full make check (memcheck and racecheck included); then direct chunk I/O,
# auto and fast, 4 and 16 MiB, b382b12 (prev) and 30f0d9e (new) alternating
START=$(date +%s); R=$PWD; W=/tmp/w48; rm -rf $W; mkdir -p $W/new $W/prev $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/prev && tar xzf $R/.dev/b382.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 && make -j6 bench/h5direct_bench ) > $W/res/build-prev.log 2>&1 || tail -20 $W/res/build-prev.log >> $S &
( cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
wait
log built
cd $W/new/gpulz-*
timeout $((470 - $(date +%s) + START)) make -j16 check > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
cat h5tests/gpu_sanitizer.log >> $S 2>/dev/null
log checked
for v in prev new; do D=$(echo $W/$v/gpulz-*)
  left=$((585 - $(date +%s) + START)); [ $left -gt 20 ] || break
  ( cd $D && timeout $left ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device --csv $W/res/direct-$v.csv > $W/res/direct-$v.log 2>&1; echo "h5direct $v exit $?" >> $S )
  grep -h "direct" $W/res/direct-$v.csv | sed "s/^/$v: /" >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
