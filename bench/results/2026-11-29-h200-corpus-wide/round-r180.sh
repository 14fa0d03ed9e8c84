#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r180: direct device reads where HDF5 writes no fill value: gpu_batch_test's new case on c180t (the
# test alone, 3e57a66's chunk path for fill time never) and c180 (with the staging fetched first);
# then c180's direct-path tests on the GPU
START=$(date +%s); R=$PWD; W=/tmp/w180; rm -rf $W; mkdir -p $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in c180t c180; do mkdir -p $W/$v
( cd $W/$v && tar xzf $R/.dk/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
for v in c180t c180; do ( cd $W/$v/gpulz-* && timeout 120 make check TESTS=h5tests/gpu_batch_test > $W/res/check-$v.log 2>&1; echo "$v gpu_batch_test exit $?" >> $S; grep -h "^PASS\|^FAIL" $W/res/check-$v.log >> $S; grep -h "check failed\|unfilled\|unallocated" h5tests/gpu_batch_test.log | head -5 | sed "s/^/$v: /" >> $S ); done
cd $W/c180/gpulz-*
GPULZ_BACKEND=gpu timeout 200 make -j6 check TESTS="h5tests/h5_direct h5tests/h5_direct_dump.sh h5tests/bench_direct_smoke.sh h5tests/h5_gpu h5tests/h5_shapes h5tests/h5_types" > $W/res/check-gpu.log 2>&1; echo "GPU direct set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
