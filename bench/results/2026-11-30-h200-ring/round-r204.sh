#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r204 (nvidia-h200-x2): after r202 (the ring of 4 x 1 MiB read 16 MiB at 23.5 and 25.0 GB/s against
# 19.1 and 20.9 off; 2 x 1 MiB and rings of 256 KiB pieces no better or worse). The same
# .dk/c202x.tar.gz. 1. one GPU, 1 GiB, direct-host, 4 and 16 MiB: off and larger rings, three passes
# interleaved, then the filter path; 2. two GPUs in one process, 4 GiB, --gpus 1,2: off, 4 x 1 MiB,
# 8 x 1 MiB, two passes.
START=$(date +%s); R=$PWD; W=/tmp/w204; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; lscpu | grep -i "model name\|socket\|numa\|L3" >> $S
( cd $W/b && tar xzf $R/.dk/c202x.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j30 libgpulz.la libh5gpulz.la && make -j30 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
one() { # name ring piece_kib
  [ $(( $(date +%s) - START )) -gt 250 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_RING=$2 GPULZ_EXP_PIECE_KIB=$3 timeout 40 $B --files memory --chunks 4,16 --mode auto --paths direct-host --repeats 3 --csv $W/res/r204-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for p in 1 2 3; do one off-$p 0 1024; one r4x1m-$p 4 1024; one r8x1m-$p 8 1024; one r4x2m-$p 4 2048; one r8x2m-$p 8 2048; one r16x1m-$p 16 1024; done
log one-gpu
timeout 40 $B --files memory --chunks 4,16 --mode auto --paths filter --repeats 3 --csv $W/res/r204-filter.csv > $W/res/h5d-filter.txt 2>&1; echo "filter exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d-filter.txt | sed "s/^h5direct_bench: /filter /" >> $S
log filter
two() { # name ring piece_kib
  [ $(( $(date +%s) - START )) -gt 520 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_RING=$2 GPULZ_EXP_PIECE_KIB=$3 timeout 60 $B --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 --csv $W/res/r204-g-$1.csv > $W/res/h5d-g-$1.txt 2>&1; echo "g-$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-g-$1.txt | sed "s/^h5direct_bench: /g-$1 /" >> $S
}
for p in 1 2; do two off-$p 0 1024; two r4x1m-$p 4 1024; two r8x1m-$p 8 1024; done
log done
tar czf $OUT/res.tgz -C $W res
