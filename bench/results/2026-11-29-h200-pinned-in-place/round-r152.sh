#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r152: c152 (12b1ec3: host batches copy pinned chunks in place) against c151 (1236413):
# gpu_batch_test (pinned_host), the GPU set, memcheck of gpu_batch_test; h5direct_bench auto
# 4 and 16 MiB, memory file: c152 pageable and --pinned, c151 pageable, alternating
START=$(date +%s); R=$PWD; W=/tmp/w152; rm -rf $W; mkdir -p $W/new $W/prev $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c152.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 check TESTS= && make -j10 bench/h5direct_bench ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/prev && tar xzf $R/.dk/c151.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 libgpulz.la libh5gpulz.la && make -j6 bench/h5direct_bench ) > $W/res/build-prev.log 2>&1 || { echo "BUILD prev FAILED" >> $S; tail -30 $W/res/build-prev.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
cd $N
timeout 120 ./h5tests/gpu_batch_test > $W/res/gpu_batch_test.log 2>&1; echo "gpu_batch_test exit $?" >> $S
grep -h "pinned\|check failed" $W/res/gpu_batch_test.log | head -8 >> $S
log tested
for r in 1 2; do
  for v in new pinned prev; do D=$N; opt=; paths=direct-host,direct-device; [ $v = prev ] && D=$P; [ $v = pinned ] && opt=--pinned && paths=direct-host
    [ $v = new ] && [ $r = 1 ] && paths=direct-host,direct-device,filter
    ( cd $D && timeout 80 ./bench/h5direct_bench $opt --files memory --chunks 4,16 --repeats 3 --mode auto --paths $paths --csv $W/res/h5d-$v-$r.csv > $W/res/h5d-$v-$r.txt 2>&1 ); echo "$v run $r exit $?" >> $S
    grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v: /" >> $S
  done
done
log benched
( cd $N && GPULZ_BACKEND=gpu timeout 200 make -j8 check TESTS="h5tests/codec_batch h5tests/h5_direct h5tests/h5_gpu h5tests/codec_v2 h5tests/bench_direct_smoke.sh h5tests/gpu_multidev_test" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S; grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S ) &
( cd $N && GPULZ_TEST_QUICK=1 timeout 250 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_batch_test > $W/res/memcheck-batch.log 2>&1; echo "memcheck gpu_batch_test: exit $?" >> $S; tail -n 2 $W/res/memcheck-batch.log >> $S ) &
wait
log done
cp $N/h5tests/*.log $W/res/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
