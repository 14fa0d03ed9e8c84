#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# a6d8638 (new; var = new with -DGPU_V2_ENC_MIN_BLOCKS=8) against b997af0 (base): GPU tests, kernel times, A/B
START=$(date +%s); R=$PWD; W=/tmp/w22; rm -rf $W; mkdir -p $W/base $W/new $W/var $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc
for v in base new var; do
  src=$([ $v = base ] && echo base || echo new)
  opt=; [ $v = var ] && opt="NVCCFLAGS=-DGPU_V2_ENC_MIN_BLOCKS=8"; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dev/$src.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 $opt && make -j6 && make -j6 h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2 &&
    for p in probe2 probe3; do gcc -O2 -Ikernels $R/.dev/$p.c -o $p .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$PWD/.libs || exit 1; done ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in base new var; do [ -x $W/$v/gpulz-*/probe2 ] || { echo "build $v failed" >> $S; tail -20 $W/res/build-$v.log >> $S; }; done
log built
N=$(echo $W/new/gpulz-*); B=$(echo $W/base/gpulz-*); V=$(echo $W/var/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
timeout 150 make -j16 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2" > $W/res/check.log 2>&1; echo "check exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
grep -h "FAIL\|differ" h5tests/gpu_codec_test.log | head -5 >> $S
GPULZ_BACKEND=gpu timeout 60 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
for r in 1 2; do for v in base new var; do
  D=$(echo $W/$v/gpulz-*); echo "-- probe2 $v round $r" >> $S
  $D/probe2 $W/gq/genquant.u16 256 fast,ratio,auto 5 >> $S 2>&1
done; done
for r in 1 2; do for v in base new; do
  D=$(echo $W/$v/gpulz-*); echo "-- probe3 $v round $r" >> $W/res/probe3.txt
  for kb in 1024 4096 16384; do $D/probe3 $W/gq/genquant.u16 $kb fast,auto 21 >> $W/res/probe3.txt 2>&1; done
done; done
cat $W/res/probe3.txt >> $S
log timed
for v in new var; do D=$(echo $W/$v/gpulz-*)
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $D/probe2 $W/gq/genquant.u16 256 fast,auto 1 > $W/res/ncu-$v.csv 2>> $W/res/ncu.err; done
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-base.csv 2>> $W/res/ncu.err
log ncu
( cd $N && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-new.csv 2>$W/res/bench.err; timeout 60 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
grep -h "S2\|ANS\|ans" $W/res/v2-new.csv $W/res/nvcomp.csv | head -20 >> $S
log bench
tar czf $OUT/res.tgz -C $W res
left=$((570 - $(date +%s) + START)); echo "sanitizer with $left s" >> $S
[ $left -gt 30 ] && { timeout $left make check TESTS=h5tests/gpu_sanitizer.sh > $W/res/san.log 2>&1; echo "sanitizer exit $?" >> $S; grep -h "^PASS\|^FAIL" $W/res/san.log >> $S; cat h5tests/gpu_sanitizer.log >> $S 2>/dev/null; }
log done
tar czf $OUT/res.tgz -C $W res
