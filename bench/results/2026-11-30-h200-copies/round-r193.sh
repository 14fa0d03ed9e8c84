#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r193: c193 (391e207) on the GPU: direct chunk I/O (mode auto, 1 GiB of codes, file in memory) as it
# is, with glibc's non-temporal threshold at 256 KiB (so that the host batches' 4-16 MiB copies
# through pinned memory store without reading the destination first), and c193x (c193 with the batch
# size from GPULZ_EXP_BATCH_MIB, experiment only) at 128 and 64 MiB batches; then the
# GPULZ_BACKEND=gpu set, which covers 19f1c66/391e207 (batch rooms, least-bytes size queries)
START=$(date +%s); R=$PWD; W=/tmp/w193; rm -rf $W; mkdir -p $W/new $W/bx $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( /lib64/ld-linux-x86-64.so.2 --list-tunables 2>&1 | grep -i "non_temporal\|x86_rep_movsb\|shared_cache\|data_cache"; lscpu | grep -i "model name\|cache\|numa\|socket" ) >> $S 2>&1
( cd $W/new && tar xzf $R/.dk/c193.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/bx && tar xzf $R/.dk/c193.tar.gz && cd gpulz-* && patch -p1 < $R/.dk/batch-env.patch && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench ) > $W/res/build-bx.log 2>&1 || { echo "BUILD bx FAILED" >> $S; tail -30 $W/res/build-bx.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); BX=$(echo $W/bx/gpulz-*)
run() { # name build env paths
  local name=$1 b=$2 e=$3 p=$4
  env $e timeout 120 $b/bench/h5direct_bench --mode auto --files memory --chunks 4,16 --repeats 3 --paths $p --csv $OUT/r193-$name.csv > $W/res/h5direct-$name.txt 2>&1; echo "$name ($e) exit $?" >> $S
  grep -v "^#" $W/res/h5direct-$name.txt | sed "s/^/$name /" | head -12 >> $S
}
HP=direct-host,direct-device
for i in 1 2; do
  run base$i $N "X=1" $([ $i = 1 ] && echo filter,$HP || echo $HP)
  run nt$i $N "GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x40000" $HP
  run b128-$i $BX "GPULZ_EXP_BATCH_MIB=128" $HP
  run b64-$i $BX "GPULZ_EXP_BATCH_MIB=64" $HP
done
log benched
cd $N
GS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/h5_shuffle h5tests/codec_stack h5tests/codec_corrupt h5tests/codec_roundtrip h5tests/codec_model_ref h5tests/bench_direct_smoke.sh h5tests/codec_concurrent"
END=$(( START + 580 )); LEFT=$(( END - $(date +%s) ))
GPULZ_BACKEND=gpu timeout $LEFT make -j6 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
grep -h "failures\|FAIL\|differ\|smaller\|unranged\|picked" h5tests/gpu_codec_test.log | tail -14 >> $S
grep -h "null\|FAIL\|check failed" h5tests/gpu_batch_test.log | tail -6 >> $S
log done
mkdir -p $W/res/gtests && cp h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
