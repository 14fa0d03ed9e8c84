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
#   KIT/baseline/gpulz-*.tar.gz  an earlier release (0.1) to compare the HDF5 filter with:
#                             built with CUDA in a folder of its own (its plugin only, no
#                             `make check`), its plugin run by h5bench in the same run
#                             (--baseline-plugin: rows BASELINE_LABEL-gpu and -cpu-all);
#                             KIT/baseline/COMMIT, where present, names its commit in ENV.txt
#
# It builds with CUDA (and nvCOMP when present), runs `make check` (GPU tests
# included), then bench/run_all.sh over the corpus (--quick unless ROUND_FLAGS
# says otherwise), leaving logs and results.tar.gz (CSVs, TABLES.md,
# V2_TABLE.md, plots) in OUTDIR (default $OUT, else ./device_round).
# Usage: bench/device_round.sh KIT [ARCH (90)]
# Environment: CHECK_TIMEOUT, BENCH_TIMEOUT (seconds), SKIP_CHECK=1 (benchmarks only),
#   BENCH_REPEATS (gpu_bench, default 5), ROUND_FLAGS (run_all.sh options, default
#   --quick; e.g. '--h5-repeats 1 --no-plots' for every array at 1, 4 and 16 MiB),
#   BASELINE_LABEL (default gpulz-0.1), DEADLINE (seconds since the epoch: the benchmarks
#   stop in time for the tables and the archive to be made before it, for machines that
#   end a command at a fixed limit), CONFIGURE_FLAGS (added to both configures; e.g.
#   --with-cuda=no to try the script where there is no GPU).
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
src=$PWD
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

# The baseline builds beside this one, on the same cores: only its plugin
# module (what h5bench loads), into a folder that holds nothing else, so that
# HDF5 finds no other gpulz there.
baseline_pid=
base_tar=$(ls "$kit"/baseline/gpulz-*.tar.gz 2>/dev/null | head -n 1)
if [ -n "$base_tar" ]; then
  step "baseline build ($(basename "$base_tar"))"
  (
    mkdir -p "$work/baseline" "$work/baseline-plugin" && cd "$work/baseline" &&
      tar xzf "$base_tar" && cd gpulz-* &&
      ./configure -q --with-cuda-arch="$arch" ${CONFIGURE_FLAGS:-} > "$out/baseline-configure.log" 2>&1 &&
      { make -j"$(nproc)" libH5Zgpulz.la || make -j"$(nproc)"; } > "$out/baseline-build.log" 2>&1 &&
      cp .libs/libH5Zgpulz.so "$work/baseline-plugin/" &&
      { cat "$kit/baseline/COMMIT" 2>/dev/null || cat COMMIT 2>/dev/null; } > "$work/baseline-plugin/COMMIT"
  ) &
  baseline_pid=$!
fi

# a failed build stops the round, but not before the baseline's build is done with $work
stop() { [ -z "$baseline_pid" ] || wait "$baseline_pid"; exit "$1"; }
cd "$src" || stop 99
step configure
./configure -q --with-cuda-arch="$arch" $nvcomp_opt ${CONFIGURE_FLAGS:-} > "$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; stop 1; }
step build
make -j"$(nproc)" > "$out/build.log" 2>&1 || { grep -n -i -A8 "error" "$out/build.log" | head -40; stop 1; }
baseline_opt=
if [ -n "$baseline_pid" ]; then
  if wait "$baseline_pid" && [ -f "$work/baseline-plugin/libH5Zgpulz.so" ]; then
    baseline_opt="--baseline-plugin $work/baseline-plugin --baseline-label ${BASELINE_LABEL:-gpulz-0.1}"
    step "baseline built (commit $(cat "$work/baseline-plugin/COMMIT" 2>/dev/null))"
  else
    step "baseline build FAILED: the round runs without it (baseline-*.log)"
    tail -20 "$out/baseline-build.log" "$out/baseline-configure.log" 2>/dev/null
  fi
fi
step check
check_rc=0
[ -n "${SKIP_CHECK:-}" ] || {
timeout "${CHECK_TIMEOUT:-300}" make -j"$(nproc)" check > "$out/check.log" 2>&1
check_rc=$?
cp test-suite.log "$out/" 2>/dev/null
grep -E "^(PASS|FAIL|SKIP|XFAIL|ERROR|XPASS|#)" "$out/check.log" | tee -a "$out/round.log"
}
bench_rc=0
results=$out/results
if [ -n "$corpus" ]; then
  bench_timeout=${BENCH_TIMEOUT:-300}
  if [ -n "${DEADLINE:-}" ]; then
    # a minute for the tables and the archive after a cut
    left=$((DEADLINE - $(date +%s) - 60))
    [ "$left" -lt "$bench_timeout" ] && bench_timeout=$left
    [ "$bench_timeout" -lt 1 ] && bench_timeout=1
  fi
  step "bench (at most ${bench_timeout} s)"
  GPU_BENCH_ARGS="--repeats ${BENCH_REPEATS:-5}" timeout "$bench_timeout" \
    bench/run_all.sh ${ROUND_FLAGS---quick} --builddir . --corpus "$corpus" --results "$results" \
    ${plugins:+--plugin-dir "$plugins"} $baseline_opt 2>&1 | tee "$out/bench.log" | tail -20
  bench_rc=$?
  # cut short: the tables of what the CSVs hold (h5bench writes its rows as it goes)
  if [ -d "$results" ] && [ ! -s "$results/V2_TABLE.md" ]; then
    step "tables of the rows measured before the cut"
    py=${PYTHON:-/usr/bin/python3}
    "$py" bench/tables.py --results "$results" > "$results/TABLES.md" 2>> "$out/bench.log"
    "$py" bench/v2_table.py --results "$results" --baseline-label "${BASELINE_LABEL:-gpulz-0.1}" \
      > "$results/V2_TABLE.md" 2>> "$out/bench.log"
  fi
fi
# few files travel back from some machines: the results as one archive
[ -d "$results" ] && tar czf "$out/results.tar.gz" -C "$out" results && rm -rf "$results"
step "done"
echo "check rc $check_rc, bench rc $bench_rc" | tee -a "$out/round.log"
rm -rf "$work"
[ "$check_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
