#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 646582f (new: the range in the checksum's read) against 168c027 (prev): GPU tests, memcheck, gpu_bench A/B, kernel times
R=$PWD; W=/tmp/w25; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2 &&
    gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$PWD/.libs ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in prev new; do [ -x $W/$v/gpulz-*/probe2 ] || { echo "build $v failed" >> $S; tail -20 $W/res/build-$v.log >> $S; }; done
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
timeout 100 make -j16 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
grep -h "FAIL\|differ" h5tests/gpu_codec_test.log | head -5 >> $S
GPULZ_BACKEND=gpu timeout 60 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
GPULZ_TEST_QUICK=1 timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 $N/h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -2 $W/res/memcheck.log >> $S
log checked
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
log bench
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv $N/probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-new.csv 2>> $W/res/ncu.err
log done
tar czf $OUT/res.tgz -C $W res
