#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 7fb88c3 on two GPUs: direct chunk I/O from host buffers on 1 and 2 GPUs (one process)
R=$PWD; W=/tmp/w11; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name --format=csv,noheader >> $S
( cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log; exit 9; }
cd $W/new/gpulz-*
log built
timeout 60 make check TESTS="h5tests/gpu_multidev_test h5tests/gpu_batch_test" > $W/res/check.log 2>&1; grep -h "^PASS\|^FAIL\|^SKIP" $W/res/check.log >> $S
for m in auto fast lz; do
  P="--paths direct-host"; [ $m = auto ] && P="--paths none,filter,direct-host,direct-device"
  timeout 120 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --gpus 1,2 $P --csv $W/res/h5d-gpus-$m.csv > $W/res/h5d-gpus-$m.txt 2>&1
  echo "-- $m" >> $S; grep -E "^memory" $W/res/h5d-gpus-$m.txt >> $S
done
log bench
tar czf $OUT/res.tgz -C $W res
