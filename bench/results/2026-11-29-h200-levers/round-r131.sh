#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Why c130 (the checksum's first launch stopped before the coder) compressed slower than c129: c131 claims a piece
# per warp with one atomic per block instead of one per warp.  gct quick on c131; gpu_bench fast 256M and --v2
# --first 64 alternating c129, c130, c131; ncu of the checksum kernels (alone under ncu: the first launch sums all).
START=$(date +%s); R=$PWD; W=/tmp/w131; rm -rf $W; mkdir -p $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in c129 c130 c131; do mkdir -p $W/$v
  ( cd $W/$v && tar xzf $R/.dk/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 bench/gpu_bench && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && { [ $v != c131 ] || make -j5 h5tests/gpu_codec_test; } ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/c129/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
( cd $W/c131/gpulz-* && GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "c131 gpu_codec_test quick: exit $?" >> $S )
grep -h "failures\|FAIL" $W/res/gctq.log | tail -10 >> $S
for r in 1 2 3; do for v in c129 c130 c131; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first 64 --manifest $W/gq/MANIFEST --repeats 9 > $W/res/v2-64-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2" $W/res/v2-64-$v-$r.csv | sed "s/^/$v $r 64M: /" >> $S
done; done
log benched
for v in c129 c130 c131; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"checksum_kernel|encode_kernel|count2" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu $v 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-$v.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
