#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The thread count is a ceiling: under an address-space limit (ulimit -v)
# that one thread fits in but 4096 thread stacks and encoder scratches do
# not, -t 4096 still succeeds, with the threads there is room for, and
# writes the bytes of -t 1.  Above 4096 is a usage error.
. "$top_srcdir/h5tests/cli_common.sh"

# 8 MiB of 256-symbol blocks: 32768 blocks, work for all 4096 workers; mode
# lz here, the default (auto) below, each under the limit its -t 1 runs in.
"$GPULZ" gen quant 8M -o q.raw || fail "gen"
expect 0 "$GPULZ" compress --mode lz -t 1 -b 256 --backend cpu q.raw -o one.gplz

# The smallest of these limits that -t 1 runs in (the command's own needs
# vary with the platform); each is well under 4096 x (stack + ~350 KiB
# scratch), so the many-thread run cannot have every worker it asks for.
limit=
for kib in 262144 524288 1048576; do
    if (ulimit -v "$kib" && "$GPULZ" compress --mode lz -t 1 -b 256 --backend cpu -f q.raw -o lim.gplz) \
        2>/dev/null; then
        limit=$kib
        break
    fi
done
[ -n "$limit" ] || fail "compress -t 1 does not run under ulimit -v 1048576"
cmp one.gplz lim.gplz || fail "compress -t 1 under ulimit -v $limit wrote other bytes"

(ulimit -v "$limit" && exec "$GPULZ" compress --mode lz -t 4096 -b 256 --backend cpu q.raw -o many.gplz) \
    2>err.log || fail "compress -t 4096 under ulimit -v $limit failed: $(cat err.log)"
cmp one.gplz many.gplz || fail "compress -t 4096 under ulimit -v $limit wrote other bytes than -t 1"
(ulimit -v "$limit" && exec "$GPULZ" decompress -t 4096 --backend cpu many.gplz -o back.raw) \
    2>err.log || fail "decompress -t 4096 under ulimit -v $limit failed: $(cat err.log)"
cmp q.raw back.raw || fail "decompress -t 4096 under ulimit -v $limit: round trip differs"

# the default mode, auto: its entropy coder's segments too are done
# without where a worker cannot get them (in place, on one thread)
expect 0 "$GPULZ" compress -t 1 -b 256 --backend cpu -f q.raw -o one.gplz
limit=
for kib in 262144 524288 1048576 2097152; do
    if (ulimit -v "$kib" && "$GPULZ" compress -t 1 -b 256 --backend cpu -f q.raw -o lim.gplz) 2>/dev/null; then
        limit=$kib
        break
    fi
done
[ -n "$limit" ] || fail "compress -t 1 in mode auto does not run under ulimit -v 2097152"
(ulimit -v "$limit" && exec "$GPULZ" compress -t 4096 -b 256 --backend cpu -f q.raw -o many.gplz) \
    2>err.log || fail "compress -t 4096 in mode auto under ulimit -v $limit failed: $(cat err.log)"
cmp one.gplz many.gplz || fail "compress -t 4096 in mode auto under ulimit -v $limit wrote other bytes"
expect 0 "$GPULZ" compress -t 4096 -b 256 --backend cpu -f q.raw -o many.gplz
cmp one.gplz many.gplz || fail "compress -t 4096 wrote other bytes than -t 1"
expect 2 "$GPULZ" compress -t 4097 -f q.raw -o many.gplz
grep -q '4097' err.log || fail "the refusal of -t 4097 does not name the count: $(cat err.log)"
expect 2 "$GPULZ" decompress -t 4097 -f many.gplz -o back.raw
expect 2 "$GPULZ" info -t 4097 --verify many.gplz
expect 2 "$GPULZ" bench -t 1,4097 --gen quant:1K
done_ok
