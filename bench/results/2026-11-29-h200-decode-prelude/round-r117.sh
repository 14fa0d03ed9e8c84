#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c119 (4ee9b64: gpu_bench --first): gpu_bench --csv --v2 on gen quant 64M whole and its first 16, 4, 1 MiB
START=$(date +%s); R=$PWD; W=/tmp/w117; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c119.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 bench/gpu_bench gpulz ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
N=$(echo $W/new/gpulz-*); cd $N
mkdir -p $W/gq && ./gpulz gen quant 64M -o $W/gq/genquant.u16 && echo "genquant uint16 33554432 67108864 -" > $W/gq/MANIFEST
for f in 0 16 4 1; do opt=; [ $f != 0 ] && opt="--first $f"
  timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 9 $opt > $W/res/v2-$f.csv 2>>$W/res/err.txt; echo "--first $f: exit $?" >> $S
  grep -h "S2" $W/res/v2-$f.csv >> $S
done
./bench/gpu_bench --csv --first 0 > /dev/null 2>&1; echo "--first 0: exit $? (2 expected)" >> $S
log done
