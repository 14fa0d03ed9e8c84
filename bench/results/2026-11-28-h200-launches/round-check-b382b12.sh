#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# b382b12 on the H200: the full make check (memcheck and racecheck included)
START=$(date +%s); R=$PWD; W=/tmp/w46; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-*
( ./configure -q --with-cuda-arch=90 && make -j16 ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
timeout $((585 - $(date +%s) + START)) make -j16 check > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
tar czf $OUT/res.tgz -C $W res
