#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c107 (the device API's format 1 encoder with the few-grid segment, gpu_enc_few) against c106 (main, 6bfd4b6):
# gpu_codec_test quick and seed 9, the GPULZ_BACKEND=gpu set; ncu of the format 1 encoder at 1, 2, 4 MB; probe2 lz
START=$(date +%s); R=$PWD; W=/tmp/w107; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c107; [ $v = prev ] && T=c106
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S ) &
( GPULZ_TEST_SEED=9 ./h5tests/gpu_codec_test > $W/res/gct9.log 2>&1; echo "gpu_codec_test seed 9: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 64M -o $W/gq.u16
for v in prev new; do for mb in 1 2 4; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb lz 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 lz 41 && ./probe2 $W/gq.u16 2 lz 41 && ./probe2 $W/gq.u16 4 lz 21) >> $S 2>&1; done; done
log done
tar czf $OUT/res.tgz -C $W res
