#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r187: c187 (3aba597: a transform too wide to pack reaches the host without its counters; models keep
# their counts) against c186 (r186's): the GPU tests that compare the GPU's bytes with the CPU's; the
# host API (probe3) alternating on int16 coordinates and quantization codes; h5bench auto on the same
# arrays, with 0.1's filter; then the whole make check with gpu_sanitizer.sh
START=$(date +%s); R=$PWD; W=/tmp/w187; rm -rf $W; mkdir -p $W/res $W/corpus $W/v01p
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
cat .dk/g179/MANIFEST > $W/corpus/MANIFEST; grep -E "levitus_temp_q1e-4|navy_uwnd_q1e-4|etopo5_q1e-4" .dk/corpus/MANIFEST >> $W/corpus/MANIFEST
for f in .dk/g179/*.xz .dk/corpus/levitus_temp_q1e-4.u16.xz .dk/corpus/navy_uwnd_q1e-4.u16.xz .dk/corpus/etopo5_q1e-4.u16.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
for v in new prev; do T=$([ $v = new ] && echo c187 || echo c186); mkdir -p $W/$v
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j7 libgpulz.la && make -j7 bench/h5bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo check TESTS=) && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
( mkdir -p $W/v01 && cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j2 libH5Zgpulz.la && cp .libs/libH5Zgpulz.so $W/v01p/ ) > $W/res/build-v01.log 2>&1 || echo "BUILD v01 FAILED" >> $S &
wait
log built
cd $W/new/gpulz-*
GPULZ_BACKEND=gpu timeout 240 make -j8 check TESTS="h5tests/gpu_codec_test h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_corpus h5tests/codec_refdec_test h5tests/gpu_batch_test h5tests/h5_gpu h5tests/h5_direct h5tests/codec_model_ref h5tests/codec_roundtrip h5tests/h5_shuffle" > $W/res/check-gpu.log 2>&1; echo "GPU tests exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log >> $S
grep -h "failures\|FAIL\|differ\|check failed" h5tests/gpu_codec_test.log | tail -6 >> $S
cp h5tests/*.log $W/res/ 2>/dev/null
log tested
cd $R
C=$W/corpus
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for a in gshhg_lon.i16:1024 gshhg_lon.i16:4096 gshhg_lat.i16:1024 gshhg_lat.i16:4096 levitus_temp_q1e-4.u16:1024 etopo5_q1e-4.u16:4096; do
    $D/probe3 $C/${a%%:*} ${a##*:} auto,fast 15 2>&1 | sed "s/^/$v $r ${a%%:*}: /" >> $S
  done
done; done
log probed
for r in 1 2; do for v in prev new; do H=$(echo $W/$v/gpulz-*)
  B=$([ $v = new ] && echo ",gpulz-0.1-gpu --baseline-plugin $W/v01p")
  ( cd $H && HDF5_PLUGIN_PATH=$H/test-plugins timeout 120 ./bench/h5bench --manifest $C/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-auto-gpu$B > $W/res/h5bench-$v$r.csv 2>>$W/res/h5bench-$v.err ); echo "h5bench $v $r exit $?" >> $S
done; done
python3 - $W/res/h5bench-*.csv >> $S <<'PY'
import csv, sys
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        print(f.split('/')[-1], r['dataset'], r['chunk_mib'], r['filter'], r['ratio'], 'w', r['write_gbs'], 'r', r['read_gbs'], r['status'])
PY
log h5bench
cd $W/new/gpulz-*
timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "^SKIP" $W/res/check.log >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
log checked
tar czf $OUT/res.tgz -C $W res
