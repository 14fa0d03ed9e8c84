#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r183: c183 (wide transforms whose sampled range spans over half of all values keep the whole range,
# unnarrowed) against c182: the host API on int16 coordinates and quantization codes, alternating;
# then the GPU tests that compare the GPU bytes with the CPU's
START=$(date +%s); R=$PWD; W=/tmp/w183; rm -rf $W; mkdir -p $W/res $W/corpus
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for f in .dk/g179/*.xz .dk/corpus/levitus_temp_q1e-4.u16.xz .dk/corpus/etopo5_q1e-4.u16.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
for v in new prev; do T=$([ $v = new ] && echo c183 || echo c182); mkdir -p $W/$v
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 libgpulz.la && $([ $v = new ] && echo "make -j8 check TESTS=" || echo true) && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
C=$W/corpus
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for a in gshhg_lon.i16:1024 gshhg_lon.i16:4096 gshhg_lat.i16:1024 gshhg_lat.i16:4096 levitus_temp_q1e-4.u16:1024 etopo5_q1e-4.u16:4096; do
    $D/probe3 $C/${a%%:*} ${a##*:} auto,fast 15 2>&1 | sed "s/^/$v $r ${a%%:*}: /" >> $S
  done
done; done
log probed
cd $W/new/gpulz-*
GPULZ_BACKEND=gpu timeout 200 make -j6 check TESTS="h5tests/gpu_codec_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_corpus h5tests/codec_refdec_test h5tests/gpu_batch_test h5tests/h5_gpu" > $W/res/check-gpu.log 2>&1; echo "GPU tests exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
grep -h "failures\|FAIL" h5tests/gpu_codec_test.log | tail -4 >> $S
log done
tar czf $OUT/res.tgz -C $W res
