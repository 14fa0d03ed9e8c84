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

# use_test_plugins: HDF5_PLUGIN_PATH a folder of this build's gpulz plugin
# and the other filters' plugins of the system's folder (not an installed
# gpulz, which may be older), for h5repack to apply whichever filter a
# command names
use_test_plugins() {
    mkdir plugins || exit 99
    ln -s "$top_builddir/test-plugins/libH5Zgpulz.so" plugins/ || exit 99
    if [ -n "$HDF5_SYSTEM_PLUGIN_DIR" ] && [ -d "$HDF5_SYSTEM_PLUGIN_DIR" ]; then
        for so in "$HDF5_SYSTEM_PLUGIN_DIR"/*.so; do
            case $(basename "$so") in *gpulz* | '*.so') continue ;; esac
            ln -s "$so" plugins/ || exit 99
        done
    fi
    HDF5_PLUGIN_PATH=$PWD/plugins
    export HDF5_PLUGIN_PATH
}

# done_ok: the test passed; remove its scratch directory
done_ok() {
    cd .. && rm -rf "$work"
    exit 0
}
