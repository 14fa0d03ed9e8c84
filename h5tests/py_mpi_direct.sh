#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Python package's write_direct/read_direct under MPI (py_mpi_direct.py),
# with 2 and 3 ranks, through this build's libgpulz and plugin laid out as
# the wheel lays them out (python/setup.py).  Skipped without mpiexec or
# without a Python (PYTHON_MPI, else /usr/bin/python3) whose h5py is built
# for MPI (Debian's python3-h5py-mpi) and has mpi4py.
: "${top_srcdir:?}" "${top_builddir:?}"
py=${PYTHON_MPI:-/usr/bin/python3}
test -x "$py" || { echo "no $py (PYTHON_MPI): skipped"; exit 77; }
H5PY_ALWAYS_USE_MPI=1 "$py" -c 'import h5py, mpi4py, numpy; assert h5py.get_config().mpi' 2>/dev/null ||
    { echo "$py has no h5py built for MPI with mpi4py: skipped"; exit 77; }
. "$top_srcdir/h5tests/mpi_launch.sh"
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout -k 10 ${H5_MPI_TIME_LIMIT:-120}"

work=$PWD/h5tests/py_mpi_direct.dir
rm -rf "$work" && mkdir -p "$work/pkg" || exit 99
cp -R "$top_srcdir/python/gpulz" "$work/pkg/" && chmod -R u+w "$work/pkg" &&
    mkdir -p "$work/pkg/gpulz/_libs" "$work/pkg/gpulz/plugins" "$work/pkg/gpulz/include" &&
    cp "$top_builddir/.libs/libgpulz.so" "$work/pkg/gpulz/_libs/libgpulz.so.1" &&
    cp "$top_builddir/.libs/libH5Zgpulz.so" "$work/pkg/gpulz/plugins/" &&
    cp "$top_srcdir/kernels/gpulz.h" "$top_builddir/plugin/gpulz_cd.h" "$work/pkg/gpulz/include/" &&
    printf 'DISTRIBUTION = "gpulz"\nCUDA_BUILT = False\n' >"$work/pkg/gpulz/_build_info.py" || exit 99
cd "$work" || exit 99
GPULZ_BACKEND=cpu GPULZ_THREADS=1
export GPULZ_BACKEND GPULZ_THREADS
status=0
for n in 2 3; do
    env -u HDF5_PLUGIN_PATH PYTHONPATH="$work/pkg" $limit "$MPIEXEC" "$@" $n "$py" \
        "$top_srcdir/h5tests/py_mpi_direct.py" "$work/direct_$n.h5" || { echo "FAIL: $n ranks"; status=1; }
done
[ $status -eq 0 ] && cd .. && rm -rf "$work"
exit $status
