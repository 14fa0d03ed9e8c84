# SPDX-License-Identifier: BSD-3-Clause
"""The codec library (libgpulz, kernels/gpulz.h) through ctypes: compress()
and decompress() of numpy arrays, bytes-like objects and CUDA arrays (CuPy),
and the typed option checks that the h5py filter, numcodecs and Zarr share.

Range checks are the library's (gpulz_params_check()), so Python and C refuse
the same values with the same reason."""
import ctypes
import itertools
import numbers
import os

import numpy

from ._header import C

_HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY_FILE = os.path.join(_HERE, "_libs", "libgpulz.so.1")

MODES = {name[len("GPULZ_MODE_"):].lower(): value for name, value in C.items()
         if name.startswith("GPULZ_MODE_") and name not in ("GPULZ_MODE_COUNT",
                                                             "GPULZ_MODE_DEFAULT")}
_MODE_NAMES = {value: name for name, value in MODES.items()}
#: the mode where none is given, gpulz.h's GPULZ_MODE_DEFAULT ("auto"), as
#: for the C library, the HDF5 filter and the gpulz command
DEFAULT_MODE = _MODE_NAMES[C["GPULZ_MODE_DEFAULT"]]
BACKENDS = {name[len("GPULZ_BACKEND_"):].lower(): value for name, value in C.items()
            if name.startswith("GPULZ_BACKEND_")}


class GpulzError(RuntimeError):
    """A gpulz call failed: status is the library's gpulz_status (negative)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status

    def __reduce__(self):
        # pickle (multiprocessing, concurrent.futures, dask) rebuilds an
        # exception from its args, which hold the message alone
        return type(self), (self.status, str(self))


class _Params(ctypes.Structure):
    # struct gpulz_params of gpulz.h: five unsigned, then two enums (int)
    _fields_ = [("symbol_size", ctypes.c_uint), ("window", ctypes.c_uint),
                ("block_symbols", ctypes.c_uint), ("flags", ctypes.c_uint),
                ("threads", ctypes.c_uint), ("backend", ctypes.c_int), ("mode", ctypes.c_int)]


def _load():
    lib = ctypes.CDLL(LIBRARY_FILE)
    size_p = ctypes.POINTER(ctypes.c_size_t)
    params_p = ctypes.POINTER(_Params)
    vp, sz, int_p = ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)
    vpp = ctypes.POINTER(ctypes.c_void_p)  # const void *const src[], void *const dst[]
    # gpulz.h's batched calls: count, src, src_len, dst, dst_cap, dst_len,
    # statuses, p, memory (enum gpulz_memory), cuda_stream, d_scratch, scratch_size
    batch = (ctypes.c_int, [sz, vpp, size_p, vpp, size_p, size_p, int_p, params_p, ctypes.c_int,
                            vp, vp, sz])
    sigs = {
        "gpulz_params_init": (None, [params_p]),
        "gpulz_params_check": (ctypes.c_int, [params_p]),
        "gpulz_level_window": (ctypes.c_uint, [ctypes.c_int]),
        "gpulz_compress_bound": (sz, [sz, params_p]),
        "gpulz_compress": (ctypes.c_int, [vp, sz, vp, sz, size_p, params_p]),
        "gpulz_decompress": (ctypes.c_int, [vp, sz, vp, sz, size_p, params_p]),
        "gpulz_decompressed_size": (ctypes.c_int, [vp, sz, ctypes.POINTER(ctypes.c_uint64)]),
        "gpulz_compress_device": (ctypes.c_int, [vp, sz, vp, sz, size_p, params_p, vp, vp, sz]),
        "gpulz_decompress_device": (ctypes.c_int, [vp, sz, vp, sz, size_p, vp, vp, sz]),
        "gpulz_compress_batch_bound": (sz, [sz, size_p, params_p, size_p]),
        "gpulz_compress_batch_scratch_size": (sz, [sz, size_p, params_p]),
        "gpulz_decompress_batch_scratch_size": (sz, [sz, size_p]),
        "gpulz_batch_chunks": (sz, [sz]),
        "gpulz_compress_batch": batch,
        "gpulz_decompress_batch": batch,
        "gpulz_gpu_available": (ctypes.c_int, []),
        "gpulz_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "gpulz_last_error": (ctypes.c_char_p, []),
        "gpulz_version_string": (ctypes.c_char_p, []),
        "gpulz_last_backend": (ctypes.c_int, [ctypes.POINTER(ctypes.c_char_p)]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


lib = _load()


def library_version():
    return lib.gpulz_version_string().decode()


def gpu_available():
    """(usable, reason): gpulz_gpu_available() and, when 0, gpulz_last_error()."""
    ok = bool(lib.gpulz_gpu_available())
    return ok, "" if ok else lib.gpulz_last_error().decode(errors="replace")


def _check(status, what, detail=None):
    """Raise for a status other than GPULZ_OK, with gpulz_last_error() as
    the detail unless one is given ("" for none)."""
    if status != C["GPULZ_OK"]:
        if detail is None:
            detail = lib.gpulz_last_error().decode(errors="replace")
        text = "%s: %s" % (what, lib.gpulz_strerror(status).decode())
        if detail:
            text += " (%s)" % detail
        if status == C["GPULZ_ERR_PARAM"]:
            raise ValueError(text)
        raise GpulzError(status, text)


def integer(name, value):
    """value as an int; a float, a string or a bool is a TypeError."""
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be an integer, not %s %r" % (name, type(value).__name__, value))
    return int(value)


def boolean(name, value):
    if not isinstance(value, (bool, numpy.bool_)):
        raise TypeError("%s must be True or False, not %s %r" % (name, type(value).__name__, value))
    return bool(value)


def choice(name, value, table):
    if not isinstance(value, str):
        raise TypeError("%s must be a string, one of %s, not %s %r"
                        % (name, ", ".join(table), type(value).__name__, value))
    if value not in table:
        raise ValueError("%s must be one of %s, not %r" % (name, ", ".join(table), value))
    return table[value]


def encoder_options(symbol_size=0, window=None, level=None, block=None, adaptive=False,
                    mode=DEFAULT_MODE, checksum=True):
    """The options that shape the bytes, type-checked and range-checked by the
    library; returns a dict with symbol_size (0 kept: "from the data"), window,
    block, flags and mode (the gpulz_mode number)."""
    symbol_size = integer("symbol_size", symbol_size)
    if window is not None and level is not None:
        raise ValueError("give window or level, not both")
    if level is not None:
        level = integer("level", level)
        # ctypes passes an int argument modulo 2**32: 2**32 + 4 would be level 4
        fits = C["GPULZ_LEVEL_MIN"] <= level <= C["GPULZ_LEVEL_MAX"]
        window = lib.gpulz_level_window(level) if fits else 0
        if not window:
            raise ValueError("level must be %d..%d, not %r"
                             % (C["GPULZ_LEVEL_MIN"], C["GPULZ_LEVEL_MAX"], level))
    window = C["GPULZ_WINDOW_DEFAULT"] if window is None else integer("window", window)
    block = C["GPULZ_BLOCK_DEFAULT"] if block is None else integer("block", block)
    flags = 0
    if boolean("adaptive", adaptive):
        flags |= C["GPULZ_FLAG_ADAPTIVE"]
    if not boolean("checksum", checksum):
        flags |= C["GPULZ_FLAG_NO_CHECKSUM"]
    mode = choice("mode", mode, MODES)
    if symbol_size < 0 or window < 0 or block < 0:
        raise ValueError("symbol_size, window and block are not negative")
    opts = dict(symbol_size=symbol_size, window=window, block=block, flags=flags, mode=mode)
    make_params(opts, symbol_size or 1)  # the library's range checks
    return opts


_UINT_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_uint)) - 1


def make_params(opts, symbol_size, threads=0, backend="auto"):
    p = _Params()
    lib.gpulz_params_init(ctypes.byref(p))
    fields = (("symbol_size", symbol_size), ("window", opts["window"]),
              ("block_symbols", opts["block"]), ("flags", opts["flags"]),
              ("threads", integer("threads", threads)))
    for name, value in fields:
        # ctypes stores an unsigned field modulo 2**32 (window 2**32 + 128
        # would be window 128) and refuses only what no C integer holds
        if not 0 <= value <= _UINT_MAX:
            raise ValueError("%s %d does not fit gpulz_params (an unsigned int)" % (name, value))
        setattr(p, name, value)
    p.backend = choice("backend", backend, BACKENDS)
    p.mode = opts["mode"]
    _check(lib.gpulz_params_check(ctypes.byref(p)), "parameters")
    return p


def cd_values_options(values):
    """The encoder's settings that a gpulz dataset's stored cd_values give,
    as the filter resolves them for every chunk it compresses: a dict as
    encoder_options() returns, symbol_size never 0.  A vector the filter
    refuses is a ValueError.

    The rule is the filter's: H5Z_gpulz_encoder_params() of plugin/H5Zgpulz.c
    with the mode of H5Z_gpulz_cd_mode() (gpulz_cd.h).  Neither can be
    called from here (a static inline, and a function the plugin does not
    export), so this is the one Python copy, on the slot numbers and
    defaults of the headers and the library's range checks; python -m
    gpulz.test holds it to the filter's bytes."""
    values = [integer("cd_values[%d]" % i, v) for i, v in enumerate(values)]
    n, most = len(values), C["H5Z_GPULZ_CD_NELMTS_STORED"]
    if n > most:
        raise ValueError("gpulz takes at most %d cd_values, not %d" % (most, n))
    cd = values + [0] * (most - n)
    version = cd[C["H5Z_GPULZ_CD_VERSION"]]
    if version > C["H5Z_GPULZ_CD_VERSION_CURRENT"]:
        raise ValueError("cd_values[%d] asks for chunk format version %d, newer than this "
                         "gpulz's %d" % (C["H5Z_GPULZ_CD_VERSION"], version,
                                         C["H5Z_GPULZ_CD_VERSION_CURRENT"]))
    # H5Z_gpulz_cd_mode(): a mode in its slot wins; else slot 0 says lz or the default
    mode = cd[C["H5Z_GPULZ_CD_MODE"]]
    if mode == C["H5Z_GPULZ_CD_MODE_LZ"]:
        lz = n > C["H5Z_GPULZ_CD_VERSION"] and version == C["H5Z_GPULZ_CD_VERSION_LZ"]
        mode = C["H5Z_GPULZ_CD_MODE_LZ"] if lz else C["H5Z_GPULZ_CD_MODE_DEFAULT"]
    # 0s remain only where set_local never ran: the defaults, symbol size 1
    opts = dict(symbol_size=cd[C["H5Z_GPULZ_CD_SYMBOL"]] or 1,
                window=cd[C["H5Z_GPULZ_CD_WINDOW"]] or C["GPULZ_WINDOW_DEFAULT"],
                block=cd[C["H5Z_GPULZ_CD_BLOCK"]] or C["GPULZ_BLOCK_DEFAULT"],
                flags=cd[C["H5Z_GPULZ_CD_FLAGS"]], mode=mode)
    make_params(opts, opts["symbol_size"])  # the library's range checks
    return opts


def dtype_symbol_size(dtype):
    """The symbol size for elements of a numpy dtype, by the HDF5 filter's
    rule (symbol_size_from_type() of plugin/H5Zgpulz.c, docs/usage.md): the
    largest of 8, 4, 2 and 1 that divides the element size (complex128 8, a
    12-byte record 4, 3 bytes 1), of a subarray's base element; fixed-length
    strings are arrays of characters ("S" 1, "U" 4); 1 for references
    (object, variable-length strings) and elements of no size."""
    dtype = numpy.dtype(dtype)
    while dtype.subdtype is not None:
        dtype = dtype.subdtype[0]
    if dtype.hasobject or dtype.itemsize == 0 or dtype.kind == "S":
        return 1
    if dtype.kind == "U":
        return 4
    return next(s for s in (8, 4, 2, 1) if dtype.itemsize % s == 0)


def symbol_size_of(data):
    """The symbol size for an array's elements (dtype_symbol_size()); 1 for
    bytes-like objects without a dtype.  A CUDA array whose dtype is not
    numpy's (a torch tensor's) is read by its interface's typestr."""
    dtype = getattr(data, "dtype", None)
    if not isinstance(dtype, numpy.dtype) and _is_device(data):
        return dtype_symbol_size(data.__cuda_array_interface__["typestr"])
    return 1 if dtype is None else dtype_symbol_size(dtype)


def refuse_references(data, what="data"):
    """A TypeError for an array whose elements are references (object
    arrays, variable-length strings): their bytes are addresses, not data."""
    dtype = getattr(data, "dtype", None)
    if isinstance(dtype, numpy.dtype) and dtype.hasobject:
        raise TypeError("gpulz: %s of dtype %s holds references to Python objects, not their "
                        "bytes: convert it to a fixed-size dtype first" % (what, dtype))


def whole_records(a):
    """a numpy array with its records as opaque elements of their size.
    numpy copies a record field by field and leaves its padding bytes (in
    no field) as they were: a copy of a strided array held stale memory
    there, where every byte of the elements is the data here."""
    if a.dtype.names is None:
        return a
    return a.view(numpy.dtype((numpy.void, a.dtype.itemsize)))


def _host_bytes(data):
    """A C-contiguous uint8 view of a bytes-like object or numpy array."""
    if isinstance(data, numpy.ndarray):
        refuse_references(data)
        return numpy.ascontiguousarray(whole_records(data)).reshape(-1).view(numpy.uint8)
    if isinstance(data, (bytes, bytearray)):
        return numpy.frombuffer(data, dtype=numpy.uint8)
    view = memoryview(data)
    if not view.nbytes:
        return numpy.empty(0, dtype=numpy.uint8)  # cast() refuses zeros in the shape
    if not view.c_contiguous:
        view = memoryview(view.tobytes())  # its elements in C order, as for arrays
    return numpy.frombuffer(view.cast("B"), dtype=numpy.uint8)


def _writable_bytes(out):
    refuse_references(out, "out")
    if isinstance(out, numpy.ndarray):
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be a writable C-contiguous array")
        return out.reshape(-1).view(numpy.uint8)
    view = memoryview(out)
    if view.readonly or not view.c_contiguous:
        raise ValueError("out must be a writable contiguous buffer")
    if not view.nbytes:
        return numpy.empty(0, dtype=numpy.uint8)  # cast() refuses zeros in the shape
    return numpy.frombuffer(view.cast("B"), dtype=numpy.uint8)


def _is_device(data):
    return hasattr(data, "__cuda_array_interface__")


def _memory_name(data):
    return "a CUDA array" if _is_device(data) else "host memory"


def compress(data, *, symbol_size=None, window=None, level=None, block=None, adaptive=False,
             mode=DEFAULT_MODE, checksum=True, threads=0, backend="auto"):
    """Compress data into one gpulz chunk (docs/FORMAT.md).

    data: a numpy array (any shape, C order is compressed), a bytes-like
    object, or a CUDA array (CuPy, or anything with __cuda_array_interface__),
    compressed on its GPU without a host copy.
    symbol_size: 1, 2, 4 or 8; None = the largest of those that divides the
    array's element size, as the HDF5 filter takes it from the datatype
    (dtype_symbol_size(); bytes: 1, as the gpulz command's default).
    window (1..255, default 128) or level (1..4: 32, 64, 128, 255), block
    (symbols per block, a power of two 256..16384, default 2048), adaptive,
    mode ("auto", the default; "fast", "ratio" or "lz") and checksum (False:
    no checksum; fast, ratio, auto) shape the bytes; threads and backend ("auto", "cpu",
    "gpu") only where the work runs.  The bytes equal those of the C library
    and of `gpulz compress` with the same options.

    Returns bytes, or a CuPy uint8 array for a CUDA array.
    """
    if symbol_size is None:
        symbol_size = symbol_size_of(data)
    opts = encoder_options(symbol_size, window, level, block, adaptive, mode, checksum)
    if not opts["symbol_size"]:
        raise ValueError("symbol_size must be 1, 2, 4 or 8")
    p = make_params(opts, opts["symbol_size"], threads, backend)
    if _is_device(data):
        return _compress_device(data, p)
    src = _host_bytes(data)
    n = src.size
    bound = lib.gpulz_compress_bound(n, ctypes.byref(p))
    if not bound:
        raise ValueError("no compressed size bound for %d bytes" % n)
    dst = numpy.empty(bound, dtype=numpy.uint8)
    length = ctypes.c_size_t()
    _check(lib.gpulz_compress(src.ctypes.data, n, dst.ctypes.data, bound, ctypes.byref(length),
                              ctypes.byref(p)), "gpulz_compress")
    return dst[:length.value].tobytes()


def decompressed_size(buf):
    """The uncompressed size a chunk's header declares, checked against its
    block table (format 1) or its streams' headers (format 2): a header
    whose size the rest of the chunk cannot make is refused before anything
    is allocated on it."""
    src = _host_bytes(buf)
    size = ctypes.c_uint64()
    _check(lib.gpulz_decompressed_size(src.ctypes.data, src.size, ctypes.byref(size)),
           "gpulz_decompressed_size")
    return size.value


def decompress(buf, out=None, *, threads=0, backend="auto"):
    """Decompress one gpulz chunk.

    buf: bytes-like, a numpy uint8 array, or a CUDA array (decoded on its GPU).
    out: None (a new bytearray, or a CuPy uint8 array for CUDA input), or a
    writable C-contiguous buffer or array of at least the uncompressed size,
    filled and returned (np.empty(original.shape, original.dtype) gives a
    C-ordered array back; compress() took its elements in C order).
    Damaged input raises GpulzError (status GPULZ_ERR_CORRUPT or _TRUNCATED).
    """
    p = make_params(encoder_options(), 1, threads, backend)
    if out is not None and _is_device(out) != _is_device(buf):
        raise TypeError("gpulz: buf and out must both be in host memory or both be CUDA arrays, "
                        "not %s and %s" % (_memory_name(buf), _memory_name(out)))
    if _is_device(buf):
        return _decompress_device(buf, out, p)
    src = _host_bytes(buf)
    result, dst = _host_out(out, decompressed_size(src))
    length = ctypes.c_size_t()
    _check(lib.gpulz_decompress(src.ctypes.data, src.size, dst.ctypes.data, dst.size,
                                ctypes.byref(length), ctypes.byref(p)), "gpulz_decompress")
    return result


def _too_large(size):
    """The error for a declared size that cannot be allocated: a damaged
    header can declare any size, and the caller hears gpulz's error, not
    Python's or CuPy's."""
    return GpulzError(C["GPULZ_ERR_NOMEM"], "gpulz: the chunk declares %d uncompressed bytes, which "
                      "cannot be allocated here (a damaged chunk, or one too large for this machine)"
                      % size)


def _host_out(out, size):
    """(what decompress() returns, its bytes as a uint8 array) for an out
    argument and a chunk of size bytes: a new bytearray for None."""
    if out is None:
        try:
            result = bytearray(size)
        except (MemoryError, OverflowError):
            raise _too_large(size) from None
        dst = numpy.frombuffer(result, dtype=numpy.uint8) if size else numpy.empty(0, numpy.uint8)
        return result, dst
    dst = _writable_bytes(out)
    if dst.size < size:
        raise ValueError("out holds %d bytes, the chunk decompresses to %d" % (dst.size, size))
    return out, dst


def _batch_symbol_size(chunks, symbol_size):
    """One symbol size for the whole batch: a batched call takes one
    gpulz_params, so chunks of different element sizes need symbol_size."""
    if symbol_size is not None:
        return symbol_size
    sizes = {symbol_size_of(c) for c in chunks}
    if len(sizes) > 1:
        raise ValueError("the chunks' dtypes give symbol sizes %s: give symbol_size"
                         % ", ".join(str(s) for s in sorted(sizes)))
    return sizes.pop() if sizes else 1


def _batch_where(chunks):
    """True for a batch of CUDA arrays, False for host buffers; a batch of
    both is refused, as a batched C call takes either kind, not a mix."""
    device = {_is_device(c) for c in chunks}
    if len(device) > 1:
        raise ValueError("a batch holds host buffers or CUDA arrays, not both")
    return device.pop() if device else False


# The batched calls of gpulz.h take host arrays of pointers and sizes; these
# are numpy arrays of the C types, kept alive across the call.
_SIZE_T = numpy.dtype("u%d" % ctypes.sizeof(ctypes.c_size_t))
_SIZE_P = ctypes.POINTER(ctypes.c_size_t)
_VOID_PP = ctypes.POINTER(ctypes.c_void_p)


def batch_bounds(src_len, p):
    """gpulz_compress_batch_bound(): each chunk's dst_cap (a numpy array) and
    their sum, the bytes of one buffer cut into the chunks' dst."""
    lens = numpy.ascontiguousarray(src_len, dtype=_SIZE_T)
    caps = numpy.zeros(lens.size, _SIZE_T)
    if not lens.size:
        return caps, 0
    total = lib.gpulz_compress_batch_bound(lens.size, lens.ctypes.data_as(_SIZE_P), ctypes.byref(p),
                                           caps.ctypes.data_as(_SIZE_P))
    if not total:
        raise ValueError("no compressed size bound for a batch of %d chunks (%s)"
                         % (lens.size, lib.gpulz_last_error().decode(errors="replace")))
    return caps, int(total)


def batch_chunks(chunk_bytes):
    """gpulz_batch_chunks(): how many chunks of chunk_bytes one batch call
    should hold."""
    return int(lib.gpulz_batch_chunks(chunk_bytes))


def batch_run(compressing, src, src_len, dst, dst_cap, p, device=False, stream=None):
    """One gpulz_compress_batch() or gpulz_decompress_batch() call.

    src and dst are addresses (ints): host memory, or device memory of one
    device where device is true (GPULZ_MEMORY_DEVICE, queued after the work
    on stream, a cudaStream_t as an int or None for CUDA's default stream).
    Returns (status, dst_len, statuses): the call's gpulz_status and, as
    numpy arrays, each chunk's length and status; raises nothing, so that
    the caller decides what a failed chunk means."""
    n = len(src)
    ptrs = [numpy.ascontiguousarray(a, dtype=numpy.uintp) for a in (src, dst)]
    sizes = [numpy.ascontiguousarray(a, dtype=_SIZE_T) for a in (src_len, dst_cap)]
    dst_len = numpy.zeros(n, _SIZE_T)
    statuses = numpy.zeros(n, numpy.intc)
    if not n:
        return C["GPULZ_OK"], dst_len, statuses
    if any(a.size != n for a in ptrs + sizes):
        raise ValueError("a batch of %d chunks needs %d pointers and sizes of each" % (n, n))
    fn = lib.gpulz_compress_batch if compressing else lib.gpulz_decompress_batch
    memory = C["GPULZ_MEMORY_DEVICE"] if device else C["GPULZ_MEMORY_HOST"]
    status = fn(n, ptrs[0].ctypes.data_as(_VOID_PP), sizes[0].ctypes.data_as(_SIZE_P),
                ptrs[1].ctypes.data_as(_VOID_PP), sizes[1].ctypes.data_as(_SIZE_P),
                dst_len.ctypes.data_as(_SIZE_P),
                statuses.ctypes.data_as(ctypes.POINTER(ctypes.c_int)), ctypes.byref(p), memory,
                stream or None, None, 0)
    return status, dst_len, statuses


def _offsets(sizes):
    """Where each of consecutive pieces of these sizes starts (Python ints:
    numpy 1's scalars turn uint64 plus int into a float)."""
    return [0] + list(itertools.accumulate(int(n) for n in sizes))[:-1] if len(sizes) else []


def compress_batch(chunks, *, symbol_size=None, window=None, level=None, block=None,
                   adaptive=False, mode=DEFAULT_MODE, checksum=True, threads=0, backend="auto"):
    """Compress each of a sequence of chunks into its own gpulz chunk.

    chunks: numpy arrays and bytes-like objects, or CUDA arrays (all on the
    GPU or none).  The options are those of compress() and hold for every
    chunk; symbol_size None takes the chunks' element size, which must then
    be the same for all.  Returns a list in the order of chunks, each element
    the bytes compress() returns for that chunk with the same options (bytes,
    or a CuPy uint8 array for CUDA arrays).

    One call of gpulz_compress_batch(): on the host the chunks are spread
    over the cores (or go through the GPU, backend permitting); CUDA arrays
    of one device are compressed there (GPULZ_MEMORY_DEVICE), those of
    several devices one call per chunk.
    """
    chunks = list(chunks)
    device = _batch_where(chunks)
    symbol_size = _batch_symbol_size(chunks, symbol_size)
    opts = encoder_options(symbol_size, window, level, block, adaptive, mode, checksum)
    if not opts["symbol_size"]:
        raise ValueError("symbol_size must be 1, 2, 4 or 8")
    p = make_params(opts, opts["symbol_size"], threads, backend)
    if not chunks:
        return []
    if device:
        return _compress_batch_device(chunks, p)
    srcs = [_host_bytes(c) for c in chunks]
    lens = [s.size for s in srcs]
    caps, total = batch_bounds(lens, p)
    out = numpy.empty(total, dtype=numpy.uint8)
    at = _offsets(caps)
    status, dst_len, _ = batch_run(True, [s.ctypes.data for s in srcs], lens,
                                   [out.ctypes.data + a for a in at], caps, p)
    _check(status, "gpulz_compress_batch")
    return [out[a:a + int(n)].tobytes() for a, n in zip(at, dst_len)]


def decompress_batch(chunks, outs=None, *, threads=0, backend="auto"):
    """Decompress each of a sequence of gpulz chunks.

    chunks: bytes-like objects or numpy uint8 arrays, or CUDA arrays (all on
    the GPU or none).  outs: None, or a sequence as long as chunks whose
    elements are None or what decompress() takes as out for that chunk.
    Returns a list in the order of chunks: what decompress(chunk, out)
    returns.  A damaged chunk raises GpulzError for the batch.

    One call of gpulz_decompress_batch(), as compress_batch() compresses.
    """
    chunks = list(chunks)
    device = _batch_where(chunks)
    if outs is None:
        outs = [None] * len(chunks)
    else:
        outs = list(outs)
        if len(outs) != len(chunks):
            raise ValueError("%d outs for %d chunks" % (len(outs), len(chunks)))
    p = make_params(encoder_options(), 1, threads, backend)  # refuse bad arguments before any work
    if not chunks:
        return []
    if device:
        return _decompress_batch_device(chunks, outs, p)
    srcs = [_host_bytes(c) for c in chunks]
    results, dsts = [], []
    for src, out in zip(srcs, outs):
        result, dst = _host_out(out, decompressed_size(src))
        results.append(result)
        dsts.append(dst)
    # outs that share bytes with each other or with another chunk: the C
    # call refuses them whole (GPULZ_ERR_PARAM, a ValueError)
    status, _, _ = batch_run(False, [s.ctypes.data for s in srcs], [s.size for s in srcs],
                             [d.ctypes.data for d in dsts], [d.size for d in dsts], p)
    _check(status, "gpulz_decompress_batch")
    return results


# CUDA arrays (CuPy): every mode is encoded and decoded on the device, with
# the bytes of the host API.


def _after_producer(data):
    """CuPy's current stream, once the stream data's producer names is done
    with it (CUDA Array Interface v3: the consumer waits for that stream)."""
    import cupy
    stream = data.__cuda_array_interface__.get("stream")
    current = cupy.cuda.get_current_stream()
    if stream is not None and stream != current.ptr:
        cupy.cuda.runtime.streamSynchronize(stream)
    return current


def _device_input(data):
    """A contiguous CuPy array of data, after the producer's stream."""
    import cupy
    current = _after_producer(data)
    arr = cupy.ascontiguousarray(cupy.asarray(data))
    return cupy, arr.reshape(-1).view(cupy.uint8), current


def _compress_device(data, p):
    cupy, src, stream = _device_input(data)
    n = src.size
    bound = lib.gpulz_compress_bound(n, ctypes.byref(p))
    dst = cupy.empty(bound, dtype=cupy.uint8)
    length = ctypes.c_size_t()
    _check(lib.gpulz_compress_device(src.data.ptr, n, dst.data.ptr, bound, ctypes.byref(length),
                                     ctypes.byref(p), stream.ptr or None, None, 0),
           "gpulz_compress_device")
    return dst[:length.value]


def _device_out(cupy, out, size):
    """(the array returned, its bytes as a flat uint8 view) for an out
    argument and a chunk of size bytes: a new CuPy array for None."""
    if out is None:
        try:
            out = cupy.empty(size, dtype=cupy.uint8)
        except (MemoryError, OverflowError, ValueError):  # CuPy's OutOfMemoryError is a MemoryError
            raise _too_large(size) from None
    # CuPy's view of any CUDA array's memory (a torch tensor has no
    # CuPy-style view or flags); the caller gets its own object back
    arr = cupy.asarray(out)
    if not arr.flags.c_contiguous or arr.nbytes < size:
        raise ValueError("out must be C-contiguous and hold %d bytes" % size)
    return out, arr.reshape(-1).view(cupy.uint8)


def _decompress_device(buf, out, p):
    cupy, src, stream = _device_input(buf)
    length = ctypes.c_size_t()
    # with no room the library checks the header and answers with the size
    # it declares (GPULZ_ERR_DST_SIZE), a damaged header with its own
    # status: nothing is allocated on a size that was not checked
    status = lib.gpulz_decompress_device(src.data.ptr, src.size, None, 0, ctypes.byref(length),
                                         stream.ptr or None, None, 0)
    if status != C["GPULZ_ERR_DST_SIZE"]:
        _check(status, "gpulz_decompress_device")
    out, dst = _device_out(cupy, out, length.value)
    status = lib.gpulz_decompress_device(src.data.ptr, src.size, dst.data.ptr, dst.size,
                                         ctypes.byref(length), stream.ptr or None, None, 0)
    _check(status, "gpulz_decompress_device")
    return out


def _one_device(chunks):
    """CuPy views of CUDA arrays, and whether they are all on one device (a
    batched call takes the buffers of one)."""
    import cupy
    arrays = [cupy.asarray(c) for c in chunks]
    return arrays, len({a.device.id for a in arrays}) == 1


def _compress_batch_device(chunks, p):
    import cupy
    arrays, one = _one_device(chunks)
    if not one:
        return [_compress_device(c, p) for c in chunks]
    with arrays[0].device:
        srcs = [_device_input(c)[1] for c in chunks]
        stream = cupy.cuda.get_current_stream()
        lens = [s.size for s in srcs]
        caps, total = batch_bounds(lens, p)
        out = cupy.empty(total, dtype=cupy.uint8)
        at = _offsets(caps)
        status, dst_len, _ = batch_run(True, [s.data.ptr for s in srcs], lens,
                                       [out.data.ptr + a for a in at], caps, p, device=True,
                                       stream=stream.ptr)
    _check(status, "gpulz_compress_batch")
    return [out[a:a + int(n)] for a, n in zip(at, dst_len)]


def _decompress_batch_device(chunks, outs, p):
    import cupy
    arrays, one = _one_device(chunks)
    if not one:
        return [_decompress_device(c, o, p) for c, o in zip(chunks, outs)]
    with arrays[0].device:
        srcs = [_device_input(c)[1] for c in chunks]
        stream = cupy.cuda.get_current_stream()
        ptrs, lens = [s.data.ptr for s in srcs], [s.size for s in srcs]
        # every chunk's size from the library in one call with no room (its
        # header checked, as _decompress_device asks it), before anything
        # is allocated on it
        _, sizes, statuses = batch_run(False, ptrs, lens, [0] * len(srcs), [0] * len(srcs), p,
                                       device=True, stream=stream.ptr)
        for i, st in enumerate(statuses):
            # the call's own detail names its first failure, a room of 0
            if st not in (C["GPULZ_OK"], C["GPULZ_ERR_DST_SIZE"]):
                _check(int(st), "gpulz_decompress_batch: chunk %d of %d" % (i, len(srcs)), "")
        results, dsts = [], []
        for out, size in zip(outs, sizes):
            out, dst = _device_out(cupy, out, int(size))
            results.append(out)
            dsts.append(dst)
        status, _, _ = batch_run(False, ptrs, lens,
                                 [d.data.ptr for d in dsts], [d.size for d in dsts], p,
                                 device=True, stream=stream.ptr)
    _check(status, "gpulz_decompress_batch")
    return results
