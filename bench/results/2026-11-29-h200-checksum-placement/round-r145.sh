#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r145: the compression checksum forked to the side stream before the statistics (GPULZ_CK_EARLY=1,
# an experiment's switch) against after them (unset), one build (c145 = 7421a19+docs + the switch)
START=$(date +%s); R=$PWD; W=/tmp/w145; rm -rf $W; mkdir -p $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
( cd $W/new && tar xzf $R/.dk/c145.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 --with-nvcomp=$W/nvc/nvidia/libnvcomp && make -j16 && make -j16 bench/gpu_bench bench/nvcomp_bench h5tests/gpu_codec_test ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
( cd $N && GPULZ_CK_EARLY=1 GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick, early: exit $?" >> $S; tail -2 $W/res/gctq.log >> $S )
( cd $N && ./gpulz compress -q -f -s 2 -b 4096 --mode fast --backend gpu $W/gq/genquant.u16 -o $W/a1.gplz && GPULZ_CK_EARLY=1 ./gpulz compress -q -f -s 2 -b 4096 --mode fast --backend gpu $W/gq/genquant.u16 -o $W/a2.gplz && cmp $W/a1.gplz $W/a2.gplz && ./gpulz compress -q -f -s 2 -b 4096 --mode fast --backend cpu $W/gq/genquant.u16 -o $W/a3.gplz && cmp $W/a1.gplz $W/a3.gplz && cmp <(./gpulz decompress -q --backend cpu $W/a2.gplz -o - 2>/dev/null) $W/gq/genquant.u16 && echo "CLI fast 256M: early == late == CPU bytes, CPU decodes: ok" >> $S ) 2>>$S
log tested
( cd $N && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-1.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-1.csv >> $S
for r in 1 2 3 4 5 6; do for v in late early; do
  if [ $v = early ]; then export GPULZ_CK_EARLY=1; else unset GPULZ_CK_EARLY; fi
  ( cd $N && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
unset GPULZ_CK_EARLY
for r in 1 2; do for v in late early; do
  if [ $v = early ]; then export GPULZ_CK_EARLY=1; else unset GPULZ_CK_EARLY; fi
  ( cd $N && timeout 60 ./bench/gpu_bench --csv --v2 --first 64 --manifest $W/gq/MANIFEST --repeats 9 > $W/res/v2-64-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-64-$v-$r.csv | sed "s/^/$v $r 64M: /" >> $S
done; done
unset GPULZ_CK_EARLY
( cd $N && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-2.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-2.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
