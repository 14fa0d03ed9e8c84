#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tables of chunk format 2 against the other codecs, from benchmark CSVs.

v2_table.py --results DIR [--chunk 4] [--baseline-label gpulz-0.1]
    From one round's folder (bench/run_all.sh: gpu_bench_v2.csv, nvcomp.csv,
    h5bench.csv), in markdown:
    1. per array the ratio of the default mode, auto, beside fast and ratio,
       deflate-6, Blosc-zstd, nvCOMP zstd, the best of nvCOMP ANS, Bitcomp
       and Cascaded and the best CPU filter, whether auto reaches each, and
       the geometric means (issue 11's ratio criteria);
    2. the GPU filter through HDF5 (auto and lz) against the baseline build's
       rows of the same run (h5bench --baseline-plugin), write and read GB/s
       per chunk size, then per array.
    Like is compared with like: auto through HDF5 (h5bench, --chunk MiB)
    against the HDF5 filters, auto on device buffers (gpu_bench --v2) against
    nvCOMP.  A cell is `-` where its CSV has no ok row; nothing is filled in.
v2_table.py V2_CSV NVCOMP_CSV
    The older table of the format 2 modes on the device beside nvCOMP: per
    array the S of auto's best ratio, the three modes' ratios there, auto's
    speeds, nvCOMP's ratios and ANS's speeds.
Standard library only.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tables import ELSIZE, fmt, geomean, num, read_csv, table  # noqa: E402

QUANT = "_q1e-"  # the quantization-code arrays are named <field>_q1e-<k>
BEST3 = ("ans", "bitcomp", "cascaded")
# auto through HDF5: the GPU row, else the CPU's, which writes the same bytes
AUTO_ROWS = ("gpulz-auto-gpu", "gpulz-auto-cpu-all")


def ok_rows(rows):
    return [r for r in rows if r.get("status") == "ok"]


def is_gpulz(name):
    """h5bench's gpulz rows (the baseline's too: its label starts with gpulz)."""
    return name.startswith("gpulz")


def ratio_of(r):
    return num(r.get("ratio")) if r else None


def device_modes(v2):
    """{(dataset, mode): row} of gpu_bench --v2 at S = element size (what the
    filter's default symbol size is)."""
    out = {}
    for r in v2:
        parts = r.get("params", "").split()
        if len(parts) < 2 or not parts[1].startswith("S"):
            continue
        s = int(parts[1][1:])
        if s == min(ELSIZE.get(r.get("dtype"), 1), 8):
            out[(r["dataset"], parts[0])] = r
    return out


def h5_at(h5, chunk):
    return {(r["dataset"], r["filter"]): r for r in h5 if num(r.get("chunk_mib")) == chunk}


def yn(ok):
    return "-" if ok is None else ("yes" if ok else "**no**")


def verdict(checks):
    """checks: {rival: a >= rival, or None where either is missing} -> (True / False /
    None, the rivals not reached or not measured)."""
    short = [k for k, v in checks.items() if v is not True]
    if any(v is False for v in checks.values()):
        return False, short
    return (None if short else True), short


def overall(oks):
    """The verdict on a criterion over several arrays: no if any array fails it, not
    measured if any lacks a figure, yes if every one meets it."""
    if not oks:
        return "not measured"
    if any(v is False for v in oks):
        return "**no**"
    return "not measured (a figure missing)" if any(v is None for v in oks) else "**yes**"


def ge(a, b):
    return None if a is None or b is None else a >= b


def ratio_section(v2, nvc, h5, chunk):
    dev = device_modes(v2)
    hk = h5_at(h5, chunk)
    nv = {(r["dataset"], r["codec"]): r for r in nvc}
    arrays = {}
    for rows in (h5, v2, nvc):
        for r in rows:
            arrays.setdefault(r["dataset"], (r.get("dtype", ""), r.get("bytes", "")))
    head = ["array", "dtype", "MB", "auto, HDF5", "auto, device", "fast", "ratio", "deflate-6",
            "Blosc-zstd", "nvCOMP zstd", "best of ANS/Bitcomp/Cascaded", "best CPU filter",
            ">= deflate-6, Blosc-zstd, nvCOMP zstd", ">= best of 3"]
    rows, fails_z, fails_3, quant, oks_z, oks_3 = [], [], [], [], [], []
    logs = {"auto": [], "cpu": []}
    missing_geo, differ = [], []
    in_h5 = {d for d, _ in hk}
    for a, (dtype, nbytes) in arrays.items():
        auto_h5 = next((ratio_of(hk.get((a, f))) for f in AUTO_ROWS if ratio_of(hk.get((a, f)))), None)
        auto_dev = ratio_of(dev.get((a, "auto")))
        d6 = ratio_of(hk.get((a, "deflate-6")))
        bz = ratio_of(hk.get((a, "blosc-zstd+shuffle")))
        zs = ratio_of(nv.get((a, "zstd")))
        three = [(ratio_of(nv.get((a, c))), c) for c in BEST3]
        three = [t for t in three if t[0]]
        b3 = max(three) if three else None
        cpu = [(ratio_of(r), f) for (d, f), r in hk.items()
               if d == a and not is_gpulz(f) and f != "none" and ratio_of(r)]
        best_cpu = max(cpu) if cpu else None
        # like with like: HDF5 against HDF5, device against device
        z_ok, z_short = verdict({"deflate-6": ge(auto_h5, d6), "Blosc-zstd": ge(auto_h5, bz),
                                 "nvCOMP zstd": ge(auto_dev, zs)})
        t_ok, _ = verdict({"best of 3": ge(auto_dev, b3[0] if b3 else None)})
        q = QUANT in a
        if q:
            quant.append(a)
            oks_z.append(z_ok)
            oks_3.append(t_ok)
            if z_ok is not True:
                fails_z.append(f"{a} ({', '.join(z_short)})")
            if t_ok is not True:
                fails_3.append(a)
        if auto_h5 and best_cpu:
            logs["auto"].append(math.log(auto_h5))
            logs["cpu"].append(math.log(best_cpu[0]))
        elif a in in_h5:
            missing_geo.append(a)
        # the GPU writes the CPU's bytes, so the two rows store the same size
        both = [ratio_of(hk.get((a, f))) for f in AUTO_ROWS]
        if all(both) and both[0] != both[1]:
            differ.append(f"{a} ({both[0]:.4f} / {both[1]:.4f})")
        def mark(v):
            return yn(v) if q or v is None else f"({yn(v).strip('*')})"
        rows.append([a, dtype, fmt(num(nbytes) / 1e6 if num(nbytes) else None, 1),
                     fmt(auto_h5, 2), fmt(auto_dev, 2), fmt(ratio_of(dev.get((a, "fast"))), 2),
                     fmt(ratio_of(dev.get((a, "ratio"))), 2), fmt(d6, 2), fmt(bz, 2), fmt(zs, 2),
                     f"{fmt(b3[0], 2)} ({b3[1]})" if b3 else "-",
                     f"{fmt(best_cpu[0], 2)} ({best_cpu[1]})" if best_cpu else "-",
                     mark(z_ok), mark(t_ok)])
    n = len(logs["auto"])
    g_auto = math.exp(sum(logs["auto"]) / n) if n else None
    g_cpu = math.exp(sum(logs["cpu"]) / n) if n else None
    out = [f"## 1. Ratio: the default mode (auto) against the other codecs ({chunk:g} MiB HDF5 chunks)", "",
           f"auto, HDF5: h5bench's {AUTO_ROWS[0]} row ({AUTO_ROWS[1]} where the GPU row is missing: the "
           f"same bytes), the default cd_values, {chunk:g} MiB chunks; compared with deflate-6, "
           "Blosc-zstd (level 5, byte shuffle) and the best CPU filter of the same run at the same "
           "chunks. auto, device: gpu_bench --v2, each array in one call, S = element size (the "
           "filter's default), 4096-byte blocks (the default's 2048 symbols where S = 2); fast and "
           "ratio alike; compared with nvCOMP (nvcomp_bench, batched 64 KiB chunks). Criteria "
           "columns: yes/no on the quantization-code arrays (*_q1e-*), in brackets on the others "
           "(not part of the criterion); `-` where a CSV has no ok row.", "",
           table(head, rows, ["---", "---"] + ["---:"] * 10 + ["---", "---"]), ""]
    nq = len(quant)
    out.append(f"- (a1) auto at least deflate-6, Blosc-zstd and nvCOMP zstd on every quantization-code "
               f"array: {overall(oks_z)} ({nq - len(fails_z)} of {nq}"
               + (f"; not met or not measured: {', '.join(fails_z)}" if fails_z else "") + ")")
    out.append(f"- (a2) auto at least the best of nvCOMP ANS, Bitcomp and Cascaded on every "
               f"quantization-code array: {overall(oks_3)} ({nq - len(fails_3)} of {nq}"
               + (f"; not met or not measured: {', '.join(fails_3)}" if fails_3 else "") + ")")
    geo_ok = None if g_auto is None or missing_geo else g_auto >= g_cpu
    out.append(f"- (a3) geometric mean over the {n} arrays with both: auto {fmt(g_auto, 3)}, the best "
               f"CPU filter chosen per array {fmt(g_cpu, 3)}: {overall([geo_ok])}"
               + (f" (left out, a row missing: {', '.join(missing_geo)})" if missing_geo else ""))
    if differ:
        out.append(f"- **{AUTO_ROWS[0]} and {AUTO_ROWS[1]} stored different sizes** (they should "
                   f"store the same bytes): {', '.join(differ)}")
    out.append("")
    return "\n".join(out)


def aggregate(rs, col):
    """All bytes over all time: what writing or reading every array in turn gives."""
    t = sum(num(r["bytes"]) / num(r[col]) for r in rs)
    return sum(num(r["bytes"]) for r in rs) / t if t else None


def baseline_section(h5, label, chunk):
    base_gpu, base_cpu = f"{label}-gpu", f"{label}-cpu-all"
    if not any(r["filter"] in (base_gpu, base_cpu) for r in h5):
        return (f"## 2. Through HDF5 against the baseline\n\nNo {base_gpu} or {base_cpu} rows in "
                "h5bench.csv (h5bench --baseline-plugin, run_all.sh --baseline-plugin).\n")
    key = {(r["dataset"], r["filter"], num(r.get("chunk_mib"))): r for r in ok_rows(h5)}
    chunks = sorted({num(r.get("chunk_mib")) for r in h5 if r["filter"] == base_gpu and num(r.get("chunk_mib"))})
    pairs = [("gpulz-auto-gpu", base_gpu, "GPU, auto: the default"),
             ("gpulz-gpu", base_gpu, "GPU, lz: 0.1's bytes"),
             ("gpulz-auto-cpu-all", base_cpu, "CPU all cores, auto"),
             ("gpulz-cpu-all", base_cpu, "CPU all cores, lz")]
    arrays = list(dict.fromkeys(r["dataset"] for r in h5))
    head = ["chunk MiB", "row", "arrays", "write GB/s", f"{label} write", "x", "read GB/s",
            f"{label} read", "x", "per-array x, geo. mean (w / r)", "slower > 5% (w / r)",
            "no slower"]
    rows, verdicts = [], []
    for c in chunks:
        for mine, base, what in pairs:
            both = [(key[(a, mine, c)], key[(a, base, c)]) for a in arrays
                    if (a, mine, c) in key and (a, base, c) in key]
            if not both:
                continue
            w, wb = aggregate([m for m, _ in both], "write_gbs"), aggregate([b for _, b in both], "write_gbs")
            rd, rb = aggregate([m for m, _ in both], "read_gbs"), aggregate([b for _, b in both], "read_gbs")
            gw = geomean([num(m["write_gbs"]) / num(b["write_gbs"]) for m, b in both])
            gr = geomean([num(m["read_gbs"]) / num(b["read_gbs"]) for m, b in both])
            sw = sum(num(m["write_gbs"]) < 0.95 * num(b["write_gbs"]) for m, b in both)
            sr = sum(num(m["read_gbs"]) < 0.95 * num(b["read_gbs"]) for m, b in both)
            ok = w >= wb and rd >= rb
            if base == base_gpu:
                verdicts.append((c, mine, ok, len(both), len(arrays)))
            rows.append([f"{c:g}", f"{mine} ({what})", f"{len(both)}", fmt(w), fmt(wb), f"{w / wb:.2f}",
                         fmt(rd), fmt(rb), f"{rd / rb:.2f}", f"{gw:.2f} / {gr:.2f}", f"{sw} / {sr}",
                         yn(ok)])
    out = [f"## 2. Through HDF5 (h5bench): the filter against {label} in the same run", "",
           f"{label}-*: lz's cd_values (0.1's five) through the baseline build's plugin, in the "
           "same h5bench run. write and read GB/s: every array's bytes over the sum of the "
           "arrays' times (medians of h5bench's repeats), on the arrays where both rows are ok; "
           "x: this build over the baseline; per-array x: geometric mean of the quotients; "
           "slower > 5%: arrays where this build's throughput is below 0.95 times the "
           "baseline's; no slower: write and read both at least the baseline's.", ""]
    if rows:
        out += [table(head, rows, ["---:", "---"] + ["---:"] * 9 + ["---"]), ""]
    for mine in ("gpulz-auto-gpu", "gpulz-gpu"):
        vs = [v for v in verdicts if v[1] == mine]
        if vs:
            every = all(v[2] for v in vs)
            out.append(f"- (b) {mine} writes and reads no slower than {base_gpu} at every chunk size "
                       f"({', '.join(f'{v[0]:g}' for v in vs)} MiB): {overall([every])}"
                       + ("" if all(v[3] == v[4] for v in vs) else
                          " (not every array has both rows: see the arrays column)"))
    if not verdicts:
        out.append(f"- (b) no {base_gpu} row ran beside a GPU row of this build (no GPU here?)")
    out.append("")

    # per array at one chunk size
    if chunk not in chunks and chunks:
        chunk = chunks[len(chunks) // 2]
    cols = ["gpulz-auto-gpu", "gpulz-gpu", base_gpu]
    head2 = ["array", "MB"] + [f"{c} w / r" for c in cols] + ["auto / base (w / r)", "lz / base (w / r)"]
    rows2 = []
    for a in arrays:
        rs = [key.get((a, c, chunk)) for c in cols]
        if not any(rs):
            continue
        nb = next(num(r["bytes"]) for r in rs if r)

        def wr(r):
            return f"{fmt(num(r['write_gbs']))} / {fmt(num(r['read_gbs']))}" if r else "-"

        def q(r, b):
            if not (r and b):
                return "-"
            return (f"{num(r['write_gbs']) / num(b['write_gbs']):.2f} / "
                    f"{num(r['read_gbs']) / num(b['read_gbs']):.2f}")
        rows2.append([a, fmt(nb / 1e6, 1)] + [wr(r) for r in rs] + [q(rs[0], rs[2]), q(rs[1], rs[2])])
    if rows2:
        out += [f"Per array, {chunk:g} MiB chunks (GB/s, write / read):", "",
                table(head2, rows2), ""]
    return "\n".join(out)


def render(results, chunk, label):
    v2 = ok_rows(read_csv(os.path.join(results, "gpu_bench_v2.csv")))
    nvc = ok_rows(read_csv(os.path.join(results, "nvcomp.csv")))
    h5 = read_csv(os.path.join(results, "h5bench.csv"))
    out = ["# Chunk format 2: the default mode against the other codecs, and the GPU filter "
           f"against {label}", ""]
    env = os.path.join(results, "ENV.txt")
    if os.path.exists(env):
        with open(env) as f:
            out += ["```", f.read().rstrip(), "```", ""]
    missing = [n for n, rows in (("gpu_bench_v2.csv", v2), ("nvcomp.csv", nvc), ("h5bench.csv", h5))
               if not rows]
    if missing:
        out += [f"No ok rows in: {', '.join(missing)}.", ""]
    out.append(ratio_section(v2, nvc, ok_rows(h5), chunk))
    if h5:
        out.append(baseline_section(h5, label, chunk))
    return "\n".join(out) + "\n"


def legacy(v2_path, nv_path):
    """The table of the 2026-11-23 entry of bench/RESULTS.md (auto at its best S)."""
    v2, nv = ok_rows(read_csv(v2_path)), ok_rows(read_csv(nv_path))
    arrays = list(dict.fromkeys(r["dataset"] for r in v2))
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
        best, s = max((float(r["ratio"]), s) for (m, s), r in mine.items() if m == "auto")
        au = mine[("auto", s)]
        theirs = {r["codec"]: r for r in nv if r["dataset"] == a}

        def ratio(c):
            return float(theirs[c]["ratio"]) if c in theirs else float("nan")
        best3 = max(ratio(c) for c in BEST3)
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


def main():
    if len(sys.argv) == 3 and not sys.argv[1].startswith("-"):
        legacy(sys.argv[1], sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", required=True, help="folder of the CSVs (bench/run_all.sh)")
    ap.add_argument("--chunk", type=float, default=4, help="HDF5 chunk MiB of the ratio table")
    ap.add_argument("--baseline-label", default="gpulz-0.1",
                    help="h5bench's --baseline-label: the rows LABEL-gpu and LABEL-cpu-all")
    a = ap.parse_args()
    sys.stdout.write(render(a.results, a.chunk, a.baseline_label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
