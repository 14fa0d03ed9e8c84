# SPDX-License-Identifier: BSD-3-Clause
"""python -m gpulz.test [--strict] - check a gpulz install.

The codec (round trips in every mode, the bytes of the bundled `gpulz`
command, damaged input refused), then, where they are installed, h5py (a
compressed dataset written and read through the filter registered on import,
and the file gpulz 0.1 wrote, data-checked against its formulas), numcodecs
and Zarr v3, and where a GPU is usable (the CUDA wheel) the GPU backend and
CuPy arrays, bytes equal to the CPU's.  Prints one line per check; exit status 0 when all passed, 1 when
one failed.  --strict: a missing h5py, numcodecs or zarr is a failure too
(skipped otherwise).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

import gpulz
from gpulz import _cli

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                       "gpulz-0.1-fixture.h5")
FIXTURE_FILTER_ID = 34791  # the ID gpulz 0.1 wrote (provisional)


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def sample(n=1 << 18, dtype=np.int32, seed=1):
    rng = np.random.default_rng(seed)
    return (300 + np.cumsum(rng.integers(-2, 3, n)) // 4).astype(dtype)


def test_codec():
    x = sample()
    for mode in ("lz", "fast", "ratio", "auto"):
        c = gpulz.compress(x, mode=mode)
        check(len(c) < x.nbytes // 3, "%s: %d bytes of %d" % (mode, len(c), x.nbytes))
        back = np.frombuffer(gpulz.decompress(c), dtype=x.dtype)
        check(np.array_equal(back, x), "%s: data differ" % mode)
        out = np.empty_like(x)
        check(gpulz.decompress(c, out) is out and np.array_equal(out, x), "%s: out=" % mode)
    b = bytes(x.view(np.uint8)[:100001])
    check(bytes(gpulz.decompress(gpulz.compress(b, level=4, block=256))) == b, "bytes round trip")
    check(gpulz.decompressed_size(gpulz.compress(b)) == len(b), "decompressed_size")
    check(bytes(gpulz.decompress(gpulz.compress(b""))) == b"", "empty input")
    for kwargs in ({"window": 2.5}, {"block": 2048.0}, {"adaptive": 1}, {"mode": 1}):
        try:
            gpulz.compress(x, **kwargs)
        except TypeError:
            continue
        raise Failed("%r was not a TypeError" % kwargs)
    for kwargs in ({"window": 256}, {"block": 1000}, {"symbol_size": 3}, {"mode": "zip"},
                   {"level": 5}, {"threads": -1}):
        try:
            gpulz.compress(x, **kwargs)
        except ValueError:
            continue
        raise Failed("%r was not a ValueError" % kwargs)
    bad = bytearray(gpulz.compress(x))
    bad[len(bad) // 2] ^= 0x55
    bad[len(bad) // 2 + 7] ^= 0xAA
    try:
        gpulz.decompress(bytes(bad[:len(bad) - 9]))
        raise Failed("a truncated chunk was decoded")
    except gpulz.GpulzError as e:
        check(e.status < 0, "status of the error")
    return "round trips in modes lz, fast, ratio, auto; typed arguments; damaged input refused"


def test_command():
    x = sample(100000, np.int16, seed=3)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "x.raw")
        x.tofile(raw)
        for args, kwargs in ((["-s", "2"], {}), (["-s", "2", "--mode", "ratio", "-w", "64"],
                                                 {"mode": "ratio", "window": 64}),
                             (["-s", "1", "-b", "4096", "-a"], {"symbol_size": 1, "block": 4096,
                                                                "adaptive": True})):
            out = os.path.join(tmp, "x.gplz")
            subprocess.run([_cli.PROGRAM, "compress", "-q", "-f"] + args + [raw, "-o", out],
                           check=True)
            with open(out, "rb") as f:
                want = f.read()
            check(gpulz.compress(x, **kwargs) == want,
                  "gpulz compress %s and gpulz.compress(%r) differ" % (" ".join(args), kwargs))
    version = subprocess.run([_cli.PROGRAM, "version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    return "the bytes of `gpulz compress` (3 option sets); %s" % version


def fixture_data(k, n):
    """The data of fixture dataset k (h5tests/h5_fixture.c's formulas)."""
    i = np.arange(n, dtype=np.int64)
    if k in (0, 1):
        return ((i // 6) % 977 - 300).astype(np.int32)
    if k == 2:
        words = [b"the ", b"quick ", b"brown ", b"fox ", b"jumps ", b"over ", b"lazy ",
                 b"dogs ", b"\n"]
        out, w = bytearray(), 0
        while len(out) < n:
            out += words[w]
            w = (w * 7 + 3) % 9
        return np.frombuffer(bytes(out[:n]), dtype=np.uint8)
    if k == 3:
        return ((i // 10) % 50).astype(np.float64) * 0.5
    if k == 4:
        return (500 + (i % 70) // 7 + (i // 70) // 5).astype(np.uint16).reshape(60, 70)
    mask, mult = (1 << 64) - 1, 2685821657736338717
    x, out = (2024 * mult + 1) & mask, bytearray(n)
    for j in range(n):
        x ^= x >> 12
        x = (x ^ (x << 25)) & mask
        x ^= x >> 27
        out[j] = ((x * mult) & mask) >> 56
    return np.frombuffer(bytes(out), dtype=np.uint8)


def test_h5py():
    import h5py
    check(h5py.h5z.filter_avail(gpulz.FILTER_ID), "h5py's HDF5 has no gpulz filter after import")
    x = sample()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gpulz_test.h5")
        with h5py.File(path, "w") as f:
            f.create_dataset("lz", data=x, chunks=(1 << 16,), **gpulz.Gpulz())
            f.create_dataset("auto", data=x.reshape(512, 512), chunks=(128, 512),
                             **gpulz.Gpulz(mode="auto", level=4))
        with h5py.File(path, "r") as f:
            for name, shape in (("lz", x.shape), ("auto", (512, 512))):
                d = f[name]
                check(np.array_equal(d[...], x.reshape(shape)), "%s: data differ" % name)
                check(d.id.get_chunk_info(0).filter_mask == 0, "%s: chunk 0 not filtered" % name)
                check(d.id.get_storage_size() < x.nbytes // 3, "%s: not compressed" % name)
                fid, _, values, _ = d.id.get_create_plist().get_filter(0)
                check(fid == gpulz.FILTER_ID and len(values) == 7, "%s: filter %d %r"
                      % (name, fid, values))
            check(f["auto"].id.get_create_plist().get_filter(0)[2][6] == 3, "auto: mode slot")
    return "h5py %s (HDF5 %s): datasets written and read through filter %d (%s)" % (
        h5py.version.version, h5py.version.hdf5_version, gpulz.FILTER_ID,
        "registered by gpulz" if gpulz.FILTER_ID in gpulz._registered else "found by HDF5")


def test_fixture():
    import h5py
    if gpulz.PROVISIONAL_FILTER_ID != FIXTURE_FILTER_ID:
        return None
    names = ["int32_defaults", "int32be_window32", "text_s1_w255", "f64_adaptive", "u16_2d",
             "random_optional"]
    with h5py.File(FIXTURE, "r") as f:
        for k, name in enumerate(names):
            d = f[name]
            # the writer passed its native buffer with the file's type as the
            # memory type (big-endian for int32be_window32): compare the bytes
            want = fixture_data(k, d.size)
            got = d[...]
            check(got.shape == want.reshape(d.shape).shape and got.tobytes() == want.tobytes(),
                  "%s: data differ" % name)
            fid, _, values, _ = d.id.get_create_plist().get_filter(0)
            check(fid == FIXTURE_FILTER_ID and len(values) == 5 and values[0] == 1,
                  "%s: filter %d %r" % (name, fid, values))
            info = d.id.get_chunk_info(0)
            if name != "random_optional":
                raw = d.id.read_direct_chunk(info.chunk_offset)[1]
                check(info.filter_mask == 0 and raw[:5] == b"GPLZ\x01",
                      "%s: chunk 0 is no gpulz 0.1 chunk" % name)
    return "the gpulz 0.1 fixture: %d datasets equal their formulas" % len(names)


def test_numcodecs():
    import numcodecs
    from gpulz.numcodecs_codec import GpulzCodec
    codec = numcodecs.get_codec({"id": "gpulz", "mode": "ratio"})
    check(type(codec) is GpulzCodec, "get_codec gave %r" % codec)
    x = sample(1 << 16, np.float32)
    enc = codec.encode(x)
    check(len(enc) < x.nbytes, "numcodecs: not compressed")
    check(np.array_equal(np.frombuffer(codec.decode(enc), np.float32), x), "numcodecs: decode")
    out = np.empty_like(x)
    codec.decode(enc, out=out)
    check(np.array_equal(out, x), "numcodecs: decode into out")
    again = numcodecs.get_codec(codec.get_config())
    check(again == codec and again.encode(x) == enc, "numcodecs: config round trip")
    return "numcodecs %s: get_codec({'id': 'gpulz'}) round trip" % numcodecs.__version__


def test_zarr():
    import zarr
    from gpulz.zarr_codec import GpulzZarrCodec
    x = sample(1 << 18, np.uint16).reshape(512, 512)
    store = zarr.storage.MemoryStore()
    a = zarr.create_array(store, shape=x.shape, chunks=(128, 256), dtype=x.dtype,
                          compressors=[GpulzZarrCodec(mode="auto")], zarr_format=3)
    a[...] = x
    b = zarr.open_array(store, mode="r")  # the codec from the metadata, by entry point
    check(np.array_equal(b[...], x), "zarr: data differ")
    conf = [c.to_dict() for c in b.compressors]
    check(conf and conf[0]["name"] == "gpulz" and conf[0]["configuration"]["symbol_size"] == 2,
          "zarr: compressors %r" % conf)
    stored = sum(len(v.to_bytes()) for k, v in store._store_dict.items() if "/c/" in k
                 or k.startswith("c/"))
    check(0 < stored < x.nbytes // 2, "zarr: %d bytes stored of %d" % (stored, x.nbytes))
    return "zarr %s: a v3 array through the gpulz codec (%d of %d bytes stored)" % (
        zarr.__version__, stored, x.nbytes)


def test_gpu():
    """The GPU, where one is usable: the host API on it, and CuPy arrays
    without a host copy; the bytes equal the CPU's."""
    usable, reason = gpulz.gpu_available()
    if not usable:
        return None
    x = sample(1 << 22, np.uint16, seed=5)
    host = gpulz.compress(x, backend="cpu")
    check(gpulz.compress(x, backend="gpu") == host, "GPU backend: bytes differ from the CPU's")
    check(np.array_equal(gpulz.decompress(host, np.empty_like(x), backend="gpu"), x),
          "GPU backend: decompress")
    try:
        import cupy
    except ImportError:
        return "the host API on the GPU, same bytes as the CPU (no CuPy)"
    d = cupy.asarray(x)
    dc = gpulz.compress(d)
    check(isinstance(dc, cupy.ndarray) and cupy.asnumpy(dc).tobytes() == host,
          "CuPy: bytes differ from the CPU's")
    check(bool((gpulz.decompress(dc).view(cupy.uint16) == d).all()), "CuPy: decompress")
    out = cupy.empty_like(d)
    gpulz.decompress(cupy.asarray(np.frombuffer(host, np.uint8)), out)
    check(bool((out == d).all()), "CuPy: decompress into out")
    return "the host API and CuPy %s arrays on the GPU, same bytes as the CPU" % cupy.__version__


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    strict = "--strict" in argv
    tests = [("codec", test_codec, None), ("command", test_command, None),
             ("h5py", test_h5py, "h5py"), ("fixture", test_fixture, "h5py"),
             ("numcodecs", test_numcodecs, "numcodecs"), ("zarr", test_zarr, "zarr"),
             ("gpu", test_gpu, None)]
    cfg = gpulz.get_config()
    print("gpulz %s (library %s, %s): plugin %s, CUDA %s, GPU %s" % (
        cfg["version"], cfg["library_version"], cfg["distribution"], cfg["plugin"],
        "built" if cfg["cuda_built"] else "not built",
        "usable" if cfg["gpu_usable"] else "not usable (%s)" % cfg["gpu_reason"]))
    failed = passed = skipped = 0
    for name, fn, needs in tests:
        if needs:
            try:
                __import__(needs)
            except ImportError:
                print("%s: %s: %s is not installed" % ("FAIL" if strict else "SKIP", name, needs))
                failed += strict
                skipped += not strict
                continue
        try:
            what = fn()
        except Exception as e:  # a check or anything the check ran into
            print("FAIL: %s: %s: %s" % (name, type(e).__name__, e))
            failed += 1
            continue
        if what is None:
            print("SKIP: %s" % name)
            skipped += 1
        else:
            print("ok: %s: %s" % (name, what))
            passed += 1
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
