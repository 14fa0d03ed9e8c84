#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c120 + trace122.patch (c121's early put with host trace points and CUDA events on the stream): where the device's
# time goes in one fast call at 256 MB and 4 MB (GPULZ_TRACE=1; the second line of each call is the events, us from
# the call's first event)
START=$(date +%s); R=$PWD; W=/tmp/w120; rm -rf $W; mkdir -p $W/tr $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/tr && tar xzf $R/.dk/c120.tar.gz && cd gpulz-* && N=$PWD && patch -s -p1 < $R/.dk/trace122.patch && ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-tr.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build-tr.log >> $S; }
log built
TR=$(echo $W/tr/gpulz-*)
mkdir -p $W/gq && $TR/gpulz gen quant 256M -o $W/gq/genquant.u16
for mb in 256 16 4 1; do echo "-- trace fast $mb (last compress, last decompress)" >> $S
( cd $TR && GPULZ_TRACE=1 ./probe2 $W/gq/genquant.u16 $mb fast 9 > $W/res/tr$mb.out 2> $W/res/tr$mb.err; tail -4 $W/res/tr$mb.err >> $S; tail -1 $W/res/tr$mb.out >> $S ); done
log done
tar czf $OUT/res.tgz -C $W res
