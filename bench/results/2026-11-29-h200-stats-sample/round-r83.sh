#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# candidate c83 (statistics: window from a sample, counts + own range in one pass) against c81 (prev) on the H200:
# new's whole make check without the sanitizer test, gpu_codec_test seeds 1 and 2, the GPU set; probe2 alternating;
# ncu of the statistics kernels at 256 MB and 1 MB; memcheck and racecheck of gpu_codec_test (quick)
START=$(date +%s); R=$PWD; W=/tmp/w83; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c81; [ $v = new ] && T=c83
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures" h5tests/gpu_codec_test.log | tail -4 >> $S
log checked
( GPULZ_TEST_SEED=1 ./h5tests/gpu_codec_test > $W/res/gct1.log 2>&1; echo "gpu_codec_test seed 1: exit $?" >> $S ) &
( GPULZ_TEST_SEED=2 ./h5tests/gpu_codec_test > $W/res/gct2.log 2>&1; echo "gpu_codec_test seed 2: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -6 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto 41 && ./probe2 $W/gq.u16 4 fast 21 && ./probe2 $W/gq.u16 16 fast 11 && ./probe2 $W/gq.u16 256 fast,auto 7) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 256 1; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"range2|count2|hist2|pack2" ./probe2 $W/gq.u16 $mb fast 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (us):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '{print $NF}' | tr '\n' ' ') >> $S
  grep -E "^  [a-z_0-9]+_kernel" $W/res/ncu-$v-$mb.txt | awk '{print $1}' | tr '\n' ' ' >> $S; echo >> $S
done; done
log ncu
LEFT=$((540 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log memcheck
LEFT=$((580 - $(date +%s) + START)); echo "racecheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=2 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/racecheck.log 2>&1; echo "racecheck gpu_codec_test quick 2: exit $?" >> $S
tail -n 3 $W/res/racecheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
