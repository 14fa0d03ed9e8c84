# SPDX-License-Identifier: BSD-3-Clause
"""python -m gpulz.test [--strict] [--require MODULES] - check a gpulz install.

The codec (round trips in every mode, the batch functions, the bytes of the
bundled `gpulz` command, damaged input refused), then, where they are
installed, h5py (a compressed dataset written and read through the filter
registered on import, the file gpulz 0.1 wrote, data-checked against its
formulas, and direct chunk I/O: write_direct's chunks equal to the filter's,
read_direct, h5py's path where the chunk path cannot go), numcodecs and Zarr
v3; where a GPU is usable (the CUDA wheel) the GPU backend, CuPy arrays
compressed and decompressed on the GPU with no host copy, direct chunk I/O
from and into CuPy arrays, numcodecs with CuPy buffers and Zarr's GPU mode,
bytes equal to the CPU's.  Prints one line per check; exit status 0 when all passed, 1 when one
failed.  A part whose Python package is missing says "skipped: not
installed".

  --strict           the GPU parts must run: no CUDA build, no usable GPU or
                     no CuPy is a failure, not a skip
  --require MODULES  comma-separated packages (h5py,numcodecs,zarr,cupy) whose
                     absence is a failure, not a skip
"""
import os
import pickle
import signal
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


class Skipped(Exception):
    """A part that cannot run here; gpu: for want of the GPU or CuPy (a
    failure under --strict)."""

    def __init__(self, why, gpu=False):
        super().__init__(why)
        self.gpu = gpu


def need_gpu():
    """CuPy, after checking that the GPU is usable: the GPU parts skip (fail
    under --strict) without either."""
    cfg = gpulz.get_config()
    if not cfg["cuda_built"]:
        raise Skipped("no GPU: %s is a build without CUDA" % cfg["distribution"], gpu=True)
    if not cfg["gpu_usable"]:
        raise Skipped("no usable GPU (%s)" % cfg["gpu_reason"], gpu=True)
    try:
        import cupy
    except ImportError:
        raise Skipped("CuPy is not installed", gpu=True) from None
    return cupy


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
    # no mode: auto, the C library's default, byte for byte
    check(gpulz.DEFAULT_MODE == "auto" and gpulz.compress(x) == gpulz.compress(x, mode="auto"),
          "default mode %r" % gpulz.DEFAULT_MODE)
    # symbol size from the dtype, by the filter's rule (symbol_size_from_type()):
    # the largest of 8, 4, 2, 1 dividing the element size, strings their character
    for dtype, want in (("i1", 1), (">i2", 2), ("f4", 4), ("M8[s]", 8), ("c16", 8),
                        ("V3", 1), ("S8", 1), ("U3", 4), ("i4,f8", 4), ("i2,i2,i2", 2),
                        (np.longdouble, 8 if np.dtype(np.longdouble).itemsize % 8 == 0 else 4)):
        y = np.zeros(500, dtype)
        y.view(np.uint8)[:] = x.view(np.uint8)[:y.nbytes]
        c = gpulz.compress(y, mode="fast")
        check(c == gpulz.compress(y, mode="fast", symbol_size=want)
              and gpulz.compress_batch([y, y], mode="fast") == [c, c],
              "%s: not compressed with symbol size %d" % (np.dtype(dtype), want))
        check(bytes(gpulz.decompress(c)) == y.tobytes(), "%s: data differ" % np.dtype(dtype))
    # arrays of references are refused by name, never compressed as addresses
    c = gpulz.compress(x[:50].astype(np.int64))
    refs = [np.array([1, None], object), np.zeros(2, "i4,O")]
    if hasattr(getattr(np, "dtypes", None), "StringDType"):  # numpy 2
        refs.append(np.array(["a", "b" * 40], np.dtypes.StringDType()))
    for y in refs:
        for call in (lambda: gpulz.compress(y), lambda: gpulz.compress_batch([y]),
                     lambda: gpulz.decompress(c, out=np.empty(50, y.dtype))):
            try:
                call()
                raise Failed("%s: accepted" % y.dtype)
            except TypeError as e:
                check(str(y.dtype) in str(e) and "references" in str(e),
                      "%s: the error does not say why: %s" % (y.dtype, e))
    # buf and out in different memories: refused by name, whatever else is
    # there (no GPU is needed to be told so)
    class OnDevice:
        __cuda_array_interface__ = {"shape": (50,), "typestr": "|u1", "data": (0, False), "version": 3}
    for call in (lambda: gpulz.decompress(c, out=OnDevice()),
                 lambda: gpulz.decompress(OnDevice(), out=bytearray(400))):
        try:
            call()
            raise Failed("buf and out in different memories: accepted")
        except TypeError as e:
            check("both" in str(e), "buf and out in different memories: %s" % e)
    # a strided memoryview: its elements in C order, as an array's
    m = memoryview(x[:200].reshape(20, 10))[::2]
    check(gpulz.compress(m) == gpulz.compress(x[:200].reshape(20, 10)[::2].tobytes())
          and bytes(gpulz.decompress(gpulz.compress(m))) == m.tobytes(), "strided memoryview")
    # strided records with padding: every byte of each element, padding too
    padded = np.dtype({"names": ["a", "b"], "formats": ["u1", "<i4"], "offsets": [0, 8],
                       "itemsize": 16})
    raw = np.full((400, 16), 0x5A, np.uint8)
    rec = raw.view(padded)[:, 0]
    rec["a"], rec["b"] = np.arange(400), sample(400, np.int32)
    want = raw[::3].tobytes()
    check(bytes(gpulz.decompress(gpulz.compress(rec[::3]))) == want
          and [bytes(gpulz.decompress(c)) for c in gpulz.compress_batch([rec[::3]])] == [want],
          "strided padded records: the padding bytes compressed are not the array's")
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
    # values that a C unsigned (or int) holds only modulo 2**32 are refused,
    # not taken as window 128, level 4...
    big = 2 ** 32
    for kwargs in ({"window": 256}, {"block": 1000}, {"symbol_size": 3}, {"mode": "zip"},
                   {"level": 5}, {"threads": -1}, {"window": big + 128}, {"block": big + 2048},
                   {"symbol_size": big + 4}, {"level": big + 4}, {"threads": big}):
        for call in (gpulz.compress, gpulz.Gpulz):
            if call is gpulz.Gpulz and "threads" in kwargs:
                continue
            try:
                call(x, **kwargs) if call is gpulz.compress else call(**kwargs)
            except ValueError:
                continue
            raise Failed("%s(%r) was not a ValueError" % (call.__name__, kwargs))
    bad = bytearray(gpulz.compress(x))
    bad[len(bad) // 2] ^= 0x55
    bad[len(bad) // 2 + 7] ^= 0xAA
    try:
        gpulz.decompress(bytes(bad[:len(bad) - 9]))
        raise Failed("a truncated chunk was decoded")
    except gpulz.GpulzError as e:
        check(e.status < 0, "status of the error")
        # a worker process's error reaches the parent (multiprocessing,
        # concurrent.futures) pickled: where it could not be rebuilt, the pool broke
        again = pickle.loads(pickle.dumps(e))
        check(type(again) is gpulz.GpulzError and again.status == e.status
              and str(again) == str(e), "a pickled GpulzError: %r" % again)
    # a header declaring more bytes than a process can address (its block
    # count agreeing, so that the header's own checks pass): gpulz's error,
    # not Python's OverflowError
    lie = bytearray(gpulz.compress(np.zeros(1 << 20, np.uint8)))
    n = 2 ** 63 + 5
    lie[12:20] = n.to_bytes(8, "little")
    lie[20:28] = (-(-n // 2048)).to_bytes(8, "little")
    try:
        gpulz.decompress(bytes(lie))
        raise Failed("a chunk declaring 2^63 + 5 bytes was decoded")
    except gpulz.GpulzError as e:
        check(e.status < 0, "status of the error")
    # a format 2 header declaring 1 GiB that its streams cannot make: refused
    # from the chunk's own headers, before a gigabyte is allocated on it
    lie = bytearray(gpulz.compress(np.zeros(4096, np.uint8), mode="fast"))
    n = 1 << 30
    lie[12:20] = n.to_bytes(8, "little")
    lie[20:28] = (-(-n // 2048)).to_bytes(8, "little")
    for call in (gpulz.decompressed_size, gpulz.decompress,
                 lambda c: gpulz.decompress_batch([c])):
        try:
            call(bytes(lie))
            raise Failed("a chunk whose header lies about its size was accepted")
        except gpulz.GpulzError as e:
            check(e.status == gpulz._codec.C["GPULZ_ERR_CORRUPT"] and "units" in str(e),
                  "a lying header: %s" % e)
    # buffers of no bytes with zeros in a shape of several dimensions
    # (memoryview.cast() refuses those)
    none = memoryview(np.zeros((0, 3), np.int32))
    check(gpulz.compress(none) == gpulz.compress(b"")
          and gpulz.decompress(gpulz.compress(b""), out=memoryview(np.zeros((0, 3), np.int32)))
          is not None, "a 0 x 3 memoryview")
    # a CUDA array's element size comes from its interface's typestr: the
    # dtype attribute of a torch tensor is not one numpy interprets
    class TorchLike:
        dtype = object()
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False),
                                    "version": 3}
    check(gpulz._codec.symbol_size_of(TorchLike()) == 4, "symbol size of a CUDA array")
    # a declared size the GPU cannot allocate is gpulz's error, as on the
    # host: CuPy's OutOfMemoryError is a MemoryError, which this stand-in raises
    class NoRoom:
        uint8 = np.uint8
        @staticmethod
        def empty(size, dtype=None):
            raise MemoryError("out of memory allocating %d bytes" % size)
    try:
        gpulz._codec._device_out(NoRoom, None, 1 << 60)
        raise Failed("a CUDA allocation that failed went unnoticed")
    except gpulz.GpulzError as e:
        check(e.status == gpulz._codec.C["GPULZ_ERR_NOMEM"], "a CUDA allocation that failed: %s" % e)
    return "round trips in modes lz, fast, ratio, auto; typed arguments; damaged input refused"


def test_batch():
    chunks = [sample(1 << 16, np.int32, seed=k) for k in range(3)] + [sample(777, np.int32)]
    chunks.append(np.empty(0, np.int32))
    for opts in ({}, {"mode": "auto", "level": 4}, {"mode": "fast", "block": 512}):
        batch = gpulz.compress_batch(chunks, **opts)
        one = [gpulz.compress(c, **opts) for c in chunks]
        check(batch == one, "compress_batch(%r) and one compress() per chunk differ" % opts)
        back = gpulz.decompress_batch(batch)
        check(all(bytes(b) == c.tobytes() for b, c in zip(back, chunks)),
              "decompress_batch(%r): data differ" % opts)
        outs = [np.empty_like(c) for c in chunks]
        got = gpulz.decompress_batch(batch, outs)
        check(all(g is o and np.array_equal(o, c) for g, o, c in zip(got, outs, chunks)),
              "decompress_batch(%r, outs)" % opts)
    check(gpulz.compress_batch([]) == [] and gpulz.decompress_batch([]) == [], "empty batch")
    # outs that share bytes: with one out for two chunks both results were
    # that buffer, holding one chunk's data, without an error
    pair = gpulz.compress_batch(chunks[:2])
    shared = bytearray(chunks[0].nbytes + 8)
    inside = bytearray(chunks[0].nbytes)
    inside[:len(pair[1])] = pair[1]
    for what, srcs, bad in (
            ("one out for two chunks", pair, [shared, shared]),
            ("two outs sharing bytes", pair,
             [memoryview(shared)[:chunks[0].nbytes], memoryview(shared)[8:]]),
            ("an out over another chunk", [pair[0], memoryview(inside)[:len(pair[1])]],
             [inside, None])):
        try:
            gpulz.decompress_batch(srcs, bad)
        except ValueError:
            continue
        raise Failed("decompress_batch: %s was accepted" % what)
    for call in (lambda: gpulz.compress_batch([chunks[0], chunks[0].view(np.int16)]),
                 lambda: gpulz.decompress_batch(batch, outs[:1]),
                 lambda: gpulz.compress_batch(chunks, window=300)):
        try:
            call()
        except ValueError:
            continue
        raise Failed("a batch of mixed element sizes, too few outs or window 300 was accepted")
    return "compress_batch and decompress_batch: the bytes of one call per chunk (3 option sets)"


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
        # the console script, its reader gone after 10 bytes of 1 MiB: the
        # program ends by SIGPIPE, quietly, as when run itself
        with open(out, "wb") as f:
            f.write(gpulz.compress(sample(1 << 18, np.int32)))
        p = subprocess.Popen([sys.executable, "-c", "import sys; sys.argv[0] = 'gpulz'; "
                              "from gpulz._cli import main; main()", "decompress", out, "-o", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.read(10)
        p.stdout.close()
        p.wait()
        err = p.stderr.read().decode(errors="replace").strip()
        p.stderr.close()
        check(p.returncode == -signal.SIGPIPE and not err,
              "the gpulz script, its reader gone: exit %d, %r (SIGPIPE ignored)"
              % (p.returncode, err))
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
            f.create_dataset("lz", data=x, chunks=(1 << 16,), **gpulz.Gpulz(mode="lz"))
            f.create_dataset("auto", data=x.reshape(512, 512), chunks=(128, 512),
                             **gpulz.Gpulz(level=4))
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
            check(f["lz"].id.get_create_plist().get_filter(0)[2][::6] == (1, 0), "lz: slots 0, 6")
    # a value of the wrong type is not rounded or taken as true
    for bad, error in ((dict(symbol_size=3), ValueError), (dict(window=0), ValueError),
                       (dict(block=1000), ValueError), (dict(window=2.5), TypeError),
                       (dict(window="64"), TypeError), (dict(symbol_size=4.0), TypeError),
                       (dict(block=True), TypeError), (dict(adaptive=1), TypeError)):
        try:
            gpulz.Gpulz(**bad)
        except error:
            continue
        raise Failed("Gpulz(%r) was not a %s" % (bad, error.__name__))
    check(gpulz.Gpulz(window=np.int64(64), adaptive=np.bool_(True)).filter_options
          == (0, 0, 64, 2048, 1, 0, 3), "Gpulz: numpy integers and booleans")
    check(gpulz.Gpulz(mode="lz").filter_options == (1, 0, 128, 2048, 0), "Gpulz: mode lz")
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


def stored_chunks(d):
    """{chunk offset: (filter mask, stored bytes)} of every allocated chunk."""
    out = {}
    for i in range(d.id.get_num_chunks()):
        info = d.id.get_chunk_info(i)
        mask, data = d.id.read_direct_chunk(info.chunk_offset)
        out[info.chunk_offset] = (mask, bytes(data))
    return out


def same_chunks(a, b, what):
    """The chunks of dataset b, written directly, are those the filter stored
    in a: the same offsets, filter masks and bytes."""
    sa, sb = stored_chunks(a), stored_chunks(b)
    check(sorted(sa) == sorted(sb), "%s: chunks %s stored, the filter's %s" % (what, sorted(sb),
                                                                              sorted(sa)))
    for k in sa:
        check(sa[k][0] == sb[k][0], "%s: chunk %s: filter mask %d, the filter's %d"
              % (what, k, sb[k][0], sa[k][0]))
        check(sa[k][1] == sb[k][1], "%s: chunk %s: %d bytes differ from the filter's %d"
              % (what, k, len(sb[k][1]), len(sa[k][1])))
    return sa


class BatchSpy:
    """Counts the batched calls of direct chunk I/O: (compressing, chunks,
    device) for each gpulz_compress_batch / gpulz_decompress_batch."""

    def __init__(self):
        from gpulz import _codec
        self.codec, self.real, self.calls = _codec, _codec.batch_run, []

    def __enter__(self):
        def spy(compressing, src, src_len, dst, dst_cap, p, device=False, stream=None):
            self.calls.append((compressing, len(src), bool(device)))
            return self.real(compressing, src, src_len, dst, dst_cap, p, device, stream)
        self.codec.batch_run = spy
        return self

    def __exit__(self, *exc):
        self.codec.batch_run = self.real

    def take(self):
        calls, self.calls = self.calls, []
        return calls


def make_dataset(h5py, f, name, shape, dtype, chunks, values=(), mandatory=False, fill=None,
                 fill_time=None, dont_filter_partial=False):
    """A gpulz dataset through the low-level API, for what create_dataset
    cannot set: a mandatory filter, a fill time, HDF5's option to store
    edge chunks unfiltered (through ctypes: h5py has no H5Pset_chunk_opts)."""
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    if dont_filter_partial:
        import ctypes
        fn = ctypes.CDLL(h5py.h5p.__file__).H5Pset_chunk_opts
        fn.argtypes, fn.restype = [ctypes.c_int64, ctypes.c_uint], ctypes.c_int
        check(fn(dcpl.id, 0x2) >= 0, "H5Pset_chunk_opts failed")
    if fill is not None:
        dcpl.set_fill_value(np.array([fill], dtype=dtype))
    if fill_time is not None:
        dcpl.set_fill_time(fill_time)
    dcpl.set_filter(gpulz.FILTER_ID, h5py.h5z.FLAG_MANDATORY if mandatory
                    else h5py.h5z.FLAG_OPTIONAL, tuple(values))
    space = h5py.h5s.create_simple(shape)
    dsid = h5py.h5d.create(f.id, name.encode(), h5py.h5t.py_create(np.dtype(dtype)), space,
                           dcpl=dcpl)
    return h5py.Dataset(dsid)


def test_h5py_direct():
    """gpulz.write_direct and read_direct: the filter's bytes, chunk for
    chunk, in every mode, element size and rank, with edge chunks, fill
    values and unallocated chunks, in one batched call; files either way
    read the other way; and h5py's path where the chunk path cannot go."""
    import h5py
    from gpulz import _codec, _h5direct
    shapes = [((5000,), (1024,)), ((60, 70), (16, 32)), ((9, 20, 30), (4, 8, 16))]
    dtypes = [np.uint8, np.int16, np.float32, np.float64]
    cases = 0
    with tempfile.TemporaryDirectory() as tmp, BatchSpy() as spy, \
            h5py.File(os.path.join(tmp, "direct.h5"), "w") as f:
        for mode in ("lz", "fast", "ratio", "auto"):
            for t, dtype in enumerate(dtypes):
                for r, (shape, chunks) in enumerate(shapes):
                    x = sample(int(np.prod(shape)), dtype, seed=t * 3 + r).reshape(shape)
                    what = "%s %s %s" % (mode, np.dtype(dtype).name, shape)
                    fill = 7 if (t + r) % 2 else None
                    opts = dict(shape=shape, dtype=dtype, chunks=chunks, fillvalue=fill,
                                **gpulz.Gpulz(mode=mode))
                    a = f.create_dataset("a%d" % cases, **opts)
                    b = f.create_dataset("b%d" % cases, **opts)
                    a[...] = x
                    spy.take()
                    check(gpulz.write_direct(b, x) is True, "%s: chunk path not taken" % what)
                    n = int(np.prod([-(-s // c) for s, c in zip(shape, chunks)]))
                    check(spy.take() == [(True, n, False)],
                          "%s: not one gpulz_compress_batch of %d chunks" % (what, n))
                    stored = same_chunks(a, b, what)
                    check(any(m == 0 for m, _ in stored.values()), "%s: nothing compressed" % what)
                    check(np.array_equal(b[...], x), "%s: the filter reads other data" % what)
                    for d in (a, b):
                        out = np.full(shape, 99, dtype=dtype)
                        check(gpulz.read_direct(d, out) is True and np.array_equal(out, x),
                              "%s: read_direct of %s" % (what, d.name))
                        coded = sum(m == 0 for m, _ in stored.values())
                        check(spy.take() == [(False, coded, False)],
                              "%s: not one gpulz_decompress_batch of %d chunks" % (what, coded))
                    cases += 1

        # chunk-aligned boxes, ending at the extent or on a chunk border;
        # integers; unallocated chunks read as the fill value
        x = sample(60 * 70, np.int32, seed=11).reshape(60, 70)
        a = f.create_dataset("box_a", shape=x.shape, dtype=x.dtype, chunks=(16, 32), fillvalue=-3,
                             **gpulz.Gpulz())
        b = f.create_dataset("box_b", shape=x.shape, dtype=x.dtype, chunks=(16, 32), fillvalue=-3,
                             **gpulz.Gpulz())
        for sel in (np.s_[16:48, 32:], np.s_[48:, :32], np.s_[..., 64:70], np.s_[32:48]):
            a[sel] = x[sel]
            check(gpulz.write_direct(b, x[sel], sel) is True,
                  "box %r: chunk path not taken" % (sel,))
            same_chunks(a, b, "box %r" % (sel,))
        want = a[...]
        check((want == -3).sum() > 0, "no unallocated chunks left to read")
        for d in (a, b):
            out = np.empty_like(x)
            check(gpulz.read_direct(d, out) and np.array_equal(out, want),
                  "%s: unallocated chunks, fill value" % d.name)
            for sel in (np.s_[16:32, 32:64], np.s_[48:, 64:], np.s_[32:48, ...]):
                out = np.empty(want[sel].shape, x.dtype)
                check(gpulz.read_direct(d, out, sel) is True and np.array_equal(out, want[sel]),
                      "%s: read_direct of %r" % (d.name, sel))
        # an integer drops its axis, on the chunk path where chunks are 1 long there
        z = sample(9 * 20 * 30, np.float32, seed=5).reshape(9, 20, 30)
        ds = [f.create_dataset("planes_" + w, shape=z.shape, dtype=z.dtype, chunks=(1, 8, 16),
                               **gpulz.Gpulz()) for w in "ab"]
        ds[0][4] = z[4]
        ds[0][-1, :, 16:] = z[-1, :, 16:]
        check(gpulz.write_direct(ds[1], z[4], 4) and gpulz.write_direct(ds[1], z[-1, :, 16:],
                                                                         np.s_[-1, :, 16:]),
              "planes: chunk path not taken")
        same_chunks(ds[0], ds[1], "planes")
        out = np.empty((20, 14), z.dtype)
        check(gpulz.read_direct(ds[1], out, np.s_[7, :, 16:]) and np.array_equal(out, 0 * out)
              and gpulz.read_direct(ds[1], out, np.s_[-1, :, 16:])
              and np.array_equal(out, z[-1, :, 16:]), "planes: read_direct")
        # a gather from non-contiguous data and a scatter into a non-contiguous out
        c = f.create_dataset("box_c", shape=x.shape, dtype=x.dtype, chunks=(16, 32), fillvalue=-3,
                             **gpulz.Gpulz())
        big = np.zeros((60, 140), x.dtype)
        big[:, ::2] = want
        check(gpulz.write_direct(c, big[:, ::2]) and gpulz.write_direct(c, np.asfortranarray(want)),
              "non-contiguous data: chunk path not taken")
        a = f.create_dataset("box_d", data=want, chunks=(16, 32), fillvalue=-3, **gpulz.Gpulz())
        same_chunks(a, c, "non-contiguous data")
        big[...] = 0
        check(gpulz.read_direct(c, big[:, 1::2]) and np.array_equal(big[:, 1::2], want)
              and not big[:, ::2].any(), "read_direct into a non-contiguous out")

        # fill values and fill times (HDF5 pads edge chunks with the fill
        # value unless it never writes it), a mandatory filter, incompressible
        # data: an optional filter stores it unfiltered, mask bit 0 set
        y = sample(1000, np.int16, seed=4)
        for k, (fill, when, mandatory) in enumerate((
                (7, h5py.h5d.FILL_TIME_IFSET, False), (7, h5py.h5d.FILL_TIME_ALLOC, True),
                (7, h5py.h5d.FILL_TIME_NEVER, False), (None, None, True), (0, None, False))):
            what = "fill %r, fill time %r, %s" % (fill, when,
                                                   "mandatory" if mandatory else "optional")
            ds = [make_dataset(h5py, f, "fill%d_%s" % (k, w), y.shape, y.dtype, (256,),
                               mandatory=mandatory, fill=fill, fill_time=when) for w in "ab"]
            ds[0][...] = y
            check(gpulz.write_direct(ds[1], y), "%s: chunk path not taken" % what)
            same_chunks(ds[0], ds[1], what)
        # a fill value HDF5 never writes: where no chunk is allocated HDF5
        # does not give it, and read_direct must read what h5py reads
        d = make_dataset(h5py, f, "fill_never_read", y.shape, y.dtype, (256,), fill=7,
                         fill_time=h5py.h5d.FILL_TIME_NEVER)
        check(gpulz.write_direct(d, y[:256], np.s_[:256]), "fill never: chunk path not taken")
        out, ref = np.full(y.shape, -5, y.dtype), d[...]
        gpulz.read_direct(d, out)
        check(np.array_equal(out, ref), "fill never: read_direct gives %r where h5py gives %r"
              % (out[300], ref[300]))
        noise = np.random.default_rng(3).integers(0, 256, 20000).astype(np.uint8)
        for mandatory in (False, True):
            what = "incompressible, %s" % ("mandatory" if mandatory else "optional")
            ds = [make_dataset(h5py, f, "noise%d_%s" % (mandatory, w), noise.shape, noise.dtype,
                               (4096,), mandatory=mandatory) for w in "ab"]
            ds[0][...] = noise
            check(gpulz.write_direct(ds[1], noise), "%s: chunk path not taken" % what)
            masks = {m for m, _ in same_chunks(ds[0], ds[1], what).values()}
            # the edge chunk's zeros shrink even so
            check(masks == ({0} if mandatory else {0, 1}), "%s: filter masks %s" % (what, masks))
            out = np.empty_like(noise)
            check(gpulz.read_direct(ds[1], out) and np.array_equal(out, noise), "%s: read" % what)
        # the call's last chunk stored unfiltered: HDF5 caches the last chunk
        # write_direct_chunk stored with mask 0, whatever its mask, so that
        # reading it first in the same session (h5py or read_direct) failed
        for shape, sel in (((3 * 4096,), np.s_[2 * 4096:]), ((4096,), np.s_[:])):
            what = "unfiltered last chunk of %s" % (shape,)
            ds = [make_dataset(h5py, f, "noise_last%d_%s" % (shape[0], w), shape, noise.dtype,
                               (4096,)) for w in "ab"]
            y = noise[:shape[0]]
            ds[0][...] = y
            check(gpulz.write_direct(ds[1], y), "%s: chunk path not taken" % what)
            try:
                got = ds[1][sel]
            except OSError as e:
                raise Failed("%s: h5py cannot read it back: %s" % (what, e)) from None
            check(np.array_equal(got, y[sel]), "%s: h5py reads other data" % what)
            out = np.empty_like(y[sel])
            # a dataset of one chunk is read through h5py (the single-chunk index)
            check(gpulz.write_direct(ds[1], y[sel], sel)
                  and gpulz.read_direct(ds[1], out, sel) is (shape[0] > 4096)
                  and np.array_equal(out, y[sel]), "%s: read_direct" % what)
            masks = {m for m, _ in same_chunks(ds[0], ds[1], what).values()}
            check(masks == {1}, "%s: filter masks %s" % (what, masks))
        # chunks that change between compressed and unfiltered, each read
        # first after the write: HDF5 caches the chunk write_direct_chunk
        # stored last with the mask it had before, which took gpulz's bytes
        # for data (unfiltered -> compressed, a later handle) or ran the
        # filter on raw bytes (compressed through h5py -> unfiltered)
        low = (np.arange(4 * 4096) % 10).astype(np.uint8)
        for way in (0, 1):
            before, after = (low, noise[:4 * 4096]) if way else (noise[:4 * 4096], low)
            for chunks in (1, 2, 4):
                for k in range(chunks):
                    name = "mask_change%d_%d_%d" % (way, chunks, k)
                    what = "%s, %d chunks, chunk %d read first" % (
                        "compressed to unfiltered" if way else "unfiltered to compressed", chunks, k)
                    d = make_dataset(h5py, f, name, (chunks * 4096,), np.uint8, (4096,))
                    if way:
                        d[...] = before[:chunks * 4096]
                    else:
                        check(gpulz.write_direct(d, before[:chunks * 4096]), "%s: chunk path" % what)
                        # its only handle closed: a later one starts without HDF5's caches
                        del d
                        d = h5py.Dataset(h5py.h5d.open(f.id, name.encode()))
                    check(gpulz.write_direct(d, after[:chunks * 4096]), "%s: chunk path" % what)
                    try:
                        got = d[k * 4096:(k + 1) * 4096]
                    except OSError as e:
                        raise Failed("%s: h5py cannot read it back: %s" % (what, e)) from None
                    check(np.array_equal(got, after[k * 4096:(k + 1) * 4096]),
                          "%s: h5py reads other data" % what)
        # one chunk under a mandatory filter, stored unfiltered (mask 1), then
        # written directly alone: HDF5 kept the old mask in its lookup cache
        # and h5py read gpulz's bytes as data
        d = make_dataset(h5py, f, "raw_then_coded", (2 * 4096,), np.uint8, (4096,), mandatory=True)
        d.id.write_direct_chunk((0,), noise[:4096].tobytes(), 1)
        del d
        d = h5py.Dataset(h5py.h5d.open(f.id, b"raw_then_coded"))
        check(gpulz.write_direct(d, low[:4096], np.s_[:4096]), "raw then coded: chunk path")
        check(np.array_equal(d[:4096], low[:4096]), "raw then coded alone: h5py reads other data")
        # a compound type of 6 bytes (symbol size 2 from the type)
        rec = np.zeros(3000, dtype=[("a", "<i2"), ("b", "<f4")])
        rec["a"], rec["b"] = sample(3000, np.int16), sample(3000, np.float32, seed=2)
        ds = [f.create_dataset("rec_" + w, shape=rec.shape, dtype=rec.dtype, chunks=(512,),
                               **gpulz.Gpulz()) for w in "ab"]
        ds[0][...] = rec
        check(gpulz.write_direct(ds[1], rec), "compound: chunk path not taken")
        same_chunks(ds[0], ds[1], "compound")
        out = np.empty_like(rec)
        check(gpulz.read_direct(ds[1], out) and out.tobytes() == rec.tobytes(), "compound: read")
        # a record with padding (bytes 1-7 and 12-15 in no field), its
        # chunks gathered and placed element by element: HDF5 stores and
        # reads the padding bytes too
        padded = np.dtype({"names": ["a", "b"], "formats": ["u1", "<i4"], "offsets": [0, 8],
                           "itemsize": 16})
        prec = np.full((12, 20, 16), 0x5A, np.uint8).view(padded)[..., 0]
        prec["a"], prec["b"] = np.arange(240).reshape(12, 20), sample(240, np.int32).reshape(12, 20)
        ds = [f.create_dataset("padded_" + w, shape=prec.shape, dtype=padded, chunks=(4, 8),
                               **gpulz.Gpulz()) for w in "ab"]
        ds[0][...] = prec
        check(gpulz.write_direct(ds[1], prec), "padded record: chunk path not taken")
        same_chunks(ds[0], ds[1], "padded record")
        out = np.full(prec.shape + (16,), 0xA5, np.uint8).view(padded)[..., 0]
        check(gpulz.read_direct(ds[0], out) and out.tobytes() == ds[0][...].tobytes(),
              "padded record: read_direct's padding bytes are not the file's")
        # one edge chunk, written through h5py's filter (an optional filter)
        ds = [f.create_dataset("padded_one_" + w, shape=prec.shape, dtype=padded,
                               chunks=(16, 32), maxshape=(None, None), **gpulz.Gpulz())
              for w in "ab"]
        ds[0][...] = prec
        check(gpulz.write_direct(ds[1], prec), "padded record, one chunk: chunk path not taken")
        check(ds[1][...].tobytes() == prec.tobytes(), "padded record, one chunk: padding lost")
        same_chunks(ds[0], ds[1], "padded record, one chunk")
        # a compound with an array of variable-length strings (pointers in
        # memory, heap references in the file; HDF5's class test misses them
        # inside an array): never the chunk path
        vrec = np.zeros(100, dtype=[("a", "<i4"), ("s", h5py.string_dtype(), (2,))])
        vrec["a"] = np.arange(100)
        vrec["s"] = [["x" * (i % 7), "y" * (i % 3)] for i in range(100)]
        dv = f.create_dataset("vlen_rec", shape=vrec.shape, dtype=vrec.dtype, chunks=(32,),
                              **gpulz.Gpulz())
        check(gpulz.write_direct(dv, vrec) is False, "compound with a string: the chunk path was taken")
        back = dv[...]
        text = [[v.decode() if isinstance(v, bytes) else v for v in row] for row in back["s"]]
        check(list(back["a"]) == list(vrec["a"]) and text == [list(row) for row in vrec["s"]],
              "compound with a string: written through h5py")
        out = np.empty_like(vrec)
        check(gpulz.read_direct(dv, out) is False and list(out["a"]) == list(vrec["a"]),
              "compound with a string: read through h5py")

        # an array type: h5py gives its elements as trailing axes of the base
        # type, the out a caller makes as np.empty(d.shape, d.dtype) makes it
        va = np.arange(30, dtype=np.int32).reshape(10, 3)
        da = f.create_dataset("subarray", shape=(10,), dtype=("<i4", (3,)), chunks=(4,),
                              **gpulz.Gpulz())
        check(gpulz.write_direct(da, va) is False and np.array_equal(da[...], va),
              "array type: written through h5py")
        for sel, out in ((None, np.empty(da.shape, da.dtype)), (np.s_[4:8], np.empty((4, 3))),
                         (5, np.empty(3, np.int64))):
            try:
                took = gpulz.read_direct(da, out, sel)
            except OSError as e:
                raise Failed("array type: read_direct of %r into %s: %s" % (sel, out.dtype, e))
            check(took is False and np.array_equal(out, va[sel if sel is not None else ...]),
                  "array type: read_direct of %r into %s" % (sel, out.dtype))

        # batches: a dataset's chunks over several batched calls
        old = _h5direct.BATCH_CHUNKS
        _h5direct.BATCH_CHUNKS = 3
        try:
            d = f.create_dataset("batches", shape=x.shape, dtype=x.dtype, chunks=(16, 32),
                                 **gpulz.Gpulz())
            spy.take()
            check(gpulz.write_direct(d, x), "batches: chunk path not taken")
            calls = spy.take()
            check([c[1] for c in calls] == [3] * 4, "batches of 3 of 12 chunks: %r" % calls)
            out = np.empty_like(x)
            check(gpulz.read_direct(d, out) and np.array_equal(out, x), "batches: read")
        finally:
            _h5direct.BATCH_CHUNKS = old
        a = f.create_dataset("batches_filter", shape=x.shape, dtype=x.dtype, chunks=(16, 32),
                             **gpulz.Gpulz())
        a[...] = x
        same_chunks(a, d, "batches")

        # what the chunk path cannot do goes through h5py, correctly
        d = f.create_dataset("fallback", shape=x.shape, dtype=x.dtype, chunks=(16, 32),
                             fillvalue=-3, **gpulz.Gpulz())
        want = np.full(x.shape, -3, x.dtype)
        for sel, data in ((np.s_[5:20], x[5:20]), (np.s_[::2], x[::2]), (np.s_[[1, 3, 40]],
                                                                        x[[1, 3, 40]]),
                          (np.s_[16:32, 0:32], x[16:32, 0:32].astype(np.float64) + 0.25),
                          (np.s_[16:40], x[16:40] + 1),
                          (np.s_[32:48], 5), (np.s_[0:0], x[0:0]),
                          (np.s_[48:], x[48:].astype(">i4"))):
            spy.take()
            check(gpulz.write_direct(d, data, sel) is False and not spy.take(),
                  "write of %r %r: the chunk path was taken" % (sel, getattr(data, "dtype", None)))
            want[sel] = data
            check(np.array_equal(d[...], want), "write of %r through h5py" % (sel,))
        # data that is not an array, as h5py takes it: converted by numpy to
        # the dataset's type (HDF5's conversion from numpy's guess at its
        # dtype cut bytes at a NUL, and refused str and tuples for records)
        rec_t = np.dtype([("a", "<i4"), ("b", "<f8")])
        for k, (dtype, sel, data, took) in enumerate((
                ("S5", np.s_[0:2], b"\x00abc", False),
                ("S5", None, [b"\x00ab", b"c\x00d", b"e", b"f"], False),
                ("S5", None, ["ab", "cde", "f", "g"], False),
                ("S5", None, [b"\x00abcd", b"a", b"b", b"c"], True),
                (rec_t, None, [(1, 2.5), (3, 4.5), (5, 6.5), (7, 8.5)], False),
                (rec_t, np.s_[2:4], (9, 1.5), False))):
            ds = [f.create_dataset("literal%d_%s" % (k, w), shape=(4,), dtype=dtype, chunks=(2,),
                                   **gpulz.Gpulz()) for w in "ab"]
            ds[0][Ellipsis if sel is None else sel] = data
            try:
                got = gpulz.write_direct(ds[1], data, sel)
            except (TypeError, ValueError) as e:
                raise Failed("write of %r: %s" % (data, e)) from None
            check(got is took and ds[1][...].tobytes() == ds[0][...].tobytes(),
                  "write of %r: %r where h5py writes %r" % (data, ds[1][...], ds[0][...]))
        spy.take()
        for sel, out in ((np.s_[5:20], np.empty((15, 70), x.dtype)),
                         (np.s_[16:40], np.empty((24, 70), x.dtype)),
                         (np.s_[:, 1], np.empty(60, x.dtype)),
                         (np.s_[16:32], np.empty((16, 70), np.float64)),
                         (np.s_[16:32], np.empty((1, 16, 70), x.dtype)),
                         (np.s_[16:32], np.empty((16, 70), ">i4"))):
            check(gpulz.read_direct(d, out, sel) is False and not spy.take(),
                  "read of %r into %s %s: the chunk path was taken" % (sel, out.dtype, out.shape))
            check(np.array_equal(out, np.broadcast_to(want[sel], out.shape)),
                  "read of %r into %s through h5py" % (sel, out.dtype))
        # a field by name, as out[...] = d["a"] reads it (converted to out's
        # type); a field the dataset lacks is h5py's error, never a read
        sub_t = np.dtype([("a", "<i4"), ("v", "<f4", (3,))])
        rv = np.zeros(8, sub_t)
        rv["a"], rv["v"] = np.arange(8), np.arange(24).reshape(8, 3) / 4
        d = f.create_dataset("fields", data=rv, chunks=(4,), **gpulz.Gpulz())
        for sel, out in (("a", np.empty(8, "i4")), (("a", np.s_[2:6]), np.empty(4, "f8")),
                         (("v", 3), np.empty(3, "f4")), ("v", np.empty((8, 3), "f8"))):
            try:
                took = gpulz.read_direct(d, out, sel)
            except (TypeError, ValueError) as e:
                raise Failed("read of field %r into %s: %s" % (sel, out.dtype, e)) from None
            check(took is False and np.array_equal(out, d[sel]),
                  "read of field %r into %s: %r" % (sel, out.dtype, out))
        for out in (np.zeros(8, "i4"), np.zeros(8, [("zz", "<i4")])):
            try:
                gpulz.read_direct(d, out, "zz")
                raise Failed("a field the dataset lacks was read into %s" % out.dtype)
            except ValueError:
                pass
        for what, kwargs in (("shuffle", dict(shuffle=True, **gpulz.Gpulz())),
                             ("deflate", dict(compression="gzip")), ("no filter", {}),
                             ("contiguous", dict(chunks=None))):
            kwargs.setdefault("chunks", (16, 32))
            d = f.create_dataset("fallback_" + what, shape=x.shape, dtype=x.dtype, **kwargs)
            out = np.empty_like(x)
            check(gpulz.write_direct(d, x) is False and np.array_equal(d[...], x)
                  and gpulz.read_direct(d, out) is False and np.array_equal(out, x)
                  and not spy.take(), "%s: the chunk path was taken, or wrong data" % what)
        # a dataset of no dataspace (h5py.Empty): what h5py's write does
        # (nothing in h5py 3.7, an OSError from HDF5 2.0 in h5py 3.16)
        d = f.create_dataset("fallback_empty", data=h5py.Empty("i4"))
        try:
            d[...] = np.int32(5)
            refused = None
        except Exception as e:
            refused = type(e)
        try:
            check(gpulz.write_direct(d, np.int32(5)) is False and refused is None,
                  "h5py.Empty: written where h5py raises %s" % refused)
        except Exception as e:
            check(type(e) is refused, "write_direct into h5py.Empty: %s: %s where h5py %s"
                  % (type(e).__name__, e, "raises %s" % refused.__name__ if refused else "writes"))
        # HDF5 stores edge chunks unfiltered here, with no mask bit saying so
        ds = [make_dataset(h5py, f, "partial_" + w, x.shape, x.dtype, (16, 32),
                           dont_filter_partial=True) for w in "ab"]
        ds[0][...] = x
        out = np.empty_like(x)
        check(gpulz.write_direct(ds[1], x) is False and gpulz.read_direct(ds[0], out) is False
              and np.array_equal(out, x) and not spy.take(),
              "H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS: the chunk path was taken")
        same_chunks(ds[0], ds[1], "H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS")
        read_only = np.empty_like(x)
        read_only.setflags(write=False)
        try:
            gpulz.read_direct(d, read_only)
            raise Failed("a read-only out was accepted")
        except ValueError:
            pass

        # backend "gpu" without a usable GPU fails the write, as compress()
        # fails, rather than store every chunk unfiltered under the optional filter
        if not gpulz.get_config()["gpu_usable"]:
            d = f.create_dataset("no_gpu", shape=x.shape, dtype=x.dtype, chunks=(16, 32),
                                 **gpulz.Gpulz())
            try:
                gpulz.write_direct(d, x, backend="gpu")
                raise Failed("write_direct(backend='gpu') without a GPU stored %d chunks"
                             % d.id.get_num_chunks())
            except gpulz.GpulzError as e:
                check(e.status == _codec.C["GPULZ_ERR_NO_GPU"] and d.id.get_num_chunks() == 0,
                      "write_direct(backend='gpu') without a GPU: %s" % e)

        # damaged chunks, and a chunk of another size, fail the read
        d = f.create_dataset("damaged", data=x, chunks=(16, 32), **gpulz.Gpulz())
        info = d.id.get_chunk_info(1)
        _, good = d.id.read_direct_chunk(info.chunk_offset)
        bad = bytearray(good)
        bad[len(bad) // 2] ^= 0x5A
        d.id.write_direct_chunk(info.chunk_offset, bytes(bad), 0)
        for chunk, why in ((bytes(bad), "damaged"),
                           (gpulz.compress(x[:8, :32], mode="auto"), "half a chunk's size")):
            d.id.write_direct_chunk(info.chunk_offset, chunk, 0)
            try:
                gpulz.read_direct(d, np.empty_like(x))
                raise Failed("a %s chunk was read" % why)
            except gpulz.GpulzError as e:
                check(str(info.chunk_offset) in str(e), "%s chunk: %s" % (why, e))

    # the stored vectors of gpulz 0.1 (five values: lz) and of gpulz today,
    # resolved as the filter resolves them: the 0.1 fixture's chunks again,
    # byte for byte (its edge chunks padded with zeros, its optional
    # incompressible chunks unfiltered, its big-endian integers)
    with tempfile.TemporaryDirectory() as tmp, h5py.File(FIXTURE, "r") as src, \
            h5py.File(os.path.join(tmp, "fixture_copy.h5"), "w") as f:
        for name in src:
            f.copy(src[name], name)
            d = f[name]
            check(len(d.id.get_create_plist().get_filter(0)[2]) == 5, "%s: not 5 values" % name)
            data = src[name][...]
            check(gpulz.write_direct(d, data), "fixture %s: chunk path not taken" % name)
            same_chunks(src[name], d, "fixture %s" % name)
            out = np.empty_like(data)
            # a dataset of one chunk is read through h5py (the single-chunk index)
            check(gpulz.read_direct(src[name], out) is not _h5direct._single(src[name])
                  and out.tobytes() == data.tobytes(), "fixture %s: read_direct" % name)
    for values, want in (((), 3), ((0, 0, 0, 0, 0), 3), ((1, 0, 0, 0, 0), 0),
                         ((1, 4, 64, 4096, 1, 800), 0), ((2, 4, 128, 2048, 0, 800, 0), 3),
                         ((1, 4, 128, 2048, 0, 800, 0), 0), ((2, 4, 128, 2048, 2, 800, 1), 1),
                         ((1, 2, 128, 2048, 0, 800, 2), 2), ((0, 8, 32, 256, 0, 800, 3), 3)):
        opts = _codec.cd_values_options(values)
        check(opts["mode"] == want, "cd_values %r: mode %d, not %d" % (values, opts["mode"], want))
        full = tuple(values) + (0,) * (5 - len(values))
        check((opts["symbol_size"], opts["window"], opts["block"], opts["flags"])
              == (full[1] or 1, full[2] or 128, full[3] or 2048, full[4]),
              "cd_values %r: %r" % (values, opts))
    for values in ((3, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 4), (0,) * 8, (0, 3, 0, 0, 0),
                   (0, 0, 256, 0, 0), (0, 0, 0, 1000, 0), (0, 0, 0, 0, 4)):
        try:
            _codec.cd_values_options(values)
            raise Failed("cd_values %r were accepted" % (values,))
        except ValueError:
            pass
    # a dataset of one chunk of fixed size in file format 1.10 (HDF5's
    # single-chunk index): h5py read the stored bytes as data on the same
    # handle right after write_direct_chunk
    low = (np.arange(4096) % 10).astype(np.uint8)
    with tempfile.TemporaryDirectory() as tmp, \
            h5py.File(os.path.join(tmp, "latest.h5"), "w", libver="latest") as g:
        for shape in ((4096,), (64, 64)):
            x = low.reshape(shape)
            d = make_dataset(h5py, g, "one%d" % len(shape), shape, np.uint8, shape, mandatory=True)
            check(gpulz.write_direct(d, x), "one fixed chunk %s: chunk path" % (shape,))
            check(np.array_equal(d[...], x),
                  "one fixed chunk %s (single-chunk index): h5py reads other data" % (shape,))
        # read_direct where read_direct_chunk fails for other reasons than an
        # unallocated chunk: a dataset never written (HDF5 leaves the storage
        # size unset, h5py 3.7 raised ValueError, 3.16 MemoryError or
        # OSError); the single-chunk index right after h5py wrote the chunk
        # (sized 0: the same errors); an extensible array over the second
        # dimension, where an unallocated chunk HDF5 holds in its cache
        # failed and get_chunk_info_by_coord answered for an allocated one
        x = low[:64].reshape(8, 8).astype(np.int16)

        def read_back(d, want, what):
            out = np.zeros_like(x)
            try:
                gpulz.read_direct(d, out)
            except Exception as e:
                raise Failed("%s: read_direct: %s: %s" % (what, type(e).__name__, e)) from None
            check(np.array_equal(out, want), "%s: read_direct reads other data" % what)

        d = make_dataset(h5py, g, "never_written", x.shape, x.dtype, (4, 4), fill=-2)
        read_back(d, np.full_like(x, -2), "never written")
        d = make_dataset(h5py, g, "single_read", x.shape, x.dtype, x.shape)
        d[...] = x
        read_back(d, x, "single-chunk index, after h5py's write")
        # ... where read_direct_chunk sizes its buffer from a variable HDF5
        # leaves unset (a chunk of 0 bytes, or one written past the buffer):
        # such reads go through h5py
        check(gpulz.read_direct(d, np.zeros_like(x)) is False,
              "single-chunk index: read_direct took the chunk path")
        d = g.create_dataset("earray_read", shape=(8, 8), maxshape=(8, None), chunks=(4, 4),
                             dtype=x.dtype, fillvalue=-2, **gpulz.Gpulz())
        d[:4, :4] = x[:4, :4]
        read_back(d, d[...], "extensible array over the second dimension")

    # a chunk rewritten at its stored size with the other filter mask: HDF5
    # (1.10.8, 2.0) keeps the chunk where it is and the mask its index held.
    # A chunk compressed to exactly the chunk size over one stored
    # unfiltered (mandatory filter) read back as gpulz's bytes; an
    # unfiltered chunk over one compressed to exactly the chunk size
    # (optional filter) was decoded
    n = 256
    x = np.full(2 * n, 5, np.uint8)
    x[:n] = 0
    x[:133] = np.random.default_rng(133).integers(0, 256, 133)  # compresses to n bytes
    noise = np.random.default_rng(7).integers(0, 256, 2 * n).astype(np.uint8)
    with tempfile.TemporaryDirectory() as tmp, \
            h5py.File(os.path.join(tmp, "mask.h5"), "w") as g:
        d = make_dataset(h5py, g, "to_filtered", x.shape, np.uint8, (n,), mandatory=True)
        for o in (0, n):
            d.id.write_direct_chunk((o,), noise[o:o + n].tobytes(), 1)
        check(gpulz.write_direct(d, x), "unfiltered chunks rewritten: chunk path")
        mask, coded = d.id.read_direct_chunk((0,))
        check(len(coded) == n, "the test's chunk compresses to %d bytes, not %d" % (len(coded), n))
        check(mask == 0 and np.array_equal(d[...], x),
              "a chunk compressed to the chunk size over an unfiltered one: mask %d, h5py reads "
              "other data" % mask)
        out = np.zeros_like(x)
        check(gpulz.read_direct(d, out) and np.array_equal(out, x),
              "a chunk compressed to the chunk size over an unfiltered one: read_direct")
        d = make_dataset(h5py, g, "to_unfiltered", x.shape, np.uint8, (n,))
        for o in (0, n):
            d.id.write_direct_chunk((o,), bytes(coded), 0)
        check(gpulz.write_direct(d, noise), "chunks compressed to their size rewritten: chunk path")
        mask = d.id.get_chunk_info_by_coord((0,)).filter_mask
        check(mask == 1 and np.array_equal(d[...], noise),
              "an unfiltered chunk over one compressed to the chunk size: mask %d, h5py reads "
              "other data" % mask)
    return ("h5py %s: %d datasets (modes lz, fast, ratio, auto; 1, 2, 4 and 8-byte elements; "
            "ranks 1-3) written and read directly, the filter's bytes; boxes, fill values, "
            "unallocated chunks, batches, h5py's path where needed; the 0.1 fixture's "
            "chunks again" % (h5py.version.version, cases))


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
    try:
        codec.encode(np.array(["a", None], object))
        raise Failed("numcodecs: an object array was encoded")
    except TypeError:
        pass
    z = (x.astype(np.complex128) * (1 + 1j)).reshape(256, 256)
    check(codec.encode(z) == gpulz.compress(z, mode="ratio", symbol_size=8),
          "numcodecs: complex128 not encoded with symbol size 8")
    # where the work ran is no part of what is stored (Zarr v2's .zarray):
    # a config naming backend "gpu" could not be decoded without a GPU
    config = GpulzCodec(mode="ratio", threads=1, backend="cpu").get_config()
    check("backend" not in config and "threads" not in config
          and numcodecs.get_codec(config).decode(enc) == codec.decode(enc),
          "numcodecs: the config holds where the work runs: %r" % config)
    check(GpulzCodec().mode == "auto" and numcodecs.get_codec({"id": "gpulz"}).mode == "auto",
          "numcodecs: the default mode is not auto")
    for config in ({"window": 2 ** 32 + 128}, {"threads": 2 ** 32}, {"threads": 5000}):
        try:
            numcodecs.get_codec(dict(config, id="gpulz"))
            raise Failed("numcodecs: %r was accepted" % config)
        except ValueError:
            pass
    return "numcodecs %s: get_codec({'id': 'gpulz'}) round trip" % numcodecs.__version__


def test_zarr():
    import zarr
    from gpulz.zarr_codec import GpulzZarrCodec
    x = sample(1 << 18, np.uint16).reshape(512, 512)
    store = zarr.storage.MemoryStore()
    a = zarr.create_array(store, shape=x.shape, chunks=(128, 256), dtype=x.dtype,
                          compressors=[GpulzZarrCodec()], zarr_format=3)
    a[...] = x
    b = zarr.open_array(store, mode="r")  # the codec from the metadata, by entry point
    got = b[...]
    check(isinstance(got, np.ndarray) and np.array_equal(got, x), "zarr: data differ")
    conf = [c.to_dict() for c in b.compressors]
    check(conf and conf[0]["name"] == "gpulz" and conf[0]["configuration"]["symbol_size"] == 2 and
          conf[0]["configuration"]["mode"] == "auto",
          "zarr: compressors %r" % conf)
    chunks = chunk_items(store)
    check(len(chunks) == 8, "zarr: %d chunks stored, not 8" % len(chunks))
    # zarr hands the codec its chunks in batches: each stored chunk must be
    # what gpulz.compress writes for that chunk alone
    for (i, j), stored in chunks.items():
        want = gpulz.compress(x[i * 128:(i + 1) * 128, j * 256:(j + 1) * 256], mode="auto")
        check(stored == want, "zarr: chunk %d/%d differs from gpulz.compress's" % (i, j))
    size = sum(len(v) for v in chunks.values())
    check(0 < size < x.nbytes // 2, "zarr: %d bytes stored of %d" % (size, x.nbytes))
    # zarr 3.0's ArraySpec.dtype is the numpy dtype, 3.1's a zarr data type:
    # either gives the element size (a symbol size of 1 would be stored)
    import types
    for dtype, want in (("u2", 2), (">i4", 4), ("f8", 8), ("c16", 8), ("U3", 4), ("S3", 1)):
        got = GpulzZarrCodec().evolve_from_array_spec(types.SimpleNamespace(dtype=np.dtype(dtype)))
        check(got.symbol_size == want, "zarr: symbol size %d for a numpy %s" % (got.symbol_size, dtype))
    c16 = zarr.create_array(zarr.storage.MemoryStore(), shape=(64,), dtype="c16",
                            compressors=[GpulzZarrCodec()], zarr_format=3)
    check(c16.compressors[0].symbol_size == 8,
          "zarr: a complex128 array took symbol size %d" % c16.compressors[0].symbol_size)
    try:
        b.compressors[0].compute_encoded_size(1000, None)
        raise Failed("zarr: compute_encoded_size gave a size")
    except NotImplementedError:
        pass
    return "zarr %s: a v3 array through the gpulz codec on the host (%d of %d bytes stored)" % (
        zarr.__version__, size, x.nbytes)


def chunk_items(store):
    """{(i, j): bytes} of the chunks of a 2-D array at the root of a MemoryStore."""
    out = {}
    for key, value in store._store_dict.items():
        parts = key.split("/")
        if len(parts) == 3 and parts[0] == "c":
            data = value.as_array_like()
            if hasattr(data, "__cuda_array_interface__"):
                data = value.as_numpy_array()
            out[(int(parts[1]), int(parts[2]))] = bytes(np.asarray(data))
    return out


class Foreign:
    """A CUDA array known only by its __cuda_array_interface__, as a torch
    tensor is to CuPy."""
    def __init__(self, a):
        self.__cuda_array_interface__ = a.__cuda_array_interface__


def test_gpu():
    """The GPU: the host API on it, CuPy arrays without a host copy, and
    batches of CuPy arrays; the bytes equal the CPU's."""
    cupy = need_gpu()
    import resource
    x = sample(1 << 22, np.uint16, seed=5)
    host = gpulz.compress(x, backend="cpu")
    check(gpulz.compress(x, backend="gpu") == host, "GPU backend: bytes differ from the CPU's")
    check(np.array_equal(gpulz.decompress(host, np.empty_like(x), backend="gpu"), x),
          "GPU backend: decompress")
    d = cupy.asarray(x)
    # every mode runs on the GPU both ways (the no-copy check below)
    for mode in ("lz", "fast", "ratio", "auto"):
        want = gpulz.compress(x, mode=mode, backend="cpu")
        dc = gpulz.compress(d, mode=mode)
        check(isinstance(dc, cupy.ndarray) and cupy.asnumpy(dc).tobytes() == want,
              "CuPy, mode %s: bytes differ from the CPU's" % mode)
        back = gpulz.decompress(dc)
        check(isinstance(back, cupy.ndarray) and bool((back.view(cupy.uint16) == d).all()),
              "CuPy, mode %s: decompress" % mode)
        out = cupy.empty_like(d)
        check(gpulz.decompress(cupy.asarray(np.frombuffer(want, np.uint8)), out) is out
              and bool((out == d).all()), "CuPy, mode %s: decompress into out" % mode)
        # an out that is only a CUDA array (a torch tensor's kind): returned as given
        out = cupy.zeros_like(d)
        other = Foreign(out)
        check(gpulz.decompress(dc, other) is other and bool((out == d).all()),
              "mode %s: decompress into an out with only __cuda_array_interface__" % mode)
    # a damaged header is the library's error before its declared size is
    # allocated: a wrong magic, or an unknown version, with 2**60 bytes declared
    from gpulz import _codec
    for at, what in ((0, "magic"), (4, "version")):
        bad = bytearray(gpulz.compress(x[:4096], mode="fast", backend="cpu"))
        bad[at] ^= 0x40
        bad[12:20] = (1 << 60).to_bytes(8, "little")
        try:
            gpulz.decompress(cupy.asarray(np.frombuffer(bytes(bad), np.uint8)))
            check(False, "CuPy: a damaged %s decoded" % what)
        except gpulz.GpulzError as e:
            check(e.status in (_codec.C["GPULZ_ERR_CORRUPT"], _codec.C["GPULZ_ERR_VERSION"]),
                  "CuPy: a damaged %s: status %d" % (what, e.status))
        except MemoryError:
            check(False, "CuPy: a damaged %s was allocated its declared size first" % what)
        good = cupy.asarray(np.frombuffer(gpulz.compress(x[:4096], mode="fast", backend="cpu"), np.uint8))
        try:
            gpulz.decompress_batch([good, cupy.asarray(np.frombuffer(bytes(bad), np.uint8))])
            check(False, "CuPy batch: a damaged %s decoded" % what)
        except gpulz.GpulzError as e:
            check(e.status in (_codec.C["GPULZ_ERR_CORRUPT"], _codec.C["GPULZ_ERR_VERSION"])
                  and "chunk 1 of 2" in str(e), "CuPy batch: a damaged %s: %s" % (what, e))
        except MemoryError:
            check(False, "CuPy batch: a damaged %s was allocated its declared size first" % what)
    # no host copy: data made on the GPU, 512 MiB of it, moves the process's
    # peak resident size by far less than a host round trip would
    n = 1 << 28
    big = (cupy.arange(n, dtype=cupy.uint32) // 37 % 1000).astype(cupy.uint16)
    grew = {}
    for mode in ("lz", "fast", "ratio", "auto"):
        gpulz.decompress(gpulz.compress(big[:1 << 20], mode=mode))  # the GPU's buffers, once
        cupy.cuda.get_current_stream().synchronize()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        now = resident()
        bc = gpulz.compress(big, mode=mode)
        bd = gpulz.decompress(bc)
        cupy.cuda.get_current_stream().synchronize()
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        # a new peak above the resident size before: what the calls took on
        # the host (an earlier, higher peak leaves nothing to see)
        grew[mode] = after - now if after > peak else 0
        check(grew[mode] < big.nbytes // 8, "CuPy, mode %s: the resident size peaked %d bytes "
              "higher for %d on the GPU (a host copy?)" % (mode, grew[mode], big.nbytes))
        check(bool((bd.view(cupy.uint16) == big).all()), "CuPy, mode %s: 512 MiB" % mode)
        del bd
    check(cupy.asnumpy(bc).tobytes() == gpulz.compress(cupy.asnumpy(big), mode="auto",
                                                       backend="cpu"),
          "CuPy: 512 MiB, bytes differ from the CPU's")
    del big, bc
    # batches of CuPy arrays
    parts = [d[k << 18:(k + 1) << 18] for k in range(4)]
    batch = gpulz.compress_batch(parts, mode="fast")
    check(all(isinstance(b, cupy.ndarray) for b in batch)
          and [cupy.asnumpy(b).tobytes() for b in batch]
          == gpulz.compress_batch([cupy.asnumpy(p) for p in parts], mode="fast", backend="cpu"),
          "CuPy batch: bytes differ from the CPU's")
    outs = [cupy.empty_like(p) for p in parts]
    got = gpulz.decompress_batch(batch, outs)
    check(all(g is o and bool((o == p).all()) for g, o, p in zip(got, outs, parts)),
          "CuPy batch: decompress_batch into outs")
    outs = [cupy.zeros_like(p) for p in parts]
    others = [Foreign(o) for o in outs]
    got = gpulz.decompress_batch(batch, others)
    check(all(g is f and bool((o == p).all()) for g, f, o, p in zip(got, others, outs, parts)),
          "batch: decompress_batch into outs with only __cuda_array_interface__")
    return ("the host API and CuPy %s arrays on the GPU, the CPU's bytes in every mode; a damaged "
            "header refused before its size is allocated; 512 MiB in modes %s with %s MiB of host "
            "growth; batches" % (cupy.__version__, ", ".join(grew),
                                 ", ".join(str(g >> 20) for g in grew.values())))


def test_h5py_direct_gpu():
    """write_direct and read_direct with CuPy arrays: chunks gathered,
    compressed, decompressed and placed on the GPU (batches with
    GPULZ_MEMORY_DEVICE), the filter's bytes in every mode; what the GPU
    wrote the CPU filter reads; 256 MiB moved with no host copy."""
    cupy = need_gpu()
    import h5py
    import resource
    from gpulz import _h5direct
    x = sample(300 * 1000, np.uint16, seed=12).reshape(300, 1000)
    d = cupy.asarray(x)
    nchunks = 5 * 4  # (300, 1000) in chunks of (64, 256), edges in both dimensions
    with tempfile.TemporaryDirectory() as tmp, BatchSpy() as spy, \
            h5py.File(os.path.join(tmp, "direct_gpu.h5"), "w") as f:
        for mode in ("lz", "fast", "ratio", "auto"):
            what = "CuPy, mode %s" % mode
            opts = dict(shape=x.shape, dtype=x.dtype, chunks=(64, 256), fillvalue=9,
                        **gpulz.Gpulz(mode=mode))
            a = f.create_dataset("a_" + mode, **opts)
            b = f.create_dataset("b_" + mode, **opts)
            a[...] = x
            spy.take()
            check(gpulz.write_direct(b, d) is True, "%s: chunk path not taken" % what)
            calls = spy.take()
            check(calls == [(True, nchunks, True)], "%s: not one batch on the device: %r"
                  % (what, calls))
            stored = same_chunks(a, b, what)
            check(np.array_equal(b[...], x), "%s: the CPU filter reads other data" % what)
            coded = sum(m == 0 for m, _ in stored.values())
            for ds in (a, b):
                out = cupy.full(x.shape, 1, dtype=x.dtype)
                check(gpulz.read_direct(ds, out) is True and bool((out == d).all()),
                      "%s: read_direct of %s into a CuPy array" % (what, ds.name))
                calls = spy.take()
                check(calls == [(False, coded, True)], "%s: not one batch on the device: %r"
                      % (what, calls))
        # boxes, an integer, unallocated chunks (the fill value), unfiltered
        # chunks (incompressible, optional filter) placed from the upload
        c = f.create_dataset("box", shape=x.shape, dtype=x.dtype, chunks=(1, 256), fillvalue=9,
                             **gpulz.Gpulz())
        check(gpulz.write_direct(c, d[64:128, 256:], np.s_[64:128, 256:])
              and gpulz.write_direct(c, d[200], 200), "CuPy boxes: chunk path not taken")
        want = np.full(x.shape, 9, x.dtype)
        want[64:128, 256:], want[200] = x[64:128, 256:], x[200]
        check(np.array_equal(c[...], want), "CuPy boxes: the CPU filter reads other data")
        out = cupy.empty_like(d)
        check(gpulz.read_direct(c, out) and bool((out == cupy.asarray(want)).all()),
              "CuPy: unallocated chunks")
        row = cupy.empty(1000, dtype=x.dtype)
        check(gpulz.read_direct(c, row, 200) and bool((row == d[200]).all()), "CuPy: a row")
        noise = np.random.default_rng(5).integers(0, 1 << 16, 30000).astype(np.uint16)
        ds = [f.create_dataset("noise_" + w, shape=noise.shape, dtype=noise.dtype, chunks=(4096,),
                               **gpulz.Gpulz()) for w in "ab"]
        ds[0][...] = noise
        check(gpulz.write_direct(ds[1], cupy.asarray(noise)), "CuPy noise: chunk path not taken")
        masks = {m for m, _ in same_chunks(ds[0], ds[1], "CuPy, incompressible").values()}
        check(1 in masks, "CuPy, incompressible: filter masks %s" % masks)
        out = cupy.empty(noise.shape, noise.dtype)
        check(gpulz.read_direct(ds[1], out) and bool((out == cupy.asarray(noise)).all()),
              "CuPy, incompressible: unfiltered chunks placed")

        # anything with __cuda_array_interface__, not only CuPy
        e = f.create_dataset("foreign", shape=x.shape, dtype=x.dtype, chunks=(64, 256),
                             **gpulz.Gpulz())
        out = cupy.zeros_like(d)
        check(gpulz.write_direct(e, Foreign(d)) and gpulz.read_direct(e, Foreign(out))
              and bool((out == d).all()), "__cuda_array_interface__: direct I/O")
        # h5py's path, through the host
        spy.take()
        out = cupy.zeros((60, 1000), dtype=x.dtype)
        check(gpulz.write_direct(e, d[10:70] + 1, np.s_[10:70]) is False
              and gpulz.read_direct(e, out, np.s_[10:70]) is False and not spy.take()
              and bool((out == d[10:70] + 1).all()), "CuPy through h5py")
        # where the GPU cannot run the chunk path: through host memory
        real = _h5direct._device_usable
        _h5direct._device_usable = lambda: False
        try:
            out = cupy.zeros_like(d)
            check(gpulz.write_direct(e, d) and gpulz.read_direct(e, out)
                  and bool((out == d).all()), "CuPy through host memory")
            check({c[2] for c in spy.take()} == {False}, "CuPy through host memory: device")
        finally:
            _h5direct._device_usable = real

        # no host copy: 256 MiB made on the GPU moves the process's peak
        # resident size by far less than a host round trip would
        n = 1 << 27
        big = (cupy.arange(n, dtype=cupy.uint32) // 37 % 1000).astype(cupy.uint16)
        grew = {}
        for mode in ("lz", "auto"):
            g = f.create_dataset("big_" + mode, shape=(n,), dtype=np.uint16, chunks=(1 << 22,),
                                 **gpulz.Gpulz(mode=mode))
            warm = f.create_dataset("warm_" + mode, shape=(1 << 22,), dtype=np.uint16,
                                    chunks=(1 << 22,), **gpulz.Gpulz(mode=mode))
            out = cupy.empty_like(big)
            gpulz.write_direct(warm, big[:1 << 22])  # the GPU's buffers, once
            gpulz.read_direct(warm, out[:1 << 22])
            for step in ("write", "read"):
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
                now = resident()
                ok = gpulz.write_direct(g, big) if step == "write" else gpulz.read_direct(g, out)
                after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
                grew[mode, step] = after - now if after > peak else 0
                check(ok and grew[mode, step] < big.nbytes // 8,
                      "CuPy, mode %s, %s: the resident size peaked %d bytes higher for %d on "
                      "the GPU (a host copy?)" % (mode, step, grew[mode, step], big.nbytes))
            check(bool((out == big).all()), "CuPy, mode %s: 256 MiB" % mode)
            check(g.id.get_storage_size() < big.nbytes // 8, "CuPy, mode %s: %d bytes stored"
                  % (mode, g.id.get_storage_size()))
            del out
        check(np.array_equal(g[(1 << 26) - 5:(1 << 26) + 5],
                             cupy.asnumpy(big[(1 << 26) - 5:(1 << 26) + 5])),
              "CuPy, 256 MiB: the CPU filter reads other data")
    return ("CuPy %s: datasets written and read directly on the GPU in modes lz, fast, ratio, "
            "auto, the filter's bytes; boxes, fill values, unfiltered chunks, h5py's path; "
            "256 MiB with %s MiB of host growth" % (
                cupy.__version__, "/".join(str(v >> 20) for v in grew.values())))


def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_numcodecs_gpu():
    cupy = need_gpu()
    import numcodecs
    codec = numcodecs.get_codec({"id": "gpulz", "mode": "fast"})
    x = sample(1 << 20, np.float32, seed=7)
    d = cupy.asarray(x)
    enc = codec.encode(d)
    check(isinstance(enc, cupy.ndarray) and cupy.asnumpy(enc).tobytes() == codec.encode(x),
          "numcodecs: CuPy bytes differ from the host's")
    out = cupy.empty_like(d)
    check(codec.decode(enc, out=out) is out and bool((out == d).all()),
          "numcodecs: decode into a CuPy out")
    back = codec.decode(enc)
    check(isinstance(back, cupy.ndarray) and bool((back.view(cupy.float32) == d).all()),
          "numcodecs: decode of a CuPy buffer")
    return "numcodecs with CuPy buffers: encoded and decoded on the GPU, the host's bytes"


def test_zarr_gpu():
    """Zarr's GPU mode: the chunks reach the codec as device buffers and are
    decoded into device buffers; the stored bytes equal the host's."""
    cupy = need_gpu()
    import zarr
    from gpulz import zarr_codec
    from gpulz.zarr_codec import GpulzZarrCodec
    x = sample(1 << 18, np.uint16, seed=9).reshape(512, 512)
    seen = []
    real = zarr_codec.decompress_batch

    def spy(chunks, outs=None, **kw):
        res = real(chunks, outs, **kw)
        seen.append((all(isinstance(c, cupy.ndarray) for c in chunks),
                     all(isinstance(r, cupy.ndarray) for r in res), len(res)))
        return res
    zarr_codec.decompress_batch = spy
    try:
        results = []
        for mode in ("lz", "auto"):
            with zarr.config.enable_gpu():
                store = zarr.storage.MemoryStore()
                a = zarr.create_array(store, shape=x.shape, chunks=(128, 256), dtype=x.dtype,
                                      compressors=[GpulzZarrCodec(mode=mode)], zarr_format=3)
                a[...] = cupy.asarray(x)
                got = zarr.open_array(store, mode="r")[...]
            check(isinstance(got, cupy.ndarray), "zarr GPU mode, %s: read gave %s"
                  % (mode, type(got).__name__))
            check(bool((got == cupy.asarray(x)).all()), "zarr GPU mode, %s: data differ" % mode)
            for (i, j), stored in chunk_items(store).items():
                want = gpulz.compress(x[i * 128:(i + 1) * 128, j * 256:(j + 1) * 256], mode=mode,
                                      backend="cpu")
                check(stored == want, "zarr GPU mode, %s: chunk %d/%d differs from the CPU's"
                      % (mode, i, j))
            results.append(mode)
    finally:
        zarr_codec.decompress_batch = real
    check(seen and all(s[0] and s[1] for s in seen),
          "zarr GPU mode: chunks decoded off the GPU %r" % seen)
    # the same stored array read on the host
    host = zarr.open_array(store, mode="r")[...]
    check(isinstance(host, np.ndarray) and np.array_equal(host, x), "zarr: GPU-written, host-read")
    return ("zarr %s GPU mode (modes %s): %d chunks decoded from and into device buffers, "
            "the CPU's bytes" % (zarr.__version__, ", ".join(results), sum(s[2] for s in seen)))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    strict = False
    required = set()
    while argv:
        arg = argv.pop(0)
        if arg == "--strict":
            strict = True
        elif arg == "--require" and argv:
            required |= {m for m in argv.pop(0).split(",") if m}
        elif arg.startswith("--require="):
            required |= {m for m in arg[len("--require="):].split(",") if m}
        elif arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            print("python -m gpulz.test: unknown argument %r (--help)" % arg, file=sys.stderr)
            return 2
    tests = [("codec", test_codec, ()), ("batch", test_batch, ()), ("command", test_command, ()),
             ("h5py", test_h5py, ("h5py",)), ("fixture", test_fixture, ("h5py",)),
             ("h5py-direct", test_h5py_direct, ("h5py",)),
             ("numcodecs", test_numcodecs, ("numcodecs",)), ("zarr", test_zarr, ("zarr",)),
             ("gpu", test_gpu, ()), ("h5py-direct-gpu", test_h5py_direct_gpu, ("h5py",)),
             ("numcodecs-gpu", test_numcodecs_gpu, ("numcodecs",)),
             ("zarr-gpu", test_zarr_gpu, ("zarr",))]
    cfg = gpulz.get_config()
    print("gpulz %s (library %s, %s): plugin %s, CUDA %s, GPU %s" % (
        cfg["version"], cfg["library_version"], cfg["distribution"], cfg["plugin"],
        "built" if cfg["cuda_built"] else "not built",
        "usable" if cfg["gpu_usable"] else "not usable (%s)" % cfg["gpu_reason"]))
    failed = passed = skipped = 0
    for module in sorted(required):
        try:
            __import__(module)
        except ImportError:
            print("FAIL: %s is not installed (--require)" % module)
            failed += 1
    for name, fn, needs in tests:
        missing = []
        for module in needs:
            try:
                __import__(module)
            except ImportError:
                missing.append(module)
        if missing:
            print("SKIP: %s: skipped: not installed (%s)" % (name, ", ".join(missing)))
            skipped += 1
            continue
        try:
            what = fn()
        except Skipped as e:
            if strict and e.gpu:
                print("FAIL: %s: %s (--strict)" % (name, e))
                failed += 1
            else:
                print("SKIP: %s: %s" % (name, e))
                skipped += 1
            continue
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
