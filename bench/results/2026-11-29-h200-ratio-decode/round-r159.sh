#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r159: c158 (3ceb51a): where one call's time goes at 1 MB, kernels against the wall clock. ncu's
# gpu__time_duration of every kernel of probe2 (device API, two calls) on levitus_temp_q1e-4 and
# coads_uwnd_q1e-3, modes lz, fast, ratio, auto; then probe2 and probe3 without ncu for the walls
START=$(date +%s); R=$PWD; W=/tmp/w159; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && for f in levitus_temp_q1e-4 coads_uwnd_q1e-3; do xz -dc $R/.dk/corpus/$f.u16.xz > $W/corpus/$f.u16; done
( cd $W/new && tar xzf $R/.dk/c158.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la && for p in probe2 probe3; do gcc -O2 -Ikernels $R/.dk/$p.c -o $p .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs || exit 1; done ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
log built
D=$(echo $W/new/gpulz-*); cd $D
for f in levitus_temp_q1e-4 coads_uwnd_q1e-3; do for md in lz fast ratio auto; do
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./probe2 $W/corpus/$f.u16 1 $md 1 > $W/res/ncu-$f-$md.txt 2>&1
  echo "ncu $f $md (2 calls: compress, decompress, compress, decompress):" >> $S
  grep -E "^  [a-zA-Z_0-9<>:, ]+\(|gpu__time_duration" $W/res/ncu-$f-$md.txt | awk '/duration/{print $(NF-1), $NF} !/duration/{print $1}' | paste -d' ' - - >> $S
done; done
log ncu
for f in levitus_temp_q1e-4 coads_uwnd_q1e-3; do ./probe2 $W/corpus/$f.u16 1 lz,fast,ratio,auto 41 >> $S 2>&1; ./probe3 $W/corpus/$f.u16 1024 lz,fast,ratio,auto 41 >> $S 2>&1; done
log done
tar czf $OUT/res.tgz -C $W res
