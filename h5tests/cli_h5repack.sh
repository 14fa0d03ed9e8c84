#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz h5repack-args prints UD=<id>,<flag>,7,2,<S>,<W>,<C>,<flags>,0,<mode>
# in the cd_values layout of the gpulz filter: version, symbol size (0 = the
# datatype's), window, block size in symbols, flags (1 = adaptive, 2 = no
# checksum), the chunk size (0: the filter's) and the mode, auto by default;
# with --mode lz gpulz 0.1's five, UD=<id>,<flag>,5,1,<S>,<W>,<C>,<flags>.
. "$top_srcdir/h5tests/cli_common.sh"

id=${GPULZ_FILTER_ID:?GPULZ_FILTER_ID is not set}

line() {
    expect 0 "$GPULZ" h5repack-args "$@"
    cat out.log
}

[ "$(line)" = "UD=$id,0,7,2,0,128,2048,0,0,3" ] || fail "defaults: $(line)"
[ "$(line --symbol 4)" = "UD=$id,0,7,2,4,128,2048,0,0,3" ] || fail "--symbol 4: $(line --symbol 4)"
[ "$(line -s 0)" = "UD=$id,0,7,2,0,128,2048,0,0,3" ] || fail "-s 0"
[ "$(line --level 1)" = "UD=$id,0,7,2,0,32,2048,0,0,3" ] || fail "--level 1"
[ "$(line --level 4)" = "UD=$id,0,7,2,0,255,2048,0,0,3" ] || fail "--level 4"
[ "$(line --window 17 --block 16384)" = "UD=$id,0,7,2,0,17,16384,0,0,3" ] || fail "--window 17 --block 16384"
[ "$(line --adaptive -s 2)" = "UD=$id,0,7,2,2,128,2048,1,0,3" ] || fail "--adaptive"
[ "$(line --optional -b 256)" = "UD=$id,1,7,2,0,128,256,0,0,3" ] || fail "--optional"
[ "$(line --no-checksum)" = "UD=$id,0,7,2,0,128,2048,2,0,3" ] || fail "--no-checksum: $(line --no-checksum)"
line -s 8 -l 2 -b 4096 -a --optional | grep -qx "UD=$id,1,7,2,8,64,4096,1,0,3" || fail "all options"
# lz: the five values of gpulz 0.1, slot 0 saying format 1 (which keeps them
# lz); the other modes seven, version 2, the chunk size 0 and the mode
[ "$(line --mode lz)" = "UD=$id,0,5,1,0,128,2048,0" ] || fail "--mode lz: $(line --mode lz)"
[ "$(line --mode lz -s 8 -l 2 -b 4096 -a --optional)" = "UD=$id,1,5,1,8,64,4096,1" ] ||
    fail "--mode lz, all options"
[ "$(line --mode fast)" = "UD=$id,0,7,2,0,128,2048,0,0,1" ] || fail "--mode fast: $(line --mode fast)"
[ "$(line --mode ratio -s 4)" = "UD=$id,0,7,2,4,128,2048,0,0,2" ] || fail "--mode ratio"
[ "$(line --mode auto --no-checksum)" = "UD=$id,0,7,2,0,128,2048,2,0,3" ] || fail "--mode auto --no-checksum"
[ "$(line --mode auto -a --no-checksum --optional)" = "UD=$id,1,7,2,0,128,2048,3,0,3" ] || fail "all flags"
expect 2 "$GPULZ" h5repack-args --mode 3
expect 2 "$GPULZ" h5repack-args --mode lz --no-checksum
expect 2 "$GPULZ" h5repack-args --block 300
expect 2 "$GPULZ" h5repack-args --window 256
done_ok
