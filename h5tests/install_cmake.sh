#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# CMake users of an installed gpulz: find_package(gpulz) finds a staged
# install (make install DESTDIR=...) through CMAKE_PREFIX_PATH alone, its
# imported targets gpulz::gpulz and gpulz::h5gpulz build and run a program
# each (h5tests/consumer), gpulzConfigVersion.cmake takes the versions it
# should (the same minor version while 0.x) and refuses the others, and the
# install still works after its prefix is moved.  Skips only without cmake.
. "$top_srcdir/h5tests/install_common.sh"
command -v cmake >/dev/null 2>&1 || skip "no cmake"
: "${GPULZ_PLUGINDIR:?}" "${GPULZ_VERSION:?}"

stage_install
installed "$GPULZ_LIBDIR/cmake/gpulz/gpulzConfig.cmake"
installed "$GPULZ_LIBDIR/cmake/gpulz/gpulzConfigVersion.cmake"
src="$top_srcdir/h5tests/consumer"

# build PREFIX DIR [CMAKE ARGS]: configure and build the consumer in DIR
build() {
    prefix=$1 dir=$2
    shift 2
    CC="$CC" cmake -S "$src" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$dir.log" 2>&1 &&
        cmake --build "$dir" >>"$dir.log" 2>&1
}
# found DIR KEY: what the consumer's find_package set (DIR/found.txt)
found() {
    sed -n "s/^$2=//p" "$1/found.txt"
}
# run DIR LIBDIR: the two programs, the libraries through their build RPATH
run() {
    loads_from "$2" "$1/codec_consumer" libgpulz
    loads_from "$2" "$1/h5_consumer" libh5gpulz
    "$1/codec_consumer" "$GPULZ_VERSION" || fail "$1/codec_consumer failed"
    env HDF5_PLUGIN_PRELOAD=:: "$1/h5_consumer" || fail "$1/h5_consumer failed"
}
# expect_plugindir DIR STAGE: gpulz_PLUGIN_DIR under the stage when the
# folder lies under the prefix, as configured otherwise; the plugin is there
expect_plugindir() {
    d=$(found "$1" plugindir)
    case $GPULZ_PLUGINDIR in
        "$GPULZ_PREFIX"/*) want="$2${GPULZ_PLUGINDIR#"$GPULZ_PREFIX"}" ;;
        *) want=$GPULZ_PLUGINDIR ;;
    esac
    [ "$d" = "$want" ] || fail "$1: gpulz_PLUGIN_DIR is $d, expected $want"
}

build "$stage$GPULZ_PREFIX" consumer || fail "the consumer does not build: $(cat consumer.log)"
[ "$(found consumer version)" = "$GPULZ_VERSION" ] ||
    fail "gpulz_VERSION is $(found consumer version), not $GPULZ_VERSION"
[ "$(found consumer config)" = "$stage$GPULZ_LIBDIR/cmake/gpulz" ] ||
    fail "found $(found consumer config), not the staged $GPULZ_LIBDIR/cmake/gpulz"
[ "$(found consumer filter_id)" = "$GPULZ_FILTER_ID" ] || fail "gpulz_FILTER_ID $(found consumer filter_id)"
[ "$(found consumer provisional_filter_id)" = "$GPULZ_PROVISIONAL_FILTER_ID" ] ||
    fail "gpulz_PROVISIONAL_FILTER_ID $(found consumer provisional_filter_id)"
expect_plugindir consumer "$stage$GPULZ_PREFIX"
[ -f "$stage$GPULZ_PLUGINDIR/libH5Zgpulz.so" ] || fail "no plugin in $stage$GPULZ_PLUGINDIR"
run consumer "$stage$GPULZ_LIBDIR"

# versions: this one and the same minor take it, others do not
major=${GPULZ_VERSION%%.*}
rest=${GPULZ_VERSION#*.}
minor=${rest%%.*}
ok_versions="$major.$minor $GPULZ_VERSION $major.$minor...<$major.$((minor + 1)) 0.0...$major.$minor.999"
bad_versions="$major.$((minor + 1)) $((major + 1)).0 $major.$minor.999 $((major + 1)).0...<$((major + 2)).0"
[ "$major" -eq 0 ] && [ "$minor" -gt 0 ] && bad_versions="$bad_versions $major.$((minor - 1))"
[ "$major" -gt 0 ] && ok_versions="$ok_versions $major.0"
for v in $ok_versions; do
    cmake -S "$src" -B consumer -DGPULZ_WANT="$v" >version.log 2>&1 ||
        fail "find_package(gpulz $v) refused $GPULZ_VERSION: $(cat version.log)"
done
for v in $bad_versions; do
    cmake -S "$src" -B consumer -DGPULZ_WANT="$v" >version.log 2>&1 &&
        fail "find_package(gpulz $v) took $GPULZ_VERSION"
    grep -q "$GPULZ_VERSION" version.log || fail "find_package(gpulz $v): no version named: $(cat version.log)"
done
cmake -S "$src" -B consumer -DGPULZ_WANT= -DGPULZ_COMPONENTS="gpulz;nosuch" >version.log 2>&1 &&
    fail "find_package(gpulz COMPONENTS nosuch) succeeded"
grep -q "no component nosuch" version.log || fail "COMPONENTS nosuch: $(cat version.log)"

# the prefix moved elsewhere: found where it lies now (when libdir and
# includedir are under the prefix, as by default)
case "$GPULZ_LIBDIR:$GPULZ_INCLUDEDIR" in
    "$GPULZ_PREFIX"/*:"$GPULZ_PREFIX"/*)
        mv "$stage$GPULZ_PREFIX" moved || exit 99
        build "$work/moved" relocated || fail "the consumer does not build after a move: $(cat relocated.log)"
        [ "$(found relocated include)" = "$work/moved${GPULZ_INCLUDEDIR#"$GPULZ_PREFIX"}" ] ||
            fail "after the move gpulz_INCLUDE_DIR is $(found relocated include)"
        expect_plugindir relocated "$work/moved"
        run relocated "$work/moved${GPULZ_LIBDIR#"$GPULZ_PREFIX"}"
        ;;
    *) echo "libdir or includedir outside the prefix: not moved" ;;
esac
done_ok
