#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/mpi_bench with 2 ranks on 128 MiB on the CPU, so that it keeps
# working between GPU rounds: every path on disk gives an ok row whose
# bytes read back, the gpulz paths store the same chunks (equal ratios),
# the shared paths' memory rows say the core driver is serial, the
# device-buffer rows say no GPU is used, the rank lines name both ranks, and
# bad options exit 2.  Built and run only for a
# parallel HDF5 (mpi.inc).
. "$top_srcdir/h5tests/cli_common.sh"
BENCH="$top_builddir/bench/mpi_bench"
case $BENCH in /*) ;; *) BENCH="$OLDPWD/$BENCH" ;; esac
[ -x "$BENCH" ] || { echo "bench/mpi_bench not built (the configured HDF5 is serial): skipped"; exit 77; }
. "$top_srcdir/h5tests/mpi_launch.sh"
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout -k 10 ${H5_MPI_TIME_LIMIT:-300}"

GPULZ_BACKEND=cpu GPULZ_THREADS=1 $limit "$MPIEXEC" "$@" 2 "$BENCH" --size 128M --chunks 16 --repeats 1 \
    --paths none,filter,direct-own,direct-shared,direct-device --files disk,memory --dir "$PWD" --csv run.csv \
    >run.txt 2>run.err || fail "mpi_bench exited $?: $(cat run.err)"
head -n 1 run.csv | grep -q '^ranks,file,path,gpus,mode,chunk_mib,chunk_bytes,size_bytes,ratio,write_gbs,read_gbs,write_gbs_max,read_gbs_max,write_s,read_s,repeats,status$' ||
    fail "no CSV header: $(head -n 1 run.csv)"
[ "$(tail -n +2 run.csv | wc -l | tr -d ' ')" = 10 ] || fail "not 2 files x 5 paths rows: $(cat run.csv)"
[ "$(grep -c '^2,disk,[a-z-]*,0,[a-z-]*,16,.*,ok$' run.csv)" = 4 ] || fail "disk rows not ok: $(cat run.csv)"
grep -q '^2,memory,direct-own,0,lz,16,.*,ok$' run.csv || fail "memory direct-own row: $(cat run.csv)"
[ "$(grep -c '^2,memory,.*skipped: the core driver is serial' run.csv)" = 3 ] ||
    fail "memory rows of the shared paths: $(cat run.csv)"
[ "$(grep -c '^2,[a-z]*,direct-device,.*skipped: no usable GPU' run.csv)" = 2 ] ||
    fail "device-buffer rows on the CPU: $(cat run.csv)"
tail -n +2 run.csv | awk -F, '$17 == "ok" && !($10 > 0 && $11 > 0) { bad = 1 }
    $17 == "ok" && $3 == "none" && !($9 > 0.99 && $9 < 1.01) { bad = 1 }
    $17 == "ok" && $3 != "none" && !($9 > 1.5) { bad = 1 } END { exit bad }' || fail "speeds or ratios: $(cat run.csv)"
r=$(awk -F, '$17 == "ok" && $3 != "none" { print $9 }' run.csv | sort -u)
[ "$(echo "$r" | wc -l | tr -d ' ')" = 1 ] || fail "the gpulz paths stored different chunks: $r"
[ "$(grep -c '^# rank [01]: host ' run.txt)" = 2 ] || fail "rank lines: $(cat run.txt)"
ls mpi_bench.* >/dev/null 2>&1 && fail "files left behind: $(ls mpi_bench.*)"

for bad in "--size 100M" "--chunks 3" "--paths foo" "--repeats 0" "--mode best" "--nothing 1"; do
    # shellcheck disable=SC2086
    $limit "$MPIEXEC" "$@" 1 "$BENCH" $bad >/dev/null 2>bad.err
    [ $? -eq 2 ] || fail "'$bad' did not exit 2"
done
done_ok
