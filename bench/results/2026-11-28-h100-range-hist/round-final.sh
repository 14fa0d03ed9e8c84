#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# final (HEAD) against b997af0 (base): GPU tests, 256 MB A/B, gpu_bench beside nvCOMP, kernel times, direct I/O A/B, memcheck
START=$(date +%s); R=$PWD; W=/tmp/w23; rm -rf $W; mkdir -p $W/base $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
for v in base new; do
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2 &&
    gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$PWD/.libs ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in base new; do [ -x $W/$v/gpulz-*/probe2 ] || { echo "build $v failed" >> $S; tail -20 $W/res/build-$v.log >> $S; }; done
log built
N=$(echo $W/new/gpulz-*); B=$(echo $W/base/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
timeout 150 make -j16 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
GPULZ_BACKEND=gpu timeout 60 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
for r in 1 2; do for v in base new; do
  D=$(echo $W/$v/gpulz-*); echo "-- probe2 $v round $r" >> $S
  $D/probe2 $W/gq/genquant.u16 256 fast,ratio,auto 5 >> $S 2>&1
done; done
log probed
( cd $N && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-new.csv 2>$W/res/bench.err; timeout 60 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
( cd $B && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-base.csv 2>>$W/res/bench.err )
grep -h "S2" $W/res/v2-base.csv | sed 's/^/base: /' >> $S; grep -h "S2" $W/res/v2-new.csv | sed 's/^/new: /' >> $S; cat $W/res/nvcomp.csv >> $S
log bench
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv $N/probe2 $W/gq/genquant.u16 256 fast,auto 1 > $W/res/ncu-new.csv 2>> $W/res/ncu.err
log ncu
for v in base new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 70 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths filter,direct-host,direct-device --csv $W/res/h5d-$v.csv > $W/res/h5d-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$v.txt | sed "s/^/$v: /" >> $S
done
log direct
tar czf $OUT/res.tgz -C $W res
left=$((490 - $(date +%s) + START)); echo "memcheck with $left s" >> $S
if [ $left -gt 30 ]; then
  GPULZ_TEST_QUICK=1 timeout $left /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 $N/h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -3 $W/res/memcheck.log >> $S
fi
log done
tar czf $OUT/res.tgz -C $W res
