#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz h5repack-args prints UD=<id>,<flag>,5,<version>,<S>,<W>,<C>,<flags>
# in the cd_values layout of the gpulz filter: version, symbol size (0 = the
# datatype's), window, block size in symbols, flags (1 = adaptive).
. "$top_srcdir/h5tests/cli_common.sh"

id=${GPULZ_FILTER_ID:?GPULZ_FILTER_ID is not set}

line() {
    expect 0 "$GPULZ" h5repack-args "$@"
    cat out.log
}

[ "$(line)" = "UD=$id,0,5,1,0,128,2048,0" ] || fail "defaults: $(line)"
[ "$(line --symbol 4)" = "UD=$id,0,5,1,4,128,2048,0" ] || fail "--symbol 4: $(line --symbol 4)"
[ "$(line -s 0)" = "UD=$id,0,5,1,0,128,2048,0" ] || fail "-s 0"
[ "$(line --level 1)" = "UD=$id,0,5,1,0,32,2048,0" ] || fail "--level 1"
[ "$(line --level 4)" = "UD=$id,0,5,1,0,255,2048,0" ] || fail "--level 4"
[ "$(line --window 17 --block 16384)" = "UD=$id,0,5,1,0,17,16384,0" ] || fail "--window 17 --block 16384"
[ "$(line --adaptive -s 2)" = "UD=$id,0,5,1,2,128,2048,1" ] || fail "--adaptive"
[ "$(line --optional -b 256)" = "UD=$id,1,5,1,0,128,256,0" ] || fail "--optional"
line -s 8 -l 2 -b 4096 -a --optional | grep -qx "UD=$id,1,5,1,8,64,4096,1" || fail "all options"
expect 2 "$GPULZ" h5repack-args --block 300
expect 2 "$GPULZ" h5repack-args --window 256
done_ok
