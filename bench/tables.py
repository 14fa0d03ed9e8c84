#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown tables of the benchmark CSVs of bench/run_all.sh, laid out like
the gpuLZ paper's Tables 1 and 2.

Reads RESULTS/gpu_bench.csv (the lz grid), gpu_bench_v2.csv (the format 2
modes), nvcomp.csv and h5bench.csv (those present) and prints, in markdown:
  Table 1  compression ratio: one row per dataset; columns the gpulz settings
           S/W at 4 KiB blocks (device buffers), then nvCOMP's codecs
  Table 2  throughput, compress / decompress GB/s, same layout
  Table 3  gpulz's block size at S = element size, W = 128: ratio and GB/s
  Table 4  the HDF5 filters (h5bench): one row per dataset and filter; ratio,
           write and read GB/s at each chunk size
  Table 5  per dataset at one chunk size: gpulz through HDF5 on the GPU (the
           default mode, auto, where h5bench ran it) against the CPU filter of
           the best ratio and the fastest one
  Table 6  geometric means per kind of data for the headline settings
  Table 7  gpulz against each rival (nvCOMP LZ4, Cascaded, Bitcomp, ANS, zstd;
           the CPU filters; the baseline build of h5bench --baseline-plugin):
           mean ratios, on how many arrays gpulz's ratio is lower (and which),
           and speed-ups on the larger arrays
bench/v2_table.py --results DIR prints issue 11's criteria from the same CSVs.
Usage: tables.py --results DIR [--block 4096] [--chunk 4] [--baseline-label L]
       tables.py --merge OUT DIR1 DIR2 ... [--manifest FILE]   (the CSVs and
           ENV.txt of several rounds on parts of the corpus concatenated into
           OUT under one header, rows in FILE's order of arrays, then
           OUT/TABLES.md written)
Standard library only.
"""
import argparse
import csv
import math
import os
import re
import sys

CSVS = ("gpu_bench.csv", "gpu_bench_v2.csv", "nvcomp.csv", "h5bench.csv")
NVCOMP_ORDER = ("lz4", "snappy", "cascaded", "bitcomp", "ans", "zstd", "deflate", "gdeflate")
NVCOMP_NAMES = {"lz4": "LZ4", "snappy": "Snappy", "cascaded": "Cascaded", "bitcomp": "Bitcomp",
                "ans": "ANS", "zstd": "zstd", "deflate": "Deflate", "gdeflate": "GDeflate"}
ELSIZE = {"float32": 4, "float64": 8, "int32": 4, "uint16": 2, "int16": 2, "uint8": 1}
# h5bench's gpulz rows, the baseline build's among them (its label starts with
# gpulz too); the CPU filters are the rows that are neither these nor `none`.
# gpulz-gpu, gpulz-cpu-all and gpulz-cpu-1t write mode lz (format 1), the
# gpulz-auto-* rows the default mode.
DEFAULT_GPU_ROW = "gpulz-auto-gpu"


LZ_ROWS = ("gpulz-cpu-1t", "gpulz-cpu-all", "gpulz-gpu")


def is_gpulz(name):
    return name.startswith("gpulz")


def row_label(name):
    """An h5bench row's name as tables and plots show it: the lz rows say so."""
    return f"{name} (lz)" if name in LZ_ROWS else name


def is_cpu_filter(name):
    return not is_gpulz(name) and name != "none"


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if line.strip() and not line.startswith("#")))


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if x > 0 and math.isfinite(x) else None


def fmt(x, digits=None):
    """A number with about three significant digits."""
    if x is None:
        return "-"
    if digits is not None:
        return f"{x:.{digits}f}"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def parse_params(p):
    """'S2 W128 B4096' -> (2, 128, 4096)."""
    m = re.match(r"S(\d+) W(\d+) B(\d+)", p or "")
    return tuple(int(g) for g in m.groups()) if m else None


def table(head, rows, align=None):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(align or ["---"] + ["---:"] * (len(head) - 1)) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def order_of(*row_lists):
    """Dataset names in the order they first appear."""
    seen = {}
    for rows in row_lists:
        for r in rows:
            seen.setdefault(r["dataset"], (r.get("dtype", ""), r.get("bytes", "")))
    return seen


def cell(r, key):
    if r is None:
        return None
    return num(r.get(key)) if r.get("status") == "ok" else None


def status_mark(r):
    """'-' for a missing row, 'fail' for a row that ran and failed, '' when ok."""
    if r is None:
        return "-"
    st = r.get("status", "")
    if st == "ok":
        return ""
    return "skip" if st.startswith("skipped") else "FAIL"


def bold_max(values, texts):
    best = max((v for v in values if v is not None), default=None)
    return [f"**{t}**" if v is not None and v == best else t for v, t in zip(values, texts)]


def device_tables(gpu, nvc, block):
    """Tables 1 and 2: gpulz S/W at one block size and nvCOMP codecs, one row per dataset."""
    g = {}
    for r in gpu:
        p = parse_params(r.get("params"))
        if p:
            g[(r["dataset"], p)] = r
    sizes = sorted({p[0] for (_, p) in g})
    windows = sorted({p[1] for (_, p) in g})
    gcols = [(s, w) for s in sizes for w in windows]
    n = {(r["dataset"], r["codec"]): r for r in nvc}
    codecs = [c for c in NVCOMP_ORDER if any(k[1] == c for k in n)]
    codecs += sorted({k[1] for k in n} - set(codecs))
    chunk = next((r.get("chunk_bytes") for r in nvc if r.get("chunk_bytes")), "?")
    datasets = order_of(gpu, nvc)
    head = ["dataset", "type"] + [f"S{s} W{w}" for s, w in gcols] + \
        [f"nv {NVCOMP_NAMES.get(c, c)}" for c in codecs]

    def rows_of(metric):
        rows = []
        for d, (dtype, _) in datasets.items():
            rs = [g.get((d, (s, w, block))) for s, w in gcols] + [n.get((d, c)) for c in codecs]
            if metric == "ratio":
                vals = [cell(r, "ratio") for r in rs]
                texts = [fmt(v, 2) if v else status_mark(r) or "-" for v, r in zip(vals, rs)]
                texts = bold_max(vals, texts)
            else:
                vals = [cell(r, "comp_gbs") for r in rs]
                dec = [cell(r, "decomp_gbs") for r in rs]
                texts = [f"{fmt(c)} / {fmt(d2)}" if c else status_mark(r) or "-"
                         for c, d2, r in zip(vals, dec, rs)]
            rows.append([d, dtype] + texts)
        return rows

    kib = block // 1024
    out = [f"### Table 1: compression ratio on the GPU (gpulz at {kib} KiB blocks; nvCOMP batched, "
           f"{chunk}-byte chunks)", "",
           "Device buffers, each array compressed whole. `S` symbol bytes, `W` window (symbols); "
           "`-` where S does not divide the element size. Best of each row in bold.", "",
           table(head, rows_of("ratio"), ["---", "---"] + ["---:"] * (len(head) - 2)), "",
           "### Table 2: throughput on the GPU, compress / decompress GB/s (same settings)", "",
           "1e9 uncompressed bytes per second, CUDA events around the call, median of the "
           "repeats after a warm-up; no PCIe copies.", "",
           table(head, rows_of("speed"), ["---", "---"] + ["---:"] * (len(head) - 2)), ""]
    return "\n".join(out)


def block_table(gpu, window=128):
    """Table 3: the block size at S = element size (S = 8 capped by the grid) and W = window."""
    g = {}
    for r in gpu:
        p = parse_params(r.get("params"))
        if p:
            g[(r["dataset"], p)] = r
    blocks = sorted({p[2] for (_, p) in g})
    if not blocks:
        return ""
    datasets = order_of(gpu)
    head = ["dataset", "S"] + [f"{b // 1024} KiB ratio" for b in blocks] + \
        [f"{b // 1024} KiB GB/s" for b in blocks]
    rows = []
    for d, (dtype, _) in datasets.items():
        s = max((p[0] for (dd, p) in g if dd == d), default=1)
        rs = [g.get((d, (s, window, b))) for b in blocks]
        ratios = [fmt(cell(r, "ratio"), 2) if cell(r, "ratio") else status_mark(r) for r in rs]
        speeds = [f"{fmt(cell(r, 'comp_gbs'))} / {fmt(cell(r, 'decomp_gbs'))}"
                  if cell(r, "comp_gbs") else status_mark(r) for r in rs]
        rows.append([d, str(s)] + ratios + speeds)
    return "\n".join([f"### Table 3: gpulz block size at S = element size, W = {window}", "",
                      "Ratio, then compress / decompress GB/s on device buffers.", "",
                      table(head, rows), ""])


def h5_tables(h5, chunk):
    """Table 4 (every filter at every chunk size) and Table 5 (gpulz against the CPU filters)."""
    if not h5:
        return ""
    chunks = sorted({float(r["chunk_mib"]) for r in h5 if num(r.get("chunk_mib"))})
    ck = lambda c: f"{c:g}"
    key = {(r["dataset"], r["filter"], float(r["chunk_mib"])): r for r in h5 if num(r.get("chunk_mib"))}
    filters = []
    for r in h5:
        if r["filter"] not in filters:
            filters.append(r["filter"])
    datasets = order_of(h5)
    head = ["dataset", "filter"]
    for c in chunks:
        head += [f"{ck(c)} MiB ratio", "write", "read"]
    rows = []
    for d in datasets:
        for f in filters:
            row = [d, row_label(f)]
            present = False
            for c in chunks:
                r = key.get((d, f, c))
                present |= r is not None
                if cell(r, "ratio"):
                    row += [fmt(cell(r, "ratio"), 2), fmt(cell(r, "write_gbs")), fmt(cell(r, "read_gbs"))]
                else:
                    row += [status_mark(r), "", ""]
            if present:
                rows.append(row)
    out = ["### Table 4: HDF5 filters through H5Dwrite / H5Dread (h5bench)", "",
           "File in memory (core driver); ratio = array bytes / stored bytes; write and read in "
           "GB/s of the uncompressed array. `skip`: the filter is not installed there. gpulz rows: "
           "(lz) mode lz, chunk format 1, the bytes of gpulz 0.1; gpulz-auto-* the default mode; "
           "a baseline build's rows carry its label (h5bench --baseline-plugin).", "",
           table(head, rows, ["---", "---"] + ["---:"] * (len(head) - 2)), ""]

    # Table 5: per dataset at one chunk size (one the CPU filters ran at)
    cpu_chunks = sorted({float(r["chunk_mib"]) for r in h5 if is_cpu_filter(r["filter"])
                         and num(r.get("chunk_mib"))}) or chunks
    if chunk not in cpu_chunks:
        chunk = cpu_chunks[len(cpu_chunks) // 2]
    gpu_row = DEFAULT_GPU_ROW if DEFAULT_GPU_ROW in filters else "gpulz-gpu"
    head5 = ["dataset", f"{gpu_row} ratio", "write", "read", "best-ratio CPU filter", "ratio",
             "write", "read", "fastest CPU filter (write)", "ratio", "write", "read"]
    rows5 = []
    for d in datasets:
        gp = key.get((d, gpu_row, chunk))
        cpu = [key[(d, f, chunk)] for f in filters
               if is_cpu_filter(f) and (d, f, chunk) in key and cell(key[(d, f, chunk)], "ratio")]
        if not cpu:
            continue
        best = max(cpu, key=lambda r: cell(r, "ratio"))
        fast = max(cpu, key=lambda r: cell(r, "write_gbs") or 0)
        row = [d]
        row += ([fmt(cell(gp, "ratio"), 2), fmt(cell(gp, "write_gbs")), fmt(cell(gp, "read_gbs"))]
                if cell(gp, "ratio") else [status_mark(gp), "", ""])
        for r in (best, fast):
            row += [r["filter"], fmt(cell(r, "ratio"), 2), fmt(cell(r, "write_gbs")),
                    fmt(cell(r, "read_gbs"))]
        rows5.append(row)
    out += [f"### Table 5: gpulz through HDF5 on the GPU against the CPU filters, {ck(chunk)} MiB chunks",
            "", (f"{gpu_row}: the default cd_values (mode auto, chunk format 2, S = element "
                 "size, W = 128, 2048-symbol blocks, checksum on)." if gpu_row == DEFAULT_GPU_ROW else
                 f"{gpu_row}: mode lz (format 1, 0.1's bytes), S = element size, W = 128, "
                 "2048-symbol blocks."), "",
            table(head5, rows5, ["---", "---:", "---:", "---:", "---", "---:", "---:", "---:",
                                 "---", "---:", "---:", "---:"]), ""]
    return "\n".join(out)


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def group_of(name, dtype):
    if dtype == "uint16":
        return "quantization codes (uint16)"
    if dtype == "float32":
        return "float32 fields"
    if dtype == "int16":
        return "GSHHG int16"
    if dtype == "int32":
        return "TPC-H int32"
    return "TPC-H text" if dtype == "uint8" else dtype


def v2_rows(v2):
    """{(dataset, mode, S): row} of gpu_bench --v2 ('auto S2 B4096')."""
    out = {}
    for r in v2:
        m = re.match(r"(\w+) S(\d+) B(\d+)", r.get("params") or "")
        if m:
            out[(r["dataset"], m.group(1), int(m.group(2)))] = r
    return out


def lookups(gpu, v2, nvc, h5, chunk):
    """Row getters (dataset, dtype) -> CSV row for the headline settings."""
    g = {}
    for r in gpu:
        p = parse_params(r.get("params"))
        if p:
            g[(r["dataset"], p)] = r
    n = {(r["dataset"], r["codec"]): r for r in nvc}
    hk = {(r["dataset"], r["filter"]): r for r in h5 if num(r.get("chunk_mib")) == chunk}
    m2 = v2_rows(v2)

    def mode(name):
        # S = element size: the filter's default symbol size
        return lambda d, dtype: m2.get((d, name, min(ELSIZE.get(dtype, 1), 8)))

    def gp(w):
        return lambda d, dtype: g.get((d, (min(ELSIZE.get(dtype, 1), 8), w, 4096)))

    def fastest(d, dtype):
        s = 4 if ELSIZE.get(dtype, 1) % 4 == 0 else ELSIZE.get(dtype, 1)
        return g.get((d, (s, 32, 4096)))

    def best_cpu(what):
        def get(d, dtype):
            cpu = [r for (dd, f), r in hk.items() if dd == d and is_cpu_filter(f)
                   and cell(r, "ratio")]
            return max(cpu, key=lambda r: cell(r, what) or 0) if cpu else None
        return get

    return {"gpulz": gp(128), "gpulz W255": gp(255), "gpulz fastest": fastest, "v2": mode,
            "nvcomp": lambda codec: (lambda d, dtype: n.get((d, codec))),
            "h5": lambda f: (lambda d, dtype: hk.get((d, f))),
            "best-ratio CPU": best_cpu("ratio"), "fastest-write CPU": best_cpu("write_gbs")}


def summary(gpu, v2, nvc, h5, chunk, label):
    """Table 6: geometric means per kind of data for the headline settings."""
    datasets = order_of(gpu, v2, nvc, h5)
    groups = {}
    for d, (dtype, _) in datasets.items():
        groups.setdefault(group_of(d, dtype), []).append((d, dtype))
    L = lookups(gpu, v2, nvc, h5, chunk)
    dev, hdf = ("comp_gbs", "decomp_gbs"), ("write_gbs", "read_gbs")
    cols = [("gpulz auto S=elem 4K (format 2, the default)", L["v2"]("auto"), dev),
            ("gpulz fast S=elem 4K", L["v2"]("fast"), dev),
            ("gpulz ratio S=elem 4K", L["v2"]("ratio"), dev),
            ("gpulz lz S=elem W128 4K", L["gpulz"], dev),
            ("gpulz lz S=elem W255 4K", L["gpulz W255"], dev),
            ("gpulz lz fastest (S4 or elem, W32 4K)", L["gpulz fastest"], dev),
            ("nvCOMP LZ4", L["nvcomp"]("lz4"), dev),
            ("nvCOMP Cascaded", L["nvcomp"]("cascaded"), dev),
            ("nvCOMP Bitcomp", L["nvcomp"]("bitcomp"), dev),
            ("nvCOMP ANS", L["nvcomp"]("ans"), dev),
            ("nvCOMP zstd", L["nvcomp"]("zstd"), dev),
            (f"HDF5 gpulz-auto-gpu {chunk:g} MiB", L["h5"]("gpulz-auto-gpu"), hdf),
            (f"HDF5 gpulz-auto-cpu-all {chunk:g} MiB", L["h5"]("gpulz-auto-cpu-all"), hdf),
            (f"HDF5 gpulz-gpu (lz) {chunk:g} MiB", L["h5"]("gpulz-gpu"), hdf),
            (f"HDF5 gpulz-cpu-all (lz) {chunk:g} MiB", L["h5"]("gpulz-cpu-all"), hdf),
            (f"HDF5 {label}-gpu {chunk:g} MiB", L["h5"](f"{label}-gpu"), hdf),
            (f"HDF5 best-ratio CPU filter {chunk:g} MiB", L["best-ratio CPU"], hdf),
            (f"HDF5 fastest-write CPU filter {chunk:g} MiB", L["fastest-write CPU"], hdf)]
    head = ["codec / setting"] + [f"{k} ({len(v)})" for k, v in groups.items()]
    rows = []
    for label, get, (c, dcol) in cols:
        row = [label]
        any_value = False
        for k, members in groups.items():
            rs = [get(d, t) for d, t in members]
            rs = [r for r in rs if cell(r, "ratio")]
            if not rs:
                row.append("-")
                continue
            any_value = True
            row.append(f"{fmt(geomean([cell(r, 'ratio') for r in rs]), 2)}; "
                       f"{fmt(geomean([cell(r, c) for r in rs]))} / {fmt(geomean([cell(r, dcol) for r in rs]))}")
        if any_value:
            rows.append(row)
    if not rows:
        return ""
    return "\n".join(["### Table 6: summary, geometric means per kind of data", "",
                      "Each cell: ratio; compress (write) / decompress (read) GB/s, geometric "
                      "means over the arrays of the column (their number in brackets). Device "
                      "rows: device buffers; HDF5 rows: H5Dwrite / H5Dread, host memory. The "
                      "best-ratio and the fastest-write CPU filters (not gpulz) are chosen per array.", "",
                      table(head, rows), ""])


# arrays of at least this many bytes count in the speed comparisons: below it
# per-call costs, not the codecs, set the throughput
LARGE_BYTES = 5_000_000


def which(subset, every):
    """A short list of subset: 'none', 'all', the names, or 'all but' the others."""
    if not subset:
        return "none"
    if len(subset) == len(every):
        return "all"
    if len(subset) > len(every) / 2:
        return "all but " + ", ".join(d for d in every if d not in subset)
    return ", ".join(subset)


def head_to_head(gpu, v2, nvc, h5, chunk, label):
    """Table 7: gpulz against each rival, array by array."""
    datasets = order_of(gpu, v2, nvc, h5)
    L = lookups(gpu, v2, nvc, h5, chunk)
    dev = ("comp_gbs", "decomp_gbs")
    hdf = ("write_gbs", "read_gbs")
    auto = ("gpulz auto S=elem 4K", L["v2"]("auto"))
    lz = ("gpulz lz S=elem W128 4K", L["gpulz"])
    fastest = ("gpulz lz fastest W32 4K", L["gpulz fastest"])
    h5auto = (f"HDF5 gpulz-auto-gpu {chunk:g} MiB", L["h5"]("gpulz-auto-gpu"))
    h5lz = (f"HDF5 gpulz-gpu (lz) {chunk:g} MiB", L["h5"]("gpulz-gpu"))
    nv = {c: (f"nvCOMP {NVCOMP_NAMES[c]}", L["nvcomp"](c)) for c in NVCOMP_NAMES}
    best = ("best-ratio CPU filter", L["best-ratio CPU"])
    fast_cpu = ("fastest-write CPU filter", L["fastest-write CPU"])
    base = (f"HDF5 {label}-gpu", L["h5"](f"{label}-gpu"))
    pairs = [auto + nv[c] + (dev,) for c in ("lz4", "cascaded", "bitcomp", "ans", "zstd")]
    pairs += [lz + nv["lz4"] + (dev,), lz + nv["cascaded"] + (dev,),
              fastest + nv["lz4"] + (dev,), fastest + nv["cascaded"] + (dev,),
              lz + nv["ans"] + (dev,), lz + nv["zstd"] + (dev,)]
    pairs += [h5auto + best + (hdf,), h5auto + fast_cpu + (hdf,), h5auto + base + (hdf,),
              h5lz + best + (hdf,), h5lz + fast_cpu + (hdf,), h5lz + base + (hdf,),
              (f"HDF5 gpulz-cpu-all (lz) {chunk:g} MiB", L["h5"]("gpulz-cpu-all")) + fast_cpu + (hdf,)]
    rows = []
    for an, ag, bn, bg, (c, dcol) in pairs:
        both = [(d, ag(d, t), bg(d, t), num(nb)) for d, (t, nb) in datasets.items()]
        both = [(d, x, y, nb) for d, x, y, nb in both if cell(x, "ratio") and cell(y, "ratio")]
        if not both:
            continue
        ratio_a = geomean([cell(x, "ratio") for _, x, _, _ in both])
        ratio_b = geomean([cell(y, "ratio") for _, _, y, _ in both])
        # a ratio within 0.5% counts as a tie, not a loss
        lost = [d for d, x, y, _ in both if cell(x, "ratio") < cell(y, "ratio") * 0.995]
        big = [(x, y) for _, x, y, nb in both if nb and nb >= LARGE_BYTES]
        sc = geomean([cell(x, c) / cell(y, c) for x, y in big if cell(x, c) and cell(y, c)])
        sd = geomean([cell(x, dcol) / cell(y, dcol) for x, y in big if cell(x, dcol) and cell(y, dcol)])
        rows.append([f"{an} vs {bn}", f"{fmt(ratio_a, 2)} vs {fmt(ratio_b, 2)}",
                     f"{len(lost)} of {len(both)}", f"{fmt(sc)}x", f"{fmt(sd)}x",
                     which(lost, [d for d, _, _, _ in both])])
    if not rows:
        return ""
    head = ["gpulz vs rival", "ratio, geometric mean", "gpulz's ratio lower on",
            f"compress (write) speed-up, arrays >= {LARGE_BYTES / 1e6:g} MB",
            "decompress (read) speed-up", "arrays where gpulz's ratio is lower"]
    return "\n".join(["### Table 7: gpulz against each rival, array by array", "",
                      "Ratios over every array both ran on; a ratio within 0.5% is a tie. Speed-ups: "
                      "geometric means of gpulz's throughput over the rival's, per array, on the "
                      f"arrays of {LARGE_BYTES / 1e6:g} MB and more (on smaller ones per-call costs "
                      "dominate). The CPU filters are chosen per array. Device: gpu_bench (auto: "
                      "--v2) and nvcomp_bench; HDF5: h5bench.", "",
                      table(head, rows, ["---", "---:", "---:", "---:", "---:", "---"]), ""])


def render(results, block, chunk, label="gpulz-0.1"):
    gpu = read_csv(os.path.join(results, "gpu_bench.csv"))
    v2 = read_csv(os.path.join(results, "gpu_bench_v2.csv"))
    nvc = read_csv(os.path.join(results, "nvcomp.csv"))
    h5 = read_csv(os.path.join(results, "h5bench.csv"))
    out = ["# Benchmark tables", ""]
    env = os.path.join(results, "ENV.txt")
    if os.path.exists(env):
        with open(env) as f:
            out += ["```", f.read().rstrip(), "```", ""]
    if gpu or nvc:
        out.append(device_tables(gpu, nvc, block))
    if gpu:
        out.append(block_table(gpu))
    if h5:
        out.append(h5_tables(h5, chunk))
    for part in (summary(gpu, v2, nvc, h5, chunk, label), head_to_head(gpu, v2, nvc, h5, chunk, label)):
        if part:
            out.append(part)
    if not (gpu or v2 or nvc or h5):
        out.append("(no CSV in " + results + ")")
    return "\n".join(out) + "\n"


def merge(out, parts, manifest=None):
    """Concatenate the CSVs (one header) and ENV.txt of several result folders into out,
    rows in the order of the arrays of manifest where one is given."""
    os.makedirs(out, exist_ok=True)
    rank = {}
    if manifest:
        with open(manifest) as f:
            names = [l.split()[0] for l in f if l.strip() and not l.startswith("#")]
        rank = {n: i for i, n in enumerate(names)}
    for name in CSVS:
        header, body = None, []
        for p in parts:
            path = os.path.join(p, name)
            if not os.path.exists(path):
                continue
            with open(path) as f:
                lines = [l for l in f if l.strip()]
            if not lines:
                continue
            if header is None:
                header = lines[0]
            elif lines[0] != header:
                sys.exit(f"tables.py: {path}: header differs from the first part's")
            body += lines[1:]
        if rank:
            body.sort(key=lambda l: rank.get(l.split(",", 1)[0], len(rank)))
        if header:
            with open(os.path.join(out, name), "w") as f:
                f.write(header)
                f.writelines(body)
    with open(os.path.join(out, "ENV.txt"), "w") as f:
        for i, p in enumerate(parts, 1):
            path = os.path.join(p, "ENV.txt")
            if os.path.exists(path):
                with open(path) as e:
                    f.write(f"# part {i} of {len(parts)}\n{e.read().rstrip()}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", help="folder of the CSVs")
    ap.add_argument("--merge", nargs="+", metavar=("OUT", "DIR"),
                    help="merge the CSVs of DIR... into OUT and write OUT/TABLES.md")
    ap.add_argument("--manifest", help="with --merge: order the rows as the arrays of this MANIFEST")
    ap.add_argument("--block", type=int, default=4096, help="gpulz block bytes of Tables 1-2")
    ap.add_argument("--chunk", type=float, default=4, help="HDF5 chunk MiB of Tables 5-7")
    ap.add_argument("--baseline-label", default="gpulz-0.1",
                    help="h5bench's --baseline-label: the row LABEL-gpu in Tables 6-7")
    a = ap.parse_args()
    if a.merge:
        if len(a.merge) < 2:
            ap.error("--merge OUT DIR1 [DIR2 ...]")
        merge(a.merge[0], a.merge[1:], a.manifest)
        with open(os.path.join(a.merge[0], "TABLES.md"), "w") as f:
            f.write(render(a.merge[0], a.block, a.chunk, a.baseline_label))
        return 0
    if not a.results:
        ap.error("--results DIR or --merge OUT DIR...")
    sys.stdout.write(render(a.results, a.block, a.chunk, a.baseline_label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
