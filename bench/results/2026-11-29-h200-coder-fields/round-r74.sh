#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# candidate c74 (c73 + the decoder's 16-bit store chosen at compile time, the table fill's constant stride back)
# against c73 (prev) on the H200: c74's GPU tests (gpu_codec_test, the GPU set); probe2 alternating twice;
# ncu times of every kernel of fast and auto at 256 MB and 1 MB (c74)
START=$(date +%s); R=$PWD; W=/tmp/w74; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c73; [ $v = new ] && T=c74
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( ./h5tests/gpu_codec_test > $W/res/gct0.log 2>&1; echo "gpu_codec_test seed 0: exit $?" >> $S ) &
( GPULZ_TEST_SEED=3 ./h5tests/gpu_codec_test > $W/res/gct3.log 2>&1; echo "gpu_codec_test seed 3: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 256 fast,auto 5) >> $S 2>&1; done; done
log probed
for mb in 256 1; do for m in fast auto; do
  timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum ./probe2 $W/gq.u16 $mb $m 1 > $W/res/ncu-all-$m-$mb.txt 2>&1; echo "ncu $m $mb exit $?" >> $S
done; done
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"decode_kernel" ./probe2 $W/gq.u16 1 fast 2 > $W/res/ncu-dec-$v-1.txt 2>&1 )
  echo "ncu decode $v 1 MB (us):" $(grep -o "gpu__time_duration.sum.*" $W/res/ncu-dec-$v-1.txt | tr -s ' ' | tr '\n' ';') >> $S
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"decode_kernel" ./probe2 $W/gq.u16 256 fast 1 > $W/res/ncu-dec-$v-256.txt 2>&1 )
  echo "ncu decode $v 256 MB (us):" $(grep -o "gpu__time_duration.sum.*" $W/res/ncu-dec-$v-256.txt | tr -s ' ' | tr '\n' ';') >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
