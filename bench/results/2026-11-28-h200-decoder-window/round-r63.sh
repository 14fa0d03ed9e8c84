#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c129670 on the H200: the whole make check without the sanitizer test (2e2fe0b's coder verified in a full check),
# gpu_codec_test seed 1, the GPULZ_BACKEND=gpu set; then the 1 MB diagnosis: SM clock and instructions of fast's
# coder and decoder at 1 MB and 256 MB, clocks unlocked and locked to base
START=$(date +%s); R=$PWD; W=/tmp/w63; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/h63.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures" h5tests/gpu_codec_test.log | tail -3 >> $S
log checked
( GPULZ_TEST_SEED=1 ./h5tests/gpu_codec_test > $W/res/gpu_codec_test-1.log 2>&1; echo "gpu_codec_test seed 1: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 90 make -j12 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
log tested
./gpulz gen quant 256M -o $W/gq.u16
M=sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__inst_executed.max,gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.max
for cc in none base; do
  timeout 100 ncu --clock-control $cc -k regex:"encode_kernel|decode_kernel" -c 4 --metrics $M ./probe2 $W/gq.u16 1 fast 1 > $W/res/ncu-1mb-$cc.txt 2>&1; echo "ncu 1 MB $cc exit $?" >> $S
  timeout 100 ncu --clock-control $cc -k regex:"encode_kernel|decode_kernel" -c 2 --metrics $M ./probe2 $W/gq.u16 256 fast 1 > $W/res/ncu-256mb-$cc.txt 2>&1; echo "ncu 256 MB $cc exit $?" >> $S
done
grep -E "gpu_v2_|per_second|inst_executed|duration|grid_size|block_size|registers|issue_active|cycles_active|elapsed.max" $W/res/ncu-1mb-*.txt | head -80 >> $S
for i in 1 2; do ./probe2 $W/gq.u16 1 fast,auto 51 >> $S 2>&1; ./probe2 $W/gq.u16 256 fast 5 >> $S 2>&1; done
nvidia-smi -q -d CLOCK | head -40 > $W/res/clocks.txt
log done
tar czf $OUT/res.tgz -C $W res
