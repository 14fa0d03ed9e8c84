#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_repack_args.sh - what `gpulz h5repack-args` prints is accepted by
# h5repack, and the parameters it encodes are the ones stored in the file.
# Skips while the gpulz command is not built.
gpulz=$top_builddir/gpulz
test -x "$gpulz" || { echo "no $gpulz"; exit 77; }
test -n "$H5REPACK" && test -n "$H5DUMP" && test -n "$H5DIFF" || { echo "HDF5 tools not found"; exit 77; }
in=h5_repack_args_in.h5 out=h5_repack_args_out.h5 again=h5_repack_args_again.h5
trap 'rm -f $in $out $again h5_repack_args.out' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$top_builddir/h5tests/h5_mkfile" $in || exit 99

# each case: options, then the PARAMS h5dump must show for /ramp (int32)
check() {
    want=$1; shift
    arg=$("$gpulz" h5repack-args "$@") || fail "gpulz h5repack-args $*"
    case $arg in UD=$GPULZ_FILTER_ID,[01],[57],*) ;; *) fail "unexpected output '$arg' for $*" ;; esac
    rm -f $out
    "$H5REPACK" -f "$arg" -l CHUNK=4096 $in $out || fail "h5repack -f $arg"
    "$H5DIFF" $in $out || fail "h5diff after -f $arg"
    got=$("$H5DUMP" -pH -d /ramp $out | sed -n 's/.*PARAMS { \(.*\) }.*/\1/p')
    test "$got" = "$want" || fail "-f $arg stored PARAMS { $got }, expected { $want }"
    echo "gpulz h5repack-args $* -> $arg -> PARAMS { $got }"
}
# (the sixth, the chunk size, is set_local's: 4096 int32 elements; the
# seventh the mode, auto where none is given)
check "2 4 128 2048 0 16384 3"
check "2 2 64 4096 1 16384 3" --symbol 2 --window 64 --block 4096 --adaptive
check "2 4 255 256 0 16384 3" --window 255 --block 256 --optional
check "2 4 128 2048 0 16384 3" --mode auto
check "2 2 64 2048 2 16384 1" --mode fast --symbol 2 --window 64 --no-checksum
check "2 4 128 4096 0 16384 2" --mode ratio --block 4096 --optional
# mode lz: chunk format 1, version 1 and mode 0 stored
check "1 4 128 2048 0 16384 0" --mode lz
check "1 2 64 4096 1 16384 0" --mode lz --symbol 2 --window 64 --block 4096 --adaptive

# what h5dump -p shows pastes back into h5repack and is stored unchanged: a
# file migrated to a mode, every dataset, h5diff finding no difference
migrate() {
    mode=$1 first=$2 last=$3
    arg=$("$gpulz" h5repack-args --mode $mode) || fail "h5repack-args --mode $mode"
    rm -f $out $again
    "$H5REPACK" -f "$arg" -l CHUNK=4096 $in $out || fail "h5repack -f $arg (all datasets)"
    "$H5DIFF" $in $out || fail "h5diff after migrating to mode $mode"
    params=$("$H5DUMP" -pH -d /ramp $out | sed -n 's/.*PARAMS { \(.*\) }.*/\1/p')
    case $params in "$first "*" $last") ;; *) fail "mode $mode stored PARAMS { $params }" ;; esac
    "$H5REPACK" -f "UD=$GPULZ_FILTER_ID,0,7,$(echo $params | tr ' ' ,)" $out $again ||
        fail "h5repack with the pasted PARAMS { $params }"
    "$H5DIFF" $in $again || fail "h5diff after the pasted PARAMS"
    got=$("$H5DUMP" -pH -d /ramp $again | sed -n 's/.*PARAMS { \(.*\) }.*/\1/p')
    test "$got" = "$params" || fail "pasted PARAMS { $params } stored as { $got }"
    echo "migrated to mode $mode: PARAMS { $params }, pasted back unchanged"
}
migrate auto 2 3
migrate lz 1 0
migrate ratio 2 2
# "the defaults everywhere" as docs/usage.md writes it: five 0s, mode auto
rm -f $out
"$H5REPACK" -f "UD=$GPULZ_FILTER_ID,0,5,0,0,0,0,0" -l CHUNK=4096 $in $out || fail "h5repack, five 0s"
got=$("$H5DUMP" -pH -d /ramp $out | sed -n 's/.*PARAMS { \(.*\) }.*/\1/p')
test "$got" = "2 4 128 2048 0 16384 3" || fail "five 0s stored PARAMS { $got }"
# --optional sets the pipeline flag
arg=$("$gpulz" h5repack-args --optional)
case $arg in UD=$GPULZ_FILTER_ID,1,7,*) ;; *) fail "--optional gave '$arg'" ;; esac
# a mode above 3 fails the dataset's creation: h5repack warns and copies the
# dataset with its original settings (no gpulz)
rm -f $again
"$H5REPACK" -v -f "UD=$GPULZ_FILTER_ID,0,7,0,0,0,0,0,0,4" -l CHUNK=4096 $in $again >h5_repack_args.out 2>&1
grep -q "could not create dataset </ramp>" h5_repack_args.out || fail "mode 4: $(head -20 h5_repack_args.out)"
"$H5DUMP" -pH -d /ramp $again | grep -q "FILTER_ID" && fail "mode 4 was stored"
rm -f h5_repack_args.out
exit 0
