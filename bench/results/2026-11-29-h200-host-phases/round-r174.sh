#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r174: c174 (fast's DELTA/SPLIT choice kept in the memo for ratio, without c173's tokens after the
# coder) against c169 (68bc7cd): host-API and device-API calls alternating; then the whole make check
# with gpu_sanitizer.sh and the GPULZ_BACKEND=gpu set
START=$(date +%s); R=$PWD; W=/tmp/w174; rm -rf $W; mkdir -p $W/new $W/prev $W/v01 $W/res $W/gq $W/gset
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
for v in new prev; do T=$([ $v = new ] && echo c174 || echo c169)
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j6 libgpulz.la gpulz && make -j6 bench/h5bench bench/gpu_bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo check TESTS=) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
( cd $W/gset && tar xzf $R/.dk/c174.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 && make -j3 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*); C=$W/corpus
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for a in levitus_temp_q1e-4:1024 coads_uwnd_q1e-3:380 etopo5_q1e-4:4096; do
    $D/probe3 $C/${a%%:*}.u16 ${a##*:} auto 21 2>&1 | sed "s/^/$v $r ${a%%:*}: /" >> $S
  done
  for f in levitus_temp_q1e-4 etopo5_q1e-4; do for mb in 1 4; do
    $D/probe2 $C/$f.u16 $mb auto 21 2>&1 | sed "s/^/$v $r dev $f: /" >> $S
  done; done
done; done
log probed
cd $N
( timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/codec_roundtrip h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
wait $CP
cd $N
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|crafted\|sound ratio" h5tests/gpu_codec_test.log | tail -10 >> $S
grep -h "check failed\|auto backend\|sizes asked" h5tests/gpu_batch_test.log | head -8 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
