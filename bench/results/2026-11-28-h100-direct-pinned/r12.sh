#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
R=$PWD; W=/tmp/w12; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
nvidia-smi --query-gpu=name --format=csv,noheader >> $S
( cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log; exit 9; }
cd $W/new/gpulz-*; B=$PWD
gcc -O2 -o $W/hprobe $R/.dev/hprobe.c -I$B/kernels -I$B -I/usr/local/cuda/include $B/.libs/libgpulz_core.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm || exit 9
./gpulz gen quant 1G -o $W/q.bin
echo "== built $(date -u +%T)" >> $S
timeout 200 $W/hprobe $W/q.bin >> $S 2>&1
echo "== done $(date -u +%T)" >> $S
