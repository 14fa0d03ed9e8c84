#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz info reports what the file was compressed with: the fields are
# checked against the parameters given and the sizes FORMAT.md §2-3 implies
# (mode lz, format 1, whose header and block table those sections give), and
# names the stages of a format 2 chunk (the default mode, auto, and --mode).
. "$top_srcdir/h5tests/cli_common.sh"

# field NAME: the value of "NAME: value" in out.log
field() {
    sed -n "s/^$1: *//p" out.log
}

check() {
    got=$(field "$1")
    [ "$got" = "$2" ] || fail "info $3: '$1' is '$got', expected '$2'"
}

# 100003 bytes with S = 4, W = 77, C = 512: m = 25000 symbols, 3 tail bytes,
# nb = ceil(25000 / 512) = 49, header and table 28 + 4 * 49 = 224 bytes
"$GPULZ" gen int 100003 -o int.raw || fail "gen"
expect 0 "$GPULZ" compress --mode lz -s 4 -w 77 -b 512 int.raw
expect 0 "$GPULZ" info int.raw.gplz
check "format version" 1 int
check "symbol size" 4 int
check "window" 77 int
check "block size" "512 symbols (2048 bytes)" int
check "uncompressed size" 100003 int
check "compressed size" "$(size int.raw.gplz)" int
check "header size" 224 int
check "blocks" 49 int
check "tail bytes" 3 int
ratio=$(field ratio)
awk -v r="$ratio" -v a=100003 -v b="$(size int.raw.gplz)" \
    'BEGIN { d = r - a / b; exit !(d < 0.001 && d > -0.001) }' || fail "ratio $ratio is not 100003/size"

# random data never shrinks: every block is stored raw; zeros: none is.
# --level 2 is window 64 and the default block is 2048 symbols.
"$GPULZ" gen random 65536 -o random.raw && "$GPULZ" gen zeros 65536 -o zeros.raw || fail "gen"
expect 0 "$GPULZ" compress --mode lz -l 2 random.raw
expect 0 "$GPULZ" info random.raw.gplz
check "window" 64 random
check "block size" "2048 symbols (2048 bytes)" random
check "blocks" 32 random
check "raw blocks" 32 random
expect 0 "$GPULZ" compress --mode lz -s 8 zeros.raw
expect 0 "$GPULZ" info zeros.raw.gplz
check "symbol size" 8 zeros
check "blocks" 4 zeros
check "raw blocks" 0 zeros

# --blocks: a line per block plus the tail; the stored sizes, the header and
# the tail add up to the file; raw blocks are listed as raw
expect 0 "$GPULZ" info --blocks int.raw.gplz
listed=$(awk '$1 ~ /^[0-9]+$/ && NF == 6' out.log | wc -l | tr -d ' ')
[ "$listed" = 49 ] || fail "--blocks listed $listed blocks, expected 49"
total=$(awk '($1 ~ /^[0-9]+$/ && NF == 6) || $1 == "tail" { s += $4 } END { print s + 224 }' out.log)
[ "$total" = "$(size int.raw.gplz)" ] || fail "--blocks sizes add up to $total, not the file size"
awk '$1 ~ /^[0-9]+$/ && NF == 6 && $5 == "raw" && $3 != $4 { bad = 1 } END { exit bad }' out.log ||
    fail "--blocks: a raw block whose stored size is not its raw size"
expect 0 "$GPULZ" info -b random.raw.gplz
[ "$(awk '$1 ~ /^[0-9]+$/ && $5 == "raw"' out.log | wc -l | tr -d ' ')" = 32 ] || fail "--blocks: random should list 32 raw blocks"

# several files, stdin, --verify
expect 0 "$GPULZ" info int.raw.gplz zeros.raw.gplz
[ "$(grep -c '^file:' out.log)" = 2 ] || fail "info of two files"
"$GPULZ" info - <zeros.raw.gplz >out.log || fail "info from stdin"
check "uncompressed size" 65536 stdin
expect 0 "$GPULZ" info --verify int.raw.gplz
check "verified" yes int

# format 1 names its one stage; format 2 (--mode) the stages of its flags
# byte, bit 0 delta, 1 split, 2 lzss, 3 entropy, 4 checksum (FORMAT.md §11),
# and --blocks says it has no block table instead of failing
check "stages" lzss int
expect 0 "$GPULZ" compress --mode fast -s 4 -o fast.gplz int.raw
expect 0 "$GPULZ" info --verify fast.gplz
check "format version" 2 fast
check "window" 0 fast
check "verified" yes fast
flags=$(field flags)
stages=$(awk -v f="$((flags))" 'BEGIN { split("delta split lzss entropy checksum", n, " ");
    for (i = 0; i < 5; i++) if (int(f / 2 ^ i) % 2) s = s (s == "" ? "" : " ") n[i + 1]; print s }')
check "stages" "$stages" fast
case " $stages " in *" entropy "*) ;; *) fail "fast: stages '$stages'" ;; esac
case " $stages " in *" checksum ") ;; *) fail "fast: stages '$stages'" ;; esac
case " $stages " in *" lzss "*) fail "fast has no LZSS stage: '$stages'" ;; esac
grep -q '^raw blocks:' out.log && fail "format 2: raw blocks listed"
expect 0 "$GPULZ" compress --mode ratio --no-checksum -s 4 -w 77 -o ratio.gplz int.raw
expect 0 "$GPULZ" info --blocks ratio.gplz
check "window" 77 ratio
case " $(field stages) " in *" lzss entropy ") ;; *) fail "ratio: stages '$(field stages)'" ;; esac
case " $(field stages) " in *" checksum "*) fail "--no-checksum: stages '$(field stages)'" ;; esac
check "block table" "none (format 2: the blocks share the coded streams)" ratio

# no --mode: auto, format 2, its stages those of fast or ratio (entropy
# coded, with the checksum)
expect 0 "$GPULZ" compress -s 4 -o default.gplz int.raw
expect 0 "$GPULZ" info --verify default.gplz
check "format version" 2 default
check "verified" yes default
case " $(field stages) " in *" entropy checksum ") ;; *) fail "default: stages '$(field stages)'" ;; esac

# not gpulz data: exit 1
expect 1 "$GPULZ" info int.raw
done_ok
