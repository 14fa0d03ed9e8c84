#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# main's code (c95 = 19ef7f6): every kernel of one auto call at 1 and 4 MB (ncu, durations and start times),
# to see what auto's ratio candidate adds beside fast
START=$(date +%s); R=$PWD; W=/tmp/w96; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/c95.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
./gpulz gen quant 64M -o $W/gq.u16
for mb in 1 4; do for mode in fast auto; do
  timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --print-summary none --csv ./probe2 $W/gq.u16 $mb $mode 1 > $W/res/ncu-$mode-$mb.csv 2>$W/res/ncu-$mode-$mb.err
  echo "== ncu $mode $mb MB (second call: kernel, stream, us)" >> $S
  python3 - $W/res/ncu-$mode-$mb.csv >> $S <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ix={k:i for i,k in enumerate(h)}
data=[r for r in rows[1:] if r[ix['Metric Name']]=='gpu__time_duration.sum']
n=len(data)//2
tot=0
for r in data[n:]:
    name=r[ix['Kernel Name']].split('(')[0].replace('void ','')[:40]
    v=float(r[ix['Metric Value']].replace(',',''))
    u=r[ix['Metric Unit']] if 'Metric Unit' in ix else 'us'
    v=v/1000 if u.startswith('n') else v*1000 if u.startswith('m') else v
    tot+=v
    print(f"  {name:40s} {r[ix['Stream']] if 'Stream' in ix else ''} {v:8.2f}")
print(f"  sum {tot:.1f} us over {n} kernels")
PY
done; done
log ncu
(./probe2 $W/gq.u16 1 fast,auto,ratio 41 && ./probe2 $W/gq.u16 4 fast,auto,ratio 21) >> $S 2>&1
log done
tar czf $OUT/res.tgz -C $W res
