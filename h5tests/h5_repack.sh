#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_repack.sh - h5repack to gpulz and back: h5diff finds no difference either
# way, compressible datasets shrink by the ratio they should, the filter ran
# on the CPU with GPULZ_VERBOSE saying so on stderr (never stdout), and
# without the plugin the compressed data cannot be read.
test -n "$H5REPACK" && test -n "$H5DIFF" && test -n "$H5DUMP" || { echo "HDF5 tools not found"; exit 77; }
in=h5_repack_in.h5 gz=h5_repack_gz.h5 back=h5_repack_back.h5
trap 'rm -f $in $gz $back h5_repack.out h5_repack.err' EXIT
fail() { echo "FAIL: $*"; exit 1; }
id=$GPULZ_FILTER_ID

"$top_builddir/h5tests/h5_mkfile" $in || exit 99
GPULZ_VERBOSE=1 "$H5REPACK" -f UD=$id,0,5,0,0,0,0,0 -l CHUNK=4096 $in $gz \
    > h5_repack.out 2> h5_repack.err || { cat h5_repack.err; fail "h5repack to gpulz"; }
test -s h5_repack.out && fail "the filter wrote to stdout: $(head -3 h5_repack.out)"
grep -q '^gpulz: compressed [0-9]* -> [0-9]* bytes on the [CG]PU (' h5_repack.err ||
    fail "no GPULZ_VERBOSE line on stderr: $(head -3 h5_repack.err)"
echo "verbose: $(head -1 h5_repack.err)"

"$H5DIFF" $in $gz || fail "h5diff: the gpulz copy differs"

# per-dataset ratios from h5dump's "SIZE n (r:1 COMPRESSION)"
ratio() { "$H5DUMP" -pH -d "$1" $gz | sed -n 's/.*SIZE [0-9]* (\([0-9.]*\):1 COMPRESSION).*/\1/p'; }
for ds in ramp:4 quant:3 zeros:100 records:2; do
    name=${ds%%:*} min=${ds#*:}
    r=$(ratio /$name)
    echo "$name: ratio $r (at least $min)"
    awk -v r="$r" -v m="$min" 'BEGIN { exit !(r + 0 >= m) }' || fail "$name ratio $r < $min"
done
# random bytes cannot shrink: the mandatory filter stores blocks raw (a ratio just under 1)
r=$(ratio /noise)
awk -v r="$r" 'BEGIN { exit !(r + 0 < 1 && r + 0 > 0.98) }' || fail "noise ratio $r"
insize=$(wc -c < $in) gzsize=$(wc -c < $gz)
echo "file: $insize -> $gzsize bytes"
test "$gzsize" -lt $((insize / 2)) || fail "file did not shrink: $insize -> $gzsize"

# without the plugin, the data cannot be read (and the name still shows)
HDF5_PLUGIN_PATH=/nonexistent "$H5DUMP" -d /ramp $gz > h5_repack.out 2>&1 &&
    fail "h5dump read gpulz data without the plugin"
HDF5_PLUGIN_PATH=/nonexistent "$H5DUMP" -pH -d /ramp $gz | grep -q "COMMENT gpulz" ||
    fail "the stored filter name is not shown without the plugin"

# and back: no filter left, same data
"$H5REPACK" -f NONE $gz $back || fail "h5repack -f NONE"
"$H5DIFF" $in $back || fail "h5diff: the copy back differs"
"$H5DUMP" -pH $back | grep -q USER_DEFINED_FILTER && fail "a filter is left after -f NONE"
echo "round trip through gpulz and back: no differences"
exit 0
