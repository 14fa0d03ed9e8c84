#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the decoder's table as one 64-bit entry a slot and blocks of 8 segments on large chunks (cand2), the same with
# blocks of 4 (var), against 291d2b0 (prev) on the H200: GPU tests of cand2; gpu_bench --v2 256 MB alternating
# twice; probe2 256/16/4/1 MB; ncu kernel times of fast at 256 and 1 MB; memcheck of gpu_codec_test (quick)
START=$(date +%s); R=$PWD; W=/tmp/w52; rm -rf $W; mkdir -p $W/prev $W/cand2 $W/var $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
cp $R/.dev/cand.tar.gz $W/prev.tar.gz; cp $R/.dev/cand2.tar.gz $W/cand2.tar.gz; cp $R/.dev/cand2.tar.gz $W/var.tar.gz
for v in prev cand2 var; do
  ( cd $W/$v && tar xzf $W/$v.tar.gz && cd gpulz-* && N=$PWD && if [ $v = var ]; then sed -i 's/define GPU_V2_DEC_WARPS_MANY 8/define GPU_V2_DEC_WARPS_MANY 4/' kernels/gpu_v2.h; grep -c "DEC_WARPS_MANY 4" kernels/gpu_v2.h; fi && ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 bench/gpu_bench $([ $v = cand2 ] && echo "h5tests/gpu_codec_test h5tests/codec_refdec_test") && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = cand2 ]; then make -j5 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
done
wait
log built
N=$(echo $W/cand2/gpulz-*)
cd $N
for seed in 0 1; do
  ( if [ $seed = 0 ]; then ./h5tests/gpu_codec_test; else GPULZ_TEST_SEED=$seed ./h5tests/gpu_codec_test; fi > $W/res/gpu_codec_test-$seed.log 2>&1; echo "gpu_codec_test seed $seed: exit $?" >> $S ) &
done
( GPULZ_BACKEND=gpu timeout 100 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S ) &
wait
for seed in 0 1; do grep -h "failures" $W/res/gpu_codec_test-$seed.log | tail -1 | sed "s/^/seed $seed: /" >> $S; done
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
log tested
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in prev var cand2; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r: /" >> $S
done; done
log benched
for r in 1 2; do for v in prev var cand2; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq/genquant.u16 256 fast,auto 5 && ./probe2 $W/gq/genquant.u16 16 fast,auto 11 && ./probe2 $W/gq/genquant.u16 4 fast,auto 21 && ./probe2 $W/gq/genquant.u16 1 fast,auto 21) >> $S 2>&1; done; done
log probed
for v in prev var cand2; do for mb in 256 1; do ( cd $W/$v/gpulz-* && timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv ./probe2 $W/gq/genquant.u16 $mb fast 1 > $W/res/ncu-$v-$mb.csv 2>> $W/res/ncu.err )
  grep -h "decode_kernel\|checksum_kernel" $W/res/ncu-$v-$mb.csv | awk -F'","' '{print "'$v' '$mb' MB " substr($5,1,40) " " $NF}' >> $S
done; done
log ncu
left=$((580 - $(date +%s) + START))
[ $left -gt 20 ] && { GPULZ_TEST_QUICK=1 timeout $left /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck exit $?" >> $S; tail -4 $W/res/memcheck.log >> $S; }
log done
tar czf $OUT/res.tgz -C $W res
