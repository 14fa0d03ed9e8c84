#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The benchmark programs on a corpus of two small arrays, so that they keep
# working between benchmark rounds: h5bench writes a row per array, filter
# and chunk size, every one `ok`, with ratios that fit the data (codes
# compress through gpulz, `none` stores them as they are); an array the
# manifest describes wrongly, or whose file is missing, is reported and the
# others still run, with exit status 1; gpu_bench (where a GPU is usable),
# mode_speed (on the CPU, and on the GPU where one is usable) and tables.py
# (where a python3 is) read the same corpus.
. "$top_srcdir/h5tests/cli_common.sh"
H5BENCH="$top_builddir/bench/h5bench"
case $H5BENCH in /*) ;; *) H5BENCH="$OLDPWD/$H5BENCH" ;; esac
[ -x "$H5BENCH" ] || { echo "bench/h5bench not built: skipped"; exit 77; }

"$GPULZ" gen quant 128K -o codes.u16 || fail "gen quant"
"$GPULZ" gen int 96K -o keys.i32 || fail "gen int"
{
    echo "# name dtype shape bytes sha256"
    echo "codes uint16 64x1024 131072 -"
    echo "keys int32 24576 98304 -"
} >MANIFEST

# every filter setting that needs no other plugin, 1 MiB chunks (one chunk each)
filters=none,deflate-1,shuffle+deflate-1,gpulz-cpu-1t,gpulz-cpu-all
"$H5BENCH" --manifest MANIFEST --filters $filters --chunks 1 --repeats 1 >h5.csv 2>h5.err ||
    fail "h5bench exited $?: $(cat h5.err)"
head -n 1 h5.csv | grep -q '^dataset,dtype,shape,bytes,filter,chunk_mib,chunk_bytes,ratio,write_gbs,read_gbs,status$' ||
    fail "h5bench: no CSV header: $(head -n 1 h5.csv)"
[ "$(tail -n +2 h5.csv | wc -l | tr -d ' ')" = 10 ] || fail "h5bench: not 2 x 5 rows: $(cat h5.csv)"
tail -n +2 h5.csv | awk -F, '$11 != "ok" || !($9 > 0) || !($10 > 0) { bad = 1 } END { exit bad }' ||
    fail "h5bench: a row not ok or without speeds: $(cat h5.csv)"
grep -q '^codes,uint16,64x1024,131072,gpulz-cpu-1t,' h5.csv || fail "h5bench: no gpulz row for codes"
awk -F, '$1 == "codes" && $5 ~ /^gpulz/ && !($8 > 1.5) { bad = 1 }
    $5 == "none" && !($8 > 0.99 && $8 < 1.01) { bad = 1 } END { exit bad }' h5.csv ||
    fail "h5bench: ratios do not fit the data: $(cat h5.csv)"
# one thread or all: the same chunks, the same ratio
r1=$(awk -F, '$1 == "keys" && $5 == "gpulz-cpu-1t" { print $8 }' h5.csv)
ra=$(awk -F, '$1 == "keys" && $5 == "gpulz-cpu-all" { print $8 }' h5.csv)
[ -n "$r1" ] && [ "$r1" = "$ra" ] || fail "h5bench: gpulz ratio on keys differs by threads: $r1 / $ra"

# a wrong shape and a missing file: reported, the good array still measured, status 1
{
    echo "wrongshape uint16 10x10 999 -"
    echo "nofile int32 4 16 -"
    grep -v '^#' MANIFEST
} >BAD
"$H5BENCH" --manifest BAD --filters gpulz-cpu-1t --chunks 1 --repeats 1 >bad.csv 2>bad.err
rc=$?
[ $rc -eq 1 ] || fail "h5bench on a bad manifest exited $rc, expected 1"
grep -q 'wrongshape.*disagree' bad.err || fail "h5bench: the wrong shape is not reported: $(cat bad.err)"
grep -q 'nofile' bad.err || fail "h5bench: the missing file is not reported: $(cat bad.err)"
[ "$(grep -c ',ok$' bad.csv)" = 2 ] || fail "h5bench: the good arrays did not run: $(cat bad.csv)"
"$H5BENCH" --manifest nowhere/MANIFEST >/dev/null 2>none.err && fail "h5bench ran without a manifest"
grep -q 'cannot open nowhere/MANIFEST' none.err || fail "h5bench: no message for a missing manifest"

# the GPU codec on the same corpus, where a GPU is usable
GPU_BENCH="$top_builddir/bench/gpu_bench"
case $GPU_BENCH in /*) ;; *) GPU_BENCH="$OLDPWD/$GPU_BENCH" ;; esac
if [ -x "$GPU_BENCH" ]; then
    "$GPU_BENCH" --csv --manifest MANIFEST --repeats 1 >gpu.csv 2>gpu.err
    rc=$?
    if [ $rc -ne 77 ]; then
        [ $rc -eq 0 ] || fail "gpu_bench exited $rc: $(cat gpu.err)"
        tail -n +2 gpu.csv | awk -F, '$9 != "ok" { bad = 1 } END { exit bad || NR == 0 }' ||
            fail "gpu_bench: a row not ok: $(cat gpu.csv)"
        cp gpu.csv gpu_bench.csv
        echo "gpu_bench: $(tail -n +2 gpu.csv | wc -l | tr -d ' ') rows ok"
    else
        echo "gpu_bench: no usable GPU, skipped"
    fi
fi

# one call per chunk, per mode: a row per array and one for all, the round
# trip checked; on the GPU where one is usable (77 where none is)
MODE_SPEED="$top_builddir/bench/mode_speed"
case $MODE_SPEED in /*) ;; *) MODE_SPEED="$OLDPWD/$MODE_SPEED" ;; esac
if [ -x "$MODE_SPEED" ]; then
    for backend in cpu gpu; do
        "$MODE_SPEED" --manifest MANIFEST --modes lz,fast,auto --chunk-mib 0.0625 --repeats 1 \
            --backend $backend >speed-$backend.md 2>speed.err
        rc=$?
        if [ $backend = gpu ] && [ $rc -eq 77 ]; then
            echo "mode_speed --backend gpu: no usable GPU, skipped"
            continue
        fi
        [ $rc -eq 0 ] || fail "mode_speed --backend $backend exited $rc: $(cat speed.err)"
        [ "$(grep -c '^| codes | uint16 |' speed-$backend.md)" = 1 ] &&
            [ "$(grep -c '^| keys | int32 |' speed-$backend.md)" = 1 ] &&
            grep -q '^| \*\*all arrays\*\* |' speed-$backend.md ||
            fail "mode_speed --backend $backend: not a row per array: $(cat speed-$backend.md)"
    done
fi

# the tables, from these CSVs (standard library only: any python3)
PY=$(command -v python3 || true)
if [ -n "$PY" ]; then
    cp h5.csv h5bench.csv
    "$PY" "$top_srcdir/bench/tables.py" --results . --chunk 1 >TABLES.md 2>tables.err ||
        fail "tables.py: $(cat tables.err)"
    grep -q 'Table 4' TABLES.md || fail "tables.py: no HDF5 table: $(cat TABLES.md)"
    grep -q 'gpulz-cpu-1t' TABLES.md || fail "tables.py: no gpulz row"
fi
done_ok
