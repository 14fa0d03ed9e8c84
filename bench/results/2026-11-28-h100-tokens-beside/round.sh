#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Verify ratio's tokens beside fast's coding in auto against 0511e32 on the GPU
R=$PWD; W=/tmp/w5; rm -rf $W; mkdir -p $W/new $W/base $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name,driver_version --format=csv > $W/res/nvidia-smi.txt
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/base && tar xzf $R/.dev/base.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 gpulz libgpulz.la libH5Zgpulz.la bench/gpu_bench bench/h5bench && gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$PWD/.libs && mkdir -p $W/base-plugin && cp .libs/libH5Zgpulz.so $W/base-plugin/ ) > $W/res/base-build.log 2>&1 &
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* || exit 9
N=$PWD
( ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 check TESTS= ) > $W/res/new-build.log 2>&1 || { tail -40 $W/res/new-build.log; exit 9; }
gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs
wait
B=$(ls -d $W/base/gpulz-*)
log built
timeout 200 make check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/codec_v2 h5tests/codec_golden2" > $W/res/check.log 2>&1
GPULZ_BACKEND=gpu timeout 60 make check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/h5_read_corpus" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S; echo "-- under GPULZ_BACKEND=gpu" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log checked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do
  $B/bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-base-$r.csv 2>>$W/res/bench.err
  ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-new-$r.csv 2>>$W/res/bench.err
done
for r in 1 2; do for v in base new; do
  P=$([ $v = base ] && echo $B/probe3 || echo $N/probe3); echo "## $v round $r" >> $W/res/probe.txt
  for kb in 1024 4096 16384; do $P $W/gq/genquant.u16 $kb fast,ratio,auto 21 >> $W/res/probe.txt 2>&1; done
done; done
log bench
HDF5_PLUGIN_PATH=$N/test-plugins timeout 100 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 --filters gpulz-auto-gpu > $W/res/h5bench-new.csv 2>>$W/res/bench.err
HDF5_PLUGIN_PATH=$W/base-plugin timeout 100 $B/bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 --filters gpulz-auto-gpu > $W/res/h5bench-base.csv 2>>$W/res/bench.err
log h5bench
tar czf $OUT/res.tgz -C $W res
