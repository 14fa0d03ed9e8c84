#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make install puts every file where docs/install.md says, in the folders
# this build was configured with (staged with DESTDIR): the libraries, the
# headers, the command (which runs), the pkg-config and CMake packages, the
# plugin without its .la (and its module for the provisional filter ID where
# a registered one is written), the man page, the bash completion, the license,
# NEWS and CITATION.cff; and make uninstall removes every file again.
. "$top_srcdir/h5tests/install_common.sh"
: "${GPULZ_BINDIR:?}" "${GPULZ_INCLUDEDIR:?}" "${GPULZ_PKGCONFIGDIR:?}" "${GPULZ_PLUGINDIR:?}"
: "${GPULZ_MANDIR:?}" "${GPULZ_DOCDIR:?}" "${GPULZ_BASHCOMPLETIONDIR:?}" "${GPULZ_INSTALL_MAN:?}"

stage_install
installed "$GPULZ_LIBDIR/libgpulz.so"
installed "$GPULZ_LIBDIR/libh5gpulz.so"
for h in gpulz.h gpulz_cd.h gpulz_h5filter.h; do installed "$GPULZ_INCLUDEDIR/$h"; done
installed "$GPULZ_BINDIR/gpulz"
installed "$GPULZ_PKGCONFIGDIR/gpulz.pc"
installed "$GPULZ_PKGCONFIGDIR/h5gpulz.pc"
installed "$GPULZ_LIBDIR/cmake/gpulz/gpulzConfig.cmake"
installed "$GPULZ_LIBDIR/cmake/gpulz/gpulzConfigVersion.cmake"
installed "$GPULZ_PLUGINDIR/libH5Zgpulz.so"
[ -e "$stage$GPULZ_PLUGINDIR/libH5Zgpulz.la" ] && fail "the plugin's .la was installed"
# the module for the provisional ID, where a registered one is written
if [ "${GPULZ_FILTER_ID:?}" != "${GPULZ_PROVISIONAL_FILTER_ID:?}" ]; then
    installed "$GPULZ_PLUGINDIR/libH5Zgpulz_provisional.so"
    [ -e "$stage$GPULZ_PLUGINDIR/libH5Zgpulz_provisional.la" ] &&
        fail "the provisional module's .la was installed"
else
    [ -e "$stage$GPULZ_PLUGINDIR/libH5Zgpulz_provisional.so" ] &&
        fail "a module for the provisional ID was installed, which is the only ID"
fi
[ "$GPULZ_INSTALL_MAN" = yes ] && installed "$GPULZ_MANDIR/man1/gpulz.1"
installed "$GPULZ_BASHCOMPLETIONDIR/gpulz"
for f in LICENSE NEWS CITATION.cff; do installed "$GPULZ_DOCDIR/$f"; done
"$stage$GPULZ_BINDIR/gpulz" --version >version.txt || fail "the installed gpulz does not run"
grep -q "^gpulz $GPULZ_VERSION " version.txt || fail "the installed gpulz says: $(cat version.txt)"

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -C "$top_builddir" uninstall DESTDIR="$stage" \
    >uninstall.log 2>&1 || fail "make uninstall failed: $(tail -20 uninstall.log)"
left=$(find "$stage" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
done_ok
