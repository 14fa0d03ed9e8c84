#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c140 (0b0fc67's code) against c135 (883972e's) at HDF5's chunk sizes, where the sampled DELTA does not apply but
# count2 and hist2 changed (the windows' struct, the pick argument): probe2 (device API, median of 60 calls) of fast
# and auto at 1, 4 and 16 MB of genquant, three times alternating.
START=$(date +%s); R=$PWD; W=/tmp/w141; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c140; [ $v = prev ] && T=c135
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/prev/gpulz-*); N=$(echo $W/new/gpulz-*)
$P/gpulz gen quant 16M -o $W/q16.u16
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for mb in 1 4 16; do ( cd $D && timeout 60 ./probe2 $W/q16.u16 $mb fast,auto 60 ) 2>&1 | sed "s/^/$v $r: /" >> $S; done
done; done
log done
