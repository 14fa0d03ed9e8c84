#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# experiment on the H200: direct chunk I/O of auto with more lanes (8848bbd with GPULZ_GPU_LANES_MAX 16):
# h5direct_bench at 1 and 4 MiB, host and device buffers, GPULZ_GPU_LANES 8, 12, 16, alternating twice
START=$(date +%s); R=$PWD; W=/tmp/w70; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/c70.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
for r in 1 2; do for L in 8 12 16; do
  GPULZ_GPU_LANES=$L timeout 60 ./bench/h5direct_bench --files memory --chunks 1,4 --repeats 3 --mode auto --paths direct-host,direct-device --csv $W/res/h5d-L$L-$r.csv > $W/res/h5d-L$L-$r.txt 2>&1; grep -h "h5direct_bench: memory" $W/res/h5d-L$L-$r.txt | sed "s/^/lanes $L run $r: /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
