#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r194: the host batches' and direct chunk I/O's copies with non-temporal stores (c194, gpulz_copy_bulk)
# beside c193 (391e207, before), and c194f (c194 with the filter path's pageable staging copies,
# gpu_staging.c, through gpulz_copy_bulk too, experiment); c194 with glibc's non-temporal threshold
# at 256 KiB shows what HDF5's own copies add. h5direct_bench mode auto, 1 GiB of codes, in memory.
START=$(date +%s); R=$PWD; W=/tmp/w194; rm -rf $W; mkdir -p $W/old $W/new $W/nf $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( /lib64/ld-linux-x86-64.so.2 --list-tunables 2>&1 | grep -i "non_temporal\|rep_movsb_thr\|shared_cache_size\|x86_data_cache"; lscpu | grep -i "model name\|L3\|L2\|numa node(s)\|socket(s)" ) >> $S 2>&1
bld() { # dir tarball patch
  ( cd $W/$1 && tar xzf $R/.dk/$2.tar.gz && cd gpulz-* && { [ -z "$3" ] || patch -p1 < $R/.dk/$3; } && ./configure -q --with-cuda-arch=90 && make -j5 && make -j5 bench/h5direct_bench ) > $W/res/build-$1.log 2>&1 || { echo "BUILD $1 FAILED" >> $S; tail -30 $W/res/build-$1.log >> $S; }
}
bld old c193 "" & bld new c194 "" & bld nf c194 staging-bulk.patch &
wait
log built
run() { # name build env paths chunks
  env $3 timeout 150 $W/$2/gpulz-*/bench/h5direct_bench --mode auto --files memory --chunks $5 --repeats 3 --paths $4 --csv $W/res/r194-$1.csv > $W/res/h5direct-$1.txt 2>&1; echo "$1 ($3) exit $?" >> $S
  grep "GB/s" $W/res/h5direct-$1.txt | grep -v "^file" | sed "s/^h5direct_bench: /$1 /" >> $S
}
A=filter,direct-host,direct-device
for i in 1 2; do
  run old$i old X=1 $A 1,4,16
  run new$i new X=1 $A 1,4,16
  run nt$i new GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x40000 direct-host,direct-device 4,16
  run nf$i nf X=1 $A 1,4,16
done
log benched
tar czf $OUT/res.tgz -C $W res
