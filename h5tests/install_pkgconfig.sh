#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pkg-config users of an installed gpulz: gpulz.pc and h5gpulz.pc of a
# staged install (make install DESTDIR=...) build and run a program each
# (h5tests/consumer/*.c): the codec, and the filter linked into a program
# that also calls HDF5 (the flags come through h5gpulz.pc's Requires);
# plugindir names the folder the plugin was installed in.  The .pc files are
# read from copies whose absolute folders are moved into the stage, as a
# packager's sysroot would see them.  pkg-config --static names every
# library that libtool recorded the two libraries need (the CUDA runtime,
# static, in a CUDA build), and where static libraries were installed
# (--enable-static) the codec program links against libgpulz.a with it.
# Skips only without pkg-config.
. "$top_srcdir/h5tests/install_common.sh"
command -v "$PKG_CONFIG" >/dev/null 2>&1 || skip "no $PKG_CONFIG"
: "${GPULZ_PKGCONFIGDIR:?}" "${GPULZ_PLUGINDIR:?}" "${GPULZ_VERSION:?}" "${HDF5_PKG:?}"

stage_install
for f in gpulz h5gpulz; do
    installed "$GPULZ_PKGCONFIGDIR/$f.pc"
    mkdir -p pc
    sed -e "s|^prefix=/|prefix=$stage/|" -e "s|^exec_prefix=/|exec_prefix=$stage/|" \
        -e "s|^libdir=/|libdir=$stage/|" -e "s|^includedir=/|includedir=$stage/|" \
        -e "s|^plugindir=/|plugindir=$stage/|" "$stage$GPULZ_PKGCONFIGDIR/$f.pc" >"pc/$f.pc"
done
PKG_CONFIG_PATH="$work/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH

for f in gpulz h5gpulz; do
    v=$($PKG_CONFIG --modversion $f) || fail "$PKG_CONFIG does not take $f.pc"
    [ "$v" = "$GPULZ_VERSION" ] || fail "$f.pc says version $v, not $GPULZ_VERSION"
    d=$($PKG_CONFIG --variable=plugindir $f)
    [ "$d" = "$stage$GPULZ_PLUGINDIR" ] || fail "$f.pc: plugindir $d, not $GPULZ_PLUGINDIR"
    [ -f "$d/libH5Zgpulz.so" ] || fail "$f.pc: no libH5Zgpulz.so in plugindir $d"
done
$PKG_CONFIG --print-requires h5gpulz | grep -q "^$HDF5_PKG\b" ||
    fail "h5gpulz.pc does not require $HDF5_PKG: $($PKG_CONFIG --print-requires h5gpulz)"

# a static link's flags: every -L and -l of the .la's dependency_libs
for f in gpulz h5gpulz; do
    deps=$(sed -n "s/^dependency_libs='\(.*\)'\$/\1/p" "$top_builddir/lib$f.la")
    static=" $($PKG_CONFIG --static --libs $f) "
    for d in $deps; do
        case $d in -L*|-l*) ;; *) continue ;; esac
        case $static in *" $d "*) ;; *) fail "$f.pc: pkg-config --static --libs lacks $d (lib$f.la needs: $deps)" ;; esac
    done
done

# the programs, with the staged libraries ahead of any installed elsewhere
src="$top_srcdir/h5tests/consumer"
# shellcheck disable=SC2046
$CC -std=c11 -Wall -Werror $($PKG_CONFIG --cflags gpulz) "$src/codec_consumer.c" -o codec_consumer \
    $($PKG_CONFIG --libs gpulz) >cc.log 2>&1 || fail "codec_consumer does not build: $(cat cc.log)"
# shellcheck disable=SC2046
$CC -std=c11 -Wall -Werror $($PKG_CONFIG --cflags h5gpulz) "$src/h5_consumer.c" -o h5_consumer \
    $($PKG_CONFIG --libs h5gpulz) >cc.log 2>&1 || fail "h5_consumer does not build: $(cat cc.log)"
LD_LIBRARY_PATH="$stage$GPULZ_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
loads_from "$stage$GPULZ_LIBDIR" codec_consumer libgpulz
loads_from "$stage$GPULZ_LIBDIR" h5_consumer libh5gpulz
./codec_consumer "$GPULZ_VERSION" || fail "codec_consumer failed"
if [ -f "$stage$GPULZ_LIBDIR/libgpulz.a" ]; then
    # shellcheck disable=SC2046
    $CC -std=c11 -Wall -Werror $($PKG_CONFIG --cflags gpulz) "$src/codec_consumer.c" -o codec_static \
        "$stage$GPULZ_LIBDIR/libgpulz.a" $($PKG_CONFIG --static --libs-only-other --libs-only-L gpulz) \
        $($PKG_CONFIG --static --libs-only-l gpulz | sed 's/\(^\| \)-lgpulz\( \|$\)/ /') >cc.log 2>&1 ||
        fail "codec_consumer does not link against libgpulz.a with pkg-config --static: $(tail -5 cc.log)"
    ./codec_static "$GPULZ_VERSION" || fail "codec_consumer linked against libgpulz.a failed"
fi
env HDF5_PLUGIN_PRELOAD=:: ./h5_consumer || fail "h5_consumer failed"
done_ok
