#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r153b: c153 on the GPU: the whole make check with gpu_sanitizer.sh, and beside it (a second
# build tree) the GPULZ_BACKEND=gpu set; the trees of r153a where the machine kept them
START=$(date +%s); R=$PWD; W=/tmp/w153; mkdir -p $W/res2
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for t in new gset; do
  if [ ! -x $W/$t/gpulz-0.1.0/h5tests/gpu_codec_test ]; then
    echo "rebuilding $t" >> $S; rm -rf $W/$t; mkdir -p $W/$t
    ( cd $W/$t && tar xzf $R/.dk/c153.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= ) > $W/res2/build-$t.log 2>&1 &
  fi
done
wait
log ready
cd $W/new/gpulz-*
( timeout 420 make -j10 check > $W/res2/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res2/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res2/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait $CP
cd $W/new/gpulz-*
grep -h "^# \|^FAIL\|^ERROR" $W/res2/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|sampled DELTA\|tail piece\|refused" h5tests/gpu_codec_test.log | tail -14 >> $S
grep -h "pinned\|check failed" h5tests/gpu_batch_test.log | head -5 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res2/tests $W/res2/gtests && cp h5tests/*.log $W/res2/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res2/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res2
