#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Not run: r204 (round-r204.sh) took its place, with more rings on one GPU and two.
# r203 (prepared, not run; device kind nvidia-h200-x2; after r202, only if a ring helped there):
# the same .dk/c202x.tar.gz, two GPUs in one process from pageable host buffers, h5direct_bench
# --size 4G --gpus 1,2, auto, memory file, 4 and 16 MiB, direct-host, ring off against the
# ring r202 found best (RING/PIECE below), two passes
RING=${RING:-4}; PIECE=${PIECE:-1024}
START=$(date +%s); R=$PWD; W=/tmp/w203; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/b && tar xzf $R/.dk/c202x.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j30 libgpulz.la libh5gpulz.la && make -j30 bench/h5direct_bench ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name ring piece_kib
  [ $(( $(date +%s) - START )) -gt 500 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_RING=$2 GPULZ_EXP_PIECE_KIB=$3 timeout 80 $B --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 --csv $W/res/r203-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for p in 1 2; do run off-$p 0 1024; run ring-$p $RING $PIECE; done
log done
tar czf $OUT/res.tgz -C $W res
