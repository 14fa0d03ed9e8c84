#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r191: what store_chunk's lookup costs (b1271e2: a chunk of exactly the chunk size first asks HDF5 its
# old filter mask): h5direct_bench --optional on 1 GiB of random bytes (every chunk stored unfiltered,
# so every chunk asks), c190 beside c190nl (the same tree with the lookup compiled out), alternated
# twice; then gpu_sanitizer.sh, which r190's make check ran out of time for
START=$(date +%s); R=$PWD; W=/tmp/w191; rm -rf $W; mkdir -p $W/new $W/nl $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
head -c 1073741824 /dev/urandom > /tmp/rand191.u16 &
( cd $W/new && tar xzf $R/.dk/c190.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench h5tests/gpu_codec_test ) > $W/res/build-new.log 2>&1 || { echo "BUILD new FAILED" >> $S; tail -30 $W/res/build-new.log >> $S; } &
( cd $W/nl && tar xzf $R/.dk/c190.tar.gz && cd gpulz-* && sed -i 's/    if (size == P->chunk_bytes) {/    if (0 \&\& size == P->chunk_bytes) {/' plugin/gpulz_h5direct.c && grep -c "if (0 && size == P->chunk_bytes)" plugin/gpulz_h5direct.c && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench ) > $W/res/build-nl.log 2>&1 || { echo "BUILD nl FAILED" >> $S; tail -30 $W/res/build-nl.log >> $S; } &
wait
log built
for i in 1 2; do for v in new nl; do
  timeout 100 $W/$v/gpulz-*/bench/h5direct_bench --input /tmp/rand191.u16 --optional --paths direct-host,direct-device --files memory --chunks 1,4,16 --repeats 3 --csv $OUT/r191-$v$i.csv > $W/res/h5direct-$v$i.txt 2>&1; echo "$v $i exit $?" >> $S
  grep -v "^#" $W/res/h5direct-$v$i.txt | sed "s/^/$v $i /" | head -12 >> $S
done; done
log benched
cd $W/new/gpulz-*
END=$(( START + 575 )); LEFT=$(( END - $(date +%s) ))
echo "sanitizer gets $LEFT s" >> $S
top_builddir=. timeout $LEFT sh h5tests/gpu_sanitizer.sh > $W/res/gpu_sanitizer.log 2>&1; echo "gpu_sanitizer.sh exit $?" >> $S
tail -n 6 $W/res/gpu_sanitizer.log >> $S
cp gpu_sanitizer_*.log $W/res/ 2>/dev/null
log done
tar czf $OUT/res.tgz -C $W res
