#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz bench FILE.h5: a row per dataset and filter (gpulz's settings,
# deflate 1 and 6, shuffle+deflate 1 and 6, and the LZ4, Blosc, Bitshuffle
# and Zstd plugins wherever HDF5 loads them, which h5repack decides here);
# datasets it cannot bench named; the h5repack arguments it prints, per row
# (--csv) and for the best trade-offs, taken by h5repack and keeping the data
# (h5diff); FILE.h5:/path benches that dataset or group only; a missing one
# is an error; no progress line where stderr is not a terminal.
. "$top_srcdir/h5tests/cli_common.sh"
[ -n "$H5REPACK" ] && [ -n "$H5DIFF" ] && [ -n "$H5DUMP" ] ||
    { echo "SKIP: the HDF5 tools (h5repack, h5diff, h5dump) were not found"; exit 77; }
"$top_builddir/h5tests/h5_mkfile" --bench data.h5 || exit 99

use_test_plugins

expect 0 "$GPULZ" bench data.h5 -r 1
[ -s err.log ] && fail "stderr is not a terminal, yet bench wrote to it: $(cat err.log)"
cp out.log all.log
grep -q "^# HDF5 .*plugin path $HDF5_PLUGIN_PATH\$" all.log || fail "no plugin path in: $(cat all.log)"

# row DATASET TYPE SHAPE CHUNK FILTER: that row, with three numbers > 0
row() {
    filter=$(printf '%s' "$5" | sed 's/[+.]/\\&/g')
    line=$(grep -E "^$1 +$2 +$3 +$4 +$filter +[0-9.]+ +[0-9.]+ +[0-9.]+\$" all.log)
    [ -n "$line" ] || fail "no row '$*' in: $(cat all.log)"
    echo "$line" | awk '{ if (!($(NF-2) > 0 && $(NF-1) > 0 && $NF > 0)) exit 1 }' ||
        fail "row '$*' has a figure that is not > 0: $line"
}
rows=0 nplug=0
# dataset, type, shape, chunk (* = picked: contiguous in the file), the element's symbol size
while read -r ds type shape chunk S; do
    for f in "gpulz S=$S W=32" "gpulz S=$S W=255" "deflate 1" "deflate 6" "shuffle+deflate 1" \
        "shuffle+deflate 6"; do
        row "$ds" "$type" "$shape" "$chunk" "$f"
        rows=$((rows + 1))
    done
    if [ "$S" != 1 ]; then
        row "$ds" "$type" "$shape" "$chunk" "gpulz S=1 W=32"
        row "$ds" "$type" "$shape" "$chunk" "gpulz S=1 W=255"
        rows=$((rows + 2))
    fi
done <<'EOF'
/codes u16 131072 32768 2
/grid/field f32 250x200 64x64 4
/grid/ramp i32 100000 100000\* 4
/records compound11 20000 5000 1
EOF

# The plugins: rows exactly where h5repack can use the filter.
for p in "lz4 32004 0 lz4" "blosc 32001 7,0,0,0,0,5,1,1 blosc_lz4_shuffle" \
    "blosc 32001 7,0,0,0,0,5,1,5 blosc_zstd_shuffle" "bitshuffle 32008 2,0,2 bitshuffle_lz4" \
    "zstd 32015 1,3 zstd_3"; do
    set -- $p
    label=$(echo "$4" | tr _ ' ')
    rm -f probe.h5
    if "$H5REPACK" -f "/codes:UD=$2,0,$3" data.h5 probe.h5 >/dev/null 2>&1 &&
        "$H5DUMP" -pH -d /codes probe.h5 | grep -q "FILTER_ID $2"; then
        grep -q "$1 ($2) found" all.log || fail "h5repack loads $1, bench does not say so"
        for ds in /codes /grid/field /grid/ramp /records; do
            grep -Eq "^$ds .* $label +[0-9.]+ +[0-9.]+ +[0-9.]+\$" all.log ||
                fail "$1 loads, but $ds has no '$label' row: $(cat all.log)"
            rows=$((rows + 1))
        done
        nplug=$((nplug + 1))
        echo "plugin $1 ($2): loaded, rows checked"
    else
        grep -q "$1 ($2) not found" all.log || fail "$1 does not load, bench says otherwise"
        grep -Eq " $label +[0-9.]" all.log && fail "$1 does not load, yet has rows"
        echo "plugin $1 ($2): not loaded here (no rows expected)"
    fi
done
got=$(grep -Ec '^/[^ ]+ +[a-z0-9]+ +[0-9x]+ +[0-9x]+\*? +.* [0-9.]+ +[0-9.]+ +[0-9.]+$' all.log)
[ "$got" = "$rows" ] || fail "$got rows, expected $rows: $(cat all.log)"

# what it cannot bench, and the chunking it picked, are said
grep -q '^# skipped /names: variable-length' all.log || fail "/names not reported as skipped"
grep -q '^# skipped /scalar: ' all.log || fail "/scalar not reported as skipped"
grep -q '^# \* not chunked in the file' all.log || fail "no note on the picked chunking"

# The best trade-off per dataset: each line's arguments through h5repack
sed -n '/^# best trade-off/,/^h5repack /p' all.log | sed '1d;$d' >best
[ "$(wc -l <best | tr -d ' ')" = 4 ] || fail "not 4 best lines: $(cat all.log)"
while read -r ds args; do
    case $args in -f\ "$ds":*) ;; *) fail "best line for $ds: '$args'" ;; esac
    if [ "$ds" = /grid/ramp ]; then
        case $args in *" -l /grid/ramp:CHUNK=100000") ;; *) fail "/grid/ramp: no -l CHUNK: $args" ;; esac
    fi
    rm -f one.h5
    eval "set -- $args"
    "$H5REPACK" "$@" data.h5 one.h5 || fail "h5repack $args refused"
    "$H5DIFF" data.h5 one.h5 || fail "h5repack $args: the data differs"
    "$H5DUMP" -pH -d "$ds" one.h5 | grep -Eq 'FILTER_ID|COMPRESSION|PREPROCESSING' ||
        fail "h5repack $args: $ds has no filter"
done <best
# ... and all of them at once, as printed
cmd=$(grep '^h5repack ' all.log)
case $cmd in *" data.h5 data-repacked.h5") ;; *) fail "the h5repack command: $cmd" ;; esac
eval "set -- ${cmd#h5repack }"
"$H5REPACK" "$@" || fail "$cmd"
"$H5DIFF" data.h5 data-repacked.h5 || fail "$cmd: the data differs"

# Every row's argument (--csv) through h5repack, for the two layouts: chunked
# and contiguous (with -l); the best one is marked once per dataset.
expect 0 "$GPULZ" bench data.h5:/codes data.h5:/grid/ramp -r 1 --csv -q
head -n 1 out.log | grep -q '^file,dataset,type,shape,chunk,chunk_picked,bytes,filter,ratio,' ||
    fail "no CSV header: $(cat out.log)"
for ds in /codes /grid/ramp; do
    [ "$(grep -c "^data.h5,$ds," out.log)" = $((8 + nplug)) ] ||
        fail "CSV: not $((8 + nplug)) rows for $ds: $(cat out.log)"
    [ "$(grep "^data.h5,$ds," out.log | sed -n 's/.*,\([01]\),"-f .*/\1/p' | grep -c 1)" = 1 ] ||
        fail "CSV: $ds has not exactly one best row: $(cat out.log)"
done
n=0
grep '^data.h5,' out.log | sed 's/.*,"\(-f [^"]*\)",[^,]*$/\1/' >args
while read -r args; do
    rm -f one.h5
    eval "set -- $args"
    "$H5REPACK" "$@" data.h5 one.h5 || fail "h5repack $args refused"
    "$H5DIFF" data.h5 one.h5 || fail "h5repack $args: the data differs"
    n=$((n + 1))
done <args
[ "$n" = $((2 * (8 + nplug))) ] || fail "$n h5repack arguments in the CSV: $(cat out.log)"

# one dataset, one group, a file known by its signature only
expect 0 "$GPULZ" bench data.h5:/grid/field -r 1
grep -Eq '^/grid/field ' out.log || fail "data.h5:/grid/field: no rows"
grep -Eq '^/(codes|records|grid/ramp) ' out.log && fail "data.h5:/grid/field benched others: $(cat out.log)"
expect 0 "$GPULZ" bench data.h5:/grid -r 1 -l 1
[ "$(grep -Ec '^/grid/(field|ramp) .* gpulz S=[14] W=32 ' out.log)" = 4 ] ||
    fail "data.h5:/grid -l 1: not 2 gpulz rows each for field and ramp: $(cat out.log)"
grep -Eq '^/(codes|records) ' out.log && fail "data.h5:/grid benched others"
# arguments naming one file: one table, each dataset once, one h5repack command
expect 0 "$GPULZ" bench data.h5:/grid data.h5:/codes data.h5:/grid/field -r 1 -l 4 -s 1
[ "$(grep -Ec '^/(grid/field|grid/ramp|codes) .* gpulz S=1 W=255 ' out.log)" = 3 ] ||
    fail "three arguments in one file: not one row each: $(cat out.log)"
[ "$(grep -c '^h5repack ' out.log)" = 1 ] || fail "not one h5repack command for one file: $(cat out.log)"
expect 0 "$GPULZ" bench data.h5:/names
grep -q '^# nothing to bench in data.h5' out.log || fail "data.h5:/names: $(cat out.log)"
cp data.h5 data.bin
expect 0 "$GPULZ" bench data.bin -r 1 -s 2 -l 4
grep -Eq '^/codes +u16 .* gpulz S=2 W=255 ' out.log || fail "data.bin (HDF5 signature): $(cat out.log)"

# a plugin that refuses a chunk while writing (Blosc, mandatory here, on
# random bytes it cannot shrink): a row with the reason, and the rest benched
if grep -q "blosc (32001) found" all.log; then
    "$top_builddir/h5tests/h5_mkfile" plain.h5 || exit 99
    expect 0 "$GPULZ" bench plain.h5:/noise plain.h5:/ramp -r 1
    grep -Eq '^/noise .* blosc lz4 shuffle +- +- +-  \(cannot write: ' out.log ||
        fail "blosc's refusal of /noise: no row with the reason: $(cat out.log)"
    grep -Eq '^/ramp .* blosc lz4 shuffle +[0-9.]+ +[0-9.]+ +[0-9.]+$' out.log ||
        fail "after blosc's refusal, /ramp has no blosc row: $(cat out.log)"
fi

# what cannot be benched is an error before any row
expect 3 "$GPULZ" bench data.h5:/nope
grep -q '/nope' err.log || fail "a missing dataset is not named: $(cat err.log)"
[ -s out.log ] && fail "rows printed for a missing dataset: $(cat out.log)"
expect 3 "$GPULZ" bench missing.h5
expect 3 "$GPULZ" bench "$top_srcdir/h5tests/cli_common.sh:/x"
expect 2 "$GPULZ" bench data.h5 --gen quant:64K
expect 2 "$GPULZ" bench data.h5 -e 2
expect 2 "$GPULZ" bench data.h5 -t 1,2
done_ok
