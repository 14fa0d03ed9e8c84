#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A command ended by SIGTERM, SIGINT (Ctrl-C) or SIGHUP while its output is
# still a temporary file (OUT.tmp-XXXXXX, created before the work) removes
# it and dies of the signal: no OUT.tmp-*, no OUT, exit status 128 + signal.
. "$top_srcdir/h5tests/cli_common.sh"

# A job started with & in a non-interactive shell ignores SIGINT, and one
# started under nohup ignores SIGHUP: run the command with the three at
# their default disposition, as from a terminal.
if env --default-signal=INT true 2>/dev/null; then
    spawn() { env --default-signal=HUP,INT,TERM "$@" & }
elif command -v python3 >/dev/null 2>&1; then
    spawn() {
        python3 -c 'import os, signal, sys
for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" &
    }
elif command -v perl >/dev/null 2>&1; then
    spawn() { perl -e '$SIG{$_} = "DEFAULT" for qw(HUP INT TERM); exec @ARGV or die' "$@" & }
else
    echo "no env --default-signal, python3 or perl to reset the signals of a job: skipped"
    exit 77
fi

temporaries() {
    find . -name 'out.gplz.tmp-*' | tr '\n' ' '
}

# Single-threaded compression at level 4 of quantization codes takes about
# a second per 50 MB on a 2-core machine; the input grows when the command
# still finished before the signal came.
mb=48
for sig in TERM INT HUP; do
    case $sig in HUP) num=1 ;; INT) num=2 ;; TERM) num=15 ;; esac
    tries=0
    while :; do
        [ -f "in$mb.raw" ] || "$GPULZ" gen quant "${mb}M" -o "in$mb.raw" || fail "gen"
        spawn "$GPULZ" compress -t 1 -4 "in$mb.raw" -o out.gplz
        pid=$!
        # wait, a bounded time, for the temporary to appear
        i=0
        while [ -z "$(temporaries)" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ -n "$(temporaries)" ] && kill -s "$sig" "$pid" 2>/dev/null
        wait "$pid"
        status=$?
        if [ $status -eq 0 ]; then
            # done before the signal: nothing was tested; try a larger input
            tries=$((tries + 1))
            [ $tries -lt 3 ] || fail "SIG$sig: compress of up to $mb MB always finished first"
            rm -f out.gplz "in$mb.raw"
            mb=$((mb * 2))
            continue
        fi
        [ $status -eq $((128 + num)) ] ||
            fail "SIG$sig: compress exited $status, expected $((128 + num)) (killed by SIG$sig)"
        [ -z "$(temporaries)" ] || fail "SIG$sig: the temporary output stayed: $(temporaries)"
        [ -e out.gplz ] && fail "SIG$sig: an output was left"
        echo "SIG$sig: exit $status, no output left ($mb MB input)"
        break
    done
done
done_ok
