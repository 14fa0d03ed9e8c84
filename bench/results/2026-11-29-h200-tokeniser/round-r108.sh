#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c108 (the segment decoders' setup and checks in one struct, v2_seg) against c109m (main, e609fd3):
# gpu_codec_test quick on c108; ncu of the rANS decoder at 256 MB (fast) on both; probe2 fast/ratio decompress
START=$(date +%s); R=$PWD; W=/tmp/w108; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c108; [ $v = prev ] && T=c109m
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gct.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S ) &
./gpulz gen quant 256M -o $W/gq.u16
wait
grep -h "failures" $W/res/gct.log | tail -3 >> $S
log tested
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"decode_kernel" ./probe2 $W/gq.u16 256 fast 1 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu $v 256 MB fast decoder:" $(grep -E "gpu__time_duration" $W/res/ncu-$v.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 256 fast,ratio 11 && ./probe2 $W/gq.u16 4 fast 21) >> $S 2>&1; done; done
log done
