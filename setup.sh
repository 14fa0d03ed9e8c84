#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# setup.sh - on a fresh Debian 12 machine: install the build dependencies,
# build gpulz in ./build, install the library, the command and the HDF5
# plugin, and run the demo: real scientific arrays (Debian's ferret-datasets)
# through HDF5 with gpulz, deflate-6, shuffle+deflate-6 and no filter.
#
#   ./setup.sh                 everything above (uses sudo when not root)
#   ./setup.sh --deps-only     only the Debian packages
#   CONFIGURE_FLAGS="--with-cuda=no" ./setup.sh    extra configure options
set -euo pipefail
cd "$(dirname "$0")"

# Build: toolchain, HDF5 and help2man (the man page).  Tests: the HDF5 tools,
# h5py, netCDF, valgrind, clang (sanitizer builds), cmake (a CMake program
# built against the installed package), python3-venv (the Python wheel,
# built and tested in venvs: docs/python.md), man-db (the page renders),
# bash-completion (the completion with its library loaded) and the CPU
# filters that gpulz bench on HDF5 files and the benchmarks compare with:
# the LZ4, Blosc and Bitshuffle plugins (Debian 12 has no Zstd plugin).
# The demo and its test: ferret-datasets (relief and ocean fields, 28 MB
# download, read at run time from /usr/share/ferret-vis/data).
packages=(build-essential autoconf automake libtool pkg-config
          libhdf5-dev hdf5-tools help2man python3-h5py python3-numpy python3-venv
          netcdf-bin libnetcdf-dev valgrind clang cmake man-db bash-completion
          hdf5-filter-plugin hdf5-filter-plugin-blosc-serial bitshuffle
          ferret-datasets)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ "${1:-}" = "--deps-only" ] && exit 0

jobs=$(nproc 2>/dev/null || echo 2)
autoreconf -fi
mkdir -p build
cd build
# shellcheck disable=SC2086
../configure ${CONFIGURE_FLAGS:-}
# A parallel build that fails is run again on one job: a compile that
# failed for good fails again, with its error last on the screen instead of
# among the other jobs' output, and a tool that crashed once does not fail
# the set-up (a segmentation fault under nvcc was seen once in a CI build of
# a tree that then built cleanly every time it was tried again).
make -j"$jobs" || { echo "setup.sh: the parallel build failed; once more on one job" >&2; make; }
$sudo make install
$sudo ldconfig
make demo
