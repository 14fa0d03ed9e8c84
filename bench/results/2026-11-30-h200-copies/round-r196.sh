#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r196 (2 GPUs): one process, direct chunk I/O from pageable host buffers on 1 and 2 GPUs
# (h5direct_bench --gpus 1,2, 4 GiB of codes, auto, 4 and 16 MiB chunks, memory file): c196
# (09949f5, chunk copies with non-temporal stores) beside c193 (391e207, before), alternating twice,
# then c196 --pinned once; then gpu_codec_test's racecheck run alone on GPU 0 with its parts timed
START=$(date +%s); R=$PWD; W=/tmp/w196; rm -rf $W; mkdir -p $W/old $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
/lib64/ld-linux-x86-64.so.2 --list-tunables 2>&1 | grep -i "non_temporal_threshold" >> $S
bld() { ( cd $W/$1 && tar xzf $R/.dk/$2.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j15 libgpulz.la libh5gpulz.la && make -j15 bench/h5direct_bench $3 ) > $W/res/build-$1.log 2>&1 || { echo "BUILD $1 FAILED" >> $S; tail -30 $W/res/build-$1.log >> $S; }; }
bld old c193 & bld new c196 h5tests/gpu_codec_test &
wait
log built
export GPULZ_BACKEND=gpu
run() { # name build opt
  timeout 100 $W/$2/gpulz-*/bench/h5direct_bench $3 --size 4G --files memory --chunks 4,16 --mode auto --paths direct-host --gpus 1,2 --repeats 3 --csv $W/res/h5d-$1.csv > $W/res/h5d-$1.txt 2>&1; echo "$1 exit $?" >> $S
  grep -h "h5direct_bench: memory" $W/res/h5d-$1.txt | sed "s/^h5direct_bench: /$1 /" >> $S
}
for r in 1 2; do run old$r old; run new$r new; done
run pinned new --pinned
log benched
unset GPULZ_BACKEND
cd $W/new/gpulz-*
END=$(( START + 585 )); LEFT=$(( END - $(date +%s) ))
echo "racecheck gets $LEFT s" >> $S
T0=$(date +%s)
CUDA_VISIBLE_DEVICES=0 GPULZ_TEST_QUICK=2 timeout $LEFT /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 h5tests/gpu_codec_test > $W/res/racecheck.log 2>&1; echo "racecheck exit $? in $(( $(date +%s) - T0 )) s" >> $S
tail -n 40 $W/res/racecheck.log >> $S
log done
tar czf $OUT/res.tgz -C $W res
