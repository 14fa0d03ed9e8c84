#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# mpi_round.sh - the MPI flavour's test on a GPU machine whose own HDF5 is
# serial: Debian's parallel HDF5 is unpacked beside the build (nothing is
# installed), gpulz is configured for it with CUDA, and h5tests/h5_mpi.sh
# and h5tests/mpi_bench_smoke.sh run (with several GPUs h5_mpi also puts one
# GPU on each local rank).
#
#   KIT/gpulz-*.tar.gz   a `make dist` tarball
#   KIT/*.deb            libhdf5-openmpi-103-1 and libhdf5-openmpi-dev (Debian 12);
#                        the machine's Open MPI 4.x serves their libmpi.so.40
# Usage: bench/mpi_round.sh KIT [ARCH (90)]; logs in $OUT (default ./mpi_round).
set -u
kit=$(readlink -f "$1")
arch=${2:-90}
out=${OUT:-$PWD/mpi_round}
mkdir -p "$out"
work=$(mktemp -d)
sys=$work/sys
mkdir -p "$sys/pc" "$work/plugins"
for d in "$kit"/*.deb; do dpkg-deb -x "$d" "$sys" || exit 1; done
cat > "$sys/pc/hdf5-openmpi.pc" <<PC
Name: HDF5
Description: Debian's openmpi HDF5, unpacked in $sys
Version: 1.10.8
Requires: ompi
Cflags: -I$sys/usr/include/hdf5/openmpi
Libs: -L$sys/usr/lib/x86_64-linux-gnu/hdf5/openmpi -lhdf5
PluginDir=$work/plugins
PC
export PKG_CONFIG_PATH=$sys/pc LD_LIBRARY_PATH=$sys/usr/lib/x86_64-linux-gnu
cd "$work" && tar xzf "$kit"/gpulz-*.tar.gz && cd gpulz-* || exit 1
./configure --with-hdf5-pkg=hdf5-openmpi --with-cuda-arch="$arch" > "$out/configure.log" 2>&1 ||
    { tail -20 "$out/configure.log"; exit 1; }
grep -E "flavour|CUDA backend" "$out/configure.log"
make -j"$(nproc)" > "$out/build.log" 2>&1 || { grep -i -m5 -A5 error "$out/build.log"; exit 1; }
make check TESTS="h5tests/h5_mpi.sh h5tests/mpi_bench_smoke.sh" > "$out/check.log" 2>&1
rc=$?
cp h5tests/h5_mpi.log h5tests/mpi_bench_smoke.log "$out/" 2>/dev/null
grep -E "^(PASS|FAIL|SKIP|ERROR)" "$out/check.log"
grep -E "^==|device [0-9]+:|FAIL" "$out/h5_mpi.log"
rm -rf "$work"
exit $rc
