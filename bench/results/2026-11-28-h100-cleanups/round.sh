#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c5975f8 (new) against d39fab6 (base): GPU tests, the TRUNCATED rule on the GPU, format 2 speed A/B, direct-host A/B
R=$PWD; W=/tmp/w20; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/$v/gpulz-*/bench/gpu_bench ] || { tail -20 $W/res/build-$v.log >> $S; exit 9; }; done
log built
cd $W/new/gpulz-*
timeout 120 make -j16 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2 h5tests/codec_batch h5tests/codec_refdec_test h5tests/bench_direct_smoke.sh" > $W/res/check.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
GPULZ_BACKEND=gpu timeout 90 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
GPULZ_BACKEND=gpu timeout 60 ./h5tests/codec_refdec_test 300 > $W/res/refdec-gpu.log 2>&1; echo "GPULZ_BACKEND=gpu codec_refdec_test 300: exit $?" >> $S; tail -2 $W/res/refdec-gpu.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for round in 1 2; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 40 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$round.csv 2>>$W/res/bench.err )
  echo "-- gpu_bench v2 $v round $round" >> $S; grep "S2" $W/res/v2-$v-$round.csv >> $S
done; done
log timed
for m in auto lz; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 40 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --paths direct-host --csv $W/res/h5d-$m-$v.csv > $W/res/h5d-$m-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$m-$v.txt | sed "s/^/$m $v: /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
