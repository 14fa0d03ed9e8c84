# SPDX-License-Identifier: BSD-3-Clause
# mpi_launch.sh - sourced (with no arguments) by the tests that run under
# mpiexec, after their own skips: MPIEXEC is the caller's or mpiexec on the
# PATH (the test is skipped without one), and the positional parameters
# become the launcher's options before a rank count: "-n", or Open MPI's
# "--oversubscribe -n" with root allowed (more ranks than cores are fine for
# a test; CI runs as root).  Usage: "$MPIEXEC" "$@" N program ...
test -n "$MPIEXEC" || MPIEXEC=$(command -v mpiexec) || { echo "no mpiexec (MPIEXEC): skipped"; exit 77; }
set -- -n
if "$MPIEXEC" --version 2>/dev/null | grep -qi -E 'open ?mpi|openrte|open-mpi'; then
    set -- --oversubscribe -n
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
