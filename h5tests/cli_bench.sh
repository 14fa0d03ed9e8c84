#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz bench: a row per grid point, quantization codes compress (ratio > 1),
# random data does not, files work as inputs, and the default grid is
# {element size, 1} x {32, 64, 128, 255} x {2048, 4096} blocks.
. "$top_srcdir/h5tests/cli_common.sh"

expect 0 "$GPULZ" bench --gen quant:128K --csv -w 32,128 -b 2048 -t 1,2 -r 1
head -n 1 out.log | grep -q '^data,bytes,S,W,block,threads,backend,timer,ratio,' || fail "no CSV header"
# quant has element size 2: S in {2, 1} x 2 windows x 1 block x 2 thread counts
rows=$(tail -n +2 out.log | wc -l | tr -d ' ')
[ "$rows" = 8 ] || fail "bench printed $rows rows, expected 8"
tail -n +2 out.log | awk -F, '{ print $3 "," $4 "," $5 "," $6 }' | sort >grid
printf '%s\n' 1,128,2048,1 1,128,2048,2 1,32,2048,1 1,32,2048,2 \
    2,128,2048,1 2,128,2048,2 2,32,2048,1 2,32,2048,2 | sort >want
cmp -s grid want || fail "bench grid differs: $(cat grid)"
tail -n +2 out.log | awk -F, '$1 != "quant:128K" || $2 != 131072 || !($9 > 1) || !($11 > 0) || !($12 > 0) { bad = 1 }
    END { exit bad }' || fail "bench on quant: a ratio not > 1 or a throughput not > 0: $(cat out.log)"

# the default grid on one small input: 2 symbol sizes x 4 windows x 2 blocks
expect 0 "$GPULZ" bench --gen int:32K --csv -r 1 -t 1
[ "$(tail -n +2 out.log | wc -l | tr -d ' ')" = 16 ] || fail "default grid is not 16 rows"

# a file and random data (ratio just under 1: stored raw), the aligned table
"$GPULZ" gen random 64K -o random.raw || fail "gen"
expect 0 "$GPULZ" bench random.raw -s 1 -l 1,4 -b 256 -r 2 -t 1
grep -q 'comp GB/s' out.log || fail "the table has no header"
[ "$(grep -c '^random.raw ' out.log)" = 2 ] || fail "the table does not have 2 rows: $(cat out.log)"
awk '$1 == "random.raw" && !($7 < 1) { bad = 1 } END { exit bad }' out.log ||
    fail "random data shows a ratio >= 1"
done_ok
