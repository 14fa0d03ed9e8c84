#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r153a: c153 (5612781: format 2's chained kernels with programmatic dependent launch) against
# c152 (12b1ec3), both built here; gpu_codec_test quick on c153 first; then gpu_bench fast 256 MB,
# --v2 at 1, 4 and 16 MB, nvcomp ANS, h5direct_bench auto 4 MiB, alternating
START=$(date +%s); R=$PWD; W=/tmp/w153; rm -rf $W; mkdir -p $W/new $W/prev $W/gset $W/res $W/nvc $W/gq
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
tar xJf $R/.dk/nvcomp.tar.xz -C $W/nvc
( cd $W/new && tar xzf $R/.dk/c153.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 check TESTS= && make -j8 bench/gpu_bench bench/h5direct_bench ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/prev && tar xzf $R/.dk/c152.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 --with-nvcomp=$W/nvc/nvidia/libnvcomp && make -j6 && make -j6 bench/gpu_bench bench/nvcomp_bench bench/h5direct_bench ) > $W/res/build-prev.log 2>&1 || { echo "BUILD prev FAILED" >> $S; tail -30 $W/res/build-prev.log >> $S; } &
( cd $W/gset && tar xzf $R/.dk/c153.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j4 && make -j4 check TESTS= ) > $W/res/build-gset.log 2>&1 || { echo "BUILD gset FAILED" >> $S; tail -30 $W/res/build-gset.log >> $S; } &
wait
log built
N=$(echo $W/new/gpulz-*); P=$(echo $W/prev/gpulz-*)
$P/gpulz gen quant 256M -o $W/gq/genquant.u16 && echo "genquant uint16 134217728 268435456 -" > $W/gq/MANIFEST
( cd $N && GPULZ_TEST_QUICK=1 timeout 60 ./h5tests/gpu_codec_test > $W/res/gct-quick.log 2>&1; echo "gpu_codec_test quick (c153): exit $?" >> $S; tail -n 3 $W/res/gct-quick.log >> $S )
for md in fast auto; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  $D/gpulz compress -q -f -s 2 -b 4096 --mode $md --backend gpu $W/gq/genquant.u16 -o $W/$md-$v.gplz 2>>$W/res/cli.err; done
  cmp $W/$md-prev.gplz $W/$md-new.gplz && echo "256M $md: prev and new bytes equal" >> $S || echo "256M $md: BYTES DIFFER" >> $S; done
log checked
for r in 1 2 3; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --fast --manifest $W/gq/MANIFEST --repeats 7 > $W/res/fast-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2" $W/res/fast-$v-$r.csv | sed "s/^/$v $r 256M: /" >> $S
done; done
for mb in 1 4 16; do for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/gpu_bench --csv --v2 --first $mb --manifest $W/gq/MANIFEST --repeats 15 > $W/res/v2-$mb-$v-$r.csv 2>>$W/res/bench.err )
  grep -h "fast S2\|auto S2" $W/res/v2-$mb-$v-$r.csv | sed "s/^/$v $r ${mb}M: /" >> $S
done; done; done
( cd $P && timeout 90 ./bench/nvcomp_bench --csv --manifest $W/gq/MANIFEST --repeats 7 --codecs ans > $W/res/nvcomp.csv 2>>$W/res/bench.err )
grep ans $W/res/nvcomp.csv >> $S
log benched
for r in 1 2; do for v in prev new; do D=$(echo $W/$v/gpulz-*)
  ( cd $D && timeout 60 ./bench/h5direct_bench --files memory --chunks 1,4 --repeats 3 --mode auto --paths direct-device,direct-host --csv $W/res/h5d-$v-$r.csv > $W/res/h5d-$v-$r.txt 2>&1 )
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v $r: /" >> $S
done; done
log done
tar czf $OUT/res.tgz -C $W res
