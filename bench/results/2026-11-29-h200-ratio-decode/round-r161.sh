#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r161: c161 (83008ef: no checksum term over a missing tail, host batches' rooms once a call, the
# Python header check) on the GPU: gpu_codec_test in full, gpu_sanitizer.sh, gpu_batch_test, the
# GPULZ_BACKEND=gpu set; the CUDA wheel's python/device-test.sh (CuPy, h5py); compute-sanitizer
# initcheck of gpu_codec_test (quick) on c160 and c161, for the missing tail's reads
START=$(date +%s); R=$PWD; W=/tmp/w161; rm -rf $W; mkdir -p $W/new $W/prev $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c161.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/prev && tar xzf $R/.dk/c160.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 libgpulz.la && make -j6 h5tests/gpu_codec_test ) > $W/res/build-prev.log 2>&1 || { echo "BUILD prev FAILED" >> $S; tail -30 $W/res/build-prev.log >> $S; } &
( PYTHON=python3 sh $R/python/device-test.sh $R/.dk/gpulz_cu13-0.1.0-py3-none-manylinux_2_34_x86_64.whl $W/res/python-device-test.log > /dev/null 2>&1; echo "python device-test exit $?" >> $S ) &
wait
grep -h "FAIL\|passed\|checks\|skipped\|CuPy" $W/res/python-device-test.log | tail -20 >> $S
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && GPULZ_TEST_QUICK=2 timeout 250 $SAN --tool initcheck --print-limit 10 ./h5tests/gpu_codec_test > $W/res/initcheck-$v.log 2>&1; echo "initcheck $v exit $?" >> $S; grep -h "ERROR SUMMARY\|PASS\|FAIL" $W/res/initcheck-$v.log | tail -3 >> $S; grep -h -A3 "Uninitialized" $W/res/initcheck-$v.log | head -8 >> $S ) &
done
cd $N
( timeout 330 make -j6 check TESTS="h5tests/gpu_codec_test h5tests/gpu_sanitizer.sh h5tests/gpu_batch_test" > $W/res/check.log 2>&1; echo "GPU tests exit $?" >> $S ) &
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/codec_corrupt h5tests/bench_direct_smoke.sh"
mkdir -p $W/gset && cp -r $N $W/gset/ && cd $W/gset/gpulz-* && GPULZ_BACKEND=gpu timeout 300 make -j4 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
wait
cd $N
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
grep -h "failures\|FAIL\|crafted\|sound ratio\|fell back\|careful" h5tests/gpu_codec_test.log | tail -14 >> $S
grep -h "pinned\|generous\|check failed" h5tests/gpu_batch_test.log | head -6 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
cp $W/res/python-device-test.log $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
