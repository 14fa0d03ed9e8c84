#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# b5e2663 (new) against d51b1ac (head; 2dbbada's SASS) on the H200, one run: gpu_bench --v2 alternating twice beside
# nvcomp_bench; probe2 at 256, 16, 4 and 1 MB; h5direct_bench auto and fast (memory file, 4 and 16 MiB); kernel times
R=$PWD; W=/tmp/w37; rm -rf $W; mkdir -p $W/head $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
for v in head new; do
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench bench/h5direct_bench $([ $v = new ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
done
wait
log built
N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
( cd $N && timeout 60 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
log benched
for v in head new; do echo "-- $v" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 7 && ./probe2 $W/gq/genquant.u16 16 fast,auto 21 && ./probe2 $W/gq/genquant.u16 4 fast,auto 31 && ./probe2 $W/gq/genquant.u16 1 fast,auto 31) >> $S 2>&1; done
log probed
for m in auto fast; do for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 50 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --paths filter,direct-host,direct-device --csv $W/res/h5d-$m-$v.csv > $W/res/h5d-$m-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$m-$v.txt | sed "s/^/$m $v: /" >> $S
done; done
log direct
cd $N
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 4 fast 1 > $W/res/ncu-4.csv 2>> $W/res/ncu.err
log done
tar czf $OUT/res.tgz -C $W res
