#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_dump.sh - `h5dump -pH` of datasets repacked to gpulz matches the checked-in
# expected output: filter ID and stored name (the configured ones), the 5 resolved
# cd_values, the chunk size in bytes (4096 x 4 and 1000 x 1) and the mode,
# and the compressed sizes.  Both datasets are mode lz (slot 0 = 1: chunk
# format 1), whose sizes are not copied from a run: they follow by hand from
# docs/FORMAT.md sections 2-6.
#  /zeros, int32[4096], defaults (S 4 from the type, W 128, C 2048): 2 blocks of
#    2048 zero symbols, each a literal then matches of 255 x 8 + 7 (D 1), i.e.
#    T = 10 tokens: 2 + 2 + 4 + 9 x 2 = 26 bytes; 28 + 2 x 4 + 2 x 26 = 88 bytes.
#  /bytes, uint8[1000], optional, S 1, W 255, C 256, adaptive: blocks of 256,
#    256, 256, 232 zeros, each a literal and one match: 2 + 1 + 1 + 2 = 6 bytes;
#    28 + 4 x 4 + 4 x 6 = 68 bytes.
test -n "$H5REPACK" && test -n "$H5DUMP" || { echo "h5repack/h5dump not found"; exit 77; }
set -e
in=h5_dump_in.h5 out=h5_dump_out.h5
trap 'rm -f $in $out h5_dump.out h5_dump.expected' EXIT
"$top_builddir/h5tests/h5_mkfile" $in
id=$GPULZ_FILTER_ID
"$H5REPACK" -f zeros:UD=$id,0,5,1,0,0,0,0 -l zeros:CHUNK=4096 \
            -f bytes:UD=$id,1,5,1,1,255,256,1 -l bytes:CHUNK=1000 $in $out
"$H5DUMP" -pH -d /zeros -d /bytes $out > h5_dump.out
sed -e "s/@GPULZ_FILTER_ID@/$id/" -e "s|@GPULZ_FILTER_NAME@|${GPULZ_FILTER_NAME:?}|" \
    "$top_srcdir/h5tests/expected/h5_dump.ddl" > h5_dump.expected
if ! diff -u h5_dump.expected h5_dump.out; then
    echo "h5dump -pH output differs from h5tests/expected/h5_dump.ddl"
    exit 1
fi
echo "h5dump -pH output as expected (filter $id)"
