#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c91: the decoder checksum with one transpose, many segments only; vs c88
# new's make check w/o sanitizer, gct seeds 1,2, GPU set; probe3 alternating prev/new/new-apart/new5 (CK blocks 5);
# ramp (DELTA) data; ncu of the decoder and checksum kernels; memcheck quick
START=$(date +%s); R=$PWD; W=/tmp/w91; rm -rf $W; mkdir -p $W/prev $W/new $W/new5 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new new5; do T=c91; [ $v = prev ] && T=c88; X=; [ $v = new5 ] && X="CPPFLAGS=-DGPU_V2_DEC_CK_BLOCKS_SM=5"
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $X && make -j6 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v != prev ]; then gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz_core.a -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -lpthread -lm -lstdc++; fi && if [ $v = new ]; then make -j6 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures\|checksum trials" h5tests/gpu_codec_test.log | tail -5 >> $S
log checked
( GPULZ_TEST_SEED=1 ./h5tests/gpu_codec_test > $W/res/gct1.log 2>&1; echo "gpu_codec_test seed 1: exit $?" >> $S ) &
( GPULZ_TEST_SEED=2 ./h5tests/gpu_codec_test > $W/res/gct2.log 2>&1; echo "gpu_codec_test seed 2: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures\|checksum trials" $W/res/gct*.log | tail -8 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16; ./gpulz gen ramp 256M -o $W/ramp.u16
for r in 1 2 3; do for v in prev new apart new5; do echo "-- $v $r" >> $S; D=$v; P=probe3; E=; [ $v = prev ] && P=probe2; [ $v = apart ] && { D=new; E="PROBE_APART=1"; }
  (cd $W/$D/gpulz-* && env $E ./$P $W/gq.u16 1 fast,auto 41 && env $E ./$P $W/gq.u16 4 fast 21 && env $E ./$P $W/gq.u16 16 fast 11 && env $E ./$P $W/gq.u16 256 fast,auto 7 && env $E ./$P $W/gq.u16 256 fast 7 1 && env $E ./$P $W/ramp.u16 256 fast 7) >> $S 2>&1; done; done
log probed
for v in prev new new5; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active -k regex:"decode_kernel|checksum_kernel|undelta" ./probe2 $W/gq.u16 256 fast 1 > $W/res/ncu-$v.txt 2>&1 )
  echo "ncu $v 256 MB:" >> $S; grep -E "^  [a-z_0-9<>:, ]+\(|gpu__time_duration|registers|warps_active" $W/res/ncu-$v.txt | awk '{print $1, $NF}' | tr '\n' ' ' >> $S; echo >> $S
done
log ncu
LEFT=$((560 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
