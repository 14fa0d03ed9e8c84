#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c101 (27a8fc2: the sweep in rounds of loads-first, the walk by a warp) against c95 (main's code): new's make check
# w/o sanitizer, gct seeds 5 and 6, the GPULZ_BACKEND=gpu set, memcheck; probe2 alternating; ncu of the tokeniser
# (ratio) and the format 1 encoder (lz) at 1, 4, 256 MB; h5direct auto alternating
START=$(date +%s); R=$PWD; W=/tmp/w101; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c101; [ $v = prev ] && T=c95
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures\|checksum trials" h5tests/gpu_codec_test.log | tail -3 >> $S; tail -2 h5tests/gpu_emulate_test.log >> $S
log checked
( GPULZ_TEST_SEED=5 ./h5tests/gpu_codec_test > $W/res/gct5.log 2>&1; echo "gpu_codec_test seed 5: exit $?" >> $S ) &
( GPULZ_TEST_SEED=6 ./h5tests/gpu_codec_test > $W/res/gct6.log 2>&1; echo "gpu_codec_test seed 6: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch h5tests/codec_corpus" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -6 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 auto,ratio,lz 21 && ./probe2 $W/gq.u16 4 auto,ratio,lz 21 && ./probe2 $W/gq.u16 16 auto,ratio,lz 11 && ./probe2 $W/gq.u16 256 auto,ratio,lz 3) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 1 4 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 100 ./bench/h5direct_bench --files memory --chunks 1,4,16 --repeats 3 --mode auto --paths direct-host,direct-device > $W/res/h5d-$v-$r.txt 2>&1; echo "h5direct $v $r exit $?" >> $S )
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v /" >> $S
done; done
log h5direct
LEFT=$((570 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
