#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# b5e2663 on 2 x H200: gpu_multidev_test and gpu_batch_test, then direct-host on 1 and 2 GPUs, modes auto and fast
R=$PWD; W=/tmp/w39; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-*
( ./configure -q --with-cuda-arch=90 && make -j32 && make -j32 bench/h5direct_bench h5tests/gpu_multidev_test h5tests/gpu_batch_test ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
timeout 60 ./h5tests/gpu_multidev_test > $W/res/multidev.log 2>&1; echo "gpu_multidev_test exit $?" >> $S; tail -2 $W/res/multidev.log >> $S
timeout 60 ./h5tests/gpu_batch_test > $W/res/batch.log 2>&1; echo "gpu_batch_test exit $?" >> $S; tail -1 $W/res/batch.log >> $S
log tested
for m in auto fast; do
  timeout 70 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --gpus 1,2 --paths filter,direct-host --csv $W/res/h5d-$m.csv > $W/res/h5d-$m.txt 2>&1
  grep -E "^memory" $W/res/h5d-$m.txt | sed "s/^/$m: /" >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
