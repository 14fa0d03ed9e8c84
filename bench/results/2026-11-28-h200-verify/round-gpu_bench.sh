#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_bench --v2 of 17e77d7 (head) and the new HEAD (new), alternating twice, beside nvcomp_bench, one run;
# probe2 A/B of the checksum's place (prev: beside the histograms; new: after them) at 256 and 4 MB; kernel times and the encoder's stall reasons
R=$PWD; W=/tmp/w30; rm -rf $W; mkdir -p $W/head $W/prev $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
for v in head prev new; do
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j6 gpulz bench/gpu_bench $([ $v = new ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
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
for r in 1 2; do for v in prev new; do echo "-- $v" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 5 && ./probe2 $W/gq/genquant.u16 4 fast,auto 5) >> $S 2>&1; done; done
cd $N
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
timeout 90 ncu --clock-control none -k regex:gpu_v2_encode_kernel -c 1 --section WarpStateStats --section ComputeWorkloadAnalysis --section SchedulerStats --section Occupancy ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-encode.txt 2>> $W/res/ncu.err
echo "ncu encode exit $?" >> $S
log done
tar czf $OUT/res.tgz -C $W res
