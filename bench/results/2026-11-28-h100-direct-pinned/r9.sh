#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# new (working tree) against HEAD on one GPU machine: GPU tests of new, then the direct path
R=$PWD; W=/tmp/w9; rm -rf $W; mkdir -p $W/head $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name,driver_version --format=csv >> $S
for v in new head; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build-$v.log 2>&1 || { tail -40 $W/res/build-$v.log; exit 9; }
done
log built
cd $W/new/gpulz-*
timeout 200 make -j4 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/bench_direct_smoke.sh h5tests/codec_v2 h5tests/codec_env h5tests/gpu_multidev_test" > $W/res/check.log 2>&1
GPULZ_BACKEND=gpu timeout 100 make check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/h5_read_corpus" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
echo "-- under GPULZ_BACKEND=gpu" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
cp h5tests/gpu_codec_test.log h5tests/gpu_batch_test.log h5tests/h5_direct.log $W/res/ 2>/dev/null
log checked
for m in auto fast lz; do
  for v in head new; do
    cd $W/$v/gpulz-*
    P="--paths direct-host,direct-device"; [ $v = new ] && P=
    timeout 150 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m $P --csv $W/res/h5d-$m-$v.csv > $W/res/h5d-$m-$v.txt 2>&1
    echo "-- $m $v" >> $S; grep -E "^memory" $W/res/h5d-$m-$v.txt >> $S
  done
done
log bench
cd $W/new/gpulz-* && GPULZ_GPU_LANES=4 timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device > $W/res/h5d-auto-new-lanes4.txt 2>&1
echo "-- auto new lanes 4" >> $S; grep -E "^memory" $W/res/h5d-auto-new-lanes4.txt >> $S
log lanes4
tar czf $OUT/res.tgz -C $W res
