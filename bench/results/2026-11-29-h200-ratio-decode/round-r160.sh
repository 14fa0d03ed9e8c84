#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r160: c160 (31f93e4: ratio chunks' streams decoded at once) against c158 (3ceb51a). Probes
# alternating (device API probe2, host API probe3; 1 MB or the whole array), h5bench auto beside
# 0.1 of each build, gpu_bench --v2 on 256 MB of codes alternating; then c160's GPU tests:
# gpu_codec_test in full, gpu_sanitizer.sh (memcheck, racecheck), and the GPULZ_BACKEND=gpu set
START=$(date +%s); R=$PWD; W=/tmp/w160; rm -rf $W; mkdir -p $W/new $W/prev $W/v01 $W/res $W/gq
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
for v in new prev; do T=$([ $v = new ] && echo c160 || echo c158)
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j7 && make -j7 bench/h5bench bench/gpu_bench test-plugins/libH5Zgpulz.so && for p in probe2 probe3; do gcc -O2 -Ikernels $R/.dk/$p.c -o $p .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs || exit 1; done && if [ $v = new ]; then make -j7 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
$P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for f in coads_uwnd_q1e-3 levitus_temp_q1e-4 etopo5_q1e-4 navy_uwnd_q1e-4; do
    $D/probe2 $W/corpus/$f.u16 1 ratio,auto 41 2>&1 | sed "s/^/$v $r $f dev: /" >> $S
    $D/probe3 $W/corpus/$f.u16 1024 ratio,auto 41 2>&1 | sed "s/^/$v $r $f host: /" >> $S
  done; done; done
log probed
for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 200 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$v.csv 2>>$W/res/h5bench-$v.err ); echo "h5bench $v exit $?" >> $S
done
python3 - $W/res/h5bench-prev.csv $W/res/h5bench-new.csv >> $S <<'PY'
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
        print(f"{f.split('/')[-1]} {mib} MiB: {len(w)} arrays, auto / 0.1 geomean write {g(w):.3f} read {g(rd):.3f}")
PY
log h5bench
for r in 1; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 90 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "ratio S2\|auto S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
log benched
cd $N
( timeout 330 make -j6 check TESTS="h5tests/gpu_codec_test h5tests/gpu_sanitizer.sh h5tests/gpu_batch_test" > $W/res/check.log 2>&1; echo "GPU tests exit $?" >> $S ) &
CP=$!
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/codec_corrupt"
mkdir -p $W/gset && cp -r $N $W/gset/ && cd $W/gset/gpulz-* && GPULZ_BACKEND=gpu timeout 300 make -j4 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
wait $CP
cd $N
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check.log >> $S
grep -h "failures\|FAIL\|crafted\|sound ratio\|fell back\|careful" h5tests/gpu_codec_test.log | tail -14 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
cp $W/res/h5bench-*.csv $W/res/v2-*.csv $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
