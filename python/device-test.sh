#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# python/device-test.sh - the CUDA wheel on a machine with a GPU and no network:
#
#   python/device-test.sh WHEEL LOG [TARGET]
#
# WHEEL   the CUDA wheel (gpulz_cu<major>-*.whl, python/build-wheel.sh --cuda)
# LOG     the log file to write (everything is also printed)
# TARGET  the folder to install into (default: a new temporary one, removed after)
#
# The Python (PYTHON, default python3) must have numpy, h5py and CuPy;
# numcodecs and zarr are used where installed (their parts say "skipped: not
# installed" otherwise).  The wheel is installed with
# `pip install --no-deps --no-index --target TARGET`, so nothing is
# downloaded, and `PYTHONPATH=TARGET python -m gpulz.test --strict` runs the
# checks: the GPU parts must run (a CUDA build, a usable GPU, CuPy), and CuPy
# arrays, h5py direct chunk I/O (gpulz.write_direct/read_direct), numcodecs
# and Zarr's GPU mode must give the CPU's bytes and decode into device
# buffers.  Before that the wheel's ELF files are checked for a
# NEEDED CUDA library (the driver is to be loaded at run time only).
# Exit status 0 when everything passed.
set -u
case ${1:-} in -h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: python/device-test.sh WHEEL LOG [TARGET] (--help)" >&2; exit 2; }
whl=$1
log=$2
target=${3:-}
py=${PYTHON:-python3}
[ -f "$whl" ] || { echo "device-test.sh: no wheel $whl" >&2; exit 2; }
: >"$log" || exit 2
say() { echo "$*" | tee -a "$log"; }
fail() { say "FAIL: $*"; say "device-test: FAILED"; exit 1; }

if [ -z "$target" ]; then
    target=$(mktemp -d "${TMPDIR:-/tmp}/gpulz-device-test.XXXXXX") || exit 2
    trap 'rm -rf "$target"' EXIT
fi
say "device-test: $(basename "$whl") into $target, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "host: $(uname -srm); $(ldd --version 2>/dev/null | head -n 1)"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 |
        sed 's/^/GPU: /' | tee -a "$log"
else
    say "GPU: no nvidia-smi"
fi
"$py" - >>"$log" 2>&1 <<'EOF'
import sys
print("python", sys.version.split()[0], sys.executable)
for m in ("numpy", "h5py", "cupy", "numcodecs", "zarr"):
    try:
        print(m, __import__(m).__version__)
    except ImportError:
        print(m, "not installed")
EOF
tail -n 6 "$log"

"$py" -m pip install --no-deps --no-index --disable-pip-version-check -q --upgrade \
    --target "$target" "$whl" >>"$log" 2>&1 || fail "pip install --no-deps --no-index --target $target $whl"

# the driver is dlopen()ed by the static CUDA runtime, never a NEEDED entry,
# so that the wheel loads where no driver is installed
if command -v readelf >/dev/null 2>&1; then
    for f in "$target"/gpulz/_libs/* "$target"/gpulz/plugins/*.so "$target"/gpulz/_bin/gpulz; do
        needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
        say "$(basename "$f"): NEEDED $needed"
        case " $needed" in *" libcuda"*|*" libcudart"*|*" libnvidia"*)
            fail "$f needs a CUDA library at load time" ;;
        esac
    done
else
    say "no readelf: NEEDED entries not checked"
fi

# no HDF5_PLUGIN_PATH: import gpulz registers the wheel's plugin with h5py
status=$(mktemp "${TMPDIR:-/tmp}/gpulz-device-test-status.XXXXXX") || exit 2
{ env -u HDF5_PLUGIN_PATH PYTHONPATH="$target${PYTHONPATH:+:$PYTHONPATH}" "$py" -m gpulz.test --strict 2>&1
  echo $? >"$status"; } | tee -a "$log"
rc=$(cat "$status"); rm -f "$status"
[ "$rc" = 0 ] || fail "PYTHONPATH=$target $py -m gpulz.test --strict (exit status $rc)"
# the run must have been the wheel's, from TARGET
env -u HDF5_PLUGIN_PATH PYTHONPATH="$target${PYTHONPATH:+:$PYTHONPATH}" "$py" -c '
import os, sys, gpulz
cfg = gpulz.get_config()
here = os.path.realpath(gpulz.__file__)
ok = here.startswith(os.path.realpath(sys.argv[1]) + os.sep) and cfg["cuda_built"] and cfg["gpu_usable"]
print("gpulz from %s: %s, CUDA built %s, GPU usable %s" % (here, cfg["distribution"],
      cfg["cuda_built"], cfg["gpu_usable"]))
sys.exit(0 if ok else 1)' "$target" >>"$log" 2>&1
rc=$?
tail -n 1 "$log"
[ $rc = 0 ] || fail "gpulz was not the wheel's CUDA build from $target with a usable GPU"
say "device-test: passed"
