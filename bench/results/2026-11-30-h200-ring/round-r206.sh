#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r206 (nvidia-h200-x2): where a direct read's time goes with one GPU and two. .dk/c206.tar.gz =
# `make dist` of 721fe8a with experiment-c206-read-phases.patch (GPULZ_EXP_PHASES: each
# gpulz_h5_read_direct call prints its batches, its whole time, the time HDF5 read the next
# batch's stored chunks (overlapped with the codec), the time it then waited for the codec, the
# time placing took, and the codec threads' time). h5direct_bench --size 4G, direct-host,
# --gpus 1,2, 4 and 16 MiB, pageable and pinned host buffers, two passes.
START=$(date +%s); R=$PWD; W=/tmp/w206; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/b && tar xzf $R/.dk/c206.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j30 libgpulz.la libh5gpulz.la && make -j30 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name extra-args
  [ $(( $(date +%s) - START )) -gt 330 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_PHASES=1 timeout 80 $B --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 $2 --csv $W/res/r206-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory\|^phases" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /;s/^phases/$1 phases/" >> $S
}
for p in 1 2; do run pageable-$p ""; run pinned-$p --pinned; done
log done
tar czf $OUT/res.tgz -C $W res
