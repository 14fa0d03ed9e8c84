#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c112 (the checksumming decoder held to 6 blocks an SM: 40 registers, 48 warps) against c111 (main d9efe3c):
# gpu_bench --v2 alternating twice beside nvcomp_bench on gen quant 256M; probe2 fast alternating; ncu of the decoder;
# a host timeline (c113t: main with trace points, GPULZ_TRACE) of fast 256 MB and auto 1/4 MB; new's gpu_codec_test
START=$(date +%s); R=$PWD; W=/tmp/w111; rm -rf $W; mkdir -p $W/prev $W/new $W/tr $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in prev new tr; do T=c112; [ $v = prev ] && T=c111; [ $v = tr ] && T=c113t
  opt=; [ $v = prev ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j6 && make -j6 bench/gpu_bench $([ $v = prev ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j6 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*); TR=$(echo $W/tr/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S )
( GPULZ_TEST_SEED=12 ./h5tests/gpu_codec_test > $W/res/gct12.log 2>&1; echo "gpu_codec_test seed 12: exit $?" >> $S )
GPULZ_BACKEND=gpu timeout 100 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_corrupt h5tests/codec_corpus" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
log benched
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast 9) >> $S 2>&1; done; done
log probed
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"decode_kernel" ./probe2 $W/gq/genquant.u16 256 fast 2 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu decoder $v 256 MB fast:" $(grep -E "gpu__time_duration" $W/res/ncu-$v.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done
log ncu
cd $TR
for mb in 256 16 4 1; do for m in fast auto; do
  GPULZ_TRACE=1 ./probe2 $W/gq/genquant.u16 $mb $m 5 > $W/res/trace-$m-$mb.txt 2>&1
  echo "-- trace $m $mb (last compress, last decompress)" >> $S
  grep "|" $W/res/trace-$m-$mb.txt | tail -2 >> $S; grep -v "|" $W/res/trace-$m-$mb.txt >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
