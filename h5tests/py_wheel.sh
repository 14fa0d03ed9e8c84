#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# py_wheel.sh - the Python package as a user gets it (docs/python.md): the
# wheel built by the documented command (python/build-wheel.sh, from this
# build's files: no second compile), installed in a fresh venv with pip's
# h5py, numcodecs and zarr, run with no HDF5_PLUGIN_PATH and no source tree
# on sys.path.  Checks the wheel's tag (py3-none-manylinux) and that its
# plugin links no libhdf5; that importing gpulz registers the filter with
# h5py's own HDF5, which writes and reads a compressed dataset that this
# build's h5dump reads through gpulz.PLUGIN_PATH; the bytes of this build's
# `gpulz compress`; the console script; `python -m gpulz.test --require
# h5py,numcodecs,zarr` (codec, batches, the 0.1 fixture, numcodecs, Zarr v3;
# the GPU parts skip without a GPU: python/device-test.sh runs them on one);
# samples/h5py_example.py.  No CUDA library is NEEDED by the wheel's files
# (the CUDA wheel, where the build has CUDA).  Then the same wheel with
# Debian's h5py (PYTHON_H5PY, configure's) where there is one.
# Skips (77) where no venv can be made or PyPI cannot be reached.
: "${top_srcdir:?}" "${top_builddir:?}"
py=${PYTHON:-python3}
work=$top_builddir/py-wheel
tools=$top_builddir/build-wheel  # the build tools venv, shared with make wheel
mkdir -p "$work" || exit 99
work=$(cd "$work" && pwd)
venv=$work/test-venv
# the venv over the system h5py too: pip keeps a gpulz of the same version
# installed there by an earlier run, and its tests would run the old code
rm -rf "$venv" "$work/dist" "$work/test" "$work/test-venv-system"
"$py" -m venv "$venv" >/dev/null 2>&1 || { echo "$py -m venv fails (python3-venv?): skipped"; exit 77; }
if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check h5py numcodecs zarr \
        >"$work/pip.log" 2>&1; then
    tail -n 5 "$work/pip.log"
    echo "pip cannot install h5py, numcodecs and zarr (no PyPI?): skipped"
    exit 77
fi

# the documented command, on this build's files
whl=$(sh "$top_srcdir/python/build-wheel.sh" --build-dir "$top_builddir" --work "$tools" \
      -o "$work/dist" 2>"$work/build.log" | tail -n 1)
case $(basename "${whl:-none}") in
    gpulz-*-py3-none-manylinux_*_x86_64.whl|gpulz_cu*-py3-none-manylinux_*_x86_64.whl) ;;
    *) tail -n 30 "$work/build.log"; echo "FAIL: no py3-none manylinux wheel ($whl)"; exit 1 ;;
esac
echo "wheel: $(basename "$whl") ($(wc -c <"$whl") bytes)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$whl" || { echo "FAIL: pip install"; exit 1; }

mkdir -p "$work/test" && cd "$work/test" || exit 99
run() { env -u HDF5_PLUGIN_PATH -u PYTHONPATH "$@"; }
site=$(run "$venv/bin/python" -c 'import gpulz, os; print(os.path.dirname(gpulz.__file__))') ||
    { echo "FAIL: import gpulz"; exit 1; }
case $site in "$venv"/*) ;; *) echo "FAIL: gpulz imported from $site, not the venv"; exit 1 ;; esac
if readelf -d "$site/plugins/libH5Zgpulz.so" | grep 'NEEDED' | grep -q 'libhdf5'; then
    echo "FAIL: the wheel's plugin links libhdf5"; exit 1
fi
# the CUDA wheel: the runtime static, the driver dlopen()ed when a GPU is asked for
for f in "$site"/_libs/* "$site"/plugins/*.so "$site"/_bin/gpulz; do
    if readelf -d "$f" | grep 'NEEDED' | grep -Eq 'libcuda|libcudart|libnvidia'; then
        echo "FAIL: $f needs a CUDA library at load time"; exit 1
    fi
done

# h5py's HDF5 (a wheel's own): the filter only after import gpulz
run "$venv/bin/python" - "$work/test/py_wheel.h5" <<'EOF' || exit 1
import sys, h5py, numpy as np
import re
lib = {l.split()[-1] for l in open("/proc/self/maps") if re.search(r"/libhdf5(-[0-9a-f]+)?\.so", l)}
if not all("/h5py.libs/" in p for p in lib):
    sys.exit("FAIL: pip's h5py does not carry its own HDF5: %s" % lib)
before = h5py.h5z.filter_avail(34791)
import gpulz
if before or gpulz.FILTER_ID not in gpulz.get_config()["registered"]:
    sys.exit("FAIL: the filter was available before import gpulz, or import did not register it")
try:
    gpulz.Gpulz(window=2.5)
    sys.exit("FAIL: Gpulz(window=2.5) accepted")
except TypeError:
    pass
x = (np.arange(1 << 20) // 7).astype(np.int32)
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("x", data=x, chunks=(1 << 17,), **gpulz.Gpulz(level=4))
with h5py.File(sys.argv[1], "r") as f:
    d = f["x"]
    if not np.array_equal(d[...], x) or d.id.get_storage_size() >= x.nbytes // 3:
        sys.exit("FAIL: round trip (%d bytes stored)" % d.id.get_storage_size())
    if d.id.get_chunk_info(0).filter_mask != 0:
        sys.exit("FAIL: chunk 0 not filtered")
    print("h5py %s (HDF5 %s): written and read, %d of %d bytes stored" % (
        h5py.version.version, h5py.version.hdf5_version, d.id.get_storage_size(), x.nbytes))
EOF
plugin_path=$(run "$venv/bin/python" -c 'import gpulz; print(gpulz.PLUGIN_PATH)')
if [ -n "$H5DUMP" ]; then
    out=$(HDF5_PLUGIN_PATH=$plugin_path "$H5DUMP" -d /x -s 7000 -c 4 py_wheel.h5) ||
        { echo "FAIL: h5dump with HDF5_PLUGIN_PATH=gpulz.PLUGIN_PATH"; exit 1; }
    echo "$out" | grep -q '1000, 1000, 1000, 1000' || { echo "$out"; echo "FAIL: h5dump's values"; exit 1; }
    echo "h5dump read the file through gpulz.PLUGIN_PATH ($plugin_path)"
fi

# the same bytes as this build's command; the console script
"$top_builddir/gpulz" gen -f int 300000 -o raw.bin || exit 99
"$top_builddir/gpulz" compress -q -f -s 4 -w 64 --mode ratio raw.bin -o raw.gplz || exit 99
run "$venv/bin/python" -c '
import sys, gpulz
data = open("raw.bin", "rb").read()
if gpulz.compress(data, symbol_size=4, window=64, mode="ratio") != open("raw.gplz", "rb").read():
    sys.exit("FAIL: gpulz.compress and the build'"'"'s gpulz compress differ")
if bytes(gpulz.decompress(open("raw.gplz", "rb").read())) != data:
    sys.exit("FAIL: gpulz.decompress of the command'"'"'s chunk")
' || exit 1
run "$venv/bin/gpulz" version | grep -q "^gpulz " || { echo "FAIL: the gpulz console script"; exit 1; }

run "$venv/bin/python" -m gpulz.test --require h5py,numcodecs,zarr ||
    { echo "FAIL: python -m gpulz.test --require h5py,numcodecs,zarr"; exit 1; }
run "$venv/bin/python" "$top_srcdir/samples/h5py_example.py" py_example.h5 ||
    { echo "FAIL: samples/h5py_example.py"; exit 1; }

# Debian's h5py (the system HDF5, 1.10 on Debian 12): the wheel over it, the
# filter registered by gpulz where HDF5_PLUGIN_PATH names an empty folder
if [ -n "$PYTHON_H5PY" ] && "$PYTHON_H5PY" -m venv --system-site-packages "$work/test-venv-system" \
        >/dev/null 2>&1; then
    sys_py=$work/test-venv-system/bin/python
    "$sys_py" -m pip install -q --disable-pip-version-check --no-deps "$whl" ||
        { echo "FAIL: pip install into the venv over $PYTHON_H5PY"; exit 1; }
    mkdir -p empty-plugins
    env -u PYTHONPATH HDF5_PLUGIN_PATH="$PWD/empty-plugins" "$sys_py" -m gpulz.test ||
        { echo "FAIL: python -m gpulz.test with the h5py of $PYTHON_H5PY"; exit 1; }
    env -u PYTHONPATH HDF5_PLUGIN_PATH="$PWD/empty-plugins" "$sys_py" -c '
import sys, gpulz
if gpulz.FILTER_ID not in gpulz.get_config()["registered"]:
    sys.exit("FAIL: not registered with the system h5py")' || exit 1
else
    echo "no PYTHON_H5PY (a Python with the system h5py) or no venv for it: that part skipped"
fi
echo "ok: the wheel in a fresh venv"
