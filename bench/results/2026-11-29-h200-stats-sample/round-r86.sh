#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# host timestamps through one call (c85t = c84 + temporary trace points)
START=$(date +%s); R=$PWD; W=/tmp/w86; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
( cd $W/new && tar xzf $R/.dev/c85t.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || tail -30 $W/res/build.log >> $S
cd $W/new/gpulz-*; ./gpulz gen quant 256M -o $W/gq.u16
for mb in 256 1; do for md in fast auto; do
  echo "== $mb $md" >> $S
  GPULZ_TRACE=1 ./probe2 $W/gq.u16 $mb $md 7 > $W/res/p.txt 2> $W/res/t.txt; cat $W/res/p.txt >> $S; tail -4 $W/res/t.txt >> $S
done; done
