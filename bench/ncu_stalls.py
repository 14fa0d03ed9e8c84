#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where a kernel's warps wait, by path: Nsight Compute's source page, summed.

Input: the CSV of `ncu -i REPORT --page source --csv --print-source sass`, for
a report collected with `--section SourceCounters` (per-instruction execution
counts and warp-stall sampling).  A run of consecutive SASS instructions that
executed equally often is one path of the kernel (a loop body, a branch's
side, a batch's loads), so summing by run shows which path takes the time and
which stall holds it, without reading thousands of SASS lines.

Usage: ncu_stalls.py [--min-share PCT] [--min-samples N] [--top N]
                     CSV LABEL [CSV LABEL ...]
"""
import argparse
import csv
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"


def count(row, ix, name):
    v = row[ix[name]].replace(",", "")
    return int(v) if v else 0


def report(path, label, min_share, min_samples, top):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 3 or SAMPLES not in rows[1]:
        sys.exit(f"{path}: not an ncu source page with warp-stall sampling")
    kernel, hdr, data = rows[0], rows[1], rows[2:]
    ix = {h: i for i, h in enumerate(hdr)}
    reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    samples = sum(count(r, ix, SAMPLES) for r in data)
    executed = sum(count(r, ix, EXECUTED) for r in data)
    print(f"## {label}")
    print(kernel[1] if len(kernel) > 1 else "")
    print(f"samples {samples}, instructions executed {executed}, SASS instructions {len(data)}")
    by_reason = sorted(((sum(count(r, ix, s) for r in data), s) for s in reasons), reverse=True)
    print("by reason: " + ", ".join(f"{s[len('stall_'):]} {v}" for v, s in by_reason if v))
    runs = []  # [first, last, executions each, instructions, samples]
    for n, r in enumerate(data):
        e, s = count(r, ix, EXECUTED), count(r, ix, SAMPLES)
        if runs and runs[-1][2] == e:
            runs[-1][1] = n
            runs[-1][3] += 1
            runs[-1][4] += s
        else:
            runs.append([n, n, e, 1, s])
    print(f"paths (runs of instructions executed equally often) with {min_share:g} % of the "
          f"instructions or {min_samples} samples:")
    for first, last, e, k, s in runs:
        share = 100.0 * e * k / executed if executed else 0.0
        if share >= min_share or s >= min_samples:
            print(f"  SASS {first:5d}-{last:5d}: {k:4d} instructions x {e:5d} executions = "
                  f"{share:4.1f} % of instructions, {s:3d} samples")
    print("instructions with the most samples:")
    for r in sorted(data, key=lambda r: -count(r, ix, SAMPLES))[:top]:
        held = sorted(((count(r, ix, s), s[len("stall_"):]) for s in reasons), reverse=True)[:2]
        why = ", ".join(f"{name} {v}" for v, name in held if v)
        print(f"  {r[ix['Source']].strip()[:48]:48s} {count(r, ix, SAMPLES):4d} samples, "
              f"executed {count(r, ix, EXECUTED):5d}  ({why})")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-share", type=float, default=2.0,
                    help="list a path with this share of the instructions (percent)")
    ap.add_argument("--min-samples", type=int, default=15, help="or with this many samples")
    ap.add_argument("--top", type=int, default=8, help="instructions listed by samples")
    ap.add_argument("pairs", nargs="+", metavar="CSV LABEL")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        ap.error("give each CSV a label")
    for path, label in zip(a.pairs[::2], a.pairs[1::2]):
        report(path, label, a.min_share, a.min_samples, a.top)


if __name__ == "__main__":
    main()
