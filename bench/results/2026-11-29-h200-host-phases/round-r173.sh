#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r173: c173 (auto's ratio tokens queued after fast's coder, fast's DELTA/SPLIT choice kept in the
# memo for ratio) against c169 (68bc7cd): host-API and device-API calls alternating, h5bench auto
# beside 0.1, 256 MB auto; then the whole make check with gpu_sanitizer.sh and the GPULZ_BACKEND=gpu set
START=$(date +%s); R=$PWD; W=/tmp/w173; rm -rf $W; mkdir -p $W/new $W/prev $W/v01 $W/res $W/gq $W/gset
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
for v in new prev; do T=$([ $v = new ] && echo c173 || echo c169)
( cd $W/$v && tar xzf $R/.dk/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j6 libgpulz.la gpulz && make -j6 bench/h5bench bench/gpu_bench test-plugins/libH5Zgpulz.so $([ $v = new ] && echo check TESTS=) && gcc -O2 -Ikernels $R/.dk/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
( cd $W/gset && tar xzf $R/.dk/c173.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 && make -j3 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*); C=$W/corpus
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  for a in levitus_temp_q1e-4:1024 navy_uwnd_q1e-4:1024 coads_uwnd_q1e-3:380 etopo5_q1e-4:4096 etopo5_q1e-4:16384; do
    $D/probe3 $C/${a%%:*}.u16 ${a##*:} auto,ratio,fast 21 2>&1 | sed "s/^/$v $r ${a%%:*}: /" >> $S
  done
  for f in levitus_temp_q1e-4 etopo5_q1e-4; do for mb in 1 4; do
    $D/probe2 $C/$f.u16 $mb auto 21 2>&1 | sed "s/^/$v $r dev $f: /" >> $S
  done; done
done; done
log probed
$P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 90 ./bench/gpu_bench --csv --v2 --manifest $W/gq/MANIFEST --repeats 5 > $W/res/v2-$v.csv 2>>$W/res/bench.err )
  grep -h "auto S2" $W/res/v2-$v.csv | sed "s/^/$v 256M: /" >> $S
done
log benched
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 100 ./bench/h5bench --manifest $C/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$v$r.csv 2>>$W/res/h5bench-$v.err ); echo "h5bench $v $r exit $?" >> $S
done; done
python3 - $W/res/h5bench-*.csv >> $S <<'PY'
import csv, sys, math
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
for f in sys.argv[1:]:
    by = {}
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok': by.setdefault((r['dataset'], r['chunk_mib']), {})[r['filter']] = r
    for mib in ('1', '4'):
        w = []; rd = []; aw = []; ar = []; bw = []; br = []
        for (d, c), v in by.items():
            if c != mib or 'gpulz-auto-gpu' not in v or 'gpulz-0.1-gpu' not in v: continue
            a, b = v['gpulz-auto-gpu'], v['gpulz-0.1-gpu']
            w.append(float(a['write_gbs']) / float(b['write_gbs'])); rd.append(float(a['read_gbs']) / float(b['read_gbs']))
            aw.append(float(a['write_gbs'])); ar.append(float(a['read_gbs'])); bw.append(float(b['write_gbs'])); br.append(float(b['read_gbs']))
        print(f"{f.split('/')[-1]} {mib} MiB: auto write {g(aw):.3f} read {g(ar):.3f}, 0.1 write {g(bw):.3f} read {g(br):.3f} GB/s; auto / 0.1 write {g(w):.3f} read {g(rd):.3f} ({len(w)})")
PY
log h5bench
cd $N
( timeout 420 make -j10 check > $W/res/check.log 2>&1; echo "make check (all, with gpu_sanitizer.sh) exit $?" >> $S ) &
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
mkdir -p $W/res/tests $W/res/gtests && cp h5tests/*.log $W/res/tests/ 2>/dev/null; cp $W/gset/gpulz-*/h5tests/*.log $W/res/gtests/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
