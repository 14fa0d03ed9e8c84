#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c93 (checksum of the whole blocks in count2) vs c92 (decoder checksum): tests, probes, ncu
START=$(date +%s); R=$PWD; W=/tmp/w93; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; which nsys ncu >> $S 2>&1
for v in prev new; do T=c93; [ $v = prev ] && T=c92
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then gcc -O2 -Ikernels $R/.dev/probe3.c -o probe3 .libs/libgpulz_core.a -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -lpthread -lm -lstdc++ && make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
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
( GPULZ_TEST_SEED=3 ./h5tests/gpu_codec_test > $W/res/gct3.log 2>&1; echo "gpu_codec_test seed 3: exit $?" >> $S ) &
( GPULZ_TEST_SEED=4 ./h5tests/gpu_codec_test > $W/res/gct4.log 2>&1; echo "gpu_codec_test seed 4: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures\|checksum trials" $W/res/gct*.log | tail -8 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16; ./gpulz gen ramp 256M -o $W/ramp.u16
for r in 1 2 3; do for v in prev new apart; do echo "-- $v $r" >> $S; D=$v; P=probe3; E=; [ $v = prev ] && P=probe2; [ $v = apart ] && { D=new; E="PROBE_APART=1"; }
  (cd $W/$D/gpulz-* && env $E ./$P $W/gq.u16 1 fast,auto 41 && env $E ./$P $W/gq.u16 4 fast 21 && env $E ./$P $W/gq.u16 16 fast,auto 11 && env $E ./$P $W/gq.u16 256 fast,auto 7) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 1 16 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread -k regex:"count2|checksum|encode_kernel" ./probe2 $W/gq.u16 $mb fast 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration|registers_per" $W/res/ncu-$v-$mb.txt | awk '/duration|registers/{print $NF} !/duration|registers/{print $1}' | paste -sd' ' >> $S
done; done
log ncu
LEFT=$((560 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
rm -f $W/res/*.nsys-rep $W/res/*.sqlite
tar czf $OUT/res.tgz -C $W res
