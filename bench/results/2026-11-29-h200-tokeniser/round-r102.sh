#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c102 (the sweep's rounds of 8 positions) against c101 (main, 27a8fc2: rounds of 4): gpu_codec_test quick on c102;
# ncu of the tokeniser and the format 1 encoder at 1, 4, 16, 256 MB; probe2 alternating; h5direct device writes;
# ncu source counters of both at 4 MB (auto)
START=$(date +%s); R=$PWD; W=/tmp/w102; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c102; [ $v = prev ] && T=c101
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && make -j8 bench/h5direct_bench && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 h5tests/gpu_codec_test h5tests/gpu_emulate_test; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
( GPULZ_TEST_QUICK=1 ./h5tests/gpu_codec_test > $W/res/gct.log 2>&1; echo "gpu_codec_test quick: exit $?" >> $S; ./h5tests/gpu_emulate_test >> $S 2>&1 ) &
./gpulz gen quant 256M -o $W/gq.u16
wait
grep -h "failures" $W/res/gct.log | tail -2 >> $S
log tested
for v in prev new; do for mb in 1 4 16 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe2 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 4 auto,ratio,lz 21 && ./probe2 $W/gq.u16 16 auto,ratio 11 && ./probe2 $W/gq.u16 256 auto,ratio,lz 3) >> $S 2>&1; done; done
log probed
for r in 1 2; do for v in prev new; do
  ( cd $W/$v/gpulz-* && timeout 100 ./bench/h5direct_bench --files memory --chunks 4,16 --repeats 3 --mode auto --paths direct-device > $W/res/h5d-$v-$r.txt 2>&1; echo "h5direct $v $r exit $?" >> $S )
  grep -h "h5direct_bench: memory" $W/res/h5d-$v-$r.txt | sed "s/^/$v /" >> $S
done; done
log h5direct
for v in prev new; do k=src-$v
  ( cd $W/$v/gpulz-* && timeout 100 ncu --clock-control none --import-source no -k regex:"gpu_v2_lz_kernel" -c 1 --section SourceCounters --section WarpStateStats --section SchedulerStats --section Occupancy -o $W/res/$k ./probe2 $W/gq.u16 4 auto 1 > $W/res/ncu-$k.log 2>&1
    timeout 60 ncu -i $W/res/$k.ncu-rep --page source --csv --print-source sass > $W/res/$k.csv 2>/dev/null
    timeout 60 ncu -i $W/res/$k.ncu-rep --page details --print-details all > $W/res/$k-details.txt 2>&1 )
  echo "## $v" >> $S; grep -E "Issued Warp Per Scheduler|Achieved Occupancy|Registers Per" $W/res/$k-details.txt | head -3 >> $S
  python3 $R/bench/ncu_stalls.py --top 12 $W/res/$k.csv "lz kernel, auto 4 MB, $v" >> $S 2>&1
  cp $W/res/$k.csv $OUT/
done
log done
