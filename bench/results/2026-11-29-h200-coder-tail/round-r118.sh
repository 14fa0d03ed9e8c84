#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c120 (main 7 commits: ee356b3 + gpu_bench --no-checksum): make check w/o sanitizer (ee356b3's gpu_codec_test change first
# run on a GPU), gct seed 18, the GPULZ_BACKEND=gpu set, memcheck quick; gpu_bench --fast with and without the checksum,
# alternating, beside nvcomp_bench (gen quant 256M); probe6 (host time of opening a stream, 1/16/256 MB) on this host;
# a host timeline (c120 + trace points, GPULZ_TRACE) of fast 256 MB
START=$(date +%s); R=$PWD; W=/tmp/w118; rm -rf $W; mkdir -p $W/new $W/tr $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in new tr; do
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/c120.tar.gz && cd gpulz-* && N=$PWD && { [ $v = new ] || patch -s -p1 < $R/.dk/trace.patch; } && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench $([ $v = new ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels -I. $R/.dk/probe6.c -o probe6 .libs/libgpulz.so -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
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
( GPULZ_TEST_SEED=18 ./h5tests/gpu_codec_test > $W/res/gct18.log 2>&1; echo "gpu_codec_test seed 18: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct18.log | tail -4 >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 1 $W/res/memcheck.log >> $S
log tested
for r in 1 2 3; do for v in ck nock; do opt=; [ $v = nock ] && opt=--no-checksum
  ( cd $N && timeout 60 ./bench/gpu_bench --csv --fast $opt --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
( cd $N && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
( cd $N && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-ck.csv 2>>$W/res/bench.err; timeout 60 ./bench/gpu_bench --csv --v2 --no-checksum --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-nock.csv 2>>$W/res/bench.err )
grep -h "S2" $W/res/v2-*.csv >> $S
log benched
echo "-- probe6 (host open time)" >> $S
( cd $N && GPULZ_BACKEND=gpu ./probe6 $W/gq/genquant.u16 1 16 256 ) >> $S 2>&1
echo "-- trace fast 256 (last compress, last decompress)" >> $S
( cd $TR && GPULZ_TRACE=1 ./probe2 $W/gq/genquant.u16 256 fast 7 > $W/res/tr256.out 2> $W/res/tr256.err; tail -2 $W/res/tr256.err >> $S; tail -1 $W/res/tr256.out >> $S )
( cd $TR && GPULZ_TRACE=1 ./probe2 $W/gq/genquant.u16 4 fast 21 > $W/res/tr4.out 2> $W/res/tr4.err; tail -2 $W/res/tr4.err >> $S; tail -1 $W/res/tr4.out >> $S )
log done
tar czf $OUT/res.tgz -C $W res
