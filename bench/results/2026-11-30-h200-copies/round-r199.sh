#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r199 (2 x H200): main (590bc18) with experiment-c199-batch-bytes.patch (GPULZ_EXP_BATCH_MIB sets
# the batch gpulz_batch_chunks advises; unset, main's 256 MiB). Direct chunk I/O from pageable
# host buffers, auto, 4 GiB of codes, 4 and 16 MiB chunks, memory file, 1 and 2 GPUs, for batches
# of 256 (main), 512 and 1024 MiB and GPULZ_GPU_LANES 8 (main), 4 and 2; two passes while time
# lasts; then the filter path at 16 MiB (1 GiB) for the 5x ratio
START=$(date +%s); R=$PWD; W=/tmp/w199; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/b && tar xzf $R/.dk/base.tar.gz && cd gpulz-* && patch -p1 < $R/bench/results/2026-11-30-h200-copies/experiment-c199-batch-bytes.patch &&
  ./configure -q --with-cuda-arch=90 && make -j30 libgpulz.la libh5gpulz.la && make -j30 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name batch_mib lanes
  [ $(( $(date +%s) - START )) -gt 520 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_BATCH_MIB=$2 GPULZ_GPU_LANES=$3 timeout 60 $B --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 --csv $W/res/h5d-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for p in 1 2; do
  run b256l8-$p 256 8; run b512l8-$p 512 8; run b1024l8-$p 1024 8; run b256l4-$p 256 4; run b256l2-$p 256 2; run b1024l4-$p 1024 4
done
log benched
timeout 40 $B --files memory --chunks 16 --mode auto --paths filter,direct-host --repeats 3 --csv $W/res/h5d-filter.csv > $W/res/h5d-filter.txt 2>&1; echo "filter exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d-filter.txt | sed "s/^h5direct_bench: /filter /" >> $S
log done
tar czf $OUT/res.tgz -C $W res
