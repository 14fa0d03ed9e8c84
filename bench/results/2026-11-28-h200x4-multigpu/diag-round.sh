#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# several GPUs in one process: the host batch API alone (probe4) and direct chunk I/O with 256 MiB and 1 GiB batches
R=$PWD; W=/tmp/w17; rm -rf $W; mkdir -p $W/base $W/big $W/res
S=$OUT/summary.txt
echo "== start $(date -u +%T)" >> $S
nvidia-smi -L >> $S
for v in base big; do
  ( cd $W/$v && tar xzf $R/.dev/kit/gpulz-*.tar.gz && cd gpulz-* &&
    { [ $v = big ] && sed -i 's/#define BATCH_BYTES ((size_t)256 << 20)/#define BATCH_BYTES ((size_t)1024 << 20)/' plugin/gpulz_h5direct.c; true; } &&
    grep -n "define BATCH_BYTES" plugin/gpulz_h5direct.c &&
    ./configure -q --with-cuda-arch=90 && make -j24 ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in base big; do [ -x $W/$v/gpulz-*/bench/h5direct_bench ] || { tail -20 $W/res/build-$v.log >> $S; exit 9; }; grep BATCH_BYTES $W/res/build-$v.log >> $S; done
B=$(echo $W/base/gpulz-*)
gcc -O2 $R/.dev/probe4.c -I$B/kernels -I$B -I/usr/local/cuda/include $B/.libs/libgpulz_core.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm -o $W/probe4 2>> $S || exit 8
$B/gpulz gen quant 4G -o $W/q4g > /dev/null 2>&1 || exit 7
echo "== built $(date -u +%T)" >> $S
for m in lz auto; do for c in 4 16; do for d in 0 0,1 0,1,2,3; do for b in 256 1024; do
  GPULZ_DEVICE=$d timeout 60 $W/probe4 $W/q4g 4 $m $c $b >> $S 2>&1
done; done; done; done
echo "== probes $(date -u +%T)" >> $S
for m in lz auto; do for v in base big; do
  ( cd $W/$v/gpulz-* && GPULZ_BACKEND=gpu timeout 100 ./bench/h5direct_bench --size 4G --files memory --chunks 4,16 --repeats 2 --mode $m --paths direct-host --gpus 1,2,4 --csv $W/res/h5d-$m-$v.csv > $W/res/h5d-$m-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$m-$v.txt | sed "s/^/$m $v: /" >> $S
done; done
echo "== done $(date -u +%T)" >> $S
tar czf $OUT/res.tgz -C $W res
