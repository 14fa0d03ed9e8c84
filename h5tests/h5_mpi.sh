#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_mpi.sh - h5tests/h5_mpi under mpiexec, with 1 and with 3 ranks: parallel
# HDF5 writes and reads through the plugin (see h5_mpi.c).  Built only for a
# parallel HDF5 (configure --with-hdf5-pkg=hdf5-openmpi); fails if any rank
# fails, or if the job hangs past a time limit.
prog="$top_builddir/h5tests/h5_mpi"
test -x "$prog" || { echo "$prog not built (the configured HDF5 is serial): skipped"; exit 77; }
. "$top_srcdir/h5tests/mpi_launch.sh"

# The CPU unless the caller chose, or a GPU is there: then the default (auto)
# backend, with every chunk large enough for the GPU.  Files and results are
# the same either way.
ngpu=0
command -v nvidia-smi >/dev/null 2>&1 && ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -z "${GPULZ_BACKEND:-}" ]; then
    if [ "$ngpu" -gt 0 ]; then
        GPULZ_GPU_MIN_BYTES=${GPULZ_GPU_MIN_BYTES:-0}
        export GPULZ_GPU_MIN_BYTES
    else
        GPULZ_BACKEND=cpu
        export GPULZ_BACKEND
    fi
fi
# two threads per rank at most: the ranks share the machine's cores
GPULZ_THREADS=${GPULZ_THREADS:-2}
export GPULZ_THREADS

# a run takes a second or two; a rank left waiting in a collective call
# would wait for ever (H5_MPI_TIME_LIMIT seconds changes the limit)
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout -k 10 ${H5_MPI_TIME_LIMIT:-120}"

status=0
for n in 1 3; do
    f=h5_mpi_$n.h5
    echo "== $MPIEXEC $* $n h5_mpi $f (GPULZ_BACKEND=${GPULZ_BACKEND:-auto})"
    $limit "$MPIEXEC" "$@" $n "$prog" $f
    rc=$?
    case $rc in
        0) ;;
        124|137) echo "FAIL: $n rank(s) did not finish within the time limit (a hang?)"; status=1 ;;
        *) echo "FAIL: $n rank(s): mpiexec exited $rc"; status=1 ;;
    esac
    rm -f $f $f.fail.h5
done

# Several GPUs and Open MPI: one GPU per local rank, GPULZ_DEVICE=local-rank
# as docs/usage.md section 9 shows; every chunk on the GPU, and every GPU used.
if [ "$ngpu" -ge 2 ] && [ "$1" = --oversubscribe ]; then
    f=h5_mpi_gpus.h5
    n=$((2 * ngpu))
    echo "== $n ranks on $ngpu GPUs, GPULZ_DEVICE=local-rank"
    GPULZ_DEVICE=local-rank GPULZ_BACKEND=gpu GPULZ_GPU_MIN_BYTES=0 GPULZ_VERBOSE=1 $limit "$MPIEXEC" "$@" $n \
        "$prog" $f 2> h5_mpi_gpus.err
    rc=$?
    grep -v '^gpulz:' h5_mpi_gpus.err
    [ $rc -eq 0 ] || { echo "FAIL: $n ranks on $ngpu GPUs: mpiexec exited $rc"; status=1; }
    d=0
    while [ $d -lt "$ngpu" ]; do
        c=$(grep -c "on the GPU (requested, device $d)" h5_mpi_gpus.err)
        echo "   device $d: $c chunks"
        [ "$c" -gt 0 ] || { echo "FAIL: no chunk ran on device $d"; status=1; }
        d=$((d + 1))
    done
    if grep '^gpulz:' h5_mpi_gpus.err | grep -q 'on the CPU'; then
        echo "FAIL: chunks ran on the CPU with GPULZ_BACKEND=gpu"; status=1
    fi
    rm -f $f $f.fail.h5 h5_mpi_gpus.err
fi
exit $status
