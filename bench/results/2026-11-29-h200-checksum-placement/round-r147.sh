#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r147: count2 summing the checksum: c146 (as r146), c147a (the next step's words loaded a step ahead),
# c147b (c147a and an L2 prefetch 4 steps ahead), against c140 (main's kernels)
START=$(date +%s); R=$PWD; W=/tmp/w147; rm -rf $W; mkdir -p $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in c140 c146 c147a c147b; do opt=; [ $v = c140 ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  mkdir -p $W/$v; ( cd $W/$v && tar xzf $R/.dk/$v.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j4 && make -j4 bench/gpu_bench $([ $v = c140 ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && { [ $v = c147b ] || [ $v = c147a ] && make -j4 h5tests/gpu_codec_test || true; } ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/c140/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for v in c147a c147b; do ( cd $W/$v/gpulz-* && GPULZ_TEST_QUICK=1 timeout 100 ./h5tests/gpu_codec_test > $W/res/gctq-$v.log 2>&1; echo "gpu_codec_test quick $v: exit $?" >> $S; grep -h "counted sums\|PASS\|FAIL" $W/res/gctq-$v.log | tail -2 >> $S ); done
for v in c140 c147a c147b; do D=$(echo $W/$v/gpulz-*); $D/gpulz compress -q -f -s 2 -b 4096 --mode fast --backend gpu $W/gq/genquant.u16 -o $W/fast-$v.gplz 2>>$W/res/cli.err; done
cmp $W/fast-c140.gplz $W/fast-c147a.gplz && cmp $W/fast-c140.gplz $W/fast-c147b.gplz && echo "256M fast: c140 c147a c147b bytes equal" >> $S || echo "256M fast: BYTES DIFFER" >> $S
log tested
for v in c140 c146 c147a c147b; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"count2|checksum" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu $v 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-$v.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"count2|checksum" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 64 fast 1 > $W/res/ncu64-$v.txt 2>&1 )
  echo "ncu $v 64 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu64-$v.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
done
log ncu
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-1.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-1.csv >> $S
for r in 1 2 3 4; do for v in c140 c147a c147b; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-2.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-2.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
