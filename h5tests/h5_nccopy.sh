#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_nccopy.sh - netCDF-4 through nccopy -F: a file built by ncgen from a CDL is
# copied with gpulz on two variables and back without it; ncdump shows the same
# data all three times, the _Filter attribute holds the resolved cd_values,
# and without the plugin the filtered variable cannot be read.
test -n "$NCCOPY" && test -n "$NCDUMP" || { echo "nccopy/ncdump not found"; exit 77; }
NCGEN=$(dirname "$NCCOPY")/ncgen
test -x "$NCGEN" || NCGEN=$(command -v ncgen) || { echo "ncgen not found"; exit 77; }
src=h5_nccopy_src.nc gz=h5_nccopy_gz.nc back=h5_nccopy_back.nc
trap 'rm -f $src $gz $back h5_nccopy_*.cdl' EXIT
fail() { echo "FAIL: $*"; exit 1; }
id=$GPULZ_FILTER_ID

"$NCGEN" -k nc4 -o $src "$top_srcdir/h5tests/h5_nccopy.cdl" || exit 99
"$NCCOPY" -F "temp,$id,0,0,0,0,0" -F "pres,$id,0,0,255,256,0,0,2" $src $gz || fail "nccopy -F to gpulz"
"$NCCOPY" -F none $gz $back || fail "nccopy -F none"

# same data: ncdump names the file on its first line, so compare from line 2
for f in $src $gz $back; do "$NCDUMP" $f | sed 1d > h5_nccopy_${f%.nc}.cdl || fail "ncdump $f"; done
cmp -s h5_nccopy_$(basename $src .nc).cdl h5_nccopy_$(basename $gz .nc).cdl || {
    diff h5_nccopy_$(basename $src .nc).cdl h5_nccopy_$(basename $gz .nc).cdl | head; fail "gpulz copy differs"; }
cmp -s h5_nccopy_$(basename $src .nc).cdl h5_nccopy_$(basename $back .nc).cdl || fail "copy back differs"

# the stored parameters: int -> S 4; double with W 255, a 256-symbol block and
# mode ratio (the seventh value, 2) -> S 8, chunk format 2
"$NCDUMP" -s -h $gz > h5_nccopy_header.cdl
# and the sixth, the chunk's size in bytes: netCDF's chunk shape times 4 or 8;
# the seventh the mode, auto (3, chunk format 2) where none was given
chunk_bytes() {
    sed -n "s/.*$1:_ChunkSizes = \(.*\) ;/\1/p" h5_nccopy_header.cdl |
        awk -v size=$2 -F', *' '{ n = size; for (i = 1; i <= NF; i++) n *= $i; print n }'
}
temp_bytes=$(chunk_bytes temp 4) pres_bytes=$(chunk_bytes pres 8)
grep -q "temp:_Filter = \"$id,2,4,128,2048,0,$temp_bytes,3\"" h5_nccopy_header.cdl || fail "temp _Filter: $(grep _Filter h5_nccopy_header.cdl)"
grep -q "pres:_Filter = \"$id,2,8,255,256,0,$pres_bytes,2\"" h5_nccopy_header.cdl || fail "pres _Filter: $(grep _Filter h5_nccopy_header.cdl)"
"$NCDUMP" -s -h $back | grep -q "_Filter" && fail "a filter is left after -F none"
grep _Filter h5_nccopy_header.cdl

# the data really went through the filter: unreadable without the plugin
HDF5_PLUGIN_PATH=/nonexistent "$NCDUMP" -v temp $gz > /dev/null 2>&1 && fail "read without the plugin"
echo "nccopy round trip through gpulz: same data"
exit 0
