#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The progress line: on stderr where it is a terminal (script(1) gives the
# command one), for bench (grid and HDF5 files) and for compress and
# decompress of inputs over 64 MiB; never with -q, never for small inputs,
# never where stderr is not a terminal; erased before the table's rows.
# Skips without util-linux's script.
. "$top_srcdir/h5tests/cli_common.sh"
script --version 2>/dev/null | grep -q util-linux ||
    { echo "SKIP: no util-linux script(1) to give the command a terminal"; exit 77; }

# on_tty CMD...: CMD with a terminal for stdin, stdout and stderr; all it
# wrote in tty.log; its exit status
on_tty() {
    script -qec "$*" /dev/null </dev/null >tty.log 2>&1
}
# shown TEXT: the progress line "gpulz ...: TEXT" was drawn ("\r" before it)
shown() {
    tr '\r' '\n' <tty.log | grep -q "^gpulz [a-z]*: $1"
}

on_tty "$GPULZ" bench --gen quant:256K -s 2 -w 32,128 -b 2048 -t 1 -r 1 || fail "bench --gen on a terminal"
shown '\[1/2\] quant:256K S=2 W=32 C=2048 threads=1' || fail "bench --gen: no progress: $(cat -A tty.log)"
shown '\[2/2\] quant:256K S=2 W=128 ' || fail "bench --gen: no progress for point 2: $(cat -A tty.log)"
# each row starts its line: the progress line was erased before it
tr '\r' '\n' <tty.log | grep -q '^quant:256K  *2   32 ' || fail "bench --gen: row mixed with the progress line: $(cat -A tty.log)"
on_tty "$GPULZ" bench --gen quant:256K -s 2 -w 32 -b 2048 -t 1 -r 1 -q || fail "bench -q on a terminal"
shown '' && fail "bench -q drew a progress line: $(cat -A tty.log)"
grep -q '^quant:256K ' tty.log || fail "bench -q printed no row: $(cat -A tty.log)"

"$top_builddir/h5tests/h5_mkfile" --bench data.h5 || exit 99
on_tty "$GPULZ" bench data.h5:/codes -l 1 -s 2 -r 1 || fail "bench data.h5 on a terminal"
shown '\[1/[0-9]*\] /codes: gpulz S=2 W=32, warm-up' || fail "bench data.h5: no progress: $(cat -A tty.log)"
shown '\[[0-9]*/[0-9]*\] /codes: deflate 6, run 1 of 1' || fail "bench data.h5: no progress on deflate: $(cat -A tty.log)"
on_tty "$GPULZ" bench data.h5:/codes -l 1 -s 2 -r 1 -q || fail "bench data.h5 -q on a terminal"
shown '' && fail "bench data.h5 -q drew a progress line: $(cat -A tty.log)"
grep -q '^/codes .* deflate 6 ' tty.log || fail "bench data.h5 -q printed no row: $(cat -A tty.log)"
# stderr not a terminal: no progress
expect 0 "$GPULZ" bench data.h5:/codes -l 1 -s 2 -r 1
[ -s err.log ] && fail "bench wrote to stderr, a file: $(cat err.log)"

# compress and decompress: a line from 64 MiB on, not below
"$GPULZ" gen zeros 65M -o big.raw || fail "gen"
on_tty "$GPULZ" compress big.raw -o big.gplz || fail "compress on a terminal: $(cat -A tty.log)"
shown 'big.raw: reading 16 of 65 MiB' || fail "compress: no progress of the reading: $(cat -A tty.log)"
shown 'big.raw: compressing 65 MiB' || fail "compress: no progress of the compression: $(cat -A tty.log)"
on_tty "$GPULZ" decompress big.gplz -o big.out || fail "decompress on a terminal: $(cat -A tty.log)"
shown 'big.gplz: decompressing 65 MiB' || fail "decompress: no progress: $(cat -A tty.log)"
shown 'big.out: writing 0 of 65 MiB' || fail "decompress: no progress of the writing: $(cat -A tty.log)"
cmp big.raw big.out || fail "the round trip under a terminal differs"
rm -f big.gplz big.out
on_tty "$GPULZ" compress -q big.raw -o big.gplz || fail "compress -q on a terminal"
shown '' && fail "compress -q drew a progress line: $(cat -A tty.log)"
on_tty "$GPULZ" decompress --quiet big.gplz -o big.out || fail "decompress --quiet on a terminal"
shown '' && fail "decompress --quiet drew a progress line: $(cat -A tty.log)"
cmp big.raw big.out || fail "the round trip with -q differs"
"$GPULZ" gen quant 1M -o small.raw || fail "gen"
on_tty "$GPULZ" compress small.raw -o small.gplz || fail "compress small on a terminal"
shown '' && fail "compress of 1 MiB drew a progress line: $(cat -A tty.log)"
rm -f big.gplz
expect 0 "$GPULZ" compress big.raw -o big.gplz
[ -s err.log ] && fail "compress wrote to stderr, a file: $(cat err.log)"
done_ok
