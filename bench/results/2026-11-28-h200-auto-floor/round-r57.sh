#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# f898ba9 on the H200, measurements: h5bench auto beside 0.1 (21 arrays, 1/4/16 MiB); h5direct_bench auto 4/16 MiB;
# gpu_bench --v2 and nvcomp_bench on 256 MB; probe2 at 1 MB; ncu kernel list of one 1 MB call of fast, ratio, auto; decoder SASS
START=$(date +%s); R=$PWD; W=/tmp/w57; rm -rf $W; mkdir -p $W/new $W/v01 $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
( cd $W/new && tar xzf $R/.dev/head.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 --with-nvcomp=$W/nvc/nvidia/libnvcomp && make -j12 && make -j12 bench/gpu_bench bench/nvcomp_bench bench/h5bench bench/h5direct_bench && make -j12 check TESTS= && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-new.log 2>&1 || tail -30 $W/res/build-new.log >> $S
wait
log built
N=$(echo $W/new/gpulz-*)
cd $N
cuobjdump -sass -fun '_Z20gpu_v2_decode_kernelILj8EEv10gpu_v2_jobPKh' kernels/.libs/gpu_v2_launch.o > $W/res/decode8.sass 2>&1 || cuobjdump -sass kernels/.libs/gpu_v2_launch.o > $W/res/all.sass 2>&1
ls -la $W/res/*.sass >> $S
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do
  ( timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$r.csv 2>>$W/res/bench.err ); grep -h "S2" $W/res/v2-$r.csv | sed "s/^/v2 $r: /" >> $S
done
( timeout 60 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err ); cat $W/res/nvcomp.csv >> $S
log benched
for r in 1 2; do ./probe2 $W/gq/genquant.u16 1 fast,ratio,auto 21 >> $S 2>&1; ./probe2 $W/gq/genquant.u16 4 fast,ratio,auto 21 >> $S 2>&1; done
for m in fast ratio auto; do timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 1 $m 1 > $W/res/ncu-1mb-$m.csv 2>> $W/res/ncu.err; done
log probed
HDF5_PLUGIN_PATH=$N/test-plugins timeout 90 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench.csv 2>>$W/res/bench.err; echo "h5bench exit $?" >> $S
log h5bench
timeout 150 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths filter,direct-host,direct-device --csv $W/res/h5d-auto.csv > $W/res/h5d-auto.txt 2>&1; echo "h5direct exit $?" >> $S; cat $W/res/h5d-auto.txt >> $S
log done
tar czf $OUT/res.tgz -C $W res
