#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_py.sh - the h5py round trips of h5_py.py through the build's plugin
# (found by HDF5), and the plugin registered from Python (h5_py_register.py).
test -n "$PYTHON_H5PY" || { echo "no python with h5py (PYTHON_H5PY)"; exit 77; }
"$PYTHON_H5PY" -c 'import h5py, numpy' 2>/dev/null || { echo "$PYTHON_H5PY lacks h5py/numpy"; exit 77; }
"$PYTHON_H5PY" "$top_srcdir/h5tests/h5_py.py" || exit 1
# registered from Python without HDF5's search (hdf5plugin's way), and after a
# failed bind from ctypes: HDF5 sees no plugin in an empty HDF5_PLUGIN_PATH
"$PYTHON_H5PY" "$top_srcdir/h5tests/h5_py_register.py" "$top_builddir/.libs/libH5Zgpulz.so" || exit 1
