#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 1 MB auto: the review's mends (new, 7bd3488) against c257f92 (prev), probe2 alternating four times
R=$PWD; W=/tmp/w44; rm -rf $W; mkdir -p $W/prev $W/new
S=$OUT/summary.txt
for v in prev new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 libgpulz.la gpulz && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/build-$v.log 2>&1 || tail -20 $W/build-$v.log >> $S &
done
wait
echo "== built $(date -u +%T)" >> $S
$W/new/gpulz-*/gpulz gen quant 64M -o $W/gq.u16
for r in 1 2 3 4; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 auto 41) >> $S 2>&1; done; done
echo "== done $(date -u +%T)" >> $S
