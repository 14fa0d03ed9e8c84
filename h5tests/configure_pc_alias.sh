#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5gpulz.pc requires the HDF5 module whose flags libh5gpulz was built with,
# not a link to it: Debian's hdf5.pc is an alternative pointing at
# hdf5-serial.pc, which installing libhdf5-openmpi-dev turns to the MPI
# flavour, after which a program built with `pkg-config h5gpulz` linked the
# MPI libhdf5 beside libh5gpulz's serial one (and could not register the
# filter).  configure runs (configure only, then config.status for
# h5gpulz.pc) against a module linked to a copy of the build's, with the
# copy's folder on the search path, then with it off the path.
: "${top_srcdir:?}" "${PKG_CONFIG:=pkg-config}" "${HDF5_PKG:=hdf5}"

. "$top_srcdir/h5tests/configure_common.sh"
hdf5_pc_file

work="$PWD/h5tests/configure_pc_alias.dir"
rm -rf "$work" && mkdir -p "$work/real" "$work/alias" "$work/build" || exit 99
cd "$work" || exit 99
cp "$pcfile" real/hdf5-gpulz-flavour.pc || exit 99
ln -s ../real/hdf5-gpulz-flavour.pc alias/hdf5-gpulz-alias.pc || exit 99

# run PATH: configure --with-hdf5-pkg=hdf5-gpulz-alias with PATH ahead of
# pkg-config's own; the Requires line of the h5gpulz.pc it makes in $req
run() {
    (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null PKG_CONFIG_PATH="$1${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
            "$top_srcdir/configure" --no-create --with-hdf5-pkg=hdf5-gpulz-alias --with-cuda=no \
            PYTHON_H5PY=none &&
        ./config.status h5gpulz.pc) >configure.out 2>&1 ||
        fail "configure failed: $(tail -5 configure.out)"
    req=$(sed -n 's/^Requires: *//p' build/h5gpulz.pc)
}

run "$work/alias:$work/real"
[ "$req" = "hdf5-gpulz-flavour >= 1.10" ] ||
    fail "h5gpulz.pc requires '$req', not the module hdf5-gpulz-alias.pc links to (hdf5-gpulz-flavour)"
# the linked module off the search path: the link is all there is
run "$work/alias"
[ "$req" = "hdf5-gpulz-alias >= 1.10" ] || fail "h5gpulz.pc requires '$req', not hdf5-gpulz-alias"
cd .. && rm -rf "$work"
echo "h5gpulz.pc requires the module a linked one points at"
