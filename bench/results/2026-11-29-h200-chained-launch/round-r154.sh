#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r154: fast 256 MB, c153 (programmatic dependent launch) against c152, five times alternating:
# is c153's one slow decompression in r153a its own?  nvCOMP ANS before and after.
START=$(date +%s); R=$PWD; W=/tmp/w154; rm -rf $W; mkdir -p $W/new $W/prev $W/res $W/nvc $W/gq
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
( cd $W/new && tar xzf $R/.dk/c153.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 libgpulz.la gpulz && make -j8 bench/gpu_bench ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/prev && tar xzf $R/.dk/c152.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 --with-nvcomp=$W/nvc/nvidia/libnvcomp && make -j8 libgpulz.la gpulz && make -j8 bench/gpu_bench bench/nvcomp_bench ) > $W/res/build-prev.log 2>&1 || { echo "BUILD prev FAILED" >> $S; tail -30 $W/res/build-prev.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
$P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-1.csv 2>>$W/res/bench.err ); grep ans $W/res/nvcomp-1.csv >> $S
for r in 1 2 3 4 5; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 9 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-2.csv 2>>$W/res/bench.err ); grep ans $W/res/nvcomp-2.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
