#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# main's code (c101 = 27a8fc2, the tokeniser's sweep in rounds and its walk by a warp) on the H200: auto through HDF5 beside 0.1 (h5bench, the 21
# quantization-code arrays, 1/4/16 MiB, twice) and the direct chunk path (h5direct_bench, auto, twice)
START=$(date +%s); R=$PWD; W=/tmp/w104; rm -rf $W; mkdir -p $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
( cd $W/new && tar xzf $R/.dev/c101.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j12 && make -j12 bench/h5bench bench/h5direct_bench test-plugins/libH5Zgpulz.so ) > $W/res/build-new.log 2>&1 || tail -30 $W/res/build-new.log >> $S &
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
for r in 1 2; do
  HDF5_PLUGIN_PATH=$N/test-plugins timeout 150 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$r.csv 2>>$W/res/bench-$r.err; echo "h5bench $r exit $?" >> $S
done
log h5bench
for r in 1 2; do
  timeout 90 ./bench/h5direct_bench --files memory --chunks 1,4,16 --repeats 3 --mode auto --paths direct-host,direct-device,filter > $W/res/h5d-$r.txt 2>&1; echo "h5direct $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$r.txt >> $S
done
log done
cp $W/res/*.csv $W/res/h5d-*.txt $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
