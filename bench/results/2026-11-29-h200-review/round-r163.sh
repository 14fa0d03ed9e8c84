#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r163: c163 (9d3fa61: review findings mended: batch rooms and weights in batch.c, gpu_v2_dec_tail,
# gpulz_grown, the declared size with GPULZ_ERR_DST_SIZE) on the GPU: an nsys timeline of 1 MB
# device-API calls (fast, ratio, auto; levitus_temp_q1e-4), the whole make check with
# gpu_sanitizer.sh, the GPULZ_BACKEND=gpu set, and the CUDA wheel's python/device-test.sh
START=$(date +%s); R=$PWD; W=/tmp/w163; rm -rf $W; mkdir -p $W/new $W/gset $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; which nsys >> $S 2>&1
mkdir -p $W/corpus && for f in levitus_temp_q1e-4 coads_uwnd_q1e-3; do xz -dc $R/.dk/corpus/$f.u16.xz > $W/corpus/$f.u16; done
( cd $W/new && tar xzf $R/.dk/c163.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && make -j8 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/gset && tar xzf $R/.dk/c163.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 && make -j4 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
( PYTHON=python3 sh $R/python/device-test.sh $R/.dk/gpulz_cu13-0.1.0-py3-none-manylinux_2_34_x86_64.whl $W/res/python-device-test.log > /dev/null 2>&1; echo "python device-test exit $?" >> $S ) &
wait
grep -h "FAIL\|passed\|checks\|skipped\|CuPy" $W/res/python-device-test.log | tail -20 >> $S
log built
D=$(echo $W/new/gpulz-*)
cd $D
./probe2 $W/corpus/levitus_temp_q1e-4.u16 1 fast,ratio,auto,lz 21 >> $S 2>&1
if which nsys >/dev/null 2>&1; then
  timeout 90 nsys profile -t cuda,osrt -o $W/res/t1m ./probe2 $W/corpus/levitus_temp_q1e-4.u16 1 fast,ratio,auto 5 > $W/res/nsys.log 2>&1
  timeout 90 nsys stats -q --report cuda_gpu_trace,cuda_api_trace --format csv -o $W/res/t1m $W/res/t1m.nsys-rep >> $W/res/nsys.log 2>&1
  echo "nsys exit $?" >> $S; ls $W/res | grep t1m >> $S
  rm -f $W/res/*.sqlite
fi
log nsys
( timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/codec_roundtrip h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait $CP
cd $D
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|crafted\|sound ratio" h5tests/gpu_codec_test.log | tail -10 >> $S
grep -h "pinned\|check failed\|generous\|auto backend\|sizes asked" h5tests/gpu_batch_test.log | head -8 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
