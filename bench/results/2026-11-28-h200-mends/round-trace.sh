#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# timeline of the CUDA runtime calls of auto at 1 and 4 MB and fast at 1 MB (the probe takes every mode but fast as auto), built with ../2026-11-28-h200-hostpath/trace.h and probe3.c
R=$PWD; W=/tmp/w43; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && N=$PWD
( ./configure -q --with-cuda-arch=90 && make -j16 CFLAGS="-O2 -I/usr/local/cuda/include -include $R/.dev/trace/trace.h" && gcc -O2 -Ikernels $R/.dev/trace/probe3.c -o probe3 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; exit 1; }
./gpulz gen quant 256M -o $W/gq.u16
for c in "1 auto" "4 auto" "1 fast"; do set -- $c
  TRACE_OUT=$W/res/trace-$1-$2.txt ./probe3 $W/gq.u16 $1 $2 12 > $W/res/mark-$1-$2.txt 2>&1; echo "$c: $? $(cat $W/res/mark-$1-$2.txt)" >> $S
done
tar czf $OUT/res.tgz -C $W res
