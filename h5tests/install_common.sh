# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the h5tests/install_*.sh tests: a scratch directory of the
# test's own (kept when the test fails), this build tree installed into it
# with DESTDIR ($stage: every installed path P lies at $stage$P), and
# assertions.  The install folders come from the Makefile
# (h5tests/install.inc): GPULZ_PREFIX, GPULZ_LIBDIR, GPULZ_INCLUDEDIR,
# GPULZ_BINDIR, GPULZ_PKGCONFIGDIR, GPULZ_PLUGINDIR, GPULZ_MANDIR, ...
: "${top_builddir:?}" "${top_srcdir:?}" "${GPULZ_PREFIX:?}" "${GPULZ_LIBDIR:?}"
: "${MAKE:=make}" "${CC:=cc}" "${PKG_CONFIG:=pkg-config}"
case $top_builddir in /*) ;; *) top_builddir="$PWD/$top_builddir" ;; esac
case $top_srcdir in /*) ;; *) top_srcdir="$PWD/$top_srcdir" ;; esac

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
skip() {
    echo "SKIP: $*"
    exit 77
}

test_name=$(basename "$0" .sh)
work="$PWD/h5tests/$test_name.dir"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 99

# stage_install: `make install DESTDIR=$stage` of this build tree, in a make
# of its own (not the jobs or the variables of the make running the tests)
stage="$work/stage"
stage_install() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -C "$top_builddir" install DESTDIR="$stage" \
        >install.log 2>&1 || fail "make install DESTDIR=$stage failed: $(tail -20 install.log)"
}

# installed FILE: FILE (an installed path) is in the stage
installed() {
    [ -e "$stage$1" ] || fail "$1 was not installed (no $stage$1)"
}

# loads_from DIR PROGRAM LIB: PROGRAM finds LIB (libgpulz, libh5gpulz) in
# DIR, not in an install elsewhere (where ldd is there to say)
loads_from() {
    command -v ldd >/dev/null 2>&1 || return 0
    got=$(ldd "$2" | sed -n "s/^[[:space:]]*$3\.so[^ ]* => \([^ ]*\) .*/\1/p")
    case $got in
        "$1"/*) ;;
        *) fail "$2 loads $3 from '$got', not from $1" ;;
    esac
}

# done_ok: the test passed; remove its scratch directory
done_ok() {
    cd .. && rm -rf "$work"
    exit 0
}
