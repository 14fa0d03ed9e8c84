#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r156 (2 GPUs): c156 (host batches copy pinned chunks in place): one process, direct chunk I/O
# from host buffers on 1 and 2 GPUs (h5direct_bench --gpus 1,2), 4 GiB of codes, auto, 4 and
# 16 MiB chunks, memory file, pageable buffers and --pinned (portable), each twice alternating
START=$(date +%s); R=$PWD; W=/tmp/w156; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c156.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j32 libgpulz.la libh5gpulz.la && make -j32 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
export GPULZ_BACKEND=gpu
for r in 1 2; do for v in pageable pinned; do opt=; [ $v = pinned ] && opt=--pinned
  timeout 150 ./bench/h5direct_bench $opt --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 --csv $W/res/h5d-$v-$r.csv > $W/res/h5d-$v-$r.txt 2>&1; echo "$v run $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r: /" >> $S
  log "$v $r"
done; done
tar czf $OUT/res.tgz -C $W res
