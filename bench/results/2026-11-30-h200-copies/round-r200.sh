#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r200: c200 (1e9fb1b, batches of 32 chunks larger than 8 MiB up to 512 MiB) beside c198
# (590bc18, 256 MiB batches): h5direct_bench, auto, 1 GiB of codes, memory file, 4 and 16 MiB
# chunks, the filter path, direct-host and direct-device, alternating twice; then c200's
# batch tests with GPULZ_BACKEND=gpu
START=$(date +%s); R=$PWD; W=/tmp/w200; rm -rf $W; mkdir -p $W/old $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
bld() { ( cd $W/$1 && tar xzf $R/.dk/$2.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res/build-$1.log 2>&1 || { echo "BUILD $1 FAILED" >> $S; tail -30 $W/res/build-$1.log >> $S; }; }
bld old c198 & bld new c200 &
wait
log built
run() { # name build
  timeout 90 $W/$2/gpulz-*/bench/h5direct_bench --files memory --chunks 4,16 --mode auto --paths filter,direct-host,direct-device --repeats 3 --csv $W/res/r200-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory\|NOT met\|: met" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /; s/^/$1 /" >> $S
}
for p in 1 2; do run old$p old; run new$p new; done
log benched
cd $W/new/gpulz-*
GPULZ_BACKEND=gpu timeout 150 make -j4 check TESTS="h5tests/codec_batch h5tests/h5_direct h5tests/gpu_batch_test h5tests/bench_direct_smoke.sh h5tests/h5_gpu" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
log done
cp h5tests/*.log $W/res/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
