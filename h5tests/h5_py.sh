#!/bin/sh
# h5_py.sh - the h5py round trips of h5_py.py, with the helper module
# gpulz_h5py.py (generated into $top_builddir/samples) on PYTHONPATH.
test -n "$PYTHON_H5PY" || { echo "no python with h5py (PYTHON_H5PY)"; exit 77; }
"$PYTHON_H5PY" -c 'import h5py, numpy' 2>/dev/null || { echo "$PYTHON_H5PY lacks h5py/numpy"; exit 77; }
PYTHONPATH=$top_builddir/samples${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
exec "$PYTHON_H5PY" "$top_srcdir/h5tests/h5_py.py"
