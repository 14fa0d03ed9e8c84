#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# candidate c71 (new: the coder's units of a batch of full rows loaded at constant distances from one address) against
# 8848bbd (prev) on the H200: new's bytes (gpu_codec_test seeds 0, 1), the GPU set; probe2 1/4/16/256 MB alternating
# twice; memcheck of gpu_codec_test (quick) last, in what time is left
START=$(date +%s); R=$PWD; W=/tmp/w71; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c67; [ $v = new ] && T=c71
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( ./h5tests/gpu_codec_test > $W/res/gct0.log 2>&1; echo "gpu_codec_test seed 0: exit $?" >> $S ) &
( GPULZ_TEST_SEED=1 ./h5tests/gpu_codec_test > $W/res/gct1.log 2>&1; echo "gpu_codec_test seed 1: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 100 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 256 fast,auto 5) >> $S 2>&1; done; done
log probed
LEFT=$((280 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
