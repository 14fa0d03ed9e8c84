#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 30f0d9e on the H200: direct chunk I/O of auto at 4 MiB, b382b12 (prev) and 30f0d9e (new) alternating twice;
# then compute-sanitizer memcheck and racecheck over gpu_codec_test (GPULZ_TEST_QUICK=1), side by side
START=$(date +%s); R=$PWD; W=/tmp/w49; rm -rf $W; mkdir -p $W/new $W/prev $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/prev && tar xzf $R/.dev/b382.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 && make -j6 bench/h5direct_bench ) > $W/res/build-prev.log 2>&1 || tail -20 $W/res/build-prev.log >> $S &
( cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 bench/h5direct_bench h5tests/gpu_codec_test ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
wait
log built
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 40 ./bench/h5direct_bench --files memory --chunks 4 --repeats 3 --mode auto --paths direct-host,direct-device --csv $W/res/direct-$v-$r.csv > $W/res/direct-$v-$r.log 2>&1; echo "h5direct $v $r exit $?" >> $S )
  grep -h "^memory" $W/res/direct-$v-$r.csv | cut -d, -f2,6,11,12 | sed "s/^/$v $r: /" >> $S
done; done
log directed
cd $W/new/gpulz-*
export GPULZ_TEST_QUICK=1
left=$((465 - $(date +%s) + START))
for tool in memcheck racecheck; do
  ( timeout $left /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/sanitizer-$tool.log 2>&1; echo "$tool exit $? at $(date -u +%T)" >> $S; tail -5 $W/res/sanitizer-$tool.log >> $S ) &
done
wait
log done
tar czf $OUT/res.tgz -C $W res
