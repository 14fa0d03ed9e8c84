#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# occupancy variants of 9cdb6b9 (base) on the H200, 256 MB of codes: the encoder's batch of 4 rounds (B4), with at
# most 40 (B4E12) or 32 registers (B4E16); the decoder with 16 segments a block at 32 registers (D16).
# gpu_bench --v2 alternating twice, then ncu kernel times of fast
START=$(date +%s); R=$PWD; W=/tmp/w53; rm -rf $W; mkdir -p $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
V="base B4 B4E12 B4E16 D16"
for v in $V; do mkdir -p $W/$v; (
  cd $W/$v && tar xzf $R/.dev/cand3.tar.gz && cd gpulz-* && N=$PWD
  case $v in
    B4*) sed -i 's/define GPU_V2_ENC_BATCH 8/define GPU_V2_ENC_BATCH 4/' kernels/gpu_v2.cuh kernels/gpu_v2.h ;;
  esac
  case $v in
    B4E12) sed -i 's/__launch_bounds__(32 \* GPU_V2_WARPS) gpu_v2_encode_kernel/__launch_bounds__(32 * GPU_V2_WARPS, B == 4 ? 12 : 1) gpu_v2_encode_kernel/' kernels/gpu_v2.cuh ;;
    B4E16) sed -i 's/__launch_bounds__(32 \* GPU_V2_WARPS) gpu_v2_encode_kernel/__launch_bounds__(32 * GPU_V2_WARPS, B == 4 ? 16 : 1) gpu_v2_encode_kernel/' kernels/gpu_v2.cuh ;;
    D16) sed -i 's/__launch_bounds__(32 \* WARPS) gpu_v2_decode_kernel/__launch_bounds__(32 * WARPS, WARPS == 16 ? 4 : 1) gpu_v2_decode_kernel/' kernels/gpu_v2.cuh; sed -i 's/define GPU_V2_DEC_WARPS_MANY 8/define GPU_V2_DEC_WARPS_MANY 16/' kernels/gpu_v2.h ;;
  esac
  ./configure -q --with-cuda-arch=90 && make -j4 libgpulz.la gpulz && make -j4 bench/gpu_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs
  ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
done
wait
log built
N=$(echo $W/base/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in $V; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
log benched
for v in $V; do ( cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast 5 | sed "s/^/$v /" && ./probe2 $W/gq/genquant.u16 4 fast 21 | sed "s/^/$v /" ) >> $S 2>&1; done
for v in $V; do ( cd $W/$v/gpulz-* && timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-$v.csv 2>> $W/res/ncu.err )
  grep -h "decode_kernel\|encode_kernel" $W/res/ncu-$v.csv | awk -F'","' '{print "'$v' " substr($5,1,40) " " $NF}' >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
