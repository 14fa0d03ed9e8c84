#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r171: c171ph (68bc7cd + phase marks on stderr, an experiment build, not landed): where a host-API
# call of auto (and fast, ratio) spends its time between marks, 1 MB, 380 KB and 4 MB
START=$(date +%s); R=$PWD; W=/tmp/w171; rm -rf $W; mkdir -p $W/res $W/new
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && for f in levitus_temp_q1e-4 coads_uwnd_q1e-3 etopo5_q1e-4; do xz -dc $R/.dk/corpus/$f.u16.xz > $W/corpus/$f.u16; done
( cd $W/new && tar xzf $R/.dk/c171ph.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
D=$(echo $W/new/gpulz-*); C=$W/corpus
for a in levitus_temp_q1e-4:1024 coads_uwnd_q1e-3:380 etopo5_q1e-4:4096; do for m in auto fast ratio; do
  $D/probe3 $C/${a%%:*}.u16 ${a##*:} $m 25 >> $S 2> $W/res/ph-${a%%:*}-${a##*:}-$m.log
done; done
python3 $R/.dk/phases.py $W/res/ph-*.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
