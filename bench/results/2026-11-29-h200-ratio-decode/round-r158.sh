#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r158: c158 (3ceb51a, main) on the GPU: the whole make check with gpu_sanitizer.sh, and the
# GPULZ_BACKEND=gpu set in a second tree; before them, one call per mode at the corpus's small
# chunks (probe2: device API, probe3: host API as the filter calls it) and h5bench auto beside 0.1
START=$(date +%s); R=$PWD; W=/tmp/w158; rm -rf $W; mkdir -p $W/new $W/gset $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
( cd $W/new && tar xzf $R/.dk/c158.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= && make -j8 bench/h5bench test-plugins/libH5Zgpulz.so && for p in probe2 probe3; do gcc -O2 -Ikernels $R/.dk/$p.c -o $p .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs || exit 1; done ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/gset && tar xzf $R/.dk/c158.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 && make -j4 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
wait
log built
D=$(echo $W/new/gpulz-*)
for f in coads_uwnd_q1e-3 levitus_temp_q1e-4 etopo5_q1e-4 navy_uwnd_q1e-4; do
  echo "-- $f device API (probe2, 1 MB or the whole file)" >> $S; $D/probe2 $W/corpus/$f.u16 1 lz,fast,ratio,auto 41 >> $S 2>&1
  echo "-- $f host API (probe3, 1024 KB or the whole file)" >> $S; $D/probe3 $W/corpus/$f.u16 1024 lz,fast,ratio,auto 41 >> $S 2>&1
done
log probed
( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 200 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-1.csv 2>>$W/res/h5bench-1.err ); echo "h5bench exit $?" >> $S
python3 - $W/res/h5bench-1.csv >> $S <<'PY'
import csv, sys, math
for f in sys.argv[1:]:
    by = {}
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok': by.setdefault((r['dataset'], r['chunk_mib']), {})[r['filter']] = r
    for mib in ('1', '4'):
        w = []; rd = []
        for (d, c), v in by.items():
            if c != mib or 'gpulz-auto-gpu' not in v or 'gpulz-0.1-gpu' not in v: continue
            a, b = v['gpulz-auto-gpu'], v['gpulz-0.1-gpu']
            w.append(float(a['write_gbs']) / float(b['write_gbs'])); rd.append(float(a['read_gbs']) / float(b['read_gbs']))
        g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
        print(f"{mib} MiB: {len(w)} arrays, auto / 0.1 geomean write {g(w):.3f} read {g(rd):.3f}")
PY
log h5bench
cd $D
( timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
log gset
wait $CP
cd $D
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|sampled DELTA\|tail piece\|refused\|crafted" h5tests/gpu_codec_test.log | tail -16 >> $S
grep -h "pinned\|check failed\|generous" h5tests/gpu_batch_test.log | head -6 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
cp $W/res/h5bench-1.csv $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
