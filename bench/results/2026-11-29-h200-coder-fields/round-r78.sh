#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the session's final tree (c78 = 58ff269's code) on the H200: the whole make check without the sanitizer test,
# gpu_codec_test seed 3, the GPU set with refdec; probe2 1/4/16/256 MB; h5bench auto beside 0.1 on the 21
# quantization-code arrays at 1/4/16 MiB chunks (twice); memcheck of gpu_codec_test (quick)
START=$(date +%s); R=$PWD; W=/tmp/w78; rm -rf $W; mkdir -p $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
( cd $W/new && tar xzf $R/.dev/c78.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j12 && make -j12 bench/h5bench test-plugins/libH5Zgpulz.so && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && make -j12 check TESTS= ) > $W/res/build-new.log 2>&1 || tail -30 $W/res/build-new.log >> $S &
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 200 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures" h5tests/gpu_codec_test.log | tail -3 >> $S
log checked
( GPULZ_TEST_SEED=3 ./h5tests/gpu_codec_test > $W/res/gct3.log 2>&1; echo "gpu_codec_test seed 3: exit $?" >> $S ) &
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct3.log | tail -2 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
(./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 256 fast,auto,ratio 5) >> $S 2>&1
log probed
for r in 1 2; do
  HDF5_PLUGIN_PATH=$N/test-plugins timeout 150 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$r.csv 2>>$W/res/bench-$r.err; echo "h5bench $r exit $?" >> $S
done
log h5bench
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
