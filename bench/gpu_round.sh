#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The whole GPU round on a GPU machine, from a `make dist` tarball: unpack,
# configure for the given architecture, build, `make check` (the GPU tests
# and the sanitizer test included), then the device-resident benchmark and
# the encoder's phase timing.
# Logs go to OUTDIR (default $OUT, else ./gpu_round).
# Usage: bench/gpu_round.sh TARBALL [ARCH (90)] [BENCH_MB (256)] [BENCH_REPS (5)]
# Environment: CHECK_TIMEOUT, BENCH_TIMEOUT (seconds), BENCH_QUICK=1 (a few
# configurations only).
set -u -o pipefail
tarball=$(readlink -f "$1")
arch=${2:-90}
mb=${3:-256}
reps=${4:-5}
out=${OUT:-$PWD/gpu_round}
mkdir -p "$out"
out=$(readlink -f "$out")
work=$(mktemp -d)
cd "$work" || exit 99
tar xzf "$tarball" || exit 99
cd gpulz-* || exit 99
nvidia-smi >"$out/nvidia-smi.log" 2>&1
step() { echo "== $1: $(date -u +%T)" | tee -a "$out/round.log"; }
step configure
./configure -q --with-cuda-arch="$arch" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
step build
make -j16 >"$out/build.log" 2>&1 || { grep -n -i -B2 -A8 "error" "$out/build.log" | head -60; exit 1; }
step check
timeout "${CHECK_TIMEOUT:-1800}" make -j16 check >"$out/check.log" 2>&1
check_rc=$?
cp test-suite.log "$out/" 2>/dev/null
cp h5tests/*.log gpu_sanitizer_*.log "$out/" 2>/dev/null
grep -E "^(PASS|FAIL|SKIP|XFAIL|ERROR|XPASS|#)" "$out/check.log" | tee -a "$out/round.log"
step bench
timeout "${BENCH_TIMEOUT:-1800}" ./bench/gpu_bench "$mb" "$reps" ${BENCH_QUICK:+quick} >"$out/bench.log" 2>&1
bench_rc=$?
cat "$out/bench.log"
step kernel-bench
if nvcc -O3 -arch=sm_"$arch" -std=c++17 -Ikernels -Itools -I. bench/gpu_kernel_bench.cu tools/datagen.c \
        -o gpu_kernel_bench >"$out/kernel_bench.log" 2>&1; then
    timeout "${BENCH_TIMEOUT:-1800}" ./gpu_kernel_bench >>"$out/kernel_bench.log" 2>&1
    cat "$out/kernel_bench.log"
fi
step done
echo "check rc $check_rc, bench rc $bench_rc" | tee -a "$out/round.log"
rm -rf "$work"
[ $check_rc -eq 0 ] && [ $bench_rc -eq 0 ]
