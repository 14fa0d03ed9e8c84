#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Ran this session (third of 2026-11-30) as r202: results in summary-r202.txt and r202-*.csv.
# r202 (prepared, not run: for the next session; device kind nvidia-h200). .dk/c202x.tar.gz = `make
# dist` of main with experiment-c202-download-ring.patch applied: a host batch's outputs downloaded
# a piece at a time into a ring of GPULZ_EXP_RING pinned pieces of GPULZ_EXP_PIECE_KIB each, every
# piece copied out as it lands and the next download queued only when a piece is free (on a stream
# of its own, outputs of more than one piece only), so that a core reads pinned bytes still in the
# host's cache (unset: main's whole-output downloads).
# 1. the host batch's tests with GPULZ_BACKEND=gpu under two rings small enough that every
#    output of gpu_batch_test over a piece uses them (pieces of 4 KiB and 64 KiB, tails of every
#    length; gpu_batch_test fails if no chunk went through the ring);
# 2. h5direct_bench, 1 GiB of codes, auto, memory file, 4 and 16 MiB, direct-host and
#    direct-device: off, rings of 2 x 1 MiB, 4 x 1 MiB, 4 x 256 KiB and 2 x 256 KiB, two passes
#    while time lasts, then the filter path at 4 and 16 MiB;
# 3. memcheck of gpu_batch_test with the smallest ring, while time lasts.
START=$(date +%s); R=$PWD; W=/tmp/w202; rm -rf $W; mkdir -p $W/b $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; lscpu | grep -i "model name\|socket\|numa\|L3" >> $S; nvidia-smi topo -m >> $S 2>&1
( cd $W/b && tar xzf $R/.dk/c202x.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && make -j16 check TESTS= ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
cp -a $W/b $W/t2
log built
T="h5tests/gpu_batch_test h5tests/h5_direct h5tests/codec_batch h5tests/bench_direct_smoke.sh"
( cd $W/b/gpulz-* && GPULZ_EXP_RING=2 GPULZ_EXP_PIECE_KIB=4 GPULZ_BACKEND=gpu timeout 150 make -j4 check TESTS="$T" > $W/res/check-r2p4.log 2>&1; echo "tests ring 2 x 4 KiB exit $?" >> $S
  grep -h "^PASS\|^FAIL\|^ERROR\|^SKIP" $W/res/check-r2p4.log | sed "s/^/r2p4 /" >> $S; grep -h "ring chunks" h5tests/gpu_batch_test.log | sed "s/^/r2p4 /" >> $S ) &
( cd $W/t2/gpulz-* && GPULZ_EXP_RING=3 GPULZ_EXP_PIECE_KIB=64 GPULZ_BACKEND=gpu timeout 150 make -j4 check TESTS="$T" > $W/res/check-r3p64.log 2>&1; echo "tests ring 3 x 64 KiB exit $?" >> $S
  grep -h "^PASS\|^FAIL\|^ERROR\|^SKIP" $W/res/check-r3p64.log | sed "s/^/r3p64 /" >> $S; grep -h "ring chunks" h5tests/gpu_batch_test.log | sed "s/^/r3p64 /" >> $S ) &
wait
log tested
B=$(echo $W/b/gpulz-*/bench/h5direct_bench)
run() { # name ring piece_kib
  [ $(( $(date +%s) - START )) -gt 420 ] && { echo "$1 skipped (time)" >> $S; return; }
  GPULZ_EXP_RING=$2 GPULZ_EXP_PIECE_KIB=$3 timeout 40 $B --files memory --chunks 4,16 --mode auto --paths direct-host,direct-device --repeats 3 --csv $W/res/r202-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for p in 1 2; do run off-$p 0 1024; run r2x1m-$p 2 1024; run r4x1m-$p 4 1024; run r4x256k-$p 4 256; run r2x256k-$p 2 256; done
log benched
timeout 40 $B --files memory --chunks 4,16 --mode auto --paths filter --repeats 3 --csv $W/res/r202-filter.csv > $W/res/h5d-filter.txt 2>&1; echo "filter exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d-filter.txt | sed "s/^h5direct_bench: /filter /" >> $S
LEFT=$(( START + 570 - $(date +%s) ))
if [ $LEFT -gt 30 ]; then
  ( cd $W/b/gpulz-* && GPULZ_EXP_RING=2 GPULZ_EXP_PIECE_KIB=4 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 h5tests/gpu_batch_test > $W/res/memcheck-batch.log 2>&1; echo "memcheck gpu_batch_test (ring 2 x 4 KiB) exit $?" >> $S; tail -n 3 $W/res/memcheck-batch.log >> $S )
fi
log done
tar czf $OUT/res.tgz -C $W res
