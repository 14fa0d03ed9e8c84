#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c111 (walk-fix-words: gpulz_walk_fix clears marks a word at a time) against c110 (main 618524f): new's make check
# w/o sanitizer, gct seeds 10 and 11, the GPULZ_BACKEND=gpu set, memcheck quick; ncu of the tokeniser (ratio) and the
# format 1 encoder (lz) on run-heavy corpus arrays and gen quant; probe2 alternating; nsys of fast 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w110; rm -rf $W; mkdir -p $W/prev $W/new $W/res $W/c
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; which nsys ncu >> $S 2>&1
for v in prev new; do T=c111; [ $v = prev ] && T=c110
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
for a in levitus_salt_q1e-2 etopo5_q1e-2 coads_uwnd_q1e-2 navy_uwnd_q1e-2 levitus_temp_q1e-3; do xz -dc $R/.dev/corpus/$a.u16.xz > $W/c/$a.u16; done
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
( GPULZ_TEST_SEED=10 ./h5tests/gpu_codec_test > $W/res/gct10.log 2>&1; echo "gpu_codec_test seed 10: exit $?" >> $S ) &
( GPULZ_TEST_SEED=11 ./h5tests/gpu_codec_test > $W/res/gct11.log 2>&1; echo "gpu_codec_test seed 11: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for f in levitus_salt_q1e-2 etopo5_q1e-2 coads_uwnd_q1e-2 navy_uwnd_q1e-2 levitus_temp_q1e-3; do for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/c/$f.u16 64 ratio,lz 1 > $W/res/ncu-$v-$f.txt 2>&1 )
  echo "ncu $v $f (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$f.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
for v in prev new; do for mb in 4 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$v-q$mb.txt 2>&1 )
  echo "ncu $v quant $mb MB (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-q$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && for f in levitus_salt_q1e-2 etopo5_q1e-2 coads_uwnd_q1e-2; do ./probe2 $W/c/$f.u16 64 auto,ratio,lz 21; done; ./probe2 $W/gq.u16 256 auto 3) >> $S 2>&1; done; done
log probed
if which nsys >/dev/null 2>&1; then cd $N
  timeout 60 nsys profile -t cuda,osrt -o $W/res/fast256 ./probe2 $W/gq.u16 256 fast 5 > $W/res/nsys.log 2>&1
  timeout 60 nsys stats -q --report cuda_gpu_trace,cuda_api_trace --format csv -o $W/res/fast256 $W/res/fast256.nsys-rep >> $W/res/nsys.log 2>&1
  echo "nsys exit $?" >> $S; ls $W/res | grep fast256 >> $S
fi
log nsys
LEFT=$((560 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
rm -f $W/res/*.sqlite
tar czf $OUT/res.tgz -C $W res
