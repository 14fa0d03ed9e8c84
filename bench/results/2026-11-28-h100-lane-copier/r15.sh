#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# the lanes' copier: direct-host A/B, base and new alternating, twice
R=$PWD; W=/tmp/w15; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
echo "== start $(date -u +%T)" >> $S
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 bench/h5direct_bench ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/$v/gpulz-*/bench/h5direct_bench ] || { tail -20 $W/res/build-$v.log; exit 9; }; done
echo "== built $(date -u +%T)" >> $S
for r in 1 2; do for m in auto lz; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 40 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 5 --mode $m --paths direct-host > $W/res/h5d-$m-$v-$r.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$m-$v-$r.txt | sed "s/^/$m $v $r: /" >> $S
done; done; done
echo "== done $(date -u +%T)" >> $S
tar czf $OUT/res.tgz -C $W res
