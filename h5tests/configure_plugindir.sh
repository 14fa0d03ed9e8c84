#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Where configure installs the plugin when the HDF5's pkg-config module has
# no PluginDir (upstream, Spack and conda builds of HDF5): H5_DEFAULT_PLUGINDIR
# of its H5pubconf.h, else HDF5's default /usr/local/hdf5/lib/plugin; and the
# summary line names the source.  configure runs (configure only, no build)
# in a scratch folder against a copy of the build's HDF5 module with its
# PluginDir removed and a H5pubconf.h of the test's own ahead of the real one.
: "${top_srcdir:?}" "${PKG_CONFIG:=pkg-config}" "${HDF5_PKG:=hdf5}"

. "$top_srcdir/h5tests/configure_common.sh"
hdf5_pc_file

work="$PWD/h5tests/configure_plugindir.dir"
rm -rf "$work" && mkdir -p "$work/pc" "$work/inc" "$work/build" || exit 99
cd "$work" || exit 99

# pc/hdf5.pc: the module as the build found it, without PluginDir (and with
# PLUGINDIR=1, one with it), the test's include folder first
fake_pc() {
    sed -e '/^PluginDir *[=:]/d' -e "s|^Cflags:|Cflags: -I$work/inc|" "$pcfile" >pc/hdf5.pc
    [ "${1:-}" = PLUGINDIR ] && echo "PluginDir=/opt/gpulz-test/from-pc" >>pc/hdf5.pc
    grep -q "^Cflags: -I$work/inc" pc/hdf5.pc || fail "no Cflags line in $pcfile"
}
# inc/H5pubconf.h: the real header, then H5_DEFAULT_PLUGINDIR defined as
# given (C tokens), or undefined when none is given
fake_header() {
    {
        echo '#include_next <H5pubconf.h>'
        echo '#undef H5_DEFAULT_PLUGINDIR'
        echo '#define GPULZ_TEST_ROOT "/opt/gpulz-test"'
        [ $# -gt 0 ] && printf '#define H5_DEFAULT_PLUGINDIR %s\n' "$1"
    } >inc/H5pubconf.h
}

cases=8
started=$(date +%s)
n=0
# run CASE [CONFIGURE ARGS]: configure in build/, its output in CASE.out, the
# summary's plugin directory line in $line
run() {
    name=$1
    shift
    n=$((n + 1))
    (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null PKG_CONFIG_PATH="$work/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
            "$top_srcdir/configure" --no-create --with-hdf5-pkg=hdf5 --with-cuda=no \
            PYTHON_H5PY=none "$@") >"$name.out" 2>&1 ||
        fail "$name: configure failed: $(tail -5 "$name.out")"
    line=$(sed -n 's/^ *plugin directory: *//p' "$name.out")
    [ -n "$line" ] || fail "$name: no plugin directory line in the summary"
    if [ $n -eq 1 ]; then
        took=$(($(date +%s) - started))
        if [ $((took * cases)) -gt 90 ]; then
            echo "SKIP: one configure run takes ${took}s here, too slow for $cases"
            exit 77
        fi
    fi
}
# expect CASE DIR SOURCE-PATTERN
expect() {
    case $line in
        "$2 (from "$3")") ;;
        *) fail "$1: plugin directory '$line', expected '$2 (from $3)'" ;;
    esac
}

# H5_DEFAULT_PLUGINDIR through another macro, as adjacent string literals,
# with a variable of each kind HDF5 builds use, both set here
fake_pc
fake_header 'GPULZ_TEST_ROOT "/%GPULZ_TEST_ARCH%" "/lib/${GPULZ_TEST_LIB}/plugin"'
GPULZ_TEST_ARCH=x86 GPULZ_TEST_LIB=hdf5
export GPULZ_TEST_ARCH GPULZ_TEST_LIB
run header
expect header "/opt/gpulz-test/x86/lib/hdf5/plugin" "H5_DEFAULT_PLUGINDIR of $work/inc/H5pubconf.h"
grep -q 'set HDF5_PLUGIN_PATH' header.out && fail "header: a notice says HDF5 will not search its own folder"

# escaped characters in the string
fake_header '"/opt/gpulz-test/a\\b" "/c\"d"'
run escapes
expect escapes '/opt/gpulz-test/a\b/c"d' "H5_DEFAULT_PLUGINDIR of *"

# a variable not set: not a folder to install into
unset GPULZ_TEST_LIB
fake_header 'GPULZ_TEST_ROOT "/lib/$GPULZ_TEST_LIB/plugin"'
run unset
expect unset /usr/local/hdf5/lib/plugin "HDF5's default*"
grep -q 'WARNING:.*GPULZ_TEST_LIB not set' unset.out || fail "unset: no warning naming the variable"

# a relative path
fake_header '"lib/plugin"'
run relative
expect relative /usr/local/hdf5/lib/plugin "HDF5's default*"
grep -q 'WARNING:.*not an absolute path' relative.out || fail "relative: no warning"

# something other than a string
fake_header '42'
run notstring
expect notstring /usr/local/hdf5/lib/plugin "HDF5's default*"
grep -q 'WARNING:.*not a plain C string' notstring.out || fail "notstring: no warning"

# no H5_DEFAULT_PLUGINDIR at all
fake_header
run none
expect none /usr/local/hdf5/lib/plugin "HDF5's default; no PluginDir in hdf5.pc*"

# PluginDir first, H5pubconf.h's value aside
fake_pc PLUGINDIR
fake_header '"/opt/gpulz-test/from-header"'
run pluginDir
expect pluginDir /opt/gpulz-test/from-pc "PluginDir of pkg-config's hdf5"

# the option first of all, with a notice that HDF5 will not search there
run option --with-hdf5-plugin-dir=/opt/gpulz-test/mine
expect option /opt/gpulz-test/mine "--with-hdf5-plugin-dir"
grep -q 'HDF5 searches /opt/gpulz-test/from-pc by default, not /opt/gpulz-test/mine' option.out ||
    fail "option: no notice that HDF5 searches elsewhere"

[ $n -eq $cases ] || fail "ran $n cases, not $cases"
echo "ok: $n configure runs in $(($(date +%s) - started))s"
cd .. && rm -rf "$work"
