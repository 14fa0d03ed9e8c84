#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c99 (the match sweep in rounds of 4 positions, loads before the last round's stores; the walk with the start
# word in a register and the next key loaded with each) against c95 (main's code): new's GPU tests;
# probe2 alternating; ncu of the tokeniser (ratio) and the v1 encoder (lz); h5direct auto on both
START=$(date +%s); R=$PWD; W=/tmp/w99; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c99; [ $v = prev ] && T=c95
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test h5tests/codec_v2 h5tests/gpu_emulate_test h5tests/gpu_batch_test; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gct.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S ) &
( GPULZ_BACKEND=gpu ./h5tests/codec_v2 > $W/res/v2.log 2>&1; echo "GPULZ_BACKEND=gpu codec_v2: exit $?" >> $S
  ./h5tests/gpu_batch_test > $W/res/batch.log 2>&1; echo "gpu_batch_test: exit $?" >> $S
  ./h5tests/gpu_emulate_test > $W/res/emu.log 2>&1; echo "gpu_emulate_test: exit $? $(tail -1 $W/res/emu.log)" >> $S ) &
./gpulz gen quant 256M -o $W/gq.u16
wait
grep -h "failures" $W/res/gct.log | tail -3 >> $S
log tested
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 auto,ratio,lz 21 && ./probe2 $W/gq.u16 4 auto,ratio,lz 21 && ./probe2 $W/gq.u16 16 auto,ratio 11 && ./probe2 $W/gq.u16 256 auto,ratio,lz 3) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 1 4 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (ratio, lz):" $(grep -E "^  [a-zA-Z_0-9]+_kernel|gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device > $W/res/h5d-$v-$r.txt 2>&1; echo "h5direct $v $r exit $?" >> $S )
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
