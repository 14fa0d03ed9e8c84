#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz compress/decompress: generated data of every kind and odd sizes come
# back byte for byte through files, stdin/stdout and the -c/-d aliases, under
# a sample of option combinations; options that only say where the work runs
# (threads, backend) never change the compressed bytes.
. "$top_srcdir/h5tests/cli_common.sh"

# inputs: every generator at a size that is not a multiple of 8 or of a block,
# plus the edge sizes 0, 1 and 7 bytes
for kind in quant float int runs random zeros records ramp; do
    "$GPULZ" gen "$kind" 100003 -o "$kind.raw" || fail "gen $kind"
done
: >empty.raw
printf 'x' >one.raw
printf 'abcdefg' >seven.raw
inputs="quant.raw float.raw int.raw runs.raw random.raw zeros.raw records.raw ramp.raw empty.raw one.raw seven.raw"

# 1. files, with the default output names
for f in $inputs; do
    expect 0 "$GPULZ" compress "$f"
    [ -f "$f.gplz" ] || fail "compress $f wrote no $f.gplz"
    mv "$f" "$f.orig"
    expect 0 "$GPULZ" decompress "$f.gplz"
    cmp "$f" "$f.orig" || fail "$f: file round trip differs"
    mv "$f.orig" "$f"
    rm -f "$f.gplz"
done

# 2. stdin to stdout, both as '-' and as absent arguments, and the aliases
for f in $inputs; do
    "$GPULZ" compress - <"$f" | "$GPULZ" decompress - >back || fail "$f: pipe failed"
    cmp "$f" back || fail "$f: '-' round trip differs"
    "$GPULZ" compress -s 2 <"$f" | "$GPULZ" decompress -o - >back || fail "$f: pipe failed"
    cmp "$f" back || fail "$f: stdin round trip differs"
    "$GPULZ" -c -l 1 "$f" -o - | "$GPULZ" -d >back || fail "$f: -c/-d pipe failed"
    cmp "$f" back || fail "$f: -c/-d round trip differs"
done

# 3. a sample of option combinations on data that compresses and data that
# does not; each must round-trip and be identical whatever threads and
# backend say
for f in quant.raw int.raw random.raw seven.raw; do
    for opts in "-s 1 -l 1 -b 256" "-s 2 -l 2 -b 512" "-s 4 -l 3 -b 2048" "-s 8 -l 4 -b 16384" \
        "-s 2 -w 1 -b 1024" "-s 4 -w 255 -b 8192 -a" "--symbol 8 --window 7 --block 256 --adaptive" \
        "-s 1 -w 200 -b 4096 -a" "-2" "-4 -s 4"; do
        expect 0 "$GPULZ" compress $opts --threads 1 --backend cpu "$f" -o ref.gplz
        for run in "--threads 2" "--threads 0" "-t 3 --backend auto"; do
            expect 0 "$GPULZ" compress $opts $run -f "$f" -o alt.gplz
            cmp ref.gplz alt.gplz || fail "$f '$opts' '$run': compressed bytes differ from 1 thread"
        done
        expect 0 "$GPULZ" decompress -t 2 ref.gplz -o back -f
        cmp "$f" back || fail "$f '$opts': round trip differs"
        rm -f ref.gplz alt.gplz back
    done
done

# 4. the data the parameters are for compresses: quantization codes (2-byte
# elements) with S = 2 to under half their size, and S = 2 beats S = 1 there
"$GPULZ" gen quant 1M -o quant1m.raw || fail "gen"
expect 0 "$GPULZ" compress -s 2 quant1m.raw -o q2.gplz
expect 0 "$GPULZ" compress -s 1 quant1m.raw -o q1.gplz
[ $(($(size q2.gplz) * 2)) -lt "$(size quant1m.raw)" ] || fail "quant with S=2 did not halve"
[ "$(size q2.gplz)" -lt "$(size q1.gplz)" ] || fail "quant: S=2 not smaller than S=1"

# 5. --mode: fast, ratio and auto write chunk format 2 (byte 4 of the header),
# lz format 1; every mode round-trips, with and without the checksum, and the
# bytes do not depend on the thread count (auto without the checksum may keep
# lz's format 1 chunk where it is shorter, FORMAT.md §19); no --mode is auto,
# byte for byte; auto is never longer than fast or ratio; --no-checksum needs
# a mode with a checksum, decompress takes no mode
version_byte() { od -An -tu1 -j4 -N1 "$1" | tr -d ' '; }
for f in quant.raw float.raw int.raw random.raw seven.raw empty.raw; do
    for opts in "--mode fast" "--mode ratio -s 2" "--mode auto -s 4" "--mode fast --no-checksum -s 8" \
        "--mode auto --no-checksum -a -s 4" "--mode lz -s 4" "-s 4" "--no-checksum -a -s 4"; do
        expect 0 "$GPULZ" compress $opts -t 1 "$f" -o ref.gplz
        expect 0 "$GPULZ" compress $opts -t 3 -f "$f" -o alt.gplz
        cmp ref.gplz alt.gplz || fail "$f '$opts': compressed bytes differ with 3 threads"
        case $opts in
            *lz*) want=1 ;;
            *auto*--no-checksum* | --no-checksum*) want=[12] ;;
            *) want=2 ;;
        esac
        case $(version_byte ref.gplz) in $want) ;; *) fail "$f '$opts': format $(version_byte ref.gplz), expected $want" ;; esac
        expect 0 "$GPULZ" decompress ref.gplz -o back -f
        cmp "$f" back || fail "$f '$opts': round trip differs"
        rm -f ref.gplz alt.gplz back
    done
done
for m in fast ratio auto; do
    expect 0 "$GPULZ" compress --mode $m -s 2 quant1m.raw -o "q-$m.gplz"
done
expect 0 "$GPULZ" compress -s 2 quant1m.raw -o q-default.gplz
cmp q-default.gplz q-auto.gplz || fail "compress without --mode is not --mode auto"
[ "$(size q-auto.gplz)" -le "$(size q-fast.gplz)" ] && [ "$(size q-auto.gplz)" -le "$(size q-ratio.gplz)" ] ||
    fail "auto $(size q-auto.gplz) bytes, fast $(size q-fast.gplz), ratio $(size q-ratio.gplz)"
expect 2 "$GPULZ" compress --mode fastest quant.raw -o x.gplz
grep -q "'fastest' is not lz, fast, ratio or auto" err.log || fail "--mode fastest: $(cat err.log)"
expect 2 "$GPULZ" compress --mode lz --no-checksum quant.raw -o x.gplz
grep -q "no-checksum is for modes" err.log || fail "--mode lz --no-checksum: $(cat err.log)"
expect 2 "$GPULZ" decompress --mode fast q-fast.gplz -o x
grep -q "'--mode' is for compress" err.log || fail "decompress --mode: $(cat err.log)"
[ -e x.gplz ] || [ -e x ] && fail "a refused command left an output"

# 6. -f replaces an existing output; without it the output is kept
printf 'old' >exists.gplz
expect 3 "$GPULZ" compress quant1m.raw -o exists.gplz
[ "$(cat exists.gplz)" = old ] || fail "an existing output was changed without -f"
expect 0 "$GPULZ" compress -f quant1m.raw -o exists.gplz
cmp exists.gplz q1.gplz || fail "-f did not replace the output"

# 7. the input survives and the output is a plain file of the usual mode
[ -f quant.raw ] || fail "compress removed its input"
ls "$work" | grep -q '\.tmp-' && fail "temporary files left behind"
done_ok
