#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the sweep's step with the cap picked by the comparison (one instruction a position on each k's chain):
# c103a (rounds of 4) and c103b (rounds of 8) against c101 (main): gpu_codec_test quick on both; ncu of the
# tokeniser and the format 1 encoder at 1, 4, 16, 256 MB; probe2 at 4, 16, 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w103; rm -rf $W; mkdir -p $W/a $W/b $W/m $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in m a b; do T=c103$v; [ $v = m ] && T=c101
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j5 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v != m ]; then make -j5 h5tests/gpu_codec_test; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
for v in a b; do ( cd $W/$v/gpulz-* && GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gct-$v.log 2>&1; echo "gpu_codec_test quick $v: exit $?" >> $S ) & done
cd $W/m/gpulz-* && ./gpulz gen quant 256M -o $W/gq.u16
wait
log tested
for v in m a b; do for mb in 1 4 16 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in m a b; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 4 auto,ratio 21 && ./probe2 $W/gq.u16 16 auto,ratio 11 && ./probe2 $W/gq.u16 256 auto,ratio,lz 3) >> $S 2>&1; done; done
log done
