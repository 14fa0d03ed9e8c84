#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r172: c171ph's phase marks with glibc's heap kept (no trimming, no mmap for large blocks) against
# the defaults, alternating: do the host's model phases pay for page faults of freed and
# re-allocated memory? Then h5bench auto and 0.1 (c170 as built, 1 MiB pieces) both ways
START=$(date +%s); R=$PWD; W=/tmp/w172; rm -rf $W; mkdir -p $W/res $W/new $W/v01 $W/hb
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
( cd $W/new && tar xzf $R/.dk/c171ph.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 libgpulz.la && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; } &
( cd $W/hb && tar xzf $R/.dk/c170.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 libgpulz.la && make -j8 bench/h5bench test-plugins/libH5Zgpulz.so ) > $W/res/build-hb.log 2>&1 || { echo "BUILD hb FAILED" >> $S; tail -30 $W/res/build-hb.log >> $S; } &
wait
log built
D=$(echo $W/new/gpulz-*); C=$W/corpus
KEEP="MALLOC_TRIM_THRESHOLD_=4294967295 MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TOP_PAD_=67108864"
for r in 1 2; do for k in dflt keep; do E=$([ $k = keep ] && echo "$KEEP")
for a in levitus_temp_q1e-4:1024 coads_uwnd_q1e-3:380; do for m in auto fast; do
  env $E $D/probe3 $C/${a%%:*}.u16 ${a##*:} $m 25 2> $W/res/ph-$k$r-${a%%:*}-$m.log | sed "s/^/$k $r: /" >> $S
done; done; done; done
python3 $R/.dk/phases.py $W/res/ph-*.log >> $S
log probed
H=$(echo $W/hb/gpulz-*)
for r in 1 2; do for k in dflt keep; do E=$([ $k = keep ] && echo "$KEEP")
  ( cd $H && env $E HDF5_PLUGIN_PATH=$H/test-plugins timeout 100 ./bench/h5bench --manifest $C/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$k$r.csv 2>>$W/res/h5bench-$k.err ); echo "h5bench $k $r exit $?" >> $S
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
log done
tar czf $OUT/res.tgz -C $W res
