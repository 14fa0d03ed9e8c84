#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Output that never reaches stdout fails the command with exit 3 and
# "gpulz: stdout: write failed: ..." on stderr: every command that prints,
# text or binary, to a full device (/dev/full) and to a closed stdout (>&-).
# A command that prints nothing to stdout is not bothered by a closed one.
. "$top_srcdir/h5tests/cli_common.sh"

"$GPULZ" gen quant 100000 -o q.raw || fail "gen"
"$GPULZ" compress -s 2 q.raw -o q.gplz || fail "compress"

# stdout_fails HOW CMD...: CMD with stdout full (HOW=full) or closed must exit
# 3 with the message on stderr
stdout_fails() {
    how=$1
    shift
    if [ "$how" = full ]; then
        "$@" >/dev/full 2>err.log
    else
        "$@" >&- 2>err.log
    fi
    got=$?
    [ "$got" -eq 3 ] || fail "'$*' with stdout $how exited $got, expected 3; stderr: $(cat err.log)"
    grep -q '^gpulz: stdout: write failed: ' err.log ||
        fail "'$*' with stdout $how: no 'gpulz: stdout: write failed' on stderr: $(cat err.log)"
}

hows=closed
if [ -c /dev/full ]; then
    hows="full closed"
else
    echo "no /dev/full: only a closed stdout is tried"
fi
for how in $hows; do
    stdout_fails "$how" "$GPULZ" info q.gplz
    stdout_fails "$how" "$GPULZ" info --blocks q.gplz
    stdout_fails "$how" "$GPULZ" info --verify q.gplz q.gplz
    stdout_fails "$how" "$GPULZ" h5repack-args --level 4
    stdout_fails "$how" "$GPULZ" version
    stdout_fails "$how" "$GPULZ" --version
    stdout_fails "$how" "$GPULZ" --help
    stdout_fails "$how" "$GPULZ" help
    stdout_fails "$how" "$GPULZ" help info
    for c in compress decompress info bench gen h5repack-args; do
        stdout_fails "$how" "$GPULZ" "$c" --help
    done
    stdout_fails "$how" "$GPULZ" gen --list
    stdout_fails "$how" "$GPULZ" bench --gen quant:4K -w 32 -b 256 -t 1 -r 1
    stdout_fails "$how" "$GPULZ" bench --gen quant:4K -w 32 -b 256 -t 1 -r 1 --csv
    # binary data
    stdout_fails "$how" "$GPULZ" gen quant 64K
    stdout_fails "$how" "$GPULZ" compress q.raw -o -
    stdout_fails "$how" "$GPULZ" decompress q.gplz -o -
    stdout_fails "$how" "$GPULZ" decompress - <q.gplz
done

# a command that writes only a file does not mind a closed stdout, and the
# file (which might have taken stdout's number) gets the data and nothing else
"$GPULZ" compress -s 2 q.raw -o closed.gplz >&- 2>err.log || fail "compress with stdout closed: $(cat err.log)"
cmp q.gplz closed.gplz || fail "compress with stdout closed wrote other bytes"
"$GPULZ" decompress closed.gplz -o closed.raw >&- 2>err.log || fail "decompress with stdout closed: $(cat err.log)"
cmp q.raw closed.raw || fail "decompress with stdout closed: round trip differs"
done_ok
