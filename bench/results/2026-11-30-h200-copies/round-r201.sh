#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r201: main (ac6cc0a) with experiment-c201-blocking-split-copies.patch, one build; h5direct_bench
# 1 GiB of codes, auto, memory file, 4 and 16 MiB, direct-host and direct-device, with
# GPULZ_EXP_BLOCKING=1 (the bench sets cudaDeviceScheduleBlockingSync first, so that threads
# waiting on the GPU sleep instead of spinning on a core) and/or GPULZ_EXP_COPY_THREADS=2 (the host
# batch's copies of 4 MiB and more split over 2 threads), neither = main; two passes while time
# lasts, then the filter path at 16 MiB
START=$(date +%s); R=$PWD; W=/tmp/w201; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; nproc >> $S
( cd $W/b && tar xzf $R/.dk/c201x.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la libh5gpulz.la && make -j16 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name blocking copy_threads
  [ $(( $(date +%s) - START )) -gt 190 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_BLOCKING=$2 GPULZ_EXP_COPY_THREADS=$3 timeout 40 $B --files memory --chunks 4,16 --mode auto --paths direct-host,direct-device --repeats 3 --csv $W/res/r201-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for p in 1 2; do run base-$p 0 1; run block-$p 1 1; run split-$p 0 2; run both-$p 1 2; done
log benched
timeout 25 $B --files memory --chunks 16 --mode auto --paths filter --repeats 3 --csv $W/res/r201-filter.csv > $W/res/h5d-filter.txt 2>&1; echo "filter exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d-filter.txt | sed "s/^h5direct_bench: /filter /" >> $S
log done
tar czf $OUT/res.tgz -C $W res
