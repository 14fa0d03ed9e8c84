#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Note: this round copied more files to $OUT than come back, so its summary.txt was lost; the CSVs and logs came
# back from the same (still held) machine by a second command, and probe2 was run again there at once (r113-probe2.txt).
# c115 (4fd1c93's decoding prelude + the statistics' areas zeroed in one call, the checksum in line up to 32 MB and
# without a memset of its own) against c111 (d9efe3c, main at the session's start): new's make check w/o sanitizer,
# gct seeds 15 and 16, the GPULZ_BACKEND=gpu set, memcheck quick; probe2 alternating; gpu_bench --v2 alternating
# beside nvcomp_bench (gen quant 256M); h5bench (auto beside 0.1, 21 arrays, 1/4/16 MiB) and h5direct_bench alternating
START=$(date +%s); R=$PWD; W=/tmp/w113; rm -rf $W; mkdir -p $W/prev $W/new $W/v01 $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
for v in prev new; do T=c115; [ $v = prev ] && T=c111
  opt=; [ $v = new ] && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j6 && make -j6 bench/gpu_bench bench/h5bench bench/h5direct_bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j6 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures\|checksum trials" h5tests/gpu_codec_test.log | tail -3 >> $S
log checked
( GPULZ_TEST_SEED=15 ./h5tests/gpu_codec_test > $W/res/gct15.log 2>&1; echo "gpu_codec_test seed 15: exit $?" >> $S ) &
( GPULZ_TEST_SEED=16 ./h5tests/gpu_codec_test > $W/res/gct16.log 2>&1; echo "gpu_codec_test seed 16: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 150 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures" $W/res/gct*.log | tail -4 >> $S
GPULZ_TEST_QUICK=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 1 $W/res/memcheck.log >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 7 && ./probe2 $W/gq/genquant.u16 16 fast,auto 21 && ./probe2 $W/gq/genquant.u16 4 fast,auto 31 && ./probe2 $W/gq/genquant.u16 1 fast,auto,ratio,lz 31) >> $S 2>&1; done; done
log probed
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
( cd $N && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 5 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
log benched
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 150 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$v-$r.csv 2>>$W/res/bench-$v-$r.err ); echo "h5bench $v $r exit $?" >> $S
done; done
log h5bench
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 90 ./bench/h5direct_bench --files memory --chunks 1,4,16 --repeats 3 --mode auto --paths direct-host,direct-device,filter > $W/res/h5d-$v-$r.txt 2>&1 ); echo "h5direct $v $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r /" >> $S
done; done
log done
cp $W/res/h5bench-*.csv $W/res/v2-*.csv $W/res/nvcomp.csv $W/res/h5d-*.txt $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
