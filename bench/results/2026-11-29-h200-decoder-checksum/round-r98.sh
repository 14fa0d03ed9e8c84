#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c98 (tokens: few = up to 16 blocks an SM) against c95 (main): gpu_codec_test (quick) and codec_v2 on the GPU;
# probe2 auto/ratio at 1, 4, 8, 16 MB alternating; ncu of the tokeniser at 4 MB
START=$(date +%s); R=$PWD; W=/tmp/w98; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c98; [ $v = prev ] && T=c95
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test h5tests/codec_v2; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gct.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S ) &
( GPULZ_BACKEND=gpu ./h5tests/codec_v2 > $W/res/v2.log 2>&1; echo "GPULZ_BACKEND=gpu codec_v2: exit $?" >> $S ) &
./gpulz gen quant 64M -o $W/gq.u16
wait
grep -h "failures" $W/res/gct.log | tail -3 >> $S
log tested
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 auto,ratio 21 && ./probe2 $W/gq.u16 4 auto,ratio 21 && ./probe2 $W/gq.u16 8 auto,ratio 11 && ./probe2 $W/gq.u16 16 auto,ratio 11) >> $S 2>&1; done; done
log probed
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel" ./probe2 $W/gq.u16 4 ratio 1 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu $v 4 MB tokeniser (us):" $(grep -E "gpu__time_duration" $W/res/ncu-$v.txt | awk '{print $NF}' | paste -sd' ') >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
