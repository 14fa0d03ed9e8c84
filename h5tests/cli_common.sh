# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the h5tests/cli_*.sh tests: the command under test, a scratch
# directory of the test's own (kept when the test fails) and assertions.
: "${top_builddir:=.}"
GPULZ="$top_builddir/gpulz"
case $GPULZ in /*) ;; *) GPULZ="$PWD/$GPULZ" ;; esac
[ -x "$GPULZ" ] || { echo "cannot run $GPULZ" >&2; exit 99; }

test_name=$(basename "$0" .sh)
work="$PWD/h5tests/$test_name.dir"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 99

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect CODE CMD...: CMD must exit with CODE; stdout in out.log, stderr in err.log.
# A failure must say so on stderr as "gpulz: <what>: <detail>".
expect() {
    want=$1
    shift
    "$@" >out.log 2>err.log
    got=$?
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(cat err.log)"
    if [ "$want" -ne 0 ]; then
        grep -q '^gpulz: [^:]*: ' err.log || fail "'$*': no 'gpulz: <what>: <detail>' on stderr: $(cat err.log)"
    fi
}

# size FILE: its length in bytes
size() {
    wc -c <"$1" | tr -d ' '
}

# done_ok: the test passed; remove its scratch directory
done_ok() {
    cd .. && rm -rf "$work"
    exit 0
}
