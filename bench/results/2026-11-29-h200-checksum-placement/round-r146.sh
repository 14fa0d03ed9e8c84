#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r146: count2 summing the checksum (c146) against c140 (the kernels of main): tests, bytes, speed, ncu, sanitizers
START=$(date +%s); R=$PWD; W=/tmp/w146; rm -rf $W; mkdir -p $W/prev $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in prev new; do T=c146; opt=; [ $v = prev ] && T=c140 && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench $([ $v = prev ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && { [ $v = prev ] || make -j8 h5tests/gpu_codec_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_direct h5tests/gpu_batch_test; } ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/prev/gpulz-*); N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
GPULZ_TEST_QUICK=1 timeout 150 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S
grep -h "counted sums\|sampled DELTA\|failures\|FAIL" $W/res/gctq.log | tail -8 >> $S
log tested
for v in prev new; do D=$(echo $W/$v/gpulz-*); for md in fast auto; do
  $D/gpulz compress -q -f -s 2 -b 4096 --mode $md --backend gpu $W/gq/genquant.u16 -o $W/$md-$v.gplz 2>>$W/res/cli.err; done; done
for md in fast auto; do cmp $W/$md-prev.gplz $W/$md-new.gplz && echo "256M $md: prev and new bytes equal ($(stat -c %s $W/$md-new.gplz))" >> $S || echo "256M $md: BYTES DIFFER" >> $S; done
$N/gpulz compress -q -f -s 2 -b 4096 --mode fast --backend cpu $W/gq/genquant.u16 -o $W/fast-cpu.gplz && cmp $W/fast-cpu.gplz $W/fast-new.gplz && echo "256M fast: CPU bytes equal the GPU's" >> $S || echo "256M fast: CPU BYTES DIFFER" >> $S
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-1.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-1.csv >> $S
for r in 1 2 3 4 5; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first 64 --manifest $W/gq/MANIFEST --repeats 9 > $W/res/v2-64-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-64-$v-$r.csv | sed "s/^/$v $r 64M: /" >> $S
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp-2.csv 2>>$W/res/bench.err ); tail -1 $W/res/nvcomp-2.csv >> $S
log benched
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"range2|sample2|weigh2|count2|hist2|pack2|checksum" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-stats-$v.txt 2>&1 )
  echo "ncu stats $v 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-stats-$v.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
done
log ncu
$N/gpulz gen quant 65M -o $W/q6.u16
timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 $N/gpulz compress -q -f -s 2 --mode fast --backend gpu $W/q6.u16 -o $W/q6m.gplz > $W/res/memcheck.log 2>&1; echo "memcheck fast 65 MiB: exit $?" >> $S; tail -n 1 $W/res/memcheck.log >> $S
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 $N/gpulz compress -q -f -s 2 --mode fast --backend gpu $W/q6.u16 -o $W/q6.gplz > $W/res/racecheck.log 2>&1; echo "racecheck fast 65 MiB: exit $?" >> $S; tail -n 1 $W/res/racecheck.log >> $S
cmp <($N/gpulz decompress -q --backend cpu $W/q6.gplz -o - 2>/dev/null) $W/q6.u16 && echo "65 MiB chunk decodes on the CPU" >> $S
log sanitized
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_direct h5tests/gpu_batch_test"
GPULZ_BACKEND=gpu timeout 100 make -j8 check TESTS="$GS" check_PROGRAMS="$GS" > $W/res/check-gpu.log 2>&1; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log done
tar czf $OUT/res.tgz -C $W res
