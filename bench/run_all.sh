#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_all.sh - regenerate every benchmark result of gpulz on this machine.
#
#   1. the corpus (bench/data/make_corpus.py), if its MANIFEST is missing
#   2. bench/gpu_bench, the GPU codec on device buffers, if built: the lz grid
#      (the paper's S/W/block settings) -> gpu_bench.csv, and every format 2
#      mode (--v2: fast, ratio, auto) -> gpu_bench_v2.csv
#   3. bench/nvcomp_bench, nvCOMP's codecs, if built       -> nvcomp.csv
#   4. h5bench: HDF5 filters through H5Dwrite/H5Dread      -> h5bench.csv
#   5. bench/tables.py: the paper's tables in markdown    -> TABLES.md
#      bench/v2_table.py: the default mode against the other codecs, and the
#      GPU filter against the baseline build              -> V2_TABLE.md
#   6. bench/plot.py: PNG plots of the CSVs               -> plots/
# plus ENV.txt (machine, date, commit, versions) in the results folder.
# The short GPU steps come first, so that a time limit stops the long one.
#
# Usage: run_all.sh [--builddir DIR] [--srcdir DIR] [--results DIR] [--corpus DIR]
#                   [--only A,B,...] [--quick] [--chunks 1,4,16] [--h5-repeats N]
#                   [--h5-gpulz-chunks LIST] [--h5-gpulz-repeats N] [--no-grid]
#                   [--baseline-plugin DIR [--baseline-label L]] [--plugin-dir DIR]
#                   [--no-plots]
# `make bench` runs it with the build's folders.  A step that fails is
# reported and the others still run; the exit status is 1 if any failed.
# --h5-repeats (default 3) bounds the HDF5 step, the long one: on the whole
# corpus at 1, 4 and 16 MiB each run costs about 2.5 minutes on 16 cores.
# --h5-gpulz-chunks and --h5-gpulz-repeats give the gpulz rows, which cost
# little, their own (h5bench --gpulz-chunks, --gpulz-repeats); --no-grid
# leaves out gpu_bench's lz grid; --baseline-plugin adds h5bench's rows of
# another build's plugin in DIR (a release: L-gpu, L-cpu-all, default L
# gpulz-0.1).
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(dirname "$here")
builddir=$PWD
results=
corpus=
only=
chunks=
h5_repeats=3
quick=no
plots=yes
plugin_dir=
h5_gpulz_chunks=
h5_gpulz_repeats=
grid=yes
baseline=
baseline_label=gpulz-0.1
python=${PYTHON:-/usr/bin/python3}

while [ $# -gt 0 ]; do
  case $1 in
    --builddir) builddir=$2; shift ;;
    --srcdir) srcdir=$2; shift ;;
    --results) results=$2; shift ;;
    --corpus) corpus=$2; shift ;;
    --only) only=$2; shift ;;
    --chunks) chunks=$2; shift ;;
    --h5-repeats) h5_repeats=$2; shift ;;
    --plugin-dir) plugin_dir=$2; shift ;;
    --h5-gpulz-chunks) h5_gpulz_chunks=$2; shift ;;
    --h5-gpulz-repeats) h5_gpulz_repeats=$2; shift ;;
    --baseline-plugin) baseline=$2; shift ;;
    --baseline-label) baseline_label=$2; shift ;;
    --no-grid) grid=no ;;
    --quick) quick=yes ;;
    --no-plots) plots=no ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "run_all.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
builddir=$(cd "$builddir" && pwd)
: "${results:=$builddir/bench/results}"
: "${corpus:=${GPULZ_CORPUS:-$srcdir/bench/data/cache}}"
: "${plugin_dir:=$(pkg-config --variable=PluginDir hdf5 2>/dev/null)}"
: "${plugin_dir:=/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins}"
mkdir -p "$results" || exit 1

# --quick: a few arrays of each kind, 4 MiB chunks only
if [ $quick = yes ]; then
  : "${chunks:=4}"
  : "${only:=etopo5,etopo5_q1e-3,levitus_temp_q1e-3,navy_uwnd_q1e-3,gshhg_lon,tpch_l_orderkey,tpch_l_partkey,tpch_l_comment}"
fi
: "${chunks:=1,4,16}"
only_opt=
[ -n "$only" ] && only_opt="--only $only"
h5_opts=
[ -n "$h5_gpulz_chunks" ] && h5_opts="$h5_opts --gpulz-chunks $h5_gpulz_chunks"
[ -n "$h5_gpulz_repeats" ] && h5_opts="$h5_opts --gpulz-repeats $h5_gpulz_repeats"
if [ -n "$baseline" ]; then
  baseline=$(cd "$baseline" && pwd) || { echo "run_all.sh: no folder $baseline" >&2; exit 2; }
  h5_opts="$h5_opts --baseline-plugin $baseline --baseline-label $baseline_label"
fi

failed=0
step() { echo "== $*" >&2; }
fail() { echo "run_all.sh: $*" >&2; failed=1; }

step "corpus in $corpus"
if [ ! -f "$corpus/MANIFEST" ]; then
  nice "$python" "$srcdir/bench/data/make_corpus.py" --cache "$corpus" || { fail "corpus build failed"; exit 1; }
fi

# The freshly built plugin first, then the system's filters (LZ4, Blosc, ...).
HDF5_PLUGIN_PATH=$builddir/.libs:$plugin_dir
export HDF5_PLUGIN_PATH

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(uname -n) $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') x $(nproc 2>/dev/null)"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo 2>/dev/null)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
  fi
  if [ -e "$srcdir/.git" ] && git -C "$srcdir" rev-parse --short HEAD >/dev/null 2>&1; then
    echo "commit: $(git -C "$srcdir" rev-parse --short HEAD)$(git -C "$srcdir" diff --quiet HEAD || echo ' (modified)')"
  elif [ -f "$srcdir/COMMIT" ]; then
    echo "commit: $(tr -d '\n' < "$srcdir/COMMIT") (the release tarball's)"
  else
    echo "commit: unknown ($srcdir is no git checkout: a release tarball? see its version)"
  fi
  echo "hdf5: $(pkg-config --modversion hdf5 2>/dev/null)"
  echo "HDF5_PLUGIN_PATH: $HDF5_PLUGIN_PATH"
  if [ -n "$baseline" ]; then
    echo "baseline: $baseline_label-* rows through the gpulz plugin in $baseline"
    [ -f "$baseline/COMMIT" ] && echo "baseline commit: $(tr -d '\n' < "$baseline/COMMIT")"
  fi
  echo "corpus: $corpus/MANIFEST ($(grep -vc '^#' "$corpus/MANIFEST") arrays)"
} > "$results/ENV.txt"
cat "$results/ENV.txt" >&2

step "gpu_bench"
if [ -x "$builddir/bench/gpu_bench" ]; then
  # the lz grid (the paper's tables), then every format 2 mode
  for kind in grid v2; do
    case $kind in grid) [ $grid = yes ] || continue; csv=gpu_bench.csv; mode= ;;
                  v2) csv=gpu_bench_v2.csv; mode=--v2 ;; esac
    GPULZ_BENCH_MANIFEST=$corpus/MANIFEST GPULZ_BENCH_ONLY=$only \
      "$builddir/bench/gpu_bench" --csv $mode ${GPU_BENCH_ARGS:-} > "$results/$csv"
    rc=$?
    [ $rc -eq 77 ] && { echo "   no usable GPU: skipped" >&2; rm -f "$results/$csv"; break; }
    [ $rc -ne 0 ] && fail "gpu_bench $mode reported failures (see status column of $csv)"
  done
else
  echo "   not built" >&2
fi

step "nvcomp_bench"
if [ -x "$builddir/bench/nvcomp_bench" ]; then
  "$builddir/bench/nvcomp_bench" --csv --manifest "$corpus/MANIFEST" $only_opt \
    > "$results/nvcomp.csv"
  rc=$?
  [ $rc -eq 77 ] && { echo "   no usable GPU: skipped" >&2; rm -f "$results/nvcomp.csv"; }
  [ $rc -ne 0 ] && [ $rc -ne 77 ] && fail "nvcomp_bench failed"
else
  echo "   not built (configure --with-nvcomp=DIR)" >&2
fi

step "h5bench (chunks $chunks MiB, median of $h5_repeats; gpulz rows: chunks ${h5_gpulz_chunks:-$chunks} MiB, median of ${h5_gpulz_repeats:-$h5_repeats})"
if [ -x "$builddir/bench/h5bench" ]; then
  nice "$builddir/bench/h5bench" --manifest "$corpus/MANIFEST" --chunks "$chunks" --repeats "$h5_repeats" $only_opt \
    $h5_opts > "$results/h5bench.csv" || fail "h5bench reported failures (see status column)"
else
  fail "$builddir/bench/h5bench not built"
fi

step "tables in $results/TABLES.md"
"$python" "$srcdir/bench/tables.py" --results "$results" > "$results/TABLES.md" ||
  fail "tables.py failed"
step "format 2 and baseline tables in $results/V2_TABLE.md"
"$python" "$srcdir/bench/v2_table.py" --results "$results" --baseline-label "$baseline_label" \
  > "$results/V2_TABLE.md" || fail "v2_table.py failed"

if [ $plots = yes ]; then
  step "plots in $results/plots"
  "$python" "$srcdir/bench/plot.py" --results "$results" || fail "plot.py failed"
fi
echo "results in $results" >&2
exit $failed
