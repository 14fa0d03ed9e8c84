#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HEAD on the GPU: where the direct path's time goes (batch codec alone, copies, allocations,
# then h5direct_bench) at 4 and 8 lanes
R=$PWD; W=/tmp/w8; rm -rf $W; mkdir -p $W/head $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name,driver_version --format=csv >> $S
cd $W/head && tar xzf $R/.dev/head.tar.gz && cd gpulz-* || exit 9
( ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { tail -40 $W/res/build.log; exit 9; }
B=$PWD
gcc -O2 -o $W/bprobe $R/.dev/bprobe.c -I$B/kernels -I$B -I/usr/local/cuda/include $B/.libs/libgpulz_core.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm 2>>$S || exit 9
log built
./gpulz gen quant 1G -o $W/q.bin 2>>$S || ./gpulz gen quant 1G > $W/q.bin; ls -la $W/q.bin >> $S
timeout 120 $W/bprobe $W/q.bin >> $S 2>&1
GPULZ_GPU_LANES=8 timeout 90 $W/bprobe $W/q.bin 2>&1 | grep batch >> $S
log probe
for m in auto fast lz; do for L in 4 8; do
  P=; [ $L = 8 ] && P="--paths direct-host,direct-device"; [ $m = lz ] && [ $L = 8 ] && continue
  GPULZ_GPU_LANES=$L timeout 150 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m $P --csv $W/res/h5d-$m-$L.csv > $W/res/h5d-$m-$L.txt 2>&1
  echo "-- $m lanes $L" >> $S; grep -E "^memory" $W/res/h5d-$m-$L.txt >> $S
done; done
log bench
tar czf $OUT/res.tgz -C $W res
