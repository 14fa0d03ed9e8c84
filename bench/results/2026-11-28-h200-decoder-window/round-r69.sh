#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# 8848bbd (new) against c129670 (prev) on the H200, in one run: h5bench auto beside 0.1, then h5direct_bench auto
# at 4 and 16 MiB from host and device buffers, the two builds alternating twice
START=$(date +%s); R=$PWD; W=/tmp/w69; rm -rf $W; mkdir -p $W/prev $W/new $W/v01 $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dev/corpus/MANIFEST $W/corpus/ && for f in $R/.dev/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/v01 && tar xzf $R/.dev/v01.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j3 libH5Zgpulz.la && mkdir -p $W/v01-plugin && cp .libs/libH5Zgpulz.so $W/v01-plugin/ ) > $W/res/build-v01.log 2>&1 || tail -20 $W/res/build-v01.log >> $S &
for v in prev new; do T=h63; [ $v = new ] && T=c67
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j7 && make -j7 bench/h5bench bench/h5direct_bench test-plugins/libH5Zgpulz.so ) > $W/res/build-$v.log 2>&1 || tail -30 $W/res/build-$v.log >> $S &
done
wait
log built
for r in 1 2; do for v in new prev; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && HDF5_PLUGIN_PATH=$D/test-plugins timeout 120 ./bench/h5bench --manifest $W/corpus/MANIFEST --chunks 1,4,16 --repeats 3 \
    --filters gpulz-auto-gpu,gpulz-0.1-gpu --baseline-plugin $W/v01-plugin > $W/res/h5bench-$v-$r.csv 2>>$W/res/bench-$v.err ); echo "h5bench $v $r exit $?" >> $S
done; done
log h5bench
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-host,direct-device --csv $W/res/h5d-$v-$r.csv > $W/res/h5d-$v-$r.txt 2>&1 ); grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r: /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
