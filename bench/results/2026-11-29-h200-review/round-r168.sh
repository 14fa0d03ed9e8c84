#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r168: c168 (ratio's token kernel emits with every warp of the block, not warp 0 alone) against
# c166 (d1a3737): device-API probes at 1 and 4 MB alternating (ratio, auto), ratio and auto on
# 256 MB of codes, h5bench auto beside 0.1; then c168's whole make check with gpu_sanitizer.sh
# and the GPULZ_BACKEND=gpu set
START=$(date +%s); R=$PWD; W=/tmp/w168; rm -rf $W; mkdir -p $W/new $W/prev $W/v01 $W/res $W/gq
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
for v in new prev; do T=$([ $v = new ] && echo c168 || echo c166)
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j7 libgpulz.la gpulz && make -j7 bench/h5bench bench/gpu_bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo check TESTS=) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
$P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for f in levitus_temp_q1e-4 navy_uwnd_q1e-4 etopo5_q1e-4 coads_uwnd_q1e-3; do for mb in 1 4; do
    $D/probe2 $W/corpus/$f.u16 $mb ratio,auto 21 2>&1 | sed "s/^/$v $r $f: /" >> $S
  done; done; done; done
log probed
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 90 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "ratio S2\|auto S2" $W/res/v2-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
log benched
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
        w = []; rd = []; aw = []; ar = []
        for (d, c), v in by.items():
            if c != mib or 'gpulz-auto-gpu' not in v or 'gpulz-0.1-gpu' not in v: continue
            a, b = v['gpulz-auto-gpu'], v['gpulz-0.1-gpu']
            w.append(float(a['write_gbs']) / float(b['write_gbs'])); rd.append(float(a['read_gbs']) / float(b['read_gbs']))
            aw.append(float(a['write_gbs'])); ar.append(float(a['read_gbs']))
        g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
        print(f"{f.split('/')[-1]} {mib} MiB: {len(w)} arrays, auto write {g(aw):.3f} read {g(ar):.3f} GB/s; auto / 0.1 geomean write {g(w):.3f} read {g(rd):.3f}")
PY
log h5bench
mkdir -p $W/gset && cp -r $N $W/gset/
cd $N
( timeout 400 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
CP=$!
cd $W/gset/gpulz-*
GS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/codec_golden h5tests/codec_canonical h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_batch h5tests/codec_corpus h5tests/h5_gpu h5tests/codec_refdec_test h5tests/h5_types h5tests/h5_shapes h5tests/codec_stack h5tests/codec_corrupt h5tests/codec_roundtrip h5tests/bench_direct_smoke.sh"
GPULZ_BACKEND=gpu timeout 300 make -j5 check TESTS="$GS" > $W/res/check-gpu.log 2>&1; echo "GPU set exit $?" >> $S
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed "s/^/GPULZ_BACKEND=gpu /" >> $S
wait $CP
cd $N
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
grep -h "failures\|FAIL\|checksum trials\|crafted\|sound ratio" h5tests/gpu_codec_test.log | tail -10 >> $S
grep -h "check failed\|auto backend\|sizes asked" h5tests/gpu_batch_test.log | head -8 >> $S
tail -n 4 h5tests/gpu_sanitizer.log >> $S
log done
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
