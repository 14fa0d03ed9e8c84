#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# two candidates against c78 (base) on the H200: c79p (the placement takes 4 segments a block) and c79e (the
# many-segment coder held to 24 warps an SM for S <= 2 too, no spills); each candidate's gpu_codec_test (seed 0) and
# the GPU set; ncu times of the coder and the placement at 256 and 1 MB; probe2 fast 256/1 MB alternating twice
START=$(date +%s); R=$PWD; W=/tmp/w79; rm -rf $W; mkdir -p $W/base $W/p $W/e $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in base p e; do T=c78; [ $v = p ] && T=c79p; [ $v = e ] && T=c79e
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j5 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v != base ]; then make -j5 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
for v in p e; do cd $W/$v/gpulz-*
  ./h5tests/gpu_codec_test > $W/res/gct-$v.log 2>&1; echo "$v gpu_codec_test seed 0: exit $?" >> $S
  GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch h5tests/h5_direct" > $W/res/check-gpu-$v.log 2>&1
  grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu-$v.log | sed "s/^/$v GPULZ_BACKEND=gpu /" >> $S
done
log tested
cd $W/base/gpulz-* && ./gpulz gen quant 256M -o $W/gq.u16
for v in base p e; do for mb in 256 1; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"encode_kernel|put_kernel" ./probe2 $W/gq.u16 $mb fast 2 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB: $(grep -E '^\s+(void )?gpu_v2_(encode|put)_kernel' $W/res/ncu-$v-$mb.txt | sed -E 's/^\s+(void )?gpu_v2_([a-z0-9]+)_kernel.*/\2/' | paste -sd' ') | us: $(grep -oE 'gpu__time_duration.sum +[a-z]+ +[0-9.]+' $W/res/ncu-$v-$mb.txt | awk '{print $2=="ms"?$3*1000:$3}' | paste -sd' ')" >> $S
done; done
log ncu
for r in 1 2; do for v in base p e; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 256 fast,auto 7 && ./probe2 $W/gq.u16 1 fast 41) >> $S 2>&1; done; done
log done
tar czf $OUT/res.tgz -C $W res
