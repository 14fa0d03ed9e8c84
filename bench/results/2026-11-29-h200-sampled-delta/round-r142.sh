#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c142 (c140 with range2's windows from the pick's own sample of 2^16 groups where fast picks DELTA from it): make
# check without the sanitizer test, memcheck quick; fast 256M three times and 128M twice alternating with c140
# (0b0fc67), nvcomp_bench ANS; ncu of the statistics' kernels.
START=$(date +%s); R=$PWD; W=/tmp/w142; rm -rf $W; mkdir -p $W/prev $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in prev new; do T=c142; opt=; [ $v = prev ] && T=c140 && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench $([ $v = prev ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && { [ $v = prev ] || make -j8 check TESTS=; } ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/prev/gpulz-*); N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 200 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|sampled DELTA" h5tests/gpu_codec_test.log | tail -4 >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S; tail -n 1 $W/res/memcheck.log >> $S
log tested
for md in fast auto; do $P/gpulz compress -q -f -s 2 -b 4096 --mode $md --backend gpu $W/gq/genquant.u16 -o $W/p.gplz; $N/gpulz compress -q -f -s 2 -b 4096 --mode $md --backend gpu $W/gq/genquant.u16 -o $W/n.gplz; cmp $W/p.gplz $W/n.gplz && echo "256M $md: bytes equal" >> $S || echo "256M $md: BYTES DIFFER" >> $S; done
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
  [ $r = 3 ] || { ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first 128 --manifest $W/gq/MANIFEST --repeats 9 > $W/res/v2-128-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2" $W/res/v2-128-$v-$r.csv | sed "s/^/$v $r 128M: /" >> $S; }
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp.csv >> $S
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"range2|sample2|weigh2|count2" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-stats-$v.txt 2>&1 )
  echo "ncu stats $v 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-stats-$v.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
