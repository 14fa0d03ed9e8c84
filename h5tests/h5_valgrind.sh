#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_valgrind.sh - the filter's buffer handling under valgrind: damaged chunks
# (h5_corrupt), chunks of the wrong size (h5_chunk_size), parameter and
# environment errors (h5_plugin_load) and odd sizes in a pipeline (h5_shuffle)
# run without invalid reads or writes, use of uninitialised memory, or
# mismatched frees between HDF5 and the filter.
test -n "$VALGRIND" || { echo "valgrind not found"; exit 77; }
status=0
for t in h5_corrupt h5_chunk_size h5_plugin_load h5_shuffle; do
    "$top_builddir/libtool" --mode=execute "$VALGRIND" -q --error-exitcode=9 --leak-check=no \
        --track-origins=yes "$top_builddir/h5tests/$t" > h5_valgrind_$t.out 2>&1
    rc=$?
    echo "$t under valgrind: exit $rc"
    if [ $rc -ne 0 ]; then
        cat h5_valgrind_$t.out
        status=1
    fi
    rm -f h5_valgrind_$t.out
done
exit $status
