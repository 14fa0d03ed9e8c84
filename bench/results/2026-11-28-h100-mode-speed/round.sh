#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HEAD on the GPU: the GPU tests, bench_smoke (mode_speed --backend gpu), and
# mode_speed on the GPU over the 21 quantization-code arrays at 1 and 4 MiB
R=$PWD; W=/tmp/w7; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" | tee -a $S; }
log start
nvidia-smi --query-gpu=name,driver_version --format=csv > $W/res/nvidia-smi.txt
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
cd $W/new && tar xzf $R/.dev/new.tar.gz && cd gpulz-* || exit 9
( ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/new-build.log 2>&1 || { tail -40 $W/res/new-build.log; exit 9; }
wait
log built
timeout 150 make -j4 check TESTS="h5tests/gpu_codec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/bench_smoke.sh h5tests/codec_v2" > $W/res/check.log 2>&1
GPULZ_BACKEND=gpu timeout 60 make check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S; grep -h "mode_speed\|gpu_bench" h5tests/bench_smoke.log >> $S
echo "-- under GPULZ_BACKEND=gpu" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log checked
for mib in 1 4; do
  timeout 60 ./bench/mode_speed --manifest $W/corpus/MANIFEST --backend gpu --chunk-mib $mib --repeats 3 > $W/res/mode-speed-gpu-${mib}mib.md 2>>$W/res/bench.err
  timeout 60 ./bench/mode_speed --manifest $W/corpus/MANIFEST --backend gpu --modes lz --chunk-mib $mib --repeats 3 > $W/res/mode-speed-gpu-lz-${mib}mib.md 2>>$W/res/bench.err
done
log bench
tar czf $OUT/res.tgz -C $W res
