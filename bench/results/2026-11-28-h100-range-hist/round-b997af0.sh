#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# b997af0: full make check (GPU tests, sanitizer), the direct path on the GPU, kernel times of format 2 at 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w21; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S; which ncu nsys >> $S 2>&1
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && N=$PWD
( ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
T0=$(date +%s)
timeout 200 make -j16 check TESTS="h5tests/gpu_sanitizer.sh h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/bench_direct_smoke.sh" > $W/res/check-san.log 2>&1; echo "gpu tests exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-san.log >> $S
cp h5tests/gpu_sanitizer.sh.log $W/res/ 2>/dev/null
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/h5_direct h5tests/h5_direct_dump.sh h5tests/codec_v2 h5tests/h5_corrupt" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log gpuchecked
./probe2 $W/gq/genquant.u16 256 fast,ratio,auto,lz 5 >> $S 2>&1
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast,ratio,auto 1 > $W/res/ncu-256.csv 2> $W/res/ncu.err
echo "ncu exit $?" >> $S
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 4 fast,auto 1 > $W/res/ncu-4.csv 2>> $W/res/ncu.err
timeout $((560 - $(date +%s) + START)) make -j16 check > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked; cp $W/res/check.log $OUT/ 2>/dev/null
log done
tar czf $OUT/res.tgz -C $W res
