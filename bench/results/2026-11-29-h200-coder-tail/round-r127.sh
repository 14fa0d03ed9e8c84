#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c127 (c126 with the scan at 4 items a thread again and the plain put reading its offsets in every thread) against
# c120 (main): gpu_codec_test quick and seed 29, the GPU set's format 2 tests; gpu_bench --fast 256M and --v2 --first 1
# alternating twice; ncu of scan and put at 256 MB (the device time left: about 250 s)
START=$(date +%s); R=$PWD; W=/tmp/w127; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c127; [ $v = prev ] && T=c120
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/gpu_bench && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
( GPULZ_TEST_SEED=29 ./h5tests/gpu_codec_test > $W/res/gct29.log 2>&1; echo "gpu_codec_test seed 29: exit $?" >> $S ) &
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S )
grep -h "failures" $W/res/gctq.log | tail -4 >> $S
GPULZ_BACKEND=gpu timeout 60 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct29.log | tail -7 >> $S
log tested
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 30 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
  ( cd $D && timeout 30 ./bench/gpu_bench --csv --v2 --first 1 --manifest $W/gq/MANIFEST --repeats 15 > $W/res/v2-$v-$r-1.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r-1.csv | sed "s/^/$v $r 1M: /" >> $S
done; done
log benched
( cd $N && timeout 30 ncu --clock-control none -k regex:"put_kernel|scan_kernel|encode_kernel" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-new-256.txt 2>&1 )
echo "ncu new 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-new-256.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
log done
tar czf $OUT/res.tgz -C $W res
