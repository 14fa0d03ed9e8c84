#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# batches by gpulz_batch_chunks: GPU tests of new, then direct-host A/B (base, new alternating, twice), and HDF5's own direct chunk rate
R=$PWD; W=/tmp/w18; rm -rf $W; mkdir -p $W/base $W/new $W/res
S=$OUT/summary.txt
echo "== start $(date -u +%T)" >> $S; nvidia-smi -L >> $S
for v in new base; do
  ( cd $W/$v && tar xzf $R/.dev/$v.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j8 ) > $W/res/build-$v.log 2>&1 &
done
wait
for v in new base; do [ -x $W/$v/gpulz-*/bench/h5direct_bench ] || { tail -20 $W/res/build-$v.log >> $S; exit 9; }; done
echo "== built $(date -u +%T)" >> $S
N=$(echo $W/new/gpulz-*)
T="h5tests/gpu_batch_test h5tests/gpu_codec_test h5tests/h5_direct h5tests/h5_gpu h5tests/codec_batch h5tests/codec_v2 h5tests/codec_golden2 h5tests/bench_direct_smoke.sh"
( cd $N && timeout 200 make -j16 check TESTS="$T" > $W/res/check.log 2>&1 ); grep -E "^(PASS|FAIL|SKIP|ERROR):" $W/res/check.log >> $S
( cd $N && GPULZ_BACKEND=gpu timeout 100 make -j16 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_direct h5tests/h5_fixture" > $W/res/check-gpu.log 2>&1 ); grep -E "^(PASS|FAIL|SKIP|ERROR):" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
mkdir -p $W/res/tests && cp $N/h5tests/*.log $W/res/tests/ 2>/dev/null
echo "== tested $(date -u +%T)" >> $S
gcc -O2 $R/.dev/h5only.c $(pkg-config --cflags --libs hdf5 2>/dev/null || echo -I/usr/include/hdf5/serial -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5) -o $W/h5only 2>> $S && ( cd $W && ./h5only 1024 1185000 2>/dev/null | grep -v "^HDF5" >> $S; ./h5only 1024 536000 2>/dev/null | grep -v "^HDF5" >> $S; rm -f x.h5 )
for r in 1 2; do for m in auto lz; do for v in base new; do
  ( cd $W/$v/gpulz-* && timeout 60 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode $m --paths direct-host --csv $W/res/h5d-$m-$v-$r.csv > $W/res/h5d-$m-$v-$r.txt 2>&1 )
  grep -E "^memory" $W/res/h5d-$m-$v-$r.txt | sed "s/^/$m $v $r: /" >> $S
done; done; done
echo "== done $(date -u +%T)" >> $S
tar czf $OUT/res.tgz -C $W res
