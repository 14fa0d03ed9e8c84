#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# c95 (v2_copy with four words a thread in flight: placement and ratio's gather) against c94 (main, fdc5ec4):
# new's make check w/o sanitizer, gct seeds 5, 6, the GPU set, memcheck; probe2 alternating; ncu of put/gather;
# probe4 (the host API, the HDF5 filter's path) lz/fast/auto at 1 and 4 MB on prev
START=$(date +%s); R=$PWD; W=/tmp/w95; rm -rf $W; mkdir -p $W/prev $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
for v in prev new; do T=c95; [ $v = prev ] && T=c94
  ( cd $W/$v && tar xzf $R/.dev/$T.tar.gz && cd gpulz-* && N=$PWD && ./configure -q --with-cuda-arch=90 && make -j8 && gcc -O2 -Ikernels $R/.dev/probe2.c -o probe2 .libs/libgpulz.so -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,$N/.libs && gcc -O2 -Ikernels $R/.dev/probe4.c -o probe4 .libs/libgpulz.so -Wl,-rpath,$N/.libs && if [ $v = new ]; then make -j8 check TESTS=; fi ) > $W/res/build-$v.log 2>&1 || { echo "BUILD $v FAILED" >> $S; tail -30 $W/res/build-$v.log >> $S; } &
done
wait
log built
N=$(echo $W/new/gpulz-*); cd $N
printf 'p:\n\t@echo $(TESTS)\n' > /tmp/p.mk
T=$(make -s -f Makefile -f /tmp/p.mk p | tr ' ' '\n' | grep -v gpu_sanitizer | tr '\n' ' ')
timeout 240 make -j12 check TESTS="$T" > $W/res/check.log 2>&1; echo "make check exit $?" >> $S
grep -h "^# \|^FAIL\|^ERROR" $W/res/check.log | tail -12 >> $S
mkdir -p $W/res/tests && cp h5tests/*.log $W/res/tests/ 2>/dev/null
grep -h "failures\|checksum trials" h5tests/gpu_codec_test.log | tail -5 >> $S
log checked
( GPULZ_TEST_SEED=5 ./h5tests/gpu_codec_test > $W/res/gct5.log 2>&1; echo "gpu_codec_test seed 5: exit $?" >> $S ) &
( GPULZ_TEST_SEED=6 ./h5tests/gpu_codec_test > $W/res/gct6.log 2>&1; echo "gpu_codec_test seed 6: exit $?" >> $S ) &
GPULZ_BACKEND=gpu timeout 120 make -j8 check TESTS="h5tests/codec_v2 h5tests/codec_golden2 h5tests/h5_fixture h5tests/h5_corrupt h5tests/h5_direct h5tests/gpu_batch_test h5tests/codec_floor h5tests/codec_batch" > $W/res/check-gpu.log 2>&1
grep -h "^PASS\|^FAIL\|^SKIP\|^ERROR" $W/res/check-gpu.log | sed 's/^/GPULZ_BACKEND=gpu /' >> $S
wait
grep -h "failures\|checksum trials" $W/res/gct*.log | tail -8 >> $S
log tested
./gpulz gen quant 256M -o $W/gq.u16
for r in 1 2 3; do for v in prev new; do echo "-- $v $r" >> $S
  (cd $W/$v/gpulz-* && ./probe2 $W/gq.u16 1 fast,auto,ratio 41 && ./probe2 $W/gq.u16 4 fast,auto 21 && ./probe2 $W/gq.u16 16 fast,auto 11 && ./probe2 $W/gq.u16 256 fast,ratio 5) >> $S 2>&1; done; done
log probed
for v in prev new; do for mb in 1 256; do
  ( cd $W/$v/gpulz-* && timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"put_kernel|gather_kernel" ./probe2 $W/gq.u16 $mb ratio 1 > $W/res/ncu-$v-$mb.txt 2>&1 )
  echo "ncu $v $mb MB (ratio: put, gather):" $(grep -E "^  [a-z_0-9]+_kernel|gpu__time_duration" $W/res/ncu-$v-$mb.txt | awk '/duration/{print $NF} !/duration/{print $1}' | paste -sd' ') >> $S
done; done
log ncu
for r in 1 2; do echo "-- host API (prev) $r" >> $S; (cd $W/prev/gpulz-* && ./probe4 $W/gq.u16 1 lz,fast,auto 21 && ./probe4 $W/gq.u16 4 lz,fast,auto 11) >> $S 2>&1; done
log host
LEFT=$((560 - $(date +%s) + START)); echo "memcheck with ${LEFT} s" >> $S
GPULZ_TEST_QUICK=1 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 ./h5tests/gpu_codec_test > $W/res/memcheck.log 2>&1; echo "memcheck gpu_codec_test quick: exit $?" >> $S
tail -n 3 $W/res/memcheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
