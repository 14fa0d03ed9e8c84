#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Build the gpulz benchmark corpus from real data, offline apart from apt.

Sources (Debian packages, fetched with `apt-get download` and unpacked with
`dpkg -x`, nothing installed):
  ferret-datasets   etopo5 relief, levitus temperature and salinity, the coads
                    and navy (FNOC) monthly wind fields: netCDF classic, big-endian
  gmt-gshhg-full    GSHHG full-resolution coastline point coordinates: int16
                    in netCDF-4 (read with h5py)
  TPC-H lineitem    int32 columns and the l_comment text, copied from --tpch

From every float field it also derives cuSZ-style quantization codes (uint16)
at relative error bounds 1e-2, 1e-3 and 1e-4: values prequantized to
multiples of 2*eb, N-D Lorenzo prediction on those integers (N = the field's
dimensionality), code = prediction error + 512, outliers coded 0.  Fill values
are masked: they do not count in the value range, and they are replaced by the
smallest valid value before prequantization, so masked regions (land, no
observation) become constant areas whose code is 512, as in a masked field.

Every array is written little-endian as CACHE/<name>.<ext> (ext = dtype) and
listed in CACHE/MANIFEST: name dtype shape bytes sha256 (shape like 20x180x360).
bench/data/MANIFEST, kept in git, is the reference: the build is compared with
it and any array that differs (a newer Debian package, another numpy) is
reported; --update-reference rewrites it.

Usage: make_corpus.py [--cache DIR] [--tpch DIR] [--debs DIR] [--force] [--update-reference]
Needs: /usr/bin/python3 with numpy and h5py, apt-get and dpkg-deb.
"""
import argparse
import hashlib
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEBS = ["ferret-datasets", "gmt-gshhg-full"]
FERRET = "usr/share/ferret-vis/data"
GSHHG = "usr/share/gmt-gshhg/binned_GSHHS_f.nc"
ERROR_BOUNDS = [("1e-2", 1e-2), ("1e-3", 1e-3), ("1e-4", 1e-4)]
RADIUS = 512
TPCH_INT_COLUMNS = ["l_orderkey", "l_partkey", "l_suppkey", "l_quantity"]
EXT = {"float32": "f32", "uint16": "u16", "int16": "i16", "int32": "i32", "uint8": "u8"}


# ---- netCDF classic (CDF-1 and CDF-2), enough for the ferret files -------------
NC_TYPES = {1: ">i1", 2: "S1", 3: ">i2", 4: ">i4", 5: ">f4", 6: ">f8"}


class ClassicNetCDF:
    """A minimal reader of the netCDF classic format (64-bit offsets included)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.raw = f.read()
        if self.raw[:3] != b"CDF" or self.raw[3] not in (1, 2):
            raise ValueError(f"{path}: not a netCDF classic file")
        self.offset_size = 8 if self.raw[3] == 2 else 4
        self.pos = 4
        self.numrecs = self._u32()
        self.dims = self._dims()
        self.gatts = self._atts()
        self.vars = self._vars()
        rec = [v for v in self.vars.values() if v["record"]]
        # a lone record variable is not padded (netCDF classic spec)
        self.recsize = rec[0]["nbytes_per_rec"] if len(rec) == 1 else sum(v["vsize"] for v in rec)

    def _u32(self):
        (v,) = struct.unpack_from(">I", self.raw, self.pos)
        self.pos += 4
        return v

    def _offset(self):
        fmt = ">Q" if self.offset_size == 8 else ">I"
        (v,) = struct.unpack_from(fmt, self.raw, self.pos)
        self.pos += self.offset_size
        return v

    def _name(self):
        n = self._u32()
        s = self.raw[self.pos:self.pos + n].decode("utf-8")
        self.pos += (n + 3) & ~3
        return s

    def _list(self, tag):
        t, n = self._u32(), self._u32()
        if t == 0 and n == 0:
            return 0
        if t != tag:
            raise ValueError(f"bad netCDF header: tag {t:#x}, expected {tag:#x}")
        return n

    def _dims(self):
        dims = []
        for _ in range(self._list(0x0A)):
            name = self._name()
            dims.append((name, self._u32()))  # 0 = the record (unlimited) dimension
        return dims

    def _atts(self):
        atts = {}
        for _ in range(self._list(0x0C)):
            name = self._name()
            nctype, n = self._u32(), self._u32()
            dt = np.dtype(NC_TYPES[nctype])
            nbytes = n * dt.itemsize
            atts[name] = np.frombuffer(self.raw, dt, n, self.pos)
            self.pos += (nbytes + 3) & ~3
        return atts

    def _vars(self):
        out = {}
        for _ in range(self._list(0x0B)):
            name = self._name()
            dimids = [self._u32() for _ in range(self._u32())]
            atts = self._atts()
            nctype, vsize, begin = self._u32(), self._u32(), self._offset()
            shape = [self.dims[d][1] for d in dimids]
            record = bool(dimids) and self.dims[dimids[0]][1] == 0
            dt = np.dtype(NC_TYPES[nctype])
            per_rec = int(np.prod(shape[1:] if record else shape, dtype=np.int64)) * dt.itemsize
            out[name] = dict(dtype=dt, shape=shape, record=record, atts=atts,
                             vsize=vsize, begin=begin, nbytes_per_rec=per_rec)
        return out

    def read(self, name):
        v = self.vars[name]
        if not v["record"]:
            n = v["nbytes_per_rec"] // v["dtype"].itemsize
            return np.frombuffer(self.raw, v["dtype"], n, v["begin"]).reshape(v["shape"])
        recs = [np.frombuffer(self.raw, v["dtype"], v["nbytes_per_rec"] // v["dtype"].itemsize,
                              v["begin"] + r * self.recsize) for r in range(self.numrecs)]
        return np.stack(recs).reshape([self.numrecs] + v["shape"][1:])

    def fill_values(self, name):
        atts = self.vars[name]["atts"]
        return [float(atts[k][0]) for k in ("_FillValue", "missing_value") if k in atts]


# ---- cuSZ-style quantization codes --------------------------------------------------
def lorenzo_codes(x, valid, rel_eb):
    """uint16 codes of x (float) at a relative error bound, N-D Lorenzo on integers."""
    lo, hi = x[valid].min(), x[valid].max()
    eb = rel_eb * float(hi - lo)
    # in the field's own precision (float32), as cuSZ does (and the anchors' synth.py)
    xf = np.where(valid, x, x.dtype.type(lo))
    q = np.rint(xf / x.dtype.type(2 * eb)).astype(np.int64)
    nd = q.ndim
    p = np.pad(q, [(1, 0)] * nd)
    pred = np.zeros_like(q)
    # prediction = sum over the non-empty subsets s of the axes of
    # (-1)^(|s|+1) q[i - e_s]: the 1-D, 2-D and 3-D Lorenzo predictors
    for mask in range(1, 1 << nd):
        sl = tuple(slice(0, -1) if mask >> a & 1 else slice(1, None) for a in range(nd))
        sign = 1 if bin(mask).count("1") % 2 else -1
        pred += sign * p[sl]
    d = q - pred + RADIUS
    d[(d <= 0) | (d >= 2 * RADIUS)] = 0
    return d.astype(np.uint16)


# ---- build ----------------------------------------------------------------------------
def fetch_debs(debdir, extract):
    os.makedirs(debdir, exist_ok=True)
    have = [f for f in os.listdir(debdir) if f.endswith(".deb")]
    missing = [p for p in DEBS if not any(f.startswith(p + "_") for f in have)]
    if missing:
        print("apt-get download", " ".join(missing), file=sys.stderr)
        subprocess.run(["apt-get", "download"] + missing, cwd=debdir, check=True)
    os.makedirs(extract, exist_ok=True)
    for f in sorted(os.listdir(debdir)):
        if f.endswith(".deb") and f.split("_")[0] in DEBS:
            subprocess.run(["dpkg-deb", "-x", os.path.join(debdir, f), extract], check=True)


def ferret_fields(root):
    """(name, float32 array in natural order, validity mask) of every ferret field."""
    picks = [("etopo5.cdf", "ROSE", "etopo5"),
             ("levitus_climatology.cdf", "TEMP", "levitus_temp"),
             ("levitus_climatology.cdf", "SALT", "levitus_salt"),
             ("coads_climatology.cdf", "UWND", "coads_uwnd"),
             ("coads_climatology.cdf", "VWND", "coads_vwnd"),
             ("monthly_navy_winds.cdf", "UWND", "navy_uwnd"),
             ("monthly_navy_winds.cdf", "VWND", "navy_vwnd")]
    files = {}
    for fname, var, name in picks:
        nc = files.setdefault(fname, ClassicNetCDF(os.path.join(root, FERRET, fname)))
        x = nc.read(var).astype("<f4")
        valid = np.isfinite(x)
        for fv in nc.fill_values(var):
            valid &= x != np.float32(fv)
        yield name, x, valid


def gshhg_coords(root):
    import h5py  # netCDF-4 is HDF5 underneath
    with h5py.File(os.path.join(root, GSHHG), "r") as f:
        for var, name in [("Relative_longitude_from_SW_corner_of_bin", "gshhg_lon"),
                          ("Relative_latitude_from_SW_corner_of_bin", "gshhg_lat")]:
            yield name, f[var][...].astype("<i2")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--tpch", default=os.environ.get("GPULZ_TPCH", "/work/shared/data/tpch"),
                    help="folder with the TPC-H lineitem columns (l_*.i32, l_comment.txt)")
    ap.add_argument("--debs", help="folder for the .deb files (default CACHE/debs)")
    ap.add_argument("--force", action="store_true", help="rebuild even if MANIFEST exists")
    ap.add_argument("--update-reference", action="store_true",
                    help="write the new checksums to bench/data/MANIFEST")
    a = ap.parse_args()

    cache = os.path.abspath(a.cache)
    manifest = os.path.join(cache, "MANIFEST")
    if os.path.exists(manifest) and not a.force:
        print(f"{manifest} exists (use --force to rebuild)", file=sys.stderr)
        return 0
    debdir = a.debs or os.path.join(cache, "debs")
    extract = os.path.join(cache, "src")
    fetch_debs(debdir, extract)

    entries = []

    def put(name, arr):
        arr = np.ascontiguousarray(arr)
        dt = arr.dtype.name
        path = os.path.join(cache, f"{name}.{EXT[dt]}")
        arr.astype(arr.dtype.newbyteorder("<")).tofile(path)
        shape = "x".join(str(s) for s in arr.shape)
        entries.append((name, dt, shape, os.path.getsize(path), sha256(path)))
        print(f"{name:28s} {dt:8s} {shape:16s} {os.path.getsize(path):>10d}", file=sys.stderr)

    for name, x, valid in ferret_fields(extract):
        put(name, x)
        for tag, eb in ERROR_BOUNDS:
            put(f"{name}_q{tag}", lorenzo_codes(x, valid, eb))
    for name, x in gshhg_coords(extract):
        put(name, x)

    sums = {}
    with open(os.path.join(a.tpch, "SHA256SUMS")) as f:
        for line in f:
            s, fn = line.split()
            sums[fn.lstrip("*")] = s
    for col in TPCH_INT_COLUMNS + ["l_comment"]:
        src = os.path.join(a.tpch, col + (".txt" if col == "l_comment" else ".i32"))
        if sums.get(os.path.basename(src)) != sha256(src):
            raise SystemExit(f"{src}: checksum differs from SHA256SUMS")
        dt = np.uint8 if col == "l_comment" else np.dtype("<i4")
        put(f"tpch_{col}", np.fromfile(src, dtype=dt))

    shutil.rmtree(extract)
    with open(manifest + ".tmp", "w") as f:
        f.write("# name dtype shape bytes sha256 (file: <name>.<f32|u16|i16|i32|u8>, little-endian)\n")
        for e in entries:
            f.write("%s %s %s %d %s\n" % e)
    os.replace(manifest + ".tmp", manifest)
    reference = os.path.join(HERE, "MANIFEST")
    if a.update_reference:
        shutil.copyfile(manifest, reference)
    elif os.path.exists(reference):
        with open(reference) as f:
            ref = {l.split()[0]: l.split()[1:] for l in f if l.strip() and not l.startswith("#")}
        for name, *rest in entries:
            want = ref.get(name)
            got = [str(x) for x in rest]
            if want != got:
                print(f"warning: {name} differs from {reference}: {got} vs {want}", file=sys.stderr)
    print(f"wrote {manifest}: {len(entries)} arrays, "
          f"{sum(e[3] for e in entries) / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
