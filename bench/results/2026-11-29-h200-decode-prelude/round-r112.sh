#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c114 (decompression's streams opened on the header's 64 KB where their table and directory lie there, built in
# place in the pinned staging, sent in one copy) against c111 (main d9efe3c): new's make check w/o sanitizer, gct seeds
# 13 and 14, the GPULZ_BACKEND=gpu set, memcheck quick; probe2 alternating at 256/16/4/1 MB; ncu of the decoder;
# a host timeline of c114t (c114 with trace points)
START=$(date +%s); R=$PWD; W=/tmp/w112; rm -rf $W; mkdir -p $W/prev $W/new $W/tr $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new tr; do T=c114; [ $v = prev ] && T=c111; [ $v = tr ] && T=c114t
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j6 && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j6 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); TR=$(echo $W/tr/gpulz-*)
cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures\|checksum trials" h5tests/gpu_codec_test.log | tail -3 >> $S; tail -1 h5tests/codec_stream_prefix.log >> $S
log checked
( GPULZ_TEST_SEED=13 ./h5tests/gpu_codec_test > $W/res/gct13.log 2>&1; echo "gpu_codec_test seed 13: exit $?" >> $S ) &
( GPULZ_TEST_SEED=14 ./h5tests/gpu_codec_test > $W/res/gct14.log 2>&1; echo "gpu_codec_test seed 14: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 256 fast,auto 7 && ./probe2 $W/gq.u16 16 fast,auto 21 && ./probe2 $W/gq.u16 4 fast,auto 31 && ./probe2 $W/gq.u16 1 fast,auto,ratio 31) >> $S 2>&1; done; done
log probed
cd $TR
for mb in 256 1; do for m in fast auto; do
  GPULZ_TRACE=1 ./probe2 $W/gq.u16 $mb $m 5 > $W/res/trace-$m-$mb.txt 2>&1
  echo "-- trace $m $mb (last decompress)" >> $S
  grep "|" $W/res/trace-$m-$mb.txt | tail -1 >> $S; grep -v "|" $W/res/trace-$m-$mb.txt >> $S
done; done
log traced
cd $N
LEFT=$((500 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
