#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r170: c170 (c169 + GPULZ_COPY_PIECE overridable) built three ways: pageable copies and transfers
# in pieces of 1 MiB (as before), 256 KiB and 128 KiB, so that a chunk of 1 MiB or less is copied by
# several threads: host-API calls (probe3) alternating, h5bench auto, lz and 0.1 on every array
START=$(date +%s); R=$PWD; W=/tmp/w170; rm -rf $W; mkdir -p $W/res $W/v01
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S; nproc >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dk/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || { echo "BUILD v01 FAILED" >> $S; tail -20 $W/res/build-v01.log >> $S; } &
for v in p1024 p256 p128; do K=${v#p}; mkdir -p $W/$v
( cd $W/$v && tar xzf $R/.dk/c170.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 CPPFLAGS="-DGPULZ_COPY_PIECE=$((K*1024))UL" && make -j5 libgpulz.la && make -j5 bench/h5bench test-plugins/libH5Zgpulz.so && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
C=$W/corpus
for r in 1 2; do for v in p1024 p256 p128 ; do D=$(echo $W/$v/gpulz-*)
  for a in levitus_temp_q1e-4:1024 coads_uwnd_q1e-3:380 etopo5_q1e-4:4096 etopo5_q1e-4:16384; do
    $D/probe3 $C/${a%%:*}.u16 ${a##*:} lz,fast,auto 15 2>&1 | sed "s/^/$v $r ${a%%:*}: /" >> $S
  done; done; done
log probed
for v in p1024 p256 p128; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 150 ./bench/h5bench --manifest $C/MANIFEST --chunks 1,4 --repeats 3 \
    --filters gpulz-gpu,gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$v.csv 2>>$W/res/h5bench-$v.err ); echo "h5bench $v exit $?" >> $S
done
python3 - $W/res/h5bench-p1024.csv $W/res/h5bench-p256.csv $W/res/h5bench-p128.csv >> $S <<'PY'
import csv, sys, math
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
for f in sys.argv[1:]:
    by = {}
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok': by.setdefault((r['dataset'], r['chunk_mib']), {})[r['filter']] = r
    for mib in ('1', '4'):
        out = {}
        for flt in ('gpulz-auto-gpu', 'gpulz-gpu'):
            w = []; rd = []; aw = []; ar = []
            for (d, c), v in by.items():
                if c != mib or flt not in v or 'gpulz-0.1-gpu' not in v: continue
                a, b = v[flt], v['gpulz-0.1-gpu']
                w.append(float(a['write_gbs']) / float(b['write_gbs'])); rd.append(float(a['read_gbs']) / float(b['read_gbs']))
                aw.append(float(a['write_gbs'])); ar.append(float(a['read_gbs']))
            out[flt] = f"write {g(aw):.3f} read {g(ar):.3f} GB/s, / 0.1 write {g(w):.3f} read {g(rd):.3f} ({len(w)})"
        print(f"{f.split('/')[-1]} {mib} MiB: auto {out['gpulz-auto-gpu']}; lz {out['gpulz-gpu']}")
PY
log done
tar czf $OUT/res.tgz -C $W res
