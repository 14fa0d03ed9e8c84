#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_direct_dump.sh - a dataset written with gpulz_h5_write_direct() is an
# ordinary one: h5dump reads it through the plugin (HDF5_PLUGIN_PATH), every
# value as written (3 x the element's index, a 10 x 13 int32 dataset in 4 x 4
# chunks, edge chunks included).
test -n "$H5DUMP" || { echo "h5dump not found"; exit 77; }
set -e
f=h5_direct_dump.h5
trap 'rm -f $f h5_direct_dump.out' EXIT
"$top_builddir/h5tests/h5_direct" $f
"$H5DUMP" -d /direct -w 0 -y $f > h5_direct_dump.out
values=`sed -n '/DATA {/,/}/p' h5_direct_dump.out | tr -c '0-9\n' ' ' | tr -s ' ' '\n' | grep -v '^$' | tr '\n' ' '`
want=`i=0; while test $i -lt 130; do printf '%d ' $((i * 3)); i=$((i + 1)); done`
if test "x$values" != "x$want"; then
    echo "h5dump read other values:"
    cat h5_direct_dump.out
    exit 1
fi
echo "h5dump reads the directly written dataset through the plugin"
