#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r178: issue 11's round on the whole corpus (35 arrays) with main at 46f6e70 (c177): gpu_bench
# (lz grid, --v2 every mode), nvcomp_bench (nvCOMP 6.0.0), h5bench with the CPU filters (4 MiB),
# the gpulz rows and gpulz 0.1's plugin (1, 4, 16 MiB, median of 3), then v2_table.py
START=$(date +%s); R=$PWD
S=$OUT/summary.txt
ls /tmp/stage178/*.xz > /dev/null 2>&1 && cp /tmp/stage178/*.xz .dk/kit178/corpus/
cd .dk/kit178/corpus && python3 - <<'PY' >> $S
import os
keep = [l for l in open('MANIFEST') if l.strip() and (l.startswith('#') or os.path.exists(l.split()[0] + '.' + {'float32':'f32','uint16':'u16','int16':'i16','int32':'i32','uint8':'u8'}[l.split()[1]] + '.xz'))]
print("corpus arrays carried:", sum(1 for l in keep if not l.startswith('#')))
open('MANIFEST', 'w').writelines(keep)
PY
cd $R
SKIP_CHECK=1 DEADLINE=$((START + 560)) ROUND_FLAGS='--chunks 4 --h5-repeats 1 --h5-gpulz-chunks 1,4,16 --h5-gpulz-repeats 3 --no-plots' BENCH_REPEATS=5 bash bench/device_round.sh $R/.dk/kit178 90 > $OUT/round-stdout.log 2>&1
echo "device_round.sh exit $? after $(( $(date +%s) - START )) s" >> $S
tail -30 $OUT/round.log >> $S
