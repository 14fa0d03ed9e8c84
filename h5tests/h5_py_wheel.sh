#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_py_wheel.sh - the h5py checks of h5_py.py in a Python whose h5py carries
# its own HDF5 (a wheel from PyPI): the plugin must bind to that library, not
# to the one it was built against, and the file must read with this build's
# HDF5 tools (h5_py.py runs h5dump on it).  H5PY_WHEEL_PYTHON names that
# Python (e.g. a venv with `pip install h5py`); without it the test skips.
test -n "$H5PY_WHEEL_PYTHON" || { echo "no H5PY_WHEEL_PYTHON (a python with a pip h5py): skipped"; exit 77; }
"$H5PY_WHEEL_PYTHON" -c 'import h5py, numpy' 2>/dev/null || { echo "$H5PY_WHEEL_PYTHON lacks h5py/numpy: skipped"; exit 77; }
lib=$("$H5PY_WHEEL_PYTHON" -c 'import h5py, re
print(" ".join(sorted({l.split()[-1] for l in open("/proc/self/maps") if re.search(r"/libhdf5(-[0-9a-f]+)?\.so", l)})))')
case $lib in
    */h5py.libs/*|*/h5py/.dylibs/*) ;;
    *) echo "FAIL: the h5py of $H5PY_WHEEL_PYTHON does not use a libhdf5 of its own ($lib)"; exit 1 ;;
esac
echo "h5py's HDF5: $lib"
"$H5PY_WHEEL_PYTHON" "$top_srcdir/h5tests/h5_py.py" || exit 1
# hdf5plugin's way (init_filter, then h5py.h5z.register_filter), and HDF5's
# own load after ctypes asked first
"$H5PY_WHEEL_PYTHON" "$top_srcdir/h5tests/h5_py_register.py" "$top_builddir/.libs/libH5Zgpulz.so" || exit 1
