#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r151: main (1236413, c151) on the GPU: whole make check with gpu_sanitizer.sh, the
# GPULZ_BACKEND=gpu set (separate tree, beside it); before them, on an idle machine, direct chunk
# I/O (auto, memory file, 4 and 16 MiB) with batches of 256, 512 and 1024 MiB (c151x: c151 with
# GPULZ_EXP_BATCH_MIB read by gpulz_batch_chunks, experiment only)
START=$(date +%s); R=$PWD; W=/tmp/w151; rm -rf $W; mkdir -p $W/new $W/gset $W/exp $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dk/c151.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 && make -j6 check TESTS= ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/gset && tar xzf $R/.dk/c151.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
( cd $W/exp && tar xzf $R/.dk/c151x.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 bench/h5direct_bench ) > $W/res/build-exp.log 2>&1 || { echo "BUILD exp FAILED" >> $S; tail -30 $W/res/build-exp.log >> $S; } &
wait
log built
cd $W/exp/gpulz-*
timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device,filter --csv $W/res/h5d-256-0.csv > $W/res/h5d-256-0.txt 2>&1; echo "h5direct 256 (with filter) exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d-256-0.txt >> $S
for r in 1 2; do for b in 512 1024 256; do
  GPULZ_EXP_BATCH_MIB=$b timeout 60 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device --csv $W/res/h5d-$b-$r.csv > $W/res/h5d-$b-$r.txt 2>&1; echo "batch $b MiB run $r exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$b-$r.txt | sed "s/^/$b: /" >> $S
done; done
log benched
cd $W/new/gpulz-*
( timeout 400 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait $CP
cd $W/new/gpulz-*
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|sampled DELTA\|edge" h5tests/gpu_codec_test.log | tail -14 >> $S
tail -n 8 h5tests/gpu_sanitizer.sh.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
