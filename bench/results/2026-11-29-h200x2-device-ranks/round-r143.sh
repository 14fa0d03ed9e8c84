#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r143: two H200s: multi_gpu_round (auto, 1 GiB, 1 and 2 GPUs/ranks, direct-device added), then hreg
set -u
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi -L > $O/gpus.txt 2>&1
OUT=$O/mg ROUND_MODE=auto ROUND_SIZE=1G ROUND_RANKS="1 2" ROUND_CHUNKS="4 16" ROUND_REPEATS=3 \
  ROUND_MPI_PATHS=filter,direct-own,direct-device ROUND_DEADLINE=420 \
  timeout 450 bash bench/multi_gpu_round.sh .dk/kit 90 > $O/mg.stdout 2>&1
echo "multi_gpu_round rc $?" >> $O/mg.stdout
gcc -O2 -I/usr/local/cuda/include .dk/hreg.c -L/usr/local/cuda/lib64 -lcudart -lpthread -o /tmp/hreg && timeout 100 /tmp/hreg > $O/hreg.txt 2>&1
cat /sys/kernel/mm/transparent_hugepage/enabled >> $O/hreg.txt
{ cat $O/gpus.txt; tail -3 $O/mg.stdout; cat $O/mg/summary.txt; cat $O/hreg.txt; } > $O/summary.txt
rm -rf $O/mg/build.log
tar czf $O/res.tgz -C $O mg hreg.txt mg.stdout
rm -rf $O/mg $O/hreg.txt $O/mg.stdout $O/gpus.txt
