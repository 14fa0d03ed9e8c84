#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# multi_gpu_round.sh - several GPUs on one machine, in one command: one
# process writing through 1, 2 and 4 GPUs (direct chunk I/O from host
# buffers, GPULZ_DEVICE a list) and MPI programs with 1, 2 and 4 ranks, one
# GPU each (GPULZ_DEVICE=local-rank), through the filter and by direct chunk
# I/O from host and from device buffers, on the same 4 GiB of quantization
# codes.  Counts above the machine's
# GPUs are left out, so the same command runs on 1, 2 and 4 GPUs.
#
#   KIT/gpulz-*.tar.gz   a `make dist` tarball
#   KIT/*.deb            libhdf5-openmpi-103-1 and libhdf5-openmpi-dev (Debian 12's
#                        parallel HDF5 1.10.8), unpacked beside the build, not installed;
#                        the machine's Open MPI 4.x (mpiexec, libmpi.so.40, ompi.pc)
#                        serves them
#
# One build, for the parallel HDF5 with CUDA (the serial paths run with it
# too); the multi-GPU tests (codec_env, codec_batch, gpu_batch_test,
# gpu_multidev_test, h5_mpi.sh); bench/h5direct_bench --gpus 1,2,4 once per
# chunk size; bench/mpi_bench once per rank count.  Every step has a time
# limit within the round's deadline (ROUND_DEADLINE seconds, default 450,
# build included); a step that would not fit is reported and left out.
#
# Usage: bench/multi_gpu_round.sh KIT [ARCH (90)]
# Environment: OUT (default ./multi_gpu_round), ROUND_SIZE (bytes of codes,
#   default 4G, a multiple of 64M), ROUND_CHUNKS (MiB, default "4 16"),
#   ROUND_REPEATS (timed passes after the warm-up, default 2), ROUND_RANKS
#   (default "1 2 4"), ROUND_MPI_PATHS (default
#   filter,direct-own,direct-shared,direct-device; none adds MPI-IO without a
#   filter), ROUND_MODE (gpulz's mode for both benchmarks, default lz),
#   ROUND_H5DIRECT_FILES (default memory;
#   memory,disk adds the disk file), ROUND_DISK (a folder on local disk,
#   default $HOME),
#   ROUND_DEADLINE, SKIP_CHECK=1, ROUND_CPU=N (a rehearsal of this script on
#   a machine without a GPU: the CPU backend, N GPUs pretended; with a small
#   ROUND_SIZE).
# Output in $OUT: round.log (every step with its time), summary.txt, ENV.txt,
#   configure.log, build.log, check.log and tests/*.log, h5direct_<chunk>.{txt,log,csv},
#   mpi_n<ranks>.{txt,log,csv}, gpus.csv (every row of both), gpus.png where
#   python3 has matplotlib (else: python3 bench/plot_gpus.py gpus.csv, anywhere).
# Exit status: 0 when every step ran and passed, 1 when one failed or was
# left out (the others still run), 2 for bad usage or no GPU.
set -u

usage() { echo "usage: $0 KIT [ARCH]   (KIT: gpulz-*.tar.gz and the libhdf5-openmpi .deb files)" >&2; exit 2; }
[ $# -ge 1 ] && [ -d "$1" ] || usage
kit=$(readlink -f "$1")
arch=${2:-90}
out=${OUT:-$PWD/multi_gpu_round}
mkdir -p "$out" && out=$(readlink -f "$out") || exit 2
size=${ROUND_SIZE:-4G}
chunks=${ROUND_CHUNKS:-4 16}
repeats=${ROUND_REPEATS:-2}
ranks=${ROUND_RANKS:-1 2 4}
mpi_paths=${ROUND_MPI_PATHS:-filter,direct-own,direct-shared,direct-device}
mode=${ROUND_MODE:-lz}
direct_files=${ROUND_H5DIRECT_FILES:-memory}
deadline=${ROUND_DEADLINE:-450}
t0=$(date +%s)
status=0
: > "$out/summary.txt"

note() { echo "$*" | tee -a "$out/round.log" "$out/summary.txt"; }
fail() { note "FAIL: $*"; status=1; }
mark() { echo "== $*: $(date -u +%T), $(($(date +%s) - t0)) s" | tee -a "$out/round.log"; }
left() { echo $((deadline - ($(date +%s) - t0))); }

# step NAME LIMIT OUT ERR CMD...: CMD, its stdout into OUT and its stderr
# into ERR (the same file: both there), under a time limit of LIMIT seconds,
# or less where the deadline is nearer; left out (a failure) where under 20
# s remain.
step() {
    local name=$1 limit=$2 o=$3 e=$4 remain rc
    shift 4
    remain=$(($(left) - 5))
    if [ "$remain" -lt 20 ]; then
        fail "$name: left out, the round's $deadline s are spent"
        return 1
    fi
    [ "$limit" -gt "$remain" ] && limit=$remain
    mark "$name (limit $limit s)"
    if [ "$o" = "$e" ]; then
        timeout -k 10 "$limit" "$@" > "$o" 2>&1
    else
        timeout -k 10 "$limit" "$@" > "$o" 2> "$e"
    fi
    rc=$?
    case $rc in
    0) ;;
    124 | 137) fail "$name: did not finish in $limit s" ;;
    *) fail "$name: exit status $rc" ;;
    esac
    return $rc
}

# ---- what is there ----------------------------------------------------------------
tarball=$(ls "$kit"/gpulz-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "no gpulz-*.tar.gz in $kit" >&2; exit 2; }
for p in libhdf5-openmpi-103-1 libhdf5-openmpi-dev; do
    ls "$kit"/${p}_*.deb >/dev/null 2>&1 || { echo "no ${p}_*.deb in $kit" >&2; exit 2; }
done
ngpu=0
command -v nvidia-smi >/dev/null 2>&1 && ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
# ROUND_CPU=N: a rehearsal of the script on a machine without a GPU, on the
# CPU backend, ranks counted as if there were N GPUs (no measurement)
rehearsal=${ROUND_CPU:-0}
[ "$rehearsal" -ge 1 ] 2>/dev/null && ngpu=$rehearsal
[ "$ngpu" -ge 1 ] || { echo "no GPU (nvidia-smi -L lists none): nothing to measure" >&2; exit 2; }
mpiexec=$(command -v mpiexec) || mpiexec=
cores=$(nproc)
gpu_counts=
mpi_ranks=
for n in $ranks; do
    [ "$n" -ge 1 ] 2>/dev/null || { echo "ROUND_RANKS: '$n' is not a count" >&2; exit 2; }
    gpu_counts=${gpu_counts:+$gpu_counts,}$n
    [ "$n" -le "$ngpu" ] && mpi_ranks="$mpi_ranks $n"
done

work=$(mktemp -d) || exit 2
disk=$(mktemp -d "${ROUND_DISK:-${HOME:-/tmp}}/gpulz-mgpu.XXXXXX") || exit 2
trap 'rm -rf "$work" "$disk"' EXIT
fs=$(stat -f -c %T "$disk" 2>/dev/null)
[ "$fs" = tmpfs ] && note "WARNING: $disk is on tmpfs: its 'disk' rows measure memory"

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host: $(hostname), $cores cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kit: $(basename "$tarball"), $(tar xzOf "$tarball" --wildcards '*/COMMIT' 2>/dev/null | head -n 1)"
    echo "debs: $(cd "$kit" && ls ./*.deb | tr '\n' ' ')"
    echo "disk folder: $disk ($fs), $(df -h "$disk" | awk 'NR == 2 { print $4 " free" }')"
    echo "mpiexec: ${mpiexec:-none} $(${mpiexec:-true} --version 2>/dev/null | head -n 1)"
    echo "settings: size $size, chunks $chunks MiB, $repeats timed passes, GPU counts $gpu_counts," \
        "MPI ranks${mpi_ranks:- none}, MPI paths $mpi_paths, mode $mode, deadline $deadline s"
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,pcie.link.gen.max --format=csv
    nvidia-smi topo -m
} > "$out/ENV.txt" 2>&1
note "multi_gpu_round: $ngpu GPU(s)$([ "$rehearsal" -ge 1 ] && echo " pretended, a rehearsal on the CPU"), $cores cores; $(basename "$tarball"); results in $out"

# ---- build: Debian's parallel HDF5 unpacked beside it --------------------------------
mark unpack
sys=$work/sys
mkdir -p "$sys/pc" "$work/plugins"
for d in "$kit"/libhdf5-openmpi-103-1_*.deb "$kit"/libhdf5-openmpi-dev_*.deb; do
    dpkg-deb -x "$d" "$sys" || { fail "cannot unpack $d"; exit 1; }
done
cat > "$sys/pc/hdf5-openmpi.pc" <<PC
Name: HDF5
Description: Debian's openmpi HDF5, unpacked in $sys
Version: 1.10.8
Requires: ompi
Cflags: -I$sys/usr/include/hdf5/openmpi
Libs: -L$sys/usr/lib/x86_64-linux-gnu/hdf5/openmpi -lhdf5
PluginDir=$work/plugins
PC
export PKG_CONFIG_PATH=$sys/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Open MPI refuses root unless told (these machines run as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$work" && tar xzf "$tarball" && cd gpulz-*/ || { fail "cannot unpack $tarball"; exit 1; }
src=$PWD

step configure 120 "$out/configure.log" "$out/configure.log" \
    ./configure --with-hdf5-pkg=hdf5-openmpi --with-cuda-arch="$arch" || { tail -30 "$out/configure.log"; exit 1; }
grep -E "HDF5 flavour|CUDA backend" "$out/configure.log" | tee -a "$out/round.log"
grep -q "HDF5 flavour: *parallel" "$out/configure.log" || { fail "configure: the HDF5 is not parallel"; exit 1; }
grep -q "CUDA backend: *yes" "$out/configure.log" || [ "$rehearsal" -ge 1 ] ||
    { fail "configure: no CUDA backend"; exit 1; }
step build 300 "$out/build.log" "$out/build.log" make -j"$cores" ||
    { grep -n -i -A8 "error" "$out/build.log" | head -40; exit 1; }
[ -x bench/h5direct_bench ] && [ -x bench/mpi_bench ] || { fail "the benchmarks were not built"; exit 1; }

# ---- the tests of several GPUs -----------------------------------------------------------
tests="h5tests/codec_env h5tests/codec_batch h5tests/gpu_batch_test h5tests/gpu_multidev_test"
[ -n "$mpiexec" ] && tests="$tests h5tests/h5_mpi.sh"
if [ "${SKIP_CHECK:-0}" != 1 ]; then
    # only these programs built: check_PROGRAMS would otherwise be all of them
    progs=${tests/ h5tests\/h5_mpi.sh/ h5tests\/h5_mpi}
    step check 240 "$out/check.log" "$out/check.log" make -j"$cores" check TESTS="$tests" check_PROGRAMS="$progs"
    mkdir -p "$out/tests"
    for t in $tests; do cp "${t%.sh}.log" "$out/tests/" 2>/dev/null; done
    grep -E "^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS):" "$out/check.log" | tee -a "$out/summary.txt"
    # a GPU test that skips on a GPU machine did not test what it is for
    for t in gpu_batch_test gpu_multidev_test; do
        if [ "$rehearsal" -lt 1 ] && grep -q "^SKIP: h5tests/$t" "$out/check.log"; then
            [ "$t" = gpu_multidev_test ] && [ "$ngpu" -lt 2 ] && continue
            fail "$t skipped on a machine with $ngpu GPU(s)"
        fi
    done
    grep -E "^(FAIL|ERROR):" "$out/check.log" >/dev/null && fail "a test failed (check.log, tests/)"
fi

# ---- one process, 1, 2, 4 GPUs ---------------------------------------------------------
# every chunk on the GPU (an error rather than a quiet CPU fallback)
export GPULZ_BACKEND=gpu
[ "$rehearsal" -ge 1 ] && GPULZ_BACKEND=cpu
unset GPULZ_DEVICE
for c in $chunks; do
    step "h5direct_bench ${c} MiB, GPUs $gpu_counts" 200 "$out/h5direct_$c.txt" "$out/h5direct_$c.log" \
        bench/h5direct_bench --size "$size" --chunks "$c" --mode "$mode" --paths direct-host --files "$direct_files" \
        --disk "$disk/h5direct.h5" --gpus "$gpu_counts" --repeats "$repeats" --csv "$out/h5direct_$c.csv"
    sed -n '/^file /,/^$/p' "$out/h5direct_$c.txt" | tee -a "$out/summary.txt"
done

# ---- MPI: 1, 2, 4 ranks, one GPU each ---------------------------------------------------
if [ -z "$mpiexec" ]; then
    fail "no mpiexec: the MPI rows are left out"
else
    for n in $mpi_ranks; do
        # ranks unbound (Open MPI binds 1 and 2 ranks to a core each), the cores shared out
        threads=$((cores / n))
        [ "$threads" -ge 1 ] || threads=1
        GPULZ_DEVICE=local-rank GPULZ_THREADS=$threads \
            step "mpi_bench, $n rank(s)" 240 "$out/mpi_n$n.txt" "$out/mpi_n$n.log" \
            "$mpiexec" --oversubscribe --bind-to none -n "$n" -x GPULZ_DEVICE -x GPULZ_BACKEND -x GPULZ_THREADS \
            -x LD_LIBRARY_PATH bench/mpi_bench --size "$size" --mode "$mode" --chunks "$(echo "$chunks" | tr ' ' ,)" \
            --paths "$mpi_paths" --files disk,memory --dir "$disk" --repeats "$repeats" --csv "$out/mpi_n$n.csv"
        grep '^# rank' "$out/mpi_n$n.txt" | tee -a "$out/summary.txt"
        sed -n '/^ranks /,/^$/p' "$out/mpi_n$n.txt" | tee -a "$out/summary.txt"
    done
fi

# ---- every row in one CSV, and the plot ------------------------------------------------
mark collect
{
    echo "bench,path,file,chunk_mib,gpus,ranks,ratio,write_gbs,read_gbs,status"
    for f in "$out"/h5direct_*.csv; do
        [ -f "$f" ] && tail -n +2 "$f" | awk -F, -v OFS=, '{ print "h5direct", $2, $1, $6, $4, 1, $10, $11, $12, $21 }'
    done
    for f in "$out"/mpi_n*.csv; do
        [ -f "$f" ] && tail -n +2 "$f" | awk -F, -v OFS=, '{ print "mpi", $3, $2, $6, $4, $1, $9, $10, $11, $17 }'
    done
} > "$out/gpus.csv"
note "$(($(wc -l < "$out/gpus.csv") - 1)) rows in gpus.csv"
py=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import matplotlib' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -n "$py" ]; then
    "$py" "$src/bench/plot_gpus.py" "$out/gpus.csv" "$out/gpus.png" >> "$out/round.log" 2>&1 ||
        note "plot_gpus.py drew nothing (round.log)"
else
    note "no matplotlib here: python3 bench/plot_gpus.py gpus.csv draws gpus.png elsewhere"
fi
mark "done, exit status $status"
exit $status
