#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per array: auto's exact choice (the shorter of fast and ratio per 1 MiB piece) beside the rule
of RESULTS 2026-11-28 (ratio only where fast's size >= n/8 or >= 95 % of the symbols repeat the
one before), from autostudy's CSVs (file, chunk MiB, offset, bytes, fast, ratio, repeats, ...).
Also lists the pieces fast compresses 8x or more.  Usage: rule.py CSV..."""
import collections
import csv
import sys

A = collections.OrderedDict()
for f in sys.argv[1:]:
    for r in csv.reader(open(f)):
        A.setdefault(r[0], []).append((int(r[2]), int(r[3]), int(r[4]), int(r[5]), float(r[6])))
tot = [0, 0, 0, 0]
for name, v in A.items():
    c = sum(x[1] for x in v)
    auto = sum(min(x[2], x[3]) for x in v)
    fast = sum(x[2] for x in v)
    runs = [x[2] >= x[1] / 8 or x[4] >= 0.95 for x in v]
    rule = sum(min(x[2], x[3]) if k else x[2] for x, k in zip(v, runs))
    print("%-18s pieces %3d, ratio wins %3d: auto %.3f, fast alone %.3f (+%.2f %% bytes), "
          "rule runs ratio on %d: %.3f (+%.3f %%)" % (name, len(v), sum(x[3] < x[2] for x in v), c / auto,
                                                      c / fast, 100 * (fast / auto - 1), sum(runs), c / rule,
                                                      100 * (rule / auto - 1)))
    for x in v:
        if x[2] < x[1] / 8:
            print("    piece at %d: fast %.1fx, ratio %.1fx (ratio %.1f %% smaller), repeats %.3f"
                  % (x[0], x[1] / x[2], x[1] / x[3], 100 * (1 - x[3] / x[2]), x[4]))
    for i, y in enumerate((c, auto, fast, rule)):
        tot[i] += y
print("all: auto %.3f, fast alone %.3f, rule %.3f (+%.3f %%)" % (tot[0] / tot[1], tot[0] / tot[2], tot[0] / tot[3],
                                                                  100 * (tot[3] / tot[1] - 1)))
