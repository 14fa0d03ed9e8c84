#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz gen is deterministic: the same kind, size and seed give the same
# bytes, another seed other bytes; sizes take K/M suffixes (powers of 1024).
. "$top_srcdir/h5tests/cli_common.sh"

for kind in random runs ramp records quant float int; do
    expect 0 "$GPULZ" gen "$kind" 64K --seed 7 -o a
    expect 0 "$GPULZ" gen "$kind" 64K --seed 7 -o b
    expect 0 "$GPULZ" gen "$kind" 64K --seed 8 -o c
    [ "$(size a)" = 65536 ] || fail "gen $kind 64K wrote $(size a) bytes"
    cmp -s a b || fail "gen $kind: the same seed gave different bytes"
    cmp -s a c && fail "gen $kind: seeds 7 and 8 gave the same bytes"
    "$GPULZ" gen "$kind" 64K --seed 7 >d || fail "gen $kind to stdout"
    cmp -s a d || fail "gen $kind: stdout differs from -o"
    rm -f a b c d
done
# seeds are decimal: 010 is ten (not eight), and 08 a number
expect 0 "$GPULZ" gen quant 4K --seed 010 -o a
expect 0 "$GPULZ" gen quant 4K --seed 10 -o b
expect 0 "$GPULZ" gen quant 4K --seed 08 -o c
expect 0 "$GPULZ" gen quant 4K --seed 8 -o d
cmp -s a b || fail "gen --seed 010 is not seed 10"
cmp -s c d || fail "gen --seed 08 is not seed 8"
rm -f a b c d
expect 0 "$GPULZ" gen zeros 1M -o z
[ "$(size z)" = 1048576 ] || fail "gen zeros 1M wrote $(size z) bytes"
[ "$(tr -d '\000' <z | wc -c | tr -d ' ')" = 0 ] || fail "gen zeros wrote a non-zero byte"
expect 0 "$GPULZ" gen quant 12345 -o odd
[ "$(size odd)" = 12345 ] || fail "gen quant 12345 wrote $(size odd) bytes"
expect 0 "$GPULZ" gen quant 0 -o none
[ "$(size none)" = 0 ] || fail "gen quant 0 wrote bytes"
expect 0 "$GPULZ" gen --list
for kind in random zeros runs ramp records quant float int; do
    grep -q "^$kind " out.log || fail "gen --list misses $kind"
done
done_ok
