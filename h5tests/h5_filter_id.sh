#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_filter_id.sh - the day gpulz gets a registered filter ID, rehearsed with
# the stand-in that h5tests/plugin.inc builds the filter with
# (GPULZ_TEST_FILTER_ID), as the two plugin modules a build with a registered
# ID installs: a file written with the provisional ID, by the plugin of this
# build as every gpulz so far writes it, reads through the second module and
# not without it; so does the file of gpulz 0.1 (h5_fixture);
# `h5repack -f UD=<new ID>,0,6,<its PARAMS>` moves each dataset to the new
# ID with the same parameters, the same stored bytes and the same data, and
# the moved file needs the new module only; and a program that links the
# filter registers both IDs (h5_filter_id).
test -n "$H5REPACK" && test -n "$H5DUMP" && test -n "$H5DIFF" || { echo "HDF5 tools not found"; exit 77; }
: "${GPULZ_TEST_FILTER_ID:?}" "${GPULZ_PROVISIONAL_FILTER_ID:?}" "${top_builddir:?}"
: "${GPULZ_FILTER_NAME_REGISTERED:?}"
new=$GPULZ_TEST_FILTER_ID old=$GPULZ_PROVISIONAL_FILTER_ID
w=h5_filter_id.dir
trap 'rm -rf $w' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# h5_mkfile's datasets that a 4096-element chunk fits (/bytes holds 1000)
datasets="zeros ramp quant records noise"

# both/ as a plugin folder of a build with a registered ID; new/ without the
# provisional module.  Folders of their own, as HDF5 opens every module in one.
rm -rf $w && mkdir -p $w/both $w/new || exit 99
for m in libH5Zgpulz_fidtest libH5Zgpulz_fidtest_provisional; do
    test -f "$top_builddir/.libs/$m.so" || { echo "$m.so was not built"; exit 99; }
    ln -s "$top_builddir/.libs/$m.so" $w/both/ || exit 99
done
ln -s "$top_builddir/.libs/libH5Zgpulz_fidtest.so" $w/new/ || exit 99

# what the filter of dataset $2 of file $1 shows in h5dump -pH: ID, name, PARAMS
pline() {
    "$H5DUMP" -pH -d "/$2" "$1" | sed -n -e 's/^ *FILTER_ID \([0-9]*\)$/id=\1/p' \
        -e 's/^ *COMMENT \(.*\)$/name=\1/p' -e 's/^ *PARAMS { \(.*\) }$/params=\1/p' \
        -e 's/^ *SIZE \([0-9]*\).*/size=\1/p'
}

# 1. the provisional ID, written by this build's plugin (HDF5_PLUGIN_PATH of
# the tests): the ID every file written so far carries
"$top_builddir/h5tests/h5_mkfile" $w/in.h5 || exit 99
"$H5REPACK" -f zeros,ramp,records,noise:UD=$old,0,5,0,0,0,0,0 -f quant:UD=$old,0,5,0,2,64,1024,1 \
    -l CHUNK=4096 $w/in.h5 $w/old.h5 || fail "h5repack to filter $old"
for ds in $datasets; do
    pline $w/old.h5 $ds > $w/$ds.old
    grep -qx "id=$old" $w/$ds.old || fail "/$ds of the old file: $(tr '\n' ' ' < $w/$ds.old)"
done
echo "written with filter $old: $(grep params $w/quant.old)"

# 2. read with both modules; not without the provisional one
HDF5_PLUGIN_PATH=$w/new "$H5DUMP" -d /ramp $w/old.h5 > $w/out 2>&1 &&
    fail "filter $old read without the module for the provisional ID"
HDF5_PLUGIN_PATH=$w/both "$H5DIFF" $w/in.h5 $w/old.h5 || fail "h5diff: filter $old read wrong"
HDF5_PLUGIN_PATH=$w/both "$top_builddir/h5tests/h5_fixture" > $w/out 2>&1
rc=$?
case $rc in
    0) echo "gpulz 0.1's fixture read through the provisional module" ;;
    77) cat $w/out ;;
    *) cat $w/out; fail "h5_fixture through the provisional module: exit $rc" ;;
esac
# the provisional module writes too (existing datasets take writes)
HDF5_PLUGIN_PATH=$w/both "$H5REPACK" -f UD=$old,0,5,0,0,0,0,0 $w/in.h5 $w/old2.h5 &&
    HDF5_PLUGIN_PATH=$w/both "$H5DIFF" $w/in.h5 $w/old2.h5 &&
    pline $w/old2.h5 ramp | grep -qx "id=$old" || fail "writing filter $old through its module"

# 3. move every dataset to the new ID, with the parameters h5dump shows
args=
for ds in $datasets; do
    p=$(sed -n 's/^params=//p' $w/$ds.old | tr ' ' ,)
    case $p in [0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*) ;; *) fail "/$ds: PARAMS '$p'" ;; esac
    args="$args -f $ds:UD=$new,0,6,$p"
done
echo "h5repack$args"
HDF5_PLUGIN_PATH=$w/both "$H5REPACK" $args $w/old.h5 $w/moved.h5 || fail "h5repack to filter $new"
for ds in $datasets; do
    pline $w/moved.h5 $ds > $w/$ds.new
    grep -qx "id=$new" $w/$ds.new || fail "/$ds moved: $(tr '\n' ' ' < $w/$ds.new)"
    grep -q "^id=$old$" $w/$ds.new && fail "/$ds moved still has filter $old"
    grep -qxF "name=$GPULZ_FILTER_NAME_REGISTERED" $w/$ds.new || fail "/$ds moved: $(grep name $w/$ds.new)"
    # the same parameters, and (the encoder is deterministic) the same stored bytes
    diff $w/$ds.old $w/$ds.new | grep -v '^[<>] \(id\|name\)=' | grep -q '^[<>]' &&
        fail "/$ds: parameters or size changed: $(diff $w/$ds.old $w/$ds.new | tr '\n' ' ')"
done
echo "moved to filter $new: $(grep params $w/quant.new), $(grep size $w/quant.new) bytes as before"
HDF5_PLUGIN_PATH=$w/new "$H5DIFF" $w/in.h5 $w/moved.h5 || fail "h5diff: the moved file differs"

# 4. library mode: both IDs registered, the old file read, the new ID written
"$top_builddir/h5tests/h5_filter_id" $w/old.h5 $w/in.h5 $w/lib.h5 || fail "h5_filter_id"
HDF5_PLUGIN_PATH=$w/both "$H5DUMP" $w/lib.h5 > /dev/null &&
    pline $w/lib.h5 new_id | grep -qx "id=$new" && pline $w/lib.h5 provisional_id | grep -qx "id=$old" ||
    fail "the linked filter's file through the plugin modules"
echo "files with filter $old stay readable; h5repack moves them to $new"
exit 0
