#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# batches of 256 MiB per GPU (new) against 256 MiB (base): multi-GPU tests of new, then direct-host over 1, 2, 4 GPUs, base and new alternating, twice
R=$PWD; W=/tmp/w19; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
echo "== start $(date -u +%T)" >> $S; nvidia-smi -L >> $S
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j24 ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/$v/gpulz-*/bench/h5direct_bench ] || { tail -20 $W/res/build-$v.log >> $S; exit 9; }; done
echo "== built $(date -u +%T)" >> $S
N=$(echo $W/new/gpulz-*)
( cd $N && timeout 150 make -j32 check TESTS="h5tests/gpu_batch_test h5tests/gpu_multidev_test h5tests/codec_batch h5tests/h5_direct" > $W/res/check.log 2>&1 ); grep -E "^(PASS|FAIL|SKIP|ERROR):" $W/res/check.log >> $S
echo "== tested $(date -u +%T)" >> $S
$N/gpulz gen quant 4G -o $W/q4g > /dev/null 2>&1
for r in 1 2; do for v in base new; do
  ( cd $W/$v/gpulz-* && GPULZ_BACKEND=gpu timeout 90 ./bench/h5direct_bench --input $W/q4g --size 4G --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host --gpus 1,2,4 --csv $W/res/h5d-auto-$v-$r.csv > $W/res/h5d-auto-$v-$r.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-auto-$v-$r.txt | sed "s/^/auto $v $r: /" >> $S
done; done
echo "== done $(date -u +%T)" >> $S
tar czf $OUT/res.tgz -C $W res
