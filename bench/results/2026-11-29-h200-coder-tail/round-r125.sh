#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c125 (c124 with the look-back reading the sizes from the words, nearest first, back to the nearest published place:
# no block waits on another) against c120 (main): tests on new (memcheck too); gpu_bench alternating; host and device
# timeline (c120 + trace125.patch); h5direct_bench alternating
START=$(date +%s); R=$PWD; W=/tmp/w125; rm -rf $W; mkdir -p $W/prev $W/new $W/tr $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new tr; do T=c125; [ $v = prev ] && T=c120; [ $v = tr ] && T=c120
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && { [ $v != tr ] || patch -s -p1 < $R/.dk/trace125.patch; } && ./configure -q --with-cuda-arch=90 && make -j6 && make -j6 bench/gpu_bench bench/h5direct_bench && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j6 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); TR=$(echo $W/tr/gpulz-*)
mkdir -p $W/gq && $N/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick (first): exit $?" >> $S )
grep -h "failures" $W/res/gctq.log | tail -4 >> $S
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
( GPULZ_TEST_SEED=25 ./h5tests/gpu_codec_test > $W/res/gct25.log 2>&1; echo "gpu_codec_test seed 25: exit $?" >> $S ) &
( GPULZ_TEST_SEED=26 ./h5tests/gpu_codec_test > $W/res/gct26.log 2>&1; echo "gpu_codec_test seed 26: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct25.log $W/res/gct26.log | tail -8 >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 1 $W/res/memcheck.log >> $S
log tested
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
  for mb in 4 1; do ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first $mb --manifest $W/gq/MANIFEST --repeats 15 > $W/res/v2-$v-$r-$mb.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r-$mb.csv | sed "s/^/$v $r ${mb}M: /" >> $S; done
done; done
log benched
for mb in 256 4 1; do echo "-- trace fast $mb (last compress, last decompress)" >> $S
( cd $TR && GPULZ_TRACE=1 ./probe2 $W/gq/genquant.u16 $mb fast 9 > $W/res/tr$mb.out 2> $W/res/tr$mb.err; tail -4 $W/res/tr$mb.err >> $S; tail -1 $W/res/tr$mb.out >> $S ); done
log traced
for v in prev new; do for mb in 256 1; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"put_kernel|scan_kernel|sizes_kernel|encode_kernel" --metrics gpu__time_duration.sum ./probe2 $W/gq/genquant.u16 $mb fast 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ' >> $S
done; done
log ncu
for r in 1; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 90 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device,filter > $W/res/h5d-$v-$r.txt 2>&1 ); echo "h5direct $v $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
