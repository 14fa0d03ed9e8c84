#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# candidate (new: the few-segment coder's batch without escapes in two passes, steps then placing; the
# few-segment decoder unrolled by 4, its rare branches marked) against c129670 (prev), on the H200:
# new's bytes (gpu_codec_test seeds 0, 1), the GPU set, refdec; probe2 1/4/16/256 MB alternating; ncu 1 MB; SASS
START=$(date +%s); R=$PWD; W=/tmp/w64; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=h63; [ $v = new ] && T=c64
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( ./h5tests/gpu_codec_test > $W/res/gct0.log 2>&1; echo "gpu_codec_test seed 0: exit $?" >> $S; GPULZ_TEST_SEED=1 ./h5tests/gpu_codec_test > $W/res/gct1.log 2>&1; echo "gpu_codec_test seed 1: exit $?" >> $S ) &
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 256 fast 5) >> $S 2>&1; done; done
log probed
M=sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__inst_executed.max,gpu__time_duration.sum,smsp__cycles_active.max,launch__registers_per_thread
for v in prev new; do (cd $W/$v/gpulz-* && timeout 100 ncu --clock-control none -k regex:"encode_kernel|decode_kernel" -c 4 --metrics $M ./probe2 $W/gq.u16 1 fast 1 > $W/res/ncu-1mb-$v.txt 2>&1); echo "ncu $v exit $?" >> $S
  grep -E "gpu_v2_|duration|inst_executed|cycles_active|registers" $W/res/ncu-1mb-$v.txt | sed "s/^/$v /" | head -16 >> $S; done
cuobjdump -sass -fun '_Z20gpu_v2_encode_kernelILj2ELb0ELj32EEv10gpu_v2_jobPh' kernels/.libs/gpu_v2_launch.o > $W/res/enc-2-32.sass 2>&1
cuobjdump -sass -fun '_Z20gpu_v2_decode_kernelILj4EEv10gpu_v2_jobPKh' kernels/.libs/gpu_v2_launch.o > $W/res/dec-4.sass 2>&1
log done
tar czf $OUT/res.tgz -C $W res
