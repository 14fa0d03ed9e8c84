#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r189: issue 11's HDF5 figures on the whole corpus (35 arrays) after this session's changes, on r188's
# machine and builds: h5bench (file in memory) at 1, 4 and 16 MiB chunks, median of 3, c188's auto
# and lz beside 0.1's GPU filter, then c185p's (34bac06) auto, then c188's again
START=$(date +%s); R=$PWD; W=/tmp/w188; C=$W/corpus35; mkdir -p $C $W/res2
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
cp .dk/kit178/corpus/MANIFEST $C/
for f in .dk/kit178/corpus/*.xz /tmp/stage188/*.xz; do xz -dc $f > $C/$(basename $f .xz) & done
wait
ls $C | wc -l >> $S
log unpacked
run() { H=$(echo $W/$1/gpulz-*); ( cd $H && HDF5_PLUGIN_PATH=$H/test-plugins timeout 110 ./bench/h5bench --manifest $C/MANIFEST \
  --chunks 1,4,16 --repeats 3 --filters $2 > $W/res2/h5bench-$1-$3.csv 2>>$W/res2/h5bench.err ); echo "h5bench $1 $3 exit $?" >> $S; log "h5bench $1 $3"; }
run new gpulz-auto-gpu,gpulz-gpu,gpulz-0.1-gpu\ --baseline-plugin\ $W/v01p a
run prev gpulz-auto-gpu a

tail -5 $W/res2/h5bench.err >> $S
tar czf $OUT/res2.tgz -C $W res2
