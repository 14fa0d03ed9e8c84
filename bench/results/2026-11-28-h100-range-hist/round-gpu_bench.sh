#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_bench --v2 of final (new) and b997af0 (base), alternating twice, beside nvcomp_bench, one run
R=$PWD; W=/tmp/w24; rm -rf $W; mkdir -p $W/base $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
for v in base new; do
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 $opt && make -j8 gpulz bench/gpu_bench $([ $v = new ] && echo bench/nvcomp_bench) ) > $W/res/build-$v.log 2>&1 &
done
wait
log built
N=$(echo $W/new/gpulz-*); B=$(echo $W/base/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in base new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
( cd $N && timeout 60 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
