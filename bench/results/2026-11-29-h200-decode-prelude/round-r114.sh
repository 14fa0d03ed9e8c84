#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c116 (the place's sizes taken by its one-block scan: one launch; ratio's three token totals in one strided copy)
# against c115 (eb4e7cc): new's gpu_codec_test quick and seed 17, the GPULZ_BACKEND=gpu set, memcheck quick; probe2
# alternating at 1/4/16 MB; h5direct_bench auto at 1 and 4 MiB alternating three times
START=$(date +%s); R=$PWD; W=/tmp/w114; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c116; [ $v = prev ] && T=c115
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S ) &
( GPULZ_TEST_SEED=17 ./h5tests/gpu_codec_test > $W/res/gct17.log 2>&1; echo "gpu_codec_test seed 17: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/codec_floor" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 1 $W/res/memcheck.log >> $S
log tested
./gpulz gen quant 64M -o $W/gq.u16
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 16 fast,auto 21 && ./probe2 $W/gq.u16 4 fast,auto,ratio 31 && ./probe2 $W/gq.u16 1 fast,auto,ratio 41) >> $S 2>&1; done; done
log probed
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/h5direct_bench --files memory --chunks 1,4 --repeats 3 --mode auto --paths direct-host,direct-device > $W/res/h5d-$v-$r.txt 2>&1 ); echo "h5direct $v $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
