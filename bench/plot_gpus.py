#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot throughput against GPU count from bench/multi_gpu_round.sh's gpus.csv.

gpus.csv holds the rows of h5direct_bench --gpus (one process, direct chunk
I/O from host buffers over 1, 2, 4 GPUs) and of mpi_bench (one rank per GPU),
one header: bench, path, file, chunk_mib, gpus, ranks, ratio, write_gbs,
read_gbs, status.  The x of an h5direct row is its GPU count, of an mpi row
its rank count (one GPU each).  Writes one PNG of four panels: one process
and MPI, write and read, a line per path, file and chunk size; rows whose
status is not ok are left out.

Usage: plot_gpus.py GPUS_CSV [OUT.png]     (needs python3-matplotlib;
default OUT: gpus.png beside the CSV)
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def num(v):
    try:
        x = float(v)
        return x if x > 0 else None
    except (TypeError, ValueError):
        return None


def series(rows, bench):
    """{label: [(x, write, read)]} of one bench's ok rows, x sorted."""
    out = {}
    for r in rows:
        if r.get("bench") != bench or r.get("status") != "ok":
            continue
        x = num(r["gpus"] if bench == "h5direct" else r["ranks"])
        if x is None:
            continue
        label = f"{r['path']}, {r['file']}, {num(r['chunk_mib']):g} MiB"
        out.setdefault(label, []).append((x, num(r["write_gbs"]), num(r["read_gbs"])))
    return {k: sorted(v) for k, v in sorted(out.items())}


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    path = argv[1]
    out = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(path)), "gpus.png")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    panels = [("h5direct", "one process, direct chunk I/O from host buffers (GPULZ_DEVICE list)", "GPUs"),
              ("mpi", "MPI, one rank per GPU (GPULZ_DEVICE=local-rank)", "ranks (one GPU each)")]
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), squeeze=False)
    xs_all = set()
    drawn = 0
    for row, (bench, title, xlabel) in enumerate(panels):
        data = series(rows, bench)
        for col, (idx, what) in enumerate([(1, "write"), (2, "read")]):
            ax = axes[row][col]
            for label, pts in data.items():
                xs = [p[0] for p in pts if p[idx]]
                ys = [p[idx] for p in pts if p[idx]]
                if not xs:
                    continue
                xs_all.update(xs)
                style = "--" if "disk" in label else "-"
                ax.plot(xs, ys, style, marker="o", label=label)
                drawn += 1
            ax.set_title(f"{title}: {what}", fontsize=9)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(f"{what} GB/s (uncompressed bytes)")
            ax.grid(True, alpha=0.3)
            if data:
                ax.legend(fontsize=7)
            else:
                ax.text(0.5, 0.5, "no rows", ha="center", va="center", transform=ax.transAxes)
    for ax in axes.flat:
        if xs_all:
            ax.set_xticks(sorted(xs_all))
        ax.set_ylim(bottom=0)
    fig.suptitle(f"gpulz: throughput against GPU count ({os.path.basename(path)}; "
                 "solid: file in memory, dashed: on disk)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_gpus.py: {drawn} lines into {out}")
    return 0 if drawn else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
