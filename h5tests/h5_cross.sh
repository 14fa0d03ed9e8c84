#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_cross.sh - a file written with gpulz through one front-end reads back
# identical through each of the others: writers h5py, h5repack, nccopy and a C
# program (samples/h5_write_read); readers the HDF5 C library (h5diff), h5py
# and netCDF (ncdump).
for v in H5REPACK H5DIFF NCCOPY NCDUMP PYTHON_H5PY; do
    eval "test -n \"\$$v\"" || { echo "$v not found: skipped"; exit 77; }
done
id=$GPULZ_FILTER_ID
py="$PYTHON_H5PY $top_srcdir/h5tests/h5_cross.py"
files="h5_cross_plain.h5 h5_cross_py.h5 h5_cross_repack.h5 h5_cross_nc.nc h5_cross_c.h5"
trap 'rm -f $files h5_cross_*.dump' EXIT
fail() { echo "h5_cross: $*" >&2; exit 1; }

# writers
$py make h5_cross_plain.h5 h5_cross_py.h5 || fail "h5py writing"
"$H5REPACK" -f UD=$id,0,5,1,0,128,2048,0 h5_cross_plain.h5 h5_cross_repack.h5 || fail "h5repack"
"$NCCOPY" -F "a,$id,1,0,128,2048,0" -F "b,$id,1,0,128,2048,0" h5_cross_plain.h5 h5_cross_nc.nc ||
    fail "nccopy -F"
"$top_builddir/samples/h5_write_read" h5_cross_c.h5 > /dev/null || fail "samples/h5_write_read"

# readers
"$NCDUMP" -v a,b h5_cross_plain.h5 | sed -n '/^data:/,$p' > h5_cross_plain.dump || fail "ncdump plain"
for f in h5_cross_py.h5 h5_cross_repack.h5 h5_cross_nc.nc; do
    for d in a b; do
        # nccopy adds netCDF's attributes, which h5diff's status counts as a
        # difference: for the data, its "0 differences found" is the verdict
        out=$("$H5DIFF" -v h5_cross_plain.h5 $f $d $d) ||
            echo "$out" | grep -q "^0 differences found$" || fail "h5diff: $f:$d differs: $out"
    done
    $py check h5_cross_plain.h5 $f || fail "h5py reading $f"
    "$NCDUMP" -v a,b $f | sed -n '/^data:/,$p' > h5_cross_f.dump || fail "ncdump $f"
    cmp -s h5_cross_plain.dump h5_cross_f.dump || fail "ncdump: $f differs"
    echo "$f: identical through h5diff, h5py and ncdump"
done
$py checkc h5_cross_c.h5 || fail "h5py reading the C program's file"
"$NCDUMP" -v field h5_cross_c.h5 > /dev/null || fail "ncdump reading the C program's file"
"$H5DIFF" h5_cross_c.h5 h5_cross_c.h5 > /dev/null || fail "h5diff reading the C program's file"
echo "h5_cross_c.h5: read by h5py (checked against its formula), ncdump and h5diff"
