#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c129 (main: the put's word count after its offsets): HDF5's filter path, auto beside gpulz 0.1 (e30df4c's plugin),
# h5bench over the 21 quantization-code arrays at 1, 4 and 16 MiB, twice; h5direct_bench auto at 1, 4 and 16 MiB.
START=$(date +%s); R=$PWD; W=/tmp/w132; rm -rf $W; mkdir -p $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j6 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
( cd $W/new && tar xzf $R/.dk/c129.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j10 && make -j10 bench/h5bench bench/h5direct_bench test-plugins/libH5Zgpulz.so ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
wait
log built
D=$(echo $W/new/gpulz-*)
for r in 1 2; do
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 200 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$r.csv 2>>$W/res/h5bench-$r.err ); echo "h5bench $r exit $?" >> $S
done
log h5bench
python3 - $W/res/h5bench-1.csv $W/res/h5bench-2.csv >> $S <<'PY'
import csv, sys, math
for f in sys.argv[1:]:
    rows = list(csv.DictReader(open(f)))
    by = {}
    for r in rows:
        if r['status'] != 'ok': continue
        by.setdefault((r['dataset'], r['chunk_mib']), {})[r['filter']] = r
    for mib in ('1', '4', '16'):
        w = []; rd = []
        for (d, c), v in by.items():
            if c != mib or 'gpulz-auto-gpu' not in v or 'gpulz-0.1-gpu' not in v: continue
            a, b = v['gpulz-auto-gpu'], v['gpulz-0.1-gpu']
            w.append(float(a['write_gbs']) / float(b['write_gbs'])); rd.append(float(a['read_gbs']) / float(b['read_gbs']))
        g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
        print(f"{f.split('/')[-1]} {mib} MiB: {len(w)} arrays, auto / 0.1 geomean write {g(w):.3f} read {g(rd):.3f}")
PY
( cd $D && timeout 120 ./bench/h5direct_bench --files memory --chunks 1,4,16 --repeats 3 --mode auto --paths direct-host,direct-device,filter > $W/res/h5d.txt 2>&1 ); echo "h5direct exit $?" >> $S
grep -h "h5direct_bench: memory" $W/res/h5d.txt >> $S
log done
cp $W/res/h5bench-*.csv $OUT/ 2>/dev/null
tar czf $OUT/res.tgz -C $W res
