#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Final round: full make check of new; base vs new on genquant 256 MB (device
# buffers, gpu_bench --v2) beside nvCOMP; host-path chunks; HDF5 filter rows
# beside 0.1 on the 21 quantization-code arrays.
R=$PWD; W=/tmp/w4; rm -rf $W; mkdir -p $W/new $W/base $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $W/res/nvidia-smi.txt
mkdir -p $W/nvc && tar xJf $R/.dev/nvcomp.tar.xz -C $W/nvc; NV=$W/nvc/nvidia/libnvcomp
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/base && tar xzf $R/.dev/base.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j5 gpulz libgpulz.la libH5Zgpulz.la bench/gpu_bench bench/h5bench && gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$PWD/.libs && mkdir -p $W/base-plugin && cp .libs/libH5Zgpulz.so $W/base-plugin/ ) > $W/res/base-build.log 2>&1 &
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/v01-build.log 2>&1 &
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* || exit 9
N=$PWD
( ./configure -q --with-cuda-arch=90 --with-nvcomp=$NV && make -j8 && make -j8 check TESTS= ) > $W/res/new-build.log 2>&1 || { tail -40 $W/res/new-build.log; exit 9; }
gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs
wait
B=$(ls -d $W/base/gpulz-*)
log built
export LD_LIBRARY_PATH=$NV/lib64
# genquant: one-line manifest
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do
  $B/bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-base-$r.csv 2>>$W/res/bench.err
  ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-new-$r.csv 2>>$W/res/bench.err
done
./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err
log gpu_bench
for r in 1 2; do for v in base new; do
  P=$([ $v = base ] && echo $B/probe3 || echo $N/probe3); echo "## $v round $r" >> $W/res/probe.txt
  for kb in 1024 4096 16384; do $P $W/gq/genquant.u16 $kb fast,ratio,auto 21 >> $W/res/probe.txt 2>&1; done
done; done
log probe
HDF5_PLUGIN_PATH=$N/test-plugins timeout 200 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-gpu,gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-new.csv 2>>$W/res/bench.err
HDF5_PLUGIN_PATH=$W/base-plugin timeout 120 $B/bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
  --filters gpulz-auto-gpu > $W/res/h5bench-base.csv 2>>$W/res/bench.err
log h5bench
COMPUTE_SANITIZER=/nonexistent timeout 330 make -j16 check > $W/res/check.log 2>&1; echo "make check rc $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log >> $S
GPULZ_BACKEND=gpu timeout 60 make check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/h5_plugin_load h5tests/h5_read_corpus" > $W/res/check-gpu.log 2>&1
echo "-- under GPULZ_BACKEND=gpu" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log checked
cp h5tests/*.log $W/res/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
