#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r208 (nvidia-h200-x2): what reading the stored chunks in parallel would give two GPUs in one
# process. .dk/c208.tar.gz = `make dist` of be2e61c with experiment-c208-parallel-stored.patch
# (GPULZ_EXP_PREAD=T: a core file's stored chunks copied out of its image by T threads, instead
# of H5Dread_chunk one after another). h5direct_bench --size 4G, memory file, auto, 4 and 16 MiB,
# direct-host, --gpus 1,2, pageable and pinned, off and 8 threads.
START=$(date +%s); R=$PWD; W=/tmp/w208; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/b && tar xzf $R/.dk/c208.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j30 libgpulz.la libh5gpulz.la && make -j30 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name threads extra-args
  [ $(( $(date +%s) - START )) -gt 230 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_PREAD=$2 timeout 60 $B --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 $3 --csv $W/res/r208-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
run pageable-off 0 ""; run pageable-p8 8 ""; run pinned-off 0 --pinned; run pinned-p8 8 --pinned
log done
tar czf $OUT/res.tgz -C $W res
