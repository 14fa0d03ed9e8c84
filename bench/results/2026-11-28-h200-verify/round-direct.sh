#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# direct chunk I/O of 1 GiB, memory file, 4 and 16 MiB chunks: 17e77d7 (head) against d51b1ac (new), auto alternating twice, then fast once each
R=$PWD; W=/tmp/w32; rm -rf $W; mkdir -p $W/head $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
for v in head new; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench ) > $W/res/build-$v.log 2>&1 || tail -20 $W/res/build-$v.log >> $S &
done
wait
log built
for r in 1 2; do for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 50 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths filter,direct-host,direct-device --csv $W/res/h5d-auto-$v-$r.csv > $W/res/h5d-auto-$v-$r.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-auto-$v-$r.txt | sed "s/^/auto $v $r: /" >> $S
done; done
for v in head new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 50 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode fast --paths filter,direct-host,direct-device --csv $W/res/h5d-fast-$v.csv > $W/res/h5d-fast-$v.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-fast-$v.txt | sed "s/^/fast $v: /" >> $S
done
log done
tar czf $OUT/res.tgz -C $W res
