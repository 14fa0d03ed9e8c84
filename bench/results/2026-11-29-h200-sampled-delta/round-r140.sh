#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c140 (the final code: c139 plus comments, the same machine code): fast 256M five times alternating with c135 (883972e),
# nvcomp_bench ANS before and after; --v2 --first 128 alternating twice; gpu_codec_test quick on c140.
START=$(date +%s); R=$PWD; W=/tmp/w140; rm -rf $W; mkdir -p $W/prev $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in prev new; do T=c140; opt=; [ $v = prev ] && T=c135 && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench $([ $v = prev ] && echo bench/nvcomp_bench) && { [ $v = prev ] || make -j8 h5tests/gpu_codec_test; } ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/prev/gpulz-*); N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
( cd $N && GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick (c140): exit $?" >> $S; grep -h "sampled DELTA\|PASS\|FAIL" $W/res/gctq.log | tail -3 >> $S )
log tested
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-1.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-1.csv >> $S
for r in 1 2 3 4 5; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first 128 --manifest $W/gq/MANIFEST --repeats 9 > $W/res/v2-128-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2" $W/res/v2-128-$v-$r.csv | sed "s/^/$v $r 128M: /" >> $S
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-2.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-2.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
