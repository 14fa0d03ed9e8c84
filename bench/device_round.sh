#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# device_round.sh - the whole round on a GPU machine, from a folder holding a
# `make dist` tarball and, optionally, what the benchmarks compare with:
#
#   KIT/gpulz-*.tar.gz        the release tarball (required)
#   KIT/corpus/MANIFEST, *.xz a corpus subset (bench/data/make_corpus.py output, xz-compressed)
#   KIT/nvcomp.tar.xz         nvidia/libnvcomp/{include,lib64} from the nvidia-libnvcomp-cu13 wheel
#   KIT/debs/*.deb            Debian packages of the CPU HDF5 filters and their libraries
#                             (hdf5-filter-plugin, bitshuffle, hdf5-filter-plugin-blosc-serial,
#                             libblosc1, liblz4-1, liblzf1, libsnappy1v5, libzstd1)
#
# It builds with CUDA (and nvCOMP when present), runs `make check` (GPU tests
# included), then bench/run_all.sh over the corpus (--quick unless ROUND_FLAGS
# says otherwise), leaving logs, CSVs and plots in OUTDIR (default $OUT, else
# ./device_round).
# Usage: bench/device_round.sh KIT [ARCH (90)]
# Environment: CHECK_TIMEOUT, BENCH_TIMEOUT (seconds), SKIP_CHECK=1 (benchmarks only),
#   BENCH_REPEATS (gpu_bench, default 5), ROUND_FLAGS (run_all.sh options, default
#   --quick; e.g. '--h5-repeats 1 --no-plots' for every array at 1, 4 and 16 MiB)
set -u -o pipefail
kit=$(readlink -f "$1")
arch=${2:-90}
out=${OUT:-$PWD/device_round}
mkdir -p "$out"
work=$(mktemp -d)
step() { echo "== $1: $(date -u +%T)" | tee -a "$out/round.log"; }

step unpack
cd "$work" || exit 99
tar xzf "$kit"/gpulz-*.tar.gz && cd gpulz-* || exit 99
nvcomp_opt=
if [ -f "$kit/nvcomp.tar.xz" ]; then
  mkdir -p "$work/nvcomp" && tar xJf "$kit/nvcomp.tar.xz" -C "$work/nvcomp" &&
    nvcomp_opt="--with-nvcomp=$work/nvcomp/nvidia/libnvcomp"
fi
plugins=
if ls "$kit"/debs/*.deb >/dev/null 2>&1; then
  for d in "$kit"/debs/*.deb; do dpkg-deb -x "$d" "$work/sys"; done
  plugins=$work/sys/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins
  export LD_LIBRARY_PATH=$work/sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
corpus=
if [ -f "$kit/corpus/MANIFEST" ]; then
  corpus=$work/corpus
  mkdir -p "$corpus" && cp "$kit/corpus/MANIFEST" "$corpus/"
  for f in "$kit"/corpus/*.xz; do xz -dc "$f" > "$corpus/$(basename "$f" .xz)" & done
  wait
fi
nvidia-smi > "$out/nvidia-smi.log" 2>&1
# the plots want matplotlib, which the system python may lack
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || export PYTHON=python3

step configure
./configure -q --with-cuda-arch="$arch" $nvcomp_opt > "$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
step build
make -j"$(nproc)" > "$out/build.log" 2>&1 || { grep -n -i -A8 "error" "$out/build.log" | head -40; exit 1; }
step check
check_rc=0
[ -n "${SKIP_CHECK:-}" ] || {
timeout "${CHECK_TIMEOUT:-300}" make -j"$(nproc)" check > "$out/check.log" 2>&1
check_rc=$?
cp test-suite.log "$out/" 2>/dev/null
grep -E "^(PASS|FAIL|SKIP|XFAIL|ERROR|XPASS|#)" "$out/check.log" | tee -a "$out/round.log"
}
bench_rc=0
if [ -n "$corpus" ]; then
  step bench
  GPU_BENCH_ARGS="--repeats ${BENCH_REPEATS:-5}" timeout "${BENCH_TIMEOUT:-300}" \
    bench/run_all.sh ${ROUND_FLAGS---quick} --builddir . --corpus "$corpus" --results "$out/results" \
    ${plugins:+--plugin-dir "$plugins"} 2>&1 | tee "$out/bench.log" | tail -20
  bench_rc=$?
fi
# few files travel back from some machines: the results as one archive
[ -d "$out/results" ] && tar czf "$out/results.tar.gz" -C "$out" results && rm -rf "$out/results"
step done
echo "check rc $check_rc, bench rc $bench_rc" | tee -a "$out/round.log"
rm -rf "$work"
[ "$check_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
