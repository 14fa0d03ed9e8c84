#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c118 (ratio's token emit through gpulz_key_matches; gpu_v2_dec_undelta takes L's tail, not the job) against c115
# (eb4e7cc): new's make check w/o sanitizer, gct seed 19, the GPULZ_BACKEND=gpu set, memcheck quick; ncu of ratio's
# tokeniser (gpu_v2_lz_kernel) on gen quant 4 and 256 MB and levitus_salt_q1e-2
START=$(date +%s); R=$PWD; W=/tmp/w116; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c118; [ $v = prev ] && T=c115
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
xz -dc $R/.dk/levitus_salt_q1e-2.u16.xz > $W/ls.u16
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 200 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -8 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
( GPULZ_TEST_SEED=19 ./h5tests/gpu_codec_test > $W/res/gct19.log 2>&1; echo "gpu_codec_test seed 19: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -3 >> $S
GPULZ_TEST_QUICK=1 timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 1 $W/res/memcheck.log >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel" ./probe2 $W/gq.u16 4 ratio 1 > $W/res/ncu-$v-4.txt 2>&1
    timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel" ./probe2 $W/gq.u16 256 ratio 1 > $W/res/ncu-$v-256.txt 2>&1
    timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel" ./probe2 $W/ls.u16 64 ratio 1 > $W/res/ncu-$v-ls.txt 2>&1 )
  for k in 4 256 ls; do echo "ncu $v $k (ratio x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$k.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S; done
done
log done
tar czf $OUT/res.tgz -C $W res
