#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ab_round.sh - two builds side by side on one GPU machine: the `make dist`
# tarballs of a base (A) and a change (B) are built alike, B runs `make check`
# (GPU tests included), and the device-resident gpu_bench runs A, B, A, B on
# the same synthetic inputs, so that a change's speed is compared within one
# machine session.  Logs go to OUTDIR (default $OUT, else ./ab_round).
#
#   KIT/old/gpulz-*.tar.gz   A
#   KIT/new/gpulz-*.tar.gz   B
# Usage: bench/ab_round.sh KIT [ARCH (90)] [MB (256)] [REPEATS (5)]
# Environment: SKIP_CHECK=1 (no make check), GPU_BENCH_MODE (default quick)
set -u -o pipefail
kit=$(readlink -f "$1")
arch=${2:-90} mb=${3:-256} reps=${4:-5}
out=${OUT:-$PWD/ab_round}
mkdir -p "$out"
work=$(mktemp -d)
step() { echo "== $1: $(date -u +%T)" | tee -a "$out/ab.log"; }

for side in old new; do
  step "build $side"
  mkdir -p "$work/$side" && tar xzf "$kit/$side"/gpulz-*.tar.gz -C "$work/$side" || exit 99
  dir=$(echo "$work/$side"/gpulz-*)
  echo "$side: $(cat "$dir/COMMIT" 2>/dev/null || echo unknown commit)" | tee -a "$out/ab.log"
  (cd "$dir" && ./configure -q --with-cuda-arch="$arch" > "$out/configure-$side.log" 2>&1 &&
     make -j"$(nproc)" > "$out/build-$side.log" 2>&1 && make -j"$(nproc)" bench/gpu_bench \
     >> "$out/build-$side.log" 2>&1) || { tail -20 "$out/build-$side.log"; exit 1; }
done
nvidia-smi > "$out/nvidia-smi.log" 2>&1

check_rc=0
if [ -z "${SKIP_CHECK:-}" ]; then
  step "check new"
  (cd "$work"/new/gpulz-* && timeout 540 make -j"$(nproc)" check > "$out/check-new.log" 2>&1)
  check_rc=$?
  grep -E "^(PASS|FAIL|SKIP|ERROR|#)" "$out/check-new.log" | tee -a "$out/ab.log"
fi

for round in 1 2; do
  for side in old new; do
    step "gpu_bench $side, round $round"
    (cd "$work"/$side/gpulz-* && bench/gpu_bench "$mb" "$reps" ${GPU_BENCH_MODE-quick}) \
      > "$out/gpu_bench-$side-$round.txt" 2>&1 || echo "gpu_bench $side failed" | tee -a "$out/ab.log"
  done
done
step done
rm -rf "$work"
echo "check rc $check_rc" | tee -a "$out/ab.log"
[ "$check_rc" -eq 0 ]
