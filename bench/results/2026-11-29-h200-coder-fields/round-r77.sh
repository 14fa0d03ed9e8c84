#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# candidate c77 (new: the S = 2 count kernel adds a run of equal neighbours with one atomic) against c76 (prev) on
# the H200: new's gpu_codec_test (seed 0) and the GPU set; ncu times of the statistics' kernels for fast at 256 and
# 1 MB; probe2 256 MB fast alternating twice
START=$(date +%s); R=$PWD; W=/tmp/w77; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c76; [ $v = new ] && T=c77
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( ./h5tests/gpu_codec_test > $W/res/gct0.log 2>&1; echo "gpu_codec_test seed 0: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_hist_range" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for v in prev new; do for mb in 256 1; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"range2|count2|hist2" ./probe2 $W/gq.u16 $mb fast 2 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB: $(grep -E '^\s+gpu_v2_(range2|count2|hist2)_kernel' $W/res/ncu-$v-$mb.txt | sed -E 's/^\s+gpu_v2_([a-z0-9]+)_kernel.*/\1/' | paste -sd' ') | us: $(grep -oE 'gpu__time_duration.sum +[a-z]+ +[0-9.]+' $W/res/ncu-$v-$mb.txt | awk '{print $2=="ms"?$3*1000:$3}' | paste -sd' ')" >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 256 fast 7 && ./probe2 $W/gq.u16 1 fast 41) >> $S 2>&1; done; done
log done
tar czf $OUT/res.tgz -C $W res
