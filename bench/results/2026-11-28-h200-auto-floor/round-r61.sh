#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 5a31919 on two H200: gpu_multidev_test and gpu_batch_test; h5direct_bench auto, direct-host on 1 and 2 GPUs,
# 4 and 16 MiB chunks, 1 GiB of codes in a memory file
START=$(date +%s); R=$PWD; W=/tmp/w61; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/head2.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j32 && make -j32 bench/h5direct_bench h5tests/gpu_multidev_test h5tests/gpu_batch_test ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
timeout 90 make -j8 check TESTS="h5tests/gpu_multidev_test h5tests/gpu_batch_test" > $W/res/check.log 2>&1; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
log tested
timeout 200 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --gpus 1,2 --paths direct-host --csv $W/res/h5d-gpus-auto.csv > $W/res/h5d-gpus-auto.txt 2>&1; echo "h5direct exit $?" >> $S
grep -E "^memory|h5direct_bench: memory" $W/res/h5d-gpus-auto.txt >> $S
log done
tar czf $OUT/res.tgz -C $W res
