#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c128 (main 7ec11ca): make check w/o sanitizer, gct quick + seed 30, GPU set, memcheck quick (the review commit's
# first GPU run).  c128b (c128 + the put's word count loaded after its offsets + the checksummed decoder held to 6
# blocks an SM, 40 registers): gct quick + seed 31, GPU set, memcheck quick.  gpu_bench --fast 256M / --v2 1M
# alternating, fast --no-checksum, nvcomp_bench ANS etc. in the same run; ncu of put and decode kernels.
START=$(date +%s); R=$PWD; W=/tmp/w128; rm -rf $W; mkdir -p $W/prev $W/new $W/res $W/nvc
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
for v in prev new; do T=c128b; opt=; [ $v = prev ] && T=c128 && opt="--with-nvcomp=$W/nvc/nvidia/libnvcomp"
  ( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 $opt && make -j8 && make -j8 bench/gpu_bench $([ $v = prev ] && echo bench/nvcomp_bench) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && make -j8 check TESTS= ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
P=$(echo $W/prev/gpulz-*); N=$(echo $W/new/gpulz-*)
mkdir -p $W/gq && $P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for v in prev new; do ( cd $W/$v/gpulz-* && GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gctq-$v.log 2>&1; echo "$v gpu_codec_test quick: exit $?" >> $S ) & done; wait
grep -h "failures" $W/res/gctq-*.log | tail -8 >> $S
cd $P
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
( cd $N && GPULZ_TEST_SEED=31 ./h5tests/gpu_codec_test > $W/res/gct31-new.log 2>&1; echo "new gpu_codec_test seed 31: exit $?" >> $S ) &
timeout 300 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "prev make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
( GPULZ_TEST_SEED=30 ./h5tests/gpu_codec_test > $W/res/gct30-prev.log 2>&1; echo "prev gpu_codec_test seed 30: exit $?" >> $S ) &
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test"
for v in prev new; do ( cd $W/$v/gpulz-* && GPULZ_BACKEND=gpu timeout 200 make -j6 check TESTS="$GS" > $W/res/check-gpu-$v.log 2>&1; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu-$v.log | sed "s/^/$v GPULZ_BACKEND=gpu /" >> $S ) & done
wait
grep -h "failures" $W/res/gct30-prev.log $W/res/gct31-new.log | tail -10 >> $S
for v in prev new; do ( cd $W/$v/gpulz-* && GPULZ_TEST_QUICK=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck-$v.log 2>&1; echo "$v memcheck gpu_codec_test quick: exit $?" >> $S; tail -n 1 $W/res/memcheck-$v.log >> $S ); done
log tested
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first 1 --manifest $W/gq/MANIFEST --repeats 15 > $W/res/v2-$v-$r-1.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r-1.csv | sed "s/^/$v $r 1M: /" >> $S
done
( cd $N && timeout 60 ./bench/gpu_bench --csv --fast --no-checksum --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fastnock-new-$r.csv 2>>$W/res/bench.err )
grep -h "S2" $W/res/fastnock-new-$r.csv | sed "s/^/new nock $r 256M: /" >> $S
done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 > $W/res/nvcomp.csv 2>>$W/res/bench.err )
cat $W/res/nvcomp.csv >> $S
log benched
for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none -k regex:"put_kernel|decode_kernel" --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active ./probe2 $W/gq/genquant.u16 256 fast 1 > $W/res/ncu-$v-256.txt 2>&1 )
  echo "ncu $v 256 MB:" >> $S; grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__time_duration|registers|warps_active" $W/res/ncu-$v-256.txt | awk '/duration|registers|warps/{print $NF} !/duration|registers|warps/{print $1}' | paste -sd' ' >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
