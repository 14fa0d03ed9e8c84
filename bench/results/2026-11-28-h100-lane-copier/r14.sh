#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the lanes' copier (new: 6d5a651 + patch) against 6d5a651 (base): GPU tests, host batches, direct-host
R=$PWD; W=/tmp/w14; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name --format=csv,noheader >> $S
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= &&
    gcc -O2 -o $W/hprobe-$v $R/.dev/hprobe.c -Ikernels -I. -I/usr/local/cuda/include .libs/libgpulz_core.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/hprobe-$v ] || { tail -30 $W/res/build-$v.log; exit 9; }; done
log built
cd $W/new/gpulz-*
./gpulz gen quant 1G -o $W/q.bin
timeout 120 make -j4 check TESTS="h5tests/gpu_batch_test h5tests/h5_direct h5tests/bench_direct_smoke.sh h5tests/h5_gpu h5tests/codec_batch h5tests/gpu_codec_test" > $W/res/check.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
cp h5tests/gpu_batch_test.log $W/res/ 2>/dev/null
log checked
for v in base new; do timeout 60 $W/hprobe-$v $W/q.bin 2>&1 | grep "host batch" | sed "s/^/$v: /" >> $S; done
log hprobe
for m in auto lz; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 60 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --paths direct-host > $W/res/h5d-$m-$v.txt 2>&1 )
  echo "-- $m $v" >> $S; grep -E "^memory" $W/res/h5d-$m-$v.txt >> $S
done; done
log bench
tar czf $OUT/res.tgz -C $W res
