#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_repack_args.sh - what `gpulz h5repack-args` prints is accepted by
# h5repack, and the parameters it encodes are the ones stored in the file.
# Skips while the gpulz command is not built.
gpulz=$top_builddir/gpulz
test -x "$gpulz" || { echo "no $gpulz"; exit 77; }
test -n "$H5REPACK" && test -n "$H5DUMP" && test -n "$H5DIFF" || { echo "HDF5 tools not found"; exit 77; }
in=h5_repack_args_in.h5 out=h5_repack_args_out.h5
trap 'rm -f $in $out' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$top_builddir/h5tests/h5_mkfile" $in || exit 99

# each case: options, then the PARAMS h5dump must show for /ramp (int32)
check() {
    want=$1; shift
    arg=$("$gpulz" h5repack-args "$@") || fail "gpulz h5repack-args $*"
    case $arg in UD=$GPULZ_FILTER_ID,[01],5,*) ;; *) fail "unexpected output '$arg' for $*" ;; esac
    rm -f $out
    "$H5REPACK" -f "$arg" -l CHUNK=4096 $in $out || fail "h5repack -f $arg"
    "$H5DIFF" $in $out || fail "h5diff after -f $arg"
    got=$("$H5DUMP" -pH -d /ramp $out | sed -n 's/.*PARAMS { \(.*\) }.*/\1/p')
    test "$got" = "$want" || fail "-f $arg stored PARAMS { $got }, expected { $want }"
    echo "gpulz h5repack-args $* -> $arg -> PARAMS { $got }"
}
# (the sixth, the chunk size, is set_local's: 4096 int32 elements; the
# seventh the mode, lz where none is given)
check "1 4 128 2048 0 16384 0"
check "1 2 64 4096 1 16384 0" --symbol 2 --window 64 --block 4096 --adaptive
check "1 4 255 256 0 16384 0" --window 255 --block 256 --optional
# --optional sets the pipeline flag
arg=$("$gpulz" h5repack-args --optional)
case $arg in UD=$GPULZ_FILTER_ID,1,5,*) ;; *) fail "--optional gave '$arg'" ;; esac
exit 0
