#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot the benchmark CSVs of bench/run_all.sh.

Reads RESULTS/h5bench.csv, and RESULTS/gpu_bench.csv (the lz grid),
gpu_bench_v2.csv (the format 2 modes) and RESULTS/nvcomp.csv where present,
and writes into RESULTS/plots/:
  tradeoff_<dataset>.png  ratio against compression and decompression
                          throughput, one point per codec and setting
                          (HDF5 filters at one chunk size, --chunk; a
                          filter measured at other sizes only is left out)
  h5_<dataset>.png        HDF5 write and read throughput per filter, bars,
                          one panel per chunk size
Usage: plot.py --results DIR [--chunk MIB]     (needs python3-matplotlib)
"""
import argparse
import csv
import os
import re
import sys

import matplotlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tables import row_label  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def num(v):
    try:
        x = float(v)
        return x if x > 0 else None
    except (TypeError, ValueError):
        return None


def pick(row, *patterns):
    """The value of the first column whose name matches one of the patterns."""
    for p in patterns:
        for k, v in row.items():
            if k and re.fullmatch(p, k.strip().lower()):
                return v
    return None


def tradeoff_points(results, chunk):
    """{dataset: [(source, label, ratio, comp GB/s, decomp GB/s)]} from every CSV."""
    pts = {}
    for r in read_csv(os.path.join(results, "h5bench.csv")):
        if r.get("status") != "ok" or num(r.get("chunk_mib")) != chunk:
            continue
        pts.setdefault(r["dataset"], []).append(
            ("HDF5 " + f"{chunk:g} MiB", row_label(r["filter"]), num(r["ratio"]), num(r["write_gbs"]),
             num(r["read_gbs"])))
    for name, src in [("gpu_bench.csv", "gpulz device"), ("gpu_bench_v2.csv", "gpulz v2 device"),
                      ("nvcomp.csv", "nvCOMP device")]:
        for r in read_csv(os.path.join(results, name)):
            status = pick(r, "status")
            if status not in (None, "", "ok"):
                continue
            ds = pick(r, "dataset", "data", "name", "input")
            label = " ".join(v for v in (pick(r, "codec", "filter", "setting", "config"),
                                         pick(r, "params", "parameters")) if v)
            ratio = num(pick(r, "ratio"))
            comp = num(pick(r, r"comp\w*_gbs", r"compress\w*", r"comp"))
            decomp = num(pick(r, r"decomp\w*_gbs", r"decompress\w*", r"decomp"))
            if ds and ratio:
                pts.setdefault(ds, []).append((src, label or src, ratio, comp, decomp))
    return pts


MARKERS = {"HDF5": "o", "gpulz device": "*", "gpulz v2 device": "D", "nvCOMP device": "s"}


def plot_tradeoff(ds, points, out):
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    for ax, col, what in [(axes[0], 3, "compression / write"), (axes[1], 4, "decompression / read")]:
        for src, label, ratio, *tp in points:
            x = tp[col - 3]
            if x is None:
                continue
            m = MARKERS["HDF5"] if src.startswith("HDF5") else MARKERS.get(src, "o")
            if src == "gpulz device" and "B4096" not in label:
                # the grid's other block sizes: drawn, unlabelled, so that the
                # 4 KiB settings (the paper's tables) stay readable
                ax.scatter(x, ratio, marker=m, s=25, color="0.75", zorder=1)
                continue
            if src in ("gpulz device", "gpulz v2 device"):
                label = label.replace(" B4096", "")
            ax.scatter(x, ratio, marker=m, s=60 if m == "*" else 30, zorder=2)
            ax.annotate(label, (x, ratio), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_xlabel(f"{what} throughput, GB/s (uncompressed bytes)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("compression ratio")
    sources = sorted({p[0] for p in points})
    fig.suptitle(f"{ds}: ratio against throughput ({', '.join(sources)})\n"
                 "o HDF5 filter, * gpulz lz on device buffers, labelled at 4 KiB blocks, grey at 2, 8, "
                 "16 KiB, D gpulz format 2 modes on device buffers, s nvCOMP", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_h5_bars(ds, rows, out):
    chunks = sorted({num(r["chunk_mib"]) for r in rows})
    filters = []
    for r in rows:
        if r["filter"] not in filters:
            filters.append(r["filter"])
    fig, axes = plt.subplots(len(chunks), 1, figsize=(12, 3.2 * len(chunks)), squeeze=False)
    for ax, c in zip(axes[:, 0], chunks):
        by = {r["filter"]: r for r in rows if num(r["chunk_mib"]) == c}
        xs = range(len(filters))
        nan = float("nan")  # a skipped filter gets no bar
        w = [num(by.get(f, {}).get("write_gbs")) or nan for f in filters]
        rd = [num(by.get(f, {}).get("read_gbs")) or nan for f in filters]
        low = min([v for v in w + rd if v == v] or [1.0]) / 2
        ax.bar([x - 0.2 for x in xs], w, 0.4, label="write")
        ax.bar([x + 0.2 for x in xs], rd, 0.4, label="read")
        for x, f in zip(xs, filters):
            r = by.get(f)
            note = (f"{num(r['ratio']):.2f}x" if r and num(r.get("ratio"))
                    else "skipped" if r and r.get("status", "").startswith("skipped") else "n/a")
            top = max([v for v in (w[x], rd[x]) if v == v] or [low])
            ax.annotate(note, (x, top), ha="center", fontsize=7,
                        xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([row_label(f) for f in filters], rotation=20, ha="right", fontsize=8)
        ax.set_yscale("log")  # "none" runs at memory speed, the filters far below
        ax.set_ylim(low / 2, None)
        ax.set_ylabel("GB/s (log)")
        ax.set_title(f"{ds}: HDF5 write/read, {c:g} MiB chunks (label: ratio)", fontsize=9)
        ax.legend(fontsize=8, loc="upper right")
        ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", required=True)
    ap.add_argument("--chunk", type=float, default=4.0,
                    help="HDF5 chunk size (MiB) of the points in the trade-off plots")
    a = ap.parse_args()
    outdir = os.path.join(a.results, "plots")
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for ds, points in sorted(tradeoff_points(a.results, a.chunk).items()):
        plot_tradeoff(ds, points, os.path.join(outdir, f"tradeoff_{ds}.png"))
        n += 1
    h5 = read_csv(os.path.join(a.results, "h5bench.csv"))
    for ds in sorted({r["dataset"] for r in h5}):
        plot_h5_bars(ds, [r for r in h5 if r["dataset"] == ds], os.path.join(outdir, f"h5_{ds}.png"))
        n += 1
    print(f"plot.py: {n} plots in {outdir}", file=sys.stderr)
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
