#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The symbols the shared objects export are their documented interface only:
# libgpulz the functions gpulz.h declares (and kernels/libgpulz.sym lists),
# libh5gpulz those gpulz_h5filter.h declares, and the plugin modules HDF5's
# two entry points and hdf5plugin's init_filter (docs/install.md); and the
# plugin modules take no HDF5 symbol from the loader (h5_dynamic.h).  Skipped
# where nm cannot list an ELF object's dynamic symbols.
: "${top_srcdir:?}" "${top_builddir:?}"
command -v nm >/dev/null 2>&1 || { echo "no nm: skipped"; exit 77; }
libs=$top_builddir/.libs
nm -D --defined-only "$libs/libgpulz.so" >/dev/null 2>&1 || { echo "nm -D cannot read $libs/libgpulz.so: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# exported: the defined dynamic symbols of a shared object, sorted
exported() {
    nm -D --defined-only "$1" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u
}
# declared: the functions a header declares (a line that starts with the
# return type, the name before the parenthesis), sorted
declared() {
    sed -n 's/^[A-Za-z_][^(#/]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$1" | sort -u
}
# same WHAT WANT GOT: the two lists must be equal
same() {
    if ! cmp -s "$2" "$3"; then
        echo "FAIL: $1: exported but not declared (+), declared but not exported (-):"
        diff "$2" "$3" | sed -n 's/^> /  + /p; s/^< /  - /p'
        fail=1
    fi
}

declared "$top_srcdir/kernels/gpulz.h" >"$tmp/gpulz.h"
sort -u "$top_srcdir/kernels/libgpulz.sym" >"$tmp/gpulz.sym"
same "kernels/libgpulz.sym against gpulz.h" "$tmp/gpulz.h" "$tmp/gpulz.sym"
exported "$libs/libgpulz.so" >"$tmp/gpulz.so"
same "libgpulz.so" "$tmp/gpulz.h" "$tmp/gpulz.so"

declared "$top_srcdir/plugin/gpulz_h5filter.h" >"$tmp/h5.h"
exported "$libs/libh5gpulz.so" >"$tmp/h5.so"
same "libh5gpulz.so" "$tmp/h5.h" "$tmp/h5.so"

printf '%s\n' H5PLget_plugin_info H5PLget_plugin_type init_filter | sort >"$tmp/plugin"
for m in libH5Zgpulz.so libH5Zgpulz_provisional.so; do
    [ -f "$libs/$m" ] || continue
    exported "$libs/$m" >"$tmp/$m"
    same "$m" "$tmp/plugin" "$tmp/$m"
    # the modules link no libhdf5 and reach HDF5 through h5_dynamic.h's
    # table: a symbol of HDF5's left for the loader is missing where HDF5
    # is not global (h5py's), and the first call to it ends the process
    nm -D --undefined-only "$libs/$m" | awk 'NF >= 2 { print $2 }' | sed 's/@.*//' | grep '^H5' >"$tmp/$m.h5"
    if [ -s "$tmp/$m.h5" ]; then
        echo "FAIL: $m: HDF5 symbols outside h5_dynamic.h's table:"
        sed 's/^/  /' "$tmp/$m.h5"
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "libgpulz, libh5gpulz and the plugin export their documented symbols only"
exit $fail
