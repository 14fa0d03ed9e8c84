# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests that run configure in a scratch folder
# (configure_plugindir.sh, configure_options.sh, configure_pc_alias.sh):
# fail, the skip where the source tree is configured in place (configure
# refuses a second build folder for it), and hdf5_pc_file.
: "${top_srcdir:?}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

if [ -f "$top_srcdir/config.status" ]; then
    echo "SKIP: $top_srcdir is configured in place; configure runs only there"
    exit 77
fi

# hdf5_pc_file: pcfile, the .pc file of the build's HDF5 module ($HDF5_PKG),
# the test failed where pkg-config finds none
hdf5_pc_file() {
    pcfile=$($PKG_CONFIG --variable=pcfiledir "$HDF5_PKG")/$HDF5_PKG.pc
    [ -f "$pcfile" ] || fail "no $HDF5_PKG.pc found through $PKG_CONFIG"
}
