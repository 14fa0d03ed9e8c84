#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# configure refuses, before anything is built, the options a build or an
# install would fail on later: --disable-shared (HDF5 loads the plugin as a
# shared object, which libtool makes none of then), and, as configure's
# own --libdir, a relative --with-hdf5-plugin-dir (libtool: "only absolute
# run-paths are allowed") or --with-bash-completion-dir (installed under
# the build tree, or under DESTDIR's name run on with it: /stagecompletions).
# Each case runs configure (configure only) in a scratch folder and expects
# it to stop with a message naming the option.
: "${top_srcdir:?}"

. "$top_srcdir/h5tests/configure_common.sh"
work="$PWD/h5tests/configure_options.dir"
rm -rf "$work" && mkdir -p "$work/build" || exit 99
cd "$work" || exit 99

# refused CASE PATTERN [CONFIGURE ARGS]: configure stops with an error
# matching PATTERN
refused() {
    name=$1 pattern=$2
    shift 2
    if (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no \
            PYTHON_H5PY=none "$@") >"$name.out" 2>&1; then
        fail "$name: configure $* succeeded"
    fi
    grep -q "error: .*$pattern" "$name.out" ||
        fail "$name: configure $* failed, but not with '$pattern': $(tail -3 "$name.out")"
}

refused no-shared "disable-shared: gpulz needs shared libraries" --disable-shared
refused no-shared-static "disable-shared: gpulz needs shared libraries" --disable-shared --enable-static
refused relative-plugindir "with-hdf5-plugin-dir needs an absolute folder" \
    --with-hdf5-plugin-dir=lib/plugin
refused relative-completiondir "with-bash-completion-dir needs an absolute folder" \
    --with-bash-completion-dir=completions

# what is not refused: folders under configure's variables, as distcheck
# gives them (Makefile.am's AM_DISTCHECK_CONFIGURE_FLAGS)
(cd build && rm -rf ./* &&
    CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no PYTHON_H5PY=none \
        --with-hdf5-plugin-dir='${libdir}/hdf5/plugins' \
        --with-bash-completion-dir='${datadir}/bash-completion/completions') >vars.out 2>&1 ||
    fail "configure with \${libdir} and \${datadir} folders failed: $(tail -3 vars.out)"

cd .. && rm -rf "$work"
