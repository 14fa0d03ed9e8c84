#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# diagnosis on the H200: where fast's 1 MB coder and decoder wait, per SASS instruction (ncu source counters and
# warp-stall sampling), candidate c64
START=$(date +%s); R=$PWD; W=/tmp/w65; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S; ncu --version >> $S
( cd $W/new && tar xzf $R/.dev/c64.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la gpulz && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build.log 2>&1 || { tail -30 $W/res/build.log >> $S; tar czf $OUT/res.tgz -C $W res; exit 9; }
log built
cd $W/new/gpulz-*
./gpulz gen quant 16M -o $W/gq.u16
for k in encode decode; do
  timeout 150 ncu --clock-control none --import-source no -k regex:"${k}_kernel" -c 1 --section SourceCounters --section WarpStateStats --section SchedulerStats -o $W/res/$k ./probe2 $W/gq.u16 1 fast 1 > $W/res/ncu-$k.log 2>&1; echo "ncu $k exit $?" >> $S
  timeout 60 ncu -i $W/res/$k.ncu-rep --page source --csv --print-source sass > $W/res/$k-source.csv 2> $W/res/$k-source.err; echo "source $k exit $? $(wc -l < $W/res/$k-source.csv) lines" >> $S
  head -c 600 $W/res/$k-source.err >> $S
  timeout 60 ncu -i $W/res/$k.ncu-rep --page details --print-details all > $W/res/$k-details.txt 2>&1
done
head -3 $W/res/encode-source.csv | cut -c1-1500 >> $S
log done
tar czf $OUT/res.tgz -C $W res
