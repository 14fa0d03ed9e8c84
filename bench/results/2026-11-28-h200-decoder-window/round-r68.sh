#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 8848bbd on the H200: gpu_sanitizer.sh (memcheck quick 1, racecheck quick 2), beside cli_threads.sh three times
# (the check programs built first: two make check calls building them at once collide)
START=$(date +%s); R=$PWD; W=/tmp/w68; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S; nproc >> $S
( cd $W/new && tar xzf $R/.dev/c67.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
( timeout $((560 - $(date +%s) + START)) sh h5tests/gpu_sanitizer.sh > $W/res/sanitizer.log 2>&1; echo "gpu_sanitizer.sh exit $? at $(date -u +%T)" >> $S ) &
for i in 1 2 3; do make check TESTS=h5tests/cli_threads.sh > $W/res/threads-$i.log 2>&1; echo "cli_threads run $i: exit $?" >> $S; cp h5tests/cli_threads.log $W/res/cli_threads-$i.log; done
wait
cat $W/res/sanitizer.log >> $S
cp gpu_sanitizer_*.log h5tests/gpu_sanitizer_*.log h5tests/gpu_sanitizer.sh.log $W/res/ 2>/dev/null; tail -3 $W/res/gpu_sanitizer_*.log >> $S 2>/dev/null; tail -4 $W/res/gpu_sanitizer.sh.log >> $S 2>/dev/null
log done
tar czf $OUT/res.tgz -C $W res
