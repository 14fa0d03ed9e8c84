# SPDX-License-Identifier: BSD-3-Clause
"""scaling.png: write GB/s against GPU count on the 4 x H200 machine, from
gpus.csv (the round: one process's direct chunk I/O, MPI with a rank per GPU)
and diag-summary.txt (the host batch API alone, no HDF5, 1 GiB batches)."""
import csv
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open("gpus.csv")))
probe = {}
for line in open("diag-summary.txt"):
    m = re.match(r"devices (\S+)\s+(\w+)\s+chunk\s+(\d+) MiB batch\s+(\d+) MiB: comp\s+([\d.]+) decomp\s+([\d.]+)", line)
    if m and m.group(4) == "1024":
        probe[(m.group(2), int(m.group(3)), m.group(1).count(",") + 1)] = (float(m.group(5)), float(m.group(6)))

fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, col, what in ((axes[0], 0, "write (compress)"), (axes[1], 1, "read (decompress)")):
    n = [1, 2, 4]
    for mode, style in (("lz", "-"), ("auto", "--")):
        ax.plot(n, [probe[(mode, 4, k)][col] for k in n], "o" + style, color="tab:green",
                label="batch API alone, %s, 4 MiB (no HDF5)" % mode)
    for path, color in (("direct-own", "tab:red"),):
        ys = [float(r["write_gbs" if col == 0 else "read_gbs"]) for r in rows
              if r["bench"] == "mpi" and r["path"] == path and r["file"] == "memory" and r["chunk_mib"] == "4"]
        ax.plot(n, ys, "o-", color=color, label="MPI, a rank per GPU, direct chunk I/O, lz, 4 MiB")
    ys = [float(r["write_gbs" if col == 0 else "read_gbs"]) for r in rows
          if r["bench"] == "h5direct" and r["chunk_mib"] == "4"]
    ys = [ys[[int(r["gpus"]) for r in rows if r["bench"] == "h5direct" and r["chunk_mib"] == "4"].index(k)]
          for k in n]
    ax.plot(n, ys, "o-", color="tab:blue", label="one process, direct chunk I/O, lz, 4 MiB")
    base = ys[0]
    ax.plot(n, [base * k for k in n], ":", color="gray", label="linear from one process's 1 GPU")
    ax.set_xticks(n)
    ax.set_xlabel("GPUs")
    ax.set_ylabel("GB/s of uncompressed data")
    ax.set_title(what)
    ax.set_ylim(0, 70)
    ax.grid(alpha=0.3)
axes[0].legend(fontsize=7, loc="upper left")
fig.suptitle("4 x H200, 4 GiB of quantization codes, file in memory: the host, not the GPUs, sets the ceiling")
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "scaling.png", dpi=110)
