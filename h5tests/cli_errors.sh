#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Exit codes a script can rely on: 2 for a bad command line, 1 for corrupt or
# truncated data, 3 for I/O; a failure leaves no output file behind.
. "$top_srcdir/h5tests/cli_common.sh"

"$GPULZ" gen quant 50000 -o q.raw || fail "gen"
# mode lz: the damage below (bytes 4 and 6, a cut block) is format 1's
"$GPULZ" compress --mode lz -s 2 q.raw -o q.gplz || fail "compress"

# 2: usage
expect 2 "$GPULZ"
expect 2 "$GPULZ" frobnicate
expect 2 "$GPULZ" compress --no-such-option q.raw
expect 2 "$GPULZ" compress -x q.raw
expect 2 "$GPULZ" compress --symbol 3 q.raw -o o.gplz
expect 2 "$GPULZ" compress --symbol two q.raw -o o.gplz
expect 2 "$GPULZ" compress --window 0 q.raw -o o.gplz
expect 2 "$GPULZ" compress --window 256 q.raw -o o.gplz
expect 2 "$GPULZ" compress --window -1 q.raw -o o.gplz
expect 2 "$GPULZ" compress --level 5 q.raw -o o.gplz
expect 2 "$GPULZ" compress --level 2 --window 40 q.raw -o o.gplz
expect 2 "$GPULZ" compress --block 1000 q.raw -o o.gplz
expect 2 "$GPULZ" compress --block 32768 q.raw -o o.gplz
# every out-of-range block size hears the rule, 0 included
expect 2 "$GPULZ" compress --block 0 q.raw -o o.gplz
grep -q 'not a power of two in 256..16384' err.log || fail "--block 0: $(cat err.log)"
# a size past 64 bits is too large, not "not a size"
expect 2 "$GPULZ" gen zeros 99999999999999999999
grep -q 'too large' err.log || fail "gen zeros 2^66: $(cat err.log)"
expect 2 "$GPULZ" compress --backend tpu q.raw -o o.gplz
expect 2 "$GPULZ" compress q.raw q.raw -o o.gplz
expect 2 "$GPULZ" compress q.raw -o
expect 2 "$GPULZ" decompress --symbol 2 q.gplz -o o.raw
# the short forms are named as compress's too, not as unknown options
for o in "-s 2" "-l 2" "-w 40" "-b 4096" -a -2; do
    expect 2 "$GPULZ" decompress $o q.gplz -o o.raw
    grep -q "option '${o%% *}' is for compress" err.log || fail "decompress $o: $(cat err.log)"
done
expect 2 "$GPULZ" decompress q.raw
expect 2 "$GPULZ" gen quant
expect 2 "$GPULZ" gen nosuchkind 1K
expect 2 "$GPULZ" gen quant 12X
expect 2 "$GPULZ" info
expect 2 "$GPULZ" bench
expect 2 "$GPULZ" bench --gen nosuchkind:1K
expect 2 "$GPULZ" bench --gen quant:1K --window 32,300
expect 2 "$GPULZ" h5repack-args --symbol 3
expect 2 "$GPULZ" h5repack-args extra
expect 2 "$GPULZ" help nosuchcommand
[ -e o.gplz ] || [ -e o.raw ] && fail "a usage error left an output file"
expect 2 "$GPULZ" compress --symbol 3 q.raw -o o.gplz
grep -q "Try 'gpulz compress --help'" err.log || fail "a usage error does not point to --help"

# binary data is not written to a terminal without -f (script gives a pty)
if command -v script >/dev/null 2>&1 && script -eqc true /dev/null >/dev/null 2>&1; then
    script -eqc "'$GPULZ' gen quant 1K" /dev/null >tty.log 2>&1
    [ $? -eq 2 ] || fail "gen to a terminal did not exit 2: $(cat tty.log)"
    grep -q 'gpulz: gen: refusing to write binary data to a terminal' tty.log || fail "no refusal message"
    script -eqc "'$GPULZ' compress q.raw -o -" /dev/null >tty.log 2>&1
    [ $? -eq 2 ] || fail "compress to a terminal did not exit 2"
fi

# --help and version: exit 0 with text on stdout
for c in compress decompress info bench gen h5repack-args; do
    expect 0 "$GPULZ" "$c" --help
    grep -q "^Usage: gpulz $c" out.log || fail "$c --help has no usage line"
    expect 0 "$GPULZ" help "$c"
    grep -q "^Usage: gpulz $c" out.log || fail "help $c has no usage line"
done
for c in version help; do
    expect 0 "$GPULZ" help "$c"
    grep -q "^Usage: gpulz $c" out.log || fail "help $c has no usage line"
done
expect 0 "$GPULZ" --help
expect 0 "$GPULZ" --version
grep -q '^gpulz [0-9]' out.log || fail "--version"
expect 0 "$GPULZ" version
# version and help take nothing more: a stray word or option is a usage
# error, not ignored (version --help is its usage)
expect 2 "$GPULZ" version extra
[ ! -s out.log ] || fail "version extra printed: $(cat out.log)"
expect 2 "$GPULZ" --version --no-such-option
expect 2 "$GPULZ" -V extra
expect 2 "$GPULZ" help compress extra
[ ! -s out.log ] || fail "help compress extra printed: $(cat out.log)"
expect 2 "$GPULZ" help version extra
expect 0 "$GPULZ" version --help
grep -q '^Usage: gpulz version' out.log || fail "version --help: $(cat out.log)"
expect 0 "$GPULZ" version
# configure.ac's AC_INIT and gpulz.h state the version: both must say the same
pkg=$(sed -n 's/^gpulz \([^ ]*\) (library .*/\1/p' out.log)
lib=$(sed -n 's/^gpulz [^ ]* (library \([^,]*\),.*/\1/p' out.log)
[ -n "$pkg" ] && [ "$pkg" = "$lib" ] ||
    fail "configure's version '$pkg' is not gpulz.h's '$lib': change both"

# 1: damaged compressed data, and no output left behind
size=$(size q.gplz)
head -c $((size - 1)) q.gplz >truncated.gplz
head -c 20 q.gplz >header-only.gplz
cp q.gplz longer.gplz && printf 'z' >>longer.gplz
cp q.gplz magic.gplz && printf 'X' | dd of=magic.gplz bs=1 seek=0 conv=notrunc 2>/dev/null
cp q.gplz version.gplz && printf '\011' | dd of=version.gplz bs=1 seek=4 conv=notrunc 2>/dev/null
cp q.gplz symbol.gplz && printf '\003' | dd of=symbol.gplz bs=1 seek=6 conv=notrunc 2>/dev/null
cp q.raw notgpulz.gplz
: >empty.gplz
for bad in truncated header-only longer magic version symbol notgpulz empty; do
    expect 1 "$GPULZ" decompress "$bad.gplz"
    [ -e "$bad" ] && fail "decompress of $bad.gplz left $bad behind"
    expect 1 "$GPULZ" decompress "$bad.gplz" -o out.raw
    [ -e out.raw ] && fail "decompress of $bad.gplz left out.raw behind"
    expect 1 "$GPULZ" info "$bad.gplz"
    "$GPULZ" decompress <"$bad.gplz" >/dev/null 2>&1
    [ $? -eq 1 ] || fail "decompress of $bad.gplz from stdin did not exit 1"
done
ls | grep -q '\.tmp-' && fail "temporary files left behind"
# format 2 (the default mode) has no block table: info walks its streams'
# headers, so that a chunk cut short or grown is refused there too
"$GPULZ" compress -s 2 q.raw -o q2.gplz || fail "compress in the default mode"
size2=$(size q2.gplz)
head -c $((size2 - 1)) q2.gplz >truncated2.gplz
cp q2.gplz longer2.gplz && printf 'z' >>longer2.gplz
expect 0 "$GPULZ" info q2.gplz
for bad in truncated2 longer2; do
    expect 1 "$GPULZ" info "$bad.gplz"
    expect 1 "$GPULZ" decompress "$bad.gplz" -o out.raw
done

# 3: I/O
expect 3 "$GPULZ" compress no-such-file -o o.gplz
[ -e o.gplz ] && fail "a missing input left an output"
expect 3 "$GPULZ" compress q.raw -o no-such-dir/o.gplz
cp q.raw q.copy
expect 3 "$GPULZ" decompress q.gplz -o q.raw
grep -q 'already exists' err.log || fail "an existing output is not named as the reason"
cmp q.raw q.copy || fail "an existing output was changed without -f"
expect 3 "$GPULZ" info no-such-file
expect 3 "$GPULZ" compress . -o o.gplz
expect 3 "$GPULZ" gen quant 1K -o no-such-dir/x
# an endless stream that is no chunk is refused at its first bytes, not
# read until memory runs out (a bounded address space makes that an error)
if [ -r /dev/zero ]; then
    limit=
    command -v timeout >/dev/null 2>&1 && limit="timeout 60"
    for cmd in "info /dev/zero" "decompress /dev/zero -o zero.out"; do
        # shellcheck disable=SC2086
        (ulimit -v 4000000 2>/dev/null; exec $limit "$GPULZ" $cmd) >out.log 2>err.log
        rc=$?
        [ $rc -eq 1 ] || fail "gpulz $cmd exited $rc, expected 1: $(cat err.log)"
        grep -q 'not a gpulz chunk' err.log || fail "gpulz $cmd: $(cat err.log)"
    done
    [ ! -e zero.out ] || fail "decompress /dev/zero left an output"
fi
done_ok
