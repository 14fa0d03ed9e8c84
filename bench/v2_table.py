#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/v2_table.py V2_CSV NVCOMP_CSV: the markdown table of the format 2
modes on the device (gpu_bench --csv --v2) beside nvCOMP's codecs
(nvcomp_bench) on the same arrays: per array the S of auto's best ratio,
the three modes' ratios there, auto's speeds, nvCOMP's ratios and ANS's
speeds, and whether auto's ratio reaches the best of ANS, Bitcomp and
Cascaded and nvCOMP zstd's."""
import csv
import math
import sys


def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def main(v2_path, nv_path):
    v2, nv = rows(v2_path), rows(nv_path)
    arrays = []
    for r in v2:
        if r["dataset"] not in arrays:
            arrays.append(r["dataset"])
    print("| array | dtype | MB | auto ratio (S) | fast | ratio | auto comp GB/s | auto decomp GB/s "
          "| ANS | ANS comp | ANS decomp | Bitcomp | Cascaded | nvCOMP zstd | auto >= best of 3 | auto >= zstd |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    logs = {"auto": [], "best3": [], "zstd": []}
    for a in arrays:
        mine = {}
        for r in v2:
            if r["dataset"] == a:
                mode, s = r["params"].split()[:2]
                mine[(mode, s)] = r
        autos = [(float(r["ratio"]), s) for (m, s), r in mine.items() if m == "auto"]
        best, s = max(autos)
        au = mine[("auto", s)]
        theirs = {r["codec"]: r for r in nv if r["dataset"] == a}
        def ratio(c):
            return float(theirs[c]["ratio"]) if c in theirs else float("nan")
        best3 = max(ratio(c) for c in ("ans", "bitcomp", "cascaded"))
        z = ratio("zstd")
        logs["auto"].append(math.log(best))
        logs["best3"].append(math.log(best3))
        logs["zstd"].append(math.log(z))
        ans = theirs.get("ans", {})
        print("| %s | %s | %.1f | %.2f (%s) | %.2f | %.2f | %.1f | %.1f | %.2f | %s | %s | %.2f | %.2f | %.2f | %s | %s |" % (
            a, au["dtype"], int(au["bytes"]) / 1e6, best, s, float(mine[("fast", s)]["ratio"]),
            float(mine[("ratio", s)]["ratio"]), float(au["comp_gbs"]), float(au["decomp_gbs"]), ratio("ans"),
            ans.get("comp_gbs", "-"), ans.get("decomp_gbs", "-"), ratio("bitcomp"), ratio("cascaded"), z,
            "yes" if best >= best3 else "no", "yes" if best >= z else "no"))
    g = {k: math.exp(sum(v) / len(v)) for k, v in logs.items()}
    print()
    print("Geometric means over the %d arrays: auto %.2f, best of ANS/Bitcomp/Cascaded %.2f, nvCOMP zstd %.2f."
          % (len(arrays), g["auto"], g["best3"], g["zstd"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
