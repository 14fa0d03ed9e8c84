#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r181: GPU timelines (torch's profiler over CUPTI) of one host-API call on int16 coordinates
# (gshhg_lon: a wide 16-bit range) against a quantization-code array, c180 (7f33ec3's tree)
START=$(date +%s); R=$PWD; W=/tmp/w181; rm -rf $W; mkdir -p $W/new $W/res $W/res/tl $W/corpus
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
xz -dc .dk/g179/gshhg_lon.i16.xz > $W/corpus/gshhg_lon.i16 & xz -dc .dk/corpus/etopo5_q1e-4.u16.xz > $W/corpus/etopo5_q1e-4.u16 &
( cd $W/new && tar xzf $R/.dk/c180.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la && gcc -O2 -shared -fPIC -Ikernels $R/.dk/trace.c -o trace.so .libs/libgpulz.so -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
wait
log built
N=$(echo $W/new/gpulz-*); C=$W/corpus
timeout 200 python3 $R/.dk/trace.py $N/trace.so $W/res/tl $C/gshhg_lon.i16:4096:2:fast $C/gshhg_lon.i16:4096:2:auto $C/gshhg_lon.i16:1024:2:fast $C/etopo5_q1e-4.u16:4096:2:fast > $W/res/trace.log 2>&1
echo "trace exit $?" >> $S; tail -5 $W/res/trace.log >> $S
head -1 -q $W/res/tl/timeline-*.txt >> $S
grep -h "^--" $W/res/tl/timeline-*.txt >> $S
for f in $W/res/tl/timeline-*.txt; do echo "## $(basename $f)" >> $S; grep " GPU " $f | sort -k2 -rn | head -12 >> $S; grep " host " $f | sort -k2 -rn | head -6 >> $S; done
log traced
$N/probe3 $C/gshhg_lon.i16 4096 lz,fast,ratio,auto 11 >> $S 2>&1
$N/probe3 $C/gshhg_lon.i16 1024 lz,fast,ratio,auto 11 >> $S 2>&1
log done
tar czf $OUT/res.tgz -C $W res
