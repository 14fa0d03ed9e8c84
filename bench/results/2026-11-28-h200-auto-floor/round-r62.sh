#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 7670cca on the H200, diagnosis: ncu warp-state statistics of fast's coder and decoder on one 1 MB chunk and the
# decoder on 256 MB; the SASS of the few-segment coder (S = 2, B = 32)
START=$(date +%s); R=$PWD; W=/tmp/w62; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/head3.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la gpulz && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
./gpulz gen quant 256M -o $W/gq.u16
cuobjdump -sass -fun '_Z20gpu_v2_encode_kernelILj2ELb0ELj32EEv10gpu_v2_jobPh' kernels/.libs/gpu_v2_launch.o > $W/res/enc-2-32.sass 2>&1
cuobjdump -sass -fun '_Z20gpu_v2_decode_kernelILj4EEv10gpu_v2_jobPKh' kernels/.libs/gpu_v2_launch.o > $W/res/dec-4.sass 2>&1
ls -la $W/res/*.sass >> $S
timeout 120 ncu --clock-control none -k regex:"encode_kernel|decode_kernel" --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy ./probe2 $W/gq.u16 1 fast 1 > $W/res/ncu-1mb.txt 2>&1; echo "ncu 1 MB exit $?" >> $S
timeout 120 ncu --clock-control none -k regex:"encode_kernel|decode_kernel" -c 2 --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis ./probe2 $W/gq.u16 256 fast 1 > $W/res/ncu-256mb.txt 2>&1; echo "ncu 256 MB exit $?" >> $S
grep -E "encode_kernel|decode_kernel|Stall|Warp Cycles Per|Issued Warp|No Eligible|Active Warps|Eligible Warps|Achieved Occupancy" $W/res/ncu-1mb.txt | head -60 >> $S
log done
tar czf $OUT/res.tgz -C $W res
