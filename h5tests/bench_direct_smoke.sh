#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/h5direct_bench on a tiny array on the CPU, so that it keeps working
# between benchmark rounds: every path on both file kinds and two chunk
# sizes gives a row, every row that ran says ok and read back its bytes,
# gpulz's ratio fits the codes and equals between the filter and the direct
# path (the same chunks), `none` stores the codes as they are; the device
# rows are skipped without a GPU; a device-only run without a GPU exits 77;
# bad options exit 2.
. "$top_srcdir/h5tests/cli_common.sh"
BENCH="$top_builddir/bench/h5direct_bench"
case $BENCH in /*) ;; *) BENCH="$OLDPWD/$BENCH" ;; esac
[ -x "$BENCH" ] || { echo "bench/h5direct_bench not built: skipped"; exit 77; }

GPULZ_BACKEND=cpu GPULZ_THREADS=2 "$BENCH" --size 3M --chunks 0.5,1 --repeats 1 --disk "$PWD/disk.h5" \
    --csv run.csv >run.txt 2>run.err || fail "h5direct_bench exited $?: $(cat run.err)"
head -n 1 run.csv | grep -q '^file,path,memory,gpus,mode,chunk_mib,chunk_bytes,size_bytes,cache_bytes,ratio,write_gbs,read_gbs,write_gbs_max,read_gbs_max,write_s,read_s,repeats,direct,vs_filter_write,vs_filter_read,status$' ||
    fail "no CSV header: $(head -n 1 run.csv)"
[ "$(tail -n +2 run.csv | wc -l | tr -d ' ')" = 16 ] || fail "not 2 files x 2 chunks x 4 paths rows: $(cat run.csv)"
tail -n +2 run.csv | awk -F, '$2 != "direct-device" && ($21 != "ok" || !($11 > 0) || !($12 > 0)) { bad = 1 }
    $2 == "direct-device" && $21 != "ok" && $21 !~ /^skipped/ { bad = 1 } END { exit bad }' ||
    fail "a row not ok: $(cat run.csv)"
tail -n +2 run.csv | awk -F, '$2 == "none" && !($10 > 0.99 && $10 < 1.01) { bad = 1 }
    $2 != "none" && $21 == "ok" && !($10 > 1.5) { bad = 1 }
    $2 ~ /^direct/ && $21 == "ok" && $18 != "1" { bad = 1 }
    ($2 == "none" || $2 == "direct-host") && $4 != "0" { bad = 1 } END { exit bad }' ||
    fail "ratios or chunk path do not fit: $(cat run.csv)"
for f in memory disk; do
    for c in 0.5 1; do
        rf=$(awk -F, -v f=$f -v c=$c '$1 == f && $6 == c && $2 == "filter" { print $10 }' run.csv)
        rd=$(awk -F, -v f=$f -v c=$c '$1 == f && $6 == c && $2 == "direct-host" { print $10 }' run.csv)
        [ -n "$rf" ] && [ "$rf" = "$rd" ] || fail "$f $c MiB: filter ratio $rf, direct $rd"
    done
done
grep -q '^# device: ' run.txt || fail "no device line: $(cat run.txt)"
grep -q '^# data: 3145728 bytes' run.txt || fail "no data line: $(cat run.txt)"
grep -q 'issue 12 targets' run.txt || fail "no targets: $(cat run.txt)"
[ ! -e disk.h5 ] || fail "the disk file was left behind"

# the mode and the CSV on stdout
GPULZ_BACKEND=cpu "$BENCH" --size 1M --chunks 1 --files memory --paths filter,direct-host --mode fast \
    --repeats 1 --csv - >fast.txt 2>fast.err || fail "mode fast exited $?: $(cat fast.err)"
[ "$(grep -c '^memory,[a-z-]*,host,0,fast,1,' fast.txt)" = 2 ] || fail "mode fast rows: $(cat fast.txt)"

# the device path alone: skipped where no GPU is usable, else measured
"$BENCH" --size 1M --chunks 1 --files memory --paths direct-device --repeats 1 --csv dev.csv >dev.txt 2>dev.err
rc=$?
case $rc in
77) grep -q 'no usable GPU' dev.txt || fail "device-only skip without a reason: $(cat dev.txt)"
    gpu=no ;;
0) grep -q '^memory,direct-device,device,1,lz,1,.*,1,[0-9.]*,[0-9.]*,ok$' dev.csv || fail "device row: $(cat dev.csv)"
    gpu=yes ;;
*) fail "device-only run exited $rc: $(cat dev.err)" ;;
esac

# pinned host buffers: measured and named where a GPU is usable, else a
# clear failure (nothing to pin them with)
"$BENCH" --pinned --size 2M --chunks 1 --files memory --paths filter,direct-host --repeats 1 --csv pin.csv \
    >pin.txt 2>pin.err
rc=$?
if [ "$gpu" = yes ]; then
    [ $rc = 0 ] || fail "--pinned exited $rc: $(cat pin.err)"
    grep -q '^# host buffers: pinned' pin.txt || fail "--pinned: no header line: $(cat pin.txt)"
    [ "$(grep -c '^memory,[a-z-]*,pinned,.*,ok$' pin.csv)" = 2 ] || fail "--pinned rows: $(cat pin.csv)"
else
    [ $rc = 1 ] && grep -q 'cannot pin\|needs a build with CUDA' pin.err || fail "--pinned without a GPU: exit $rc: $(cat pin.err)"
fi

# GPU counts: direct-host once per count, the other paths once; without a
# GPU the first count runs on the CPU and the others are skipped, with a GPU
# the counts beyond the usable devices
GPULZ_BACKEND=cpu "$BENCH" --size 2M --chunks 1 --files memory --paths filter,direct-host --gpus 1,2,64 \
    --repeats 1 --csv gpus.csv >gpus.txt 2>gpus.err || fail "--gpus exited $?: $(cat gpus.err)"
[ "$(grep -c '^memory,filter,' gpus.csv)" = 1 ] || fail "--gpus: filter rows: $(cat gpus.csv)"
[ "$(grep -c '^memory,direct-host,' gpus.csv)" = 3 ] || fail "--gpus: direct-host rows: $(cat gpus.csv)"
grep -q '^memory,direct-host,host,0,lz,1,.*,ok$' gpus.csv || fail "--gpus: the first count: $(cat gpus.csv)"
grep -q '^memory,direct-host,host,64,lz,1,.*,skipped: [^,]*$' gpus.csv || fail "--gpus: 64 GPUs: $(cat gpus.csv)"
grep -q '^# GPUs: direct-host with GPULZ_DEVICE set to the first 1, 2, 64 of devices' gpus.txt ||
    fail "--gpus: no GPUs line: $(cat gpus.txt)"

for bad in "--size x" "--chunks 0" "--paths foo" "--repeats 0" "--mode best" "--nothing 1" "--gpus 0" \
    "--gpus 1,x" "--gpus 65"; do
    # shellcheck disable=SC2086
    "$BENCH" $bad >/dev/null 2>bad.err
    [ $? -eq 2 ] || fail "'$bad' did not exit 2"
done
done_ok
