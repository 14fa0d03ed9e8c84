#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 4 MB: c81 (prev) against c84 (new): probe2 fast alternating, and every kernel of one call under ncu
START=$(date +%s); R=$PWD; W=/tmp/w85; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c81; [ $v = new ] && T=c84
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs ) > $W/res/build-$v.log 2>&1 || { tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
cd $W/new/gpulz-*; ./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2 3; do for v in prev new; do echo "-- $v $r" >> $S; (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 4 fast 41 && ./probe2 $W/gq.u16 1 fast 41) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 4; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum ./probe2 $W/gq.u16 $mb fast 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (us):" >> $S
  grep -E "^  [a-zA-Z_0-9:<>, ]+\(|gpu__time_duration" $W/res/ncu-$v-$mb.txt | paste - - | awk '{n=$1; print n, $NF}' | tail -24 >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
