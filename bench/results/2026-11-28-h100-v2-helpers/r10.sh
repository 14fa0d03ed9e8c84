#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 7fb88c3 (new: kernels refactored) against b78cdd6 (base): GPU tests, v2 speed A/B, sanitizer
R=$PWD; W=/tmp/w10; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name --format=csv,noheader >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/$v/gpulz-*/bench/gpu_bench ] || { tail -30 $W/res/build-$v.log; exit 9; }; done
log built
cd $W/new/gpulz-*
timeout 150 make -j4 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_v2" > $W/res/check.log 2>&1
GPULZ_BACKEND=gpu timeout 100 make -j4 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_read_corpus" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
echo "-- under GPULZ_BACKEND=gpu" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log checked
mkdir -p $W/gq && ./gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for round in 1 2; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 60 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$round.csv 2>>$W/res/bench.err )
  echo "-- gpu_bench v2 $v round $round" >> $S; grep "S2" $W/res/v2-$v-$round.csv >> $S
done; done
for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 60 ./bench/mode_speed --manifest $W/corpus/MANIFEST --backend gpu --modes fast,ratio,auto --chunk-mib 1 --repeats 3 > $W/res/ms-$v-1.md 2>&1 )
  echo "-- mode_speed gpu 1 MiB $v" >> $S; tail -8 $W/res/ms-$v-1.md >> $S
done
log timed
cd $W/new/gpulz-* && timeout 330 make check TESTS=h5tests/gpu_sanitizer.sh > $W/res/sanitizer.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/sanitizer.log >> $S; cat h5tests/gpu_sanitizer.sh.log >> $W/res/sanitizer.log 2>/dev/null; grep -h "clean\|FAILED" h5tests/gpu_sanitizer.sh.log >> $S
log sanitized
tar czf $OUT/res.tgz -C $W res
