#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r169: c169 (HEAD + batch weight from the room, ratio's error words zeroed once an order):
# GPU timelines (torch's profiler over CUPTI) of one host-API call as the filter makes it,
# compress and decompress, 1 MB and 388 KB, every mode; h5bench none beside auto
START=$(date +%s); R=$PWD; W=/tmp/w169; rm -rf $W; mkdir -p $W/new $W/res $W/res/tl
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
mkdir -p $W/corpus && cp $R/.dk/corpus/MANIFEST $W/corpus/ && for f in $R/.dk/corpus/*.xz; do xz -dc $f > $W/corpus/$(basename $f .xz) & done
( cd $W/new && tar xzf $R/.dk/c169.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la gpulz && make -j16 bench/h5bench test-plugins/libH5Zgpulz.so && gcc -O2 -shared -fPIC -Ikernels $R/.dk/trace.c -o trace.so .libs/libgpulz.so -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels $R/.dk/probe3.c -o probe3 .libs/libgpulz.so -Wl,-rpath,$N/.libs ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; }
wait
log built
N=$(echo $W/new/gpulz-*); C=$W/corpus
timeout 200 python3 $R/.dk/trace.py $N/trace.so $W/res/tl $C/levitus_temp_q1e-4.u16:1024:2:lz $C/levitus_temp_q1e-4.u16:1024:2:fast $C/levitus_temp_q1e-4.u16:1024:2:ratio $C/levitus_temp_q1e-4.u16:1024:2:auto $C/coads_uwnd_q1e-3.u16:380:2:fast $C/coads_uwnd_q1e-3.u16:380:2:auto $C/etopo5_q1e-4.u16:4096:2:auto > $W/res/trace.log 2>&1
echo "trace exit $?" >> $S; tail -5 $W/res/trace.log >> $S
head -1 -q $W/res/tl/timeline-*.txt >> $S
grep -h "^--" $W/res/tl/timeline-*.txt >> $S
log traced
$N/probe3 $C/levitus_temp_q1e-4.u16 1024 lz,fast,ratio,auto 21 >> $S 2>&1
$N/probe3 $C/coads_uwnd_q1e-3.u16 380 lz,fast,ratio,auto 21 >> $S 2>&1
( cd $N && HDF5_PLUGIN_PATH=$N/test-plugins timeout 120 ./bench/h5bench --manifest $C/MANIFEST --chunks 1,4 --repeats 3 --only levitus_temp_q1e-4,coads_uwnd_q1e-3,etopo5_q1e-4,navy_uwnd_q1e-4 \
    --filters none,gpulz-gpu,gpulz-auto-gpu > $W/res/h5bench.csv 2>$W/res/h5bench.err ); echo "h5bench exit $?" >> $S
cut -d, -f1,5,6,8,9,10 $W/res/h5bench.csv >> $S
log done
tar czf $OUT/res.tgz -C $W res
