# SPDX-License-Identifier: BSD-3-Clause
"""Direct chunk I/O through h5py: write_direct() and read_direct().

Whole chunks of a dataset whose pipeline is the gpulz filter alone are
compressed or decompressed in batches (gpulz_compress_batch,
gpulz_decompress_batch: over every core, or on the GPU) and moved with h5py's
write_direct_chunk and read_direct_chunk, around HDF5's filter pipeline,
which hands the filter one chunk at a time.  CuPy arrays (anything with
__cuda_array_interface__) are gathered, compressed, decompressed and placed
on their GPU; only compressed chunks cross PCIe.

This is gpulz_h5_write_direct() and gpulz_h5_read_direct() of libh5gpulz
(plugin/gpulz_h5direct.c) for h5py: libh5gpulz links one HDF5, and h5py
brings its own (the wheel carries only the plugin, which binds to it), so
the rules are followed here rather than called: the same conditions for
the chunk path, the same fill and padding, the same "did not shrink" rule,
so that the stored chunks are the filter's bytes.  Files written here read through the filter anywhere,
and files the filter wrote read here.  What the chunk path cannot do
exactly goes through h5py's own dset[...] instead.
"""
import ctypes
import math

import numpy

from . import _codec
from ._codec import whole_records as _whole
from ._header import C

# A batch holds as many chunks as the library advises (gpulz_batch_chunks,
# as gpulz_h5direct.c batches them), at most BATCH_CHUNKS where that is set.
BATCH_CHUNKS = None

_FILL, _RAW, _CODED = range(3)


def _box(selection, dims):
    """(start, stop, keep) of a selection that is one box of the dataset
    (slices of step 1, integers, one Ellipsis), keep[d] false where an
    integer drops axis d from the result's shape as numpy and h5py drop it;
    None for any other selection."""
    if selection is None:
        selection = ()
    if not isinstance(selection, tuple):
        selection = (selection,)
    ellipses = [i for i, s in enumerate(selection) if s is Ellipsis]
    if len(ellipses) > 1:
        return None
    if ellipses:
        at, spans = ellipses[0], len(dims) - (len(selection) - 1)
        if spans < 0:
            return None
        selection = selection[:at] + (slice(None),) * spans + selection[at + 1:]
    if len(selection) > len(dims):
        return None
    selection = selection + (slice(None),) * (len(dims) - len(selection))
    start, stop, keep = [], [], []
    for s, n in zip(selection, dims):
        if isinstance(s, slice):
            try:
                a, b, step = s.indices(n)
            except (TypeError, ValueError):
                return None
            if step != 1:
                return None
            start.append(a)
            stop.append(max(a, b))
            keep.append(True)
        elif isinstance(s, (int, numpy.integer)) and not isinstance(s, (bool, numpy.bool_)):
            i = int(s) + (n if s < 0 else 0)
            if not 0 <= i < n:
                return None
            start.append(i)
            stop.append(i + 1)
            keep.append(False)
        else:
            return None
    return start, stop, keep


_chunk_opts = []


def _dont_filter_partial(h5py, dcpl):
    """Whether the dataset sets H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS (HDF5
    then stores edge chunks unfiltered with no mask bit saying so); None
    where that cannot be told.  h5py has no H5Pget_chunk_opts: it is called
    in the HDF5 that h5py's own modules link, as register() calls
    H5Zregister."""
    if not _chunk_opts:
        try:
            fn = ctypes.CDLL(h5py.h5p.__file__).H5Pget_chunk_opts
            # hid_t has 64 bits since HDF5 1.10
            fn.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_uint)]
            fn.restype = ctypes.c_int
        except (OSError, AttributeError):
            fn = None
        _chunk_opts.append(fn)
    fn = _chunk_opts[0]
    opts = ctypes.c_uint(0)
    if fn is None or fn(dcpl.id, ctypes.byref(opts)) < 0:
        return None
    return bool(opts.value & 0x2)  # H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS


class _Plan:
    """What a call works on: the dataset, the selected box and its chunks."""

    def __init__(self, dset, box, dtype):
        self.dset, self.dtype = dset, dtype
        self.start, stop, self.keep = box
        self.block = [b - a for a, b in zip(self.start, stop)]
        self.chunk = list(dset.chunks)
        self.grid = [-(-b // c) for b, c in zip(self.block, self.chunk)]
        self.nchunks = math.prod(self.grid)
        self.esize = dtype.itemsize
        self.chunk_bytes = self.esize * math.prod(self.chunk)
        self.optional = False
        self.opts = None  # the encoder's settings (writing)
        self.fill = None  # a chunk of the fill value (numpy uint8), None for zeros
        self.batch = None  # chunks per batch: set by the call (_batch)

    def locate(self, k):
        """Chunk k of the box in row-major order: (its offset in the
        dataset, its part inside the box as slices of the box and of the
        chunk, whether that part is less than the chunk, where it is one
        run of a C-contiguous box in bytes or None)."""
        idx = numpy.unravel_index(k, self.grid)
        rel = [int(g) * c for g, c in zip(idx, self.chunk)]
        valid = [min(c, b - r) for c, b, r in zip(self.chunk, self.block, rel)]
        offset = tuple(s + r for s, r in zip(self.start, rel))
        outer = tuple(slice(r, r + v) for r, v in zip(rel, valid))
        inner = tuple(slice(0, v) for v in valid)
        edge = valid != self.chunk
        return offset, outer, inner, edge, None if edge else self._run(rel)

    def _run(self, rel):
        # the chunk spans the box in every dimension after its first one
        # longer than 1, so that it is one run of the box's bytes
        d = 0
        while d < len(self.chunk) - 1 and self.chunk[d] == 1:
            d += 1
        if any(self.chunk[e] != self.block[e] for e in range(d + 1, len(self.chunk))):
            return None
        at = 0
        for r, b in zip(rel, self.block):
            at = at * b + r
        return at * self.esize

    def expand(self):
        """The index that gives an array of the selection's shape the box's
        (integers' axes back as length 1): a view, whatever the strides."""
        return tuple(slice(None) if k else None for k in self.keep)


def _plan(h5py, dset, selection, dtype, writing):
    """The plan where the chunk path can do this call exactly, else None
    (the call goes through h5py).  A dataset whose stored cd_values the
    filter would refuse is a ValueError for writing, as for the filter."""
    from . import FILTER_ID, PROVISIONAL_FILTER_ID
    # not chunked first: a dataset of no dataspace (h5py.Empty) has no shape
    if dset.chunks is None:
        return None
    box = _box(selection, dset.shape)
    if box is None or not all(b > a for a, b in zip(box[0], box[1])):
        return None
    dcpl = dset.id.get_create_plist()
    if dcpl.get_layout() != h5py.h5d.CHUNKED or dcpl.get_nfilters() != 1:
        return None
    fid, flags, values, _ = dcpl.get_filter(0)
    if fid not in (FILTER_ID, PROVISIONAL_FILTER_ID):
        return None
    # h5py built for an HDF5 before 1.10.5 cannot locate chunks by their
    # offset.  Where HDF5 may answer for another chunk when asked (an
    # extensible-array index whose unlimited dimension is not the first), an
    # unallocated chunk cannot be told from an allocated one (the C library
    # reads these through H5Dread too: index_faults).  Such reads go
    # through h5py.
    # whether HDF5 can be asked a chunk's entry (its mask, its size)
    ask_index = hasattr(dset.id, "get_chunk_info_by_coord") and not _misreports(dset)
    if not writing and not ask_index:
        return None
    # HDF5's single-chunk index, its chunk in HDF5's cache unwritten (after
    # h5py wrote it): H5Dget_chunk_storage_size succeeds without setting the
    # size, and h5py's read_direct_chunk sized its buffer from its unset
    # variable: an error, an empty chunk (h5py 3.16: the read failed as
    # truncated data) or a buffer that H5Dread_chunk overran (a crash
    # later).  A dataset of one chunk gains nothing from batches: such reads
    # go through h5py.
    if not writing and _single(dset):
        return None
    # no conversion, and no variable-length data or references (whose memory
    # form is not their stored form): h5py gives them object fields at any
    # depth, where HDF5's class test misses a string inside an array or compound
    ftype = dset.id.get_type()
    try:
        same = dtype == dset.dtype and h5py.h5t.py_create(dtype).equal(ftype)
    except (TypeError, ValueError):
        same = False
    if not same or dtype.hasobject or ftype.detect_class(h5py.h5t.VLEN) or (
            isinstance(ftype, h5py.h5t.TypeStringID) and ftype.is_variable_str()):
        return None
    if _dont_filter_partial(h5py, dcpl) is not False:
        return None
    for a, b, c, n in zip(box[0], box[1], dset.chunks, dset.shape):
        if a % c or (b % c and b != n):
            return None
    # reading, HDF5 leaves the caller's buffer as it is where a chunk is not
    # allocated and the fill value is never written, or undefined: h5py's
    # path does that
    if not writing and (dcpl.get_fill_time() == h5py.h5d.FILL_TIME_NEVER or
                        dcpl.fill_value_defined() == h5py.h5d.FILL_VALUE_UNDEFINED):
        return None
    P = _Plan(dset, box, dtype)
    P.optional = bool(flags & h5py.h5z.FLAG_OPTIONAL)
    P.ask_index = ask_index
    if writing:
        P.opts = _codec.cd_values_options(values)
    # a chunk of fill value for edge chunks and unallocated ones, as HDF5
    # makes it: the fill value where one is defined and, writing, where HDF5
    # would write it; else zeros
    if dcpl.fill_value_defined() == h5py.h5d.FILL_VALUE_USER_DEFINED and not (
            writing and dcpl.get_fill_time() == h5py.h5d.FILL_TIME_NEVER):
        one = numpy.zeros(1, dtype=dtype)
        dcpl.get_fill_value(one)
        if one.view(numpy.uint8).any():
            P.fill = numpy.resize(one.view(numpy.uint8), P.chunk_bytes)
    return P


class _Memory:
    """Host (numpy) or device (CuPy) memory: where a call's chunks are
    gathered, compressed, decompressed and placed."""

    def __init__(self, device):
        self.device = device
        self._staging = None
        if device:
            import cupy
            self.xp = cupy
            self.stream = cupy.cuda.get_current_stream()
        else:
            self.xp = numpy
            self.stream = None

    def address(self, a):
        return a.data.ptr if self.device else a.ctypes.data

    def to_host(self, a):
        return a.get(stream=self.stream) if self.device else a

    def run(self, compressing, src, src_len, dst, dst_cap, p):
        return _codec.batch_run(compressing, [self.address(s) for s in src], src_len,
                                [self.address(d) for d in dst], dst_cap, p, self.device,
                                self.stream.ptr if self.device else None)

    def staging(self, P):
        """A batch's raw chunks, allocated on first use: chunks that are
        runs of the caller's array need none."""
        if self._staging is None:
            self._staging = self.xp.empty(P.batch * P.chunk_bytes, dtype=self.xp.uint8)
        return self._staging

    def fill(self, P):
        """A chunk of the fill value (zeros without one) in this memory."""
        if P.fill is None:
            return self.xp.zeros(P.chunk_bytes, dtype=self.xp.uint8)
        return self.xp.asarray(P.fill)


def _typed(P, raw):
    """A chunk's bytes as an array of the chunk's shape and the dataset's type."""
    return raw.view(P.dtype).reshape(P.chunk)


def _batch(P):
    """P.batch: the chunks of one batched call."""
    most = _codec.batch_chunks(P.chunk_bytes)
    if BATCH_CHUNKS:
        most = min(most, BATCH_CHUNKS)
    P.batch = max(1, min(most, P.nchunks))


def _misreports(dset):
    """Whether HDF5 may answer H5Dget_chunk_info_by_coord for another chunk:
    an extensible-array index (one unlimited dimension, file format 1.10 or
    later) whose unlimited dimension is not the first, from what h5py shows
    of the index (one unlimited dimension other than the first, whatever
    the file format)."""
    unlimited = [d for d, m in enumerate(dset.maxshape) if m is None]
    return len(unlimited) == 1 and unlimited[0] != 0


def _single(dset):
    """Whether the dataset may be HDF5's single-chunk index (fixed
    dimensions that are the chunk's, file format 1.10 or later)."""
    return all(m is not None for m in dset.maxshape) and all(
        n <= c for n, c in zip(dset.shape, dset.chunks))


def _through_one(P):
    """Whether a call of one chunk goes through h5py's filter (see
    _write_chunks): where the chunk's filter mask may change (an optional
    filter, or a chunk stored unfiltered now), where HDF5 may answer for
    another chunk when asked its mask (an extensible-array index, one
    unlimited dimension other than the first), and where the dataset is
    one chunk of fixed size (HDF5's single-chunk index, under which a read
    of the same handle right after write_direct_chunk returned the stored
    bytes as data).  The C library's rule (plugin/gpulz_h5direct.c,
    write_through), from what h5py shows of the index."""
    dset = P.dset
    if P.optional or not P.ask_index or _single(dset):
        return True
    info = dset.id.get_chunk_info_by_coord(P.locate(0)[0])
    return info.byte_offset is not None and bool(info.filter_mask & 1)


def _write_stored(P, offset, data, mask):
    """write_direct_chunk of one chunk.  HDF5 (1.10 to 2.0) rewrites a
    chunk where it is when its stored size is unchanged, and its index
    keeps the filter mask it held: a chunk of the dataset's chunk size
    (unfiltered, or compressed to exactly that size) over one of that size
    with the other mask (a chunk written unfiltered by write_direct_chunk
    under a mandatory filter, say) read back as gpulz's bytes taken for data,
    or as raw bytes the filter failed to decode.  Such a chunk is first
    stored one byte longer, which moves it and sets its mask in the index."""
    h5d, cb = P.dset.id, P.chunk_bytes
    if len(data) == cb:
        info = h5d.get_chunk_info_by_coord(offset) if P.ask_index else None
        if info is None or (info.byte_offset is not None and info.size == cb
                            and (info.filter_mask & 1) != mask):
            h5d.write_direct_chunk(offset, bytes(cb + 1), mask)
    h5d.write_direct_chunk(offset, data, mask)


def _write_chunks(P, data, M, p):
    """Every chunk of the box from data (the box's shape, M's memory)."""
    _batch(P)
    xp, cb, h5d = M.xp, P.chunk_bytes, P.dset.id
    flat = data.reshape(-1).view(xp.uint8) if data.flags.c_contiguous else None
    fill = None
    bound = int(_codec.batch_bounds([cb], p)[0][0])
    out = xp.empty(P.batch * bound, dtype=xp.uint8)
    for first in range(0, P.nchunks, P.batch):
        n = min(P.batch, P.nchunks - first)
        where, valid, src = [], [], []
        for j in range(n):
            offset, outer, inner, edge, run = P.locate(first + j)
            valid.append(inner)
            if run is not None and flat is not None:
                src.append(flat[run:run + cb])  # compressed in place
            else:
                # edge chunks hold the fill value beyond the box, as HDF5 pads them
                staged = M.staging(P)[j * cb:(j + 1) * cb]
                if edge:
                    fill = M.fill(P) if fill is None else fill
                    staged[...] = fill
                # whole records: HDF5 stores their padding bytes too
                _whole(_typed(P, staged))[inner] = _whole(data)[outer]
                src.append(staged)
            where.append(offset)
        dst = [out[j * bound:(j + 1) * bound] for j in range(n)]
        _, dst_len, statuses = M.run(True, src, [cb] * n, dst, [bound] * n, p)
        # a chunk is stored compressed, or (optional filter, no gain or a
        # failure) unfiltered with bit 0 of its filter mask set, as HDF5 stores it
        ok = [statuses[j] == C["GPULZ_OK"] for j in range(n)]
        kept = [j for j in range(n) if ok[j] and not (P.optional and int(dst_len[j]) >= cb)]
        # only the compressed bytes leave the device, in one copy
        if M.device and kept:
            packed = M.to_host(xp.concatenate([dst[j][:int(dst_len[j])] for j in kept]))
            at = _codec._offsets([int(dst_len[j]) for j in kept])
            stored = {j: packed[a:a + int(dst_len[j])] for a, j in zip(at, kept)}
        else:
            stored = {j: dst[j][:int(dst_len[j])] for j in kept}
        # HDF5 (1.10 to 2.0) caches the chunk write_direct_chunk stored
        # last with the filter mask it had before: where an optional
        # filter's chunk changed between compressed and unfiltered, the next
        # read of it took gpulz's bytes for data, or ran the filter on raw
        # bytes and failed.  A call's chunks end with a read of its first
        # chunk (which write_direct_chunk took out of HDF5's chunk cache), so
        # that HDF5 caches that chunk's entry from its index instead; a call
        # of one chunk has no other chunk, and goes through the filter, which
        # caches what it stores, where _through_one says.  The C library
        # does the same (plugin/gpulz_h5direct.c, refresh_last).
        through = P.nchunks == 1 and _through_one(P)
        for j in range(n):
            # backend "gpu" without a usable GPU fails every chunk: that is
            # the caller's argument, refused, not incompressible data
            if not ok[j] and (not P.optional or statuses[j] == C["GPULZ_ERR_NO_GPU"]):
                _codec._check(int(statuses[j]), "gpulz: cannot compress the chunk at %s"
                              % (where[j],))
            if through:
                region = tuple(slice(o, o + s.stop) for o, s in zip(where[j], valid[j]))
                part = _typed(P, M.to_host(src[j]))[valid[j]]
                # h5py's C-ordered copy of an edge chunk's part would take
                # records field by field, without their padding bytes
                P.dset[region] = numpy.ascontiguousarray(_whole(part)).view(P.dtype)
            elif j in stored:
                _write_stored(P, where[j], stored[j], 0)
            else:
                _write_stored(P, where[j], M.to_host(src[j]), 1)
    if P.nchunks > 1:
        h5d.read_direct_chunk(P.locate(0)[0])


def _read_stored(h5d, offset):
    """(filter mask, stored bytes as a numpy uint8 array) of the chunk at
    offset, or None where it is not allocated.  read_direct_chunk finds
    the chunk itself, where get_chunk_info_by_coord takes hundreds of
    microseconds a call in HDF5 2.0; only its error (h5py's RuntimeError)
    is checked against the chunk index, so that a failed read is never
    taken for an unallocated chunk."""
    try:
        mask, data = h5d.read_direct_chunk(offset)
    except (RuntimeError, OSError, ValueError, MemoryError):
        # a dataset none of whose chunks was ever allocated: HDF5's
        # H5Dget_chunk_storage_size succeeds without setting the size, h5py
        # allocates what its variable held, and the call fails as that
        # falls (MemoryError; ValueError for a NULL buffer in h5py 3.7;
        # OSError, storage not initialized, in h5py 3.16).  (The
        # single-chunk index, where that size goes unset for an allocated
        # chunk too, is read through h5py: _plan.)
        if h5d.get_chunk_info_by_coord(offset).byte_offset is not None:
            raise
        return None
    return mask, numpy.frombuffer(data, dtype=numpy.uint8)


def _read_chunks(P, out, M, p):
    """Every chunk of the box into out (the box's shape, M's memory)."""
    _batch(P)
    xp, cb, h5d = M.xp, P.chunk_bytes, P.dset.id
    flat = out.reshape(-1).view(xp.uint8) if out.flags.c_contiguous else None
    fill = None
    for first in range(0, P.nchunks, P.batch):
        n = min(P.batch, P.nchunks - first)
        chunks, kinds, stored = [], [], []
        for j in range(n):
            chunks.append(P.locate(first + j))
            got = _read_stored(h5d, chunks[j][0])
            kind = _FILL if got is None else _RAW if got[0] & 1 else _CODED
            if kind == _RAW and got[1].size != cb:
                raise _codec.GpulzError(C["GPULZ_ERR_CORRUPT"], "gpulz: an unfiltered chunk "
                                        "holds %d bytes where the dataset's chunks hold %d"
                                        % (got[1].size, cb))
            kinds.append(kind)
            stored.append(None if got is None else got[1])
        if M.device:
            # one upload of the batch's stored chunks, each at a multiple of
            # 16 bytes so that an unfiltered one can be viewed as the
            # dataset's type on the GPU, which needs aligned elements
            sizes = [0 if a is None else a.size for a in stored]
            at = _codec._offsets([-(-size // 16) * 16 for size in sizes])
            packed = numpy.empty(at[-1] + sizes[-1], dtype=numpy.uint8)
            for j in range(n):
                if sizes[j]:
                    packed[at[j]:at[j] + sizes[j]] = stored[j]
            packed = xp.asarray(packed)
            stored = [None if a is None else packed[b:b + a.size] for a, b in zip(stored, at)]
        coded = [j for j in range(n) if kinds[j] == _CODED]
        dst, in_place = {}, set()
        for j in coded:
            run = chunks[j][4]
            if run is not None and flat is not None:
                dst[j] = flat[run:run + cb]
                in_place.add(j)
            else:
                dst[j] = M.staging(P)[j * cb:(j + 1) * cb]
        _, dst_len, statuses = M.run(False, [stored[j] for j in coded],
                                     [stored[j].size for j in coded], [dst[j] for j in coded],
                                     [cb] * len(coded), p)
        for i, j in enumerate(coded):
            if statuses[i] != C["GPULZ_OK"]:
                _codec._check(int(statuses[i]), "gpulz: cannot decompress the chunk at %s"
                              % (chunks[j][0],))
            if int(dst_len[i]) != cb:
                raise _codec.GpulzError(C["GPULZ_ERR_CORRUPT"], "gpulz: cannot decompress the "
                                        "chunk at %s: it declares %d bytes where the dataset's "
                                        "chunks hold %d" % (chunks[j][0], int(dst_len[i]), cb))
        for j in range(n):
            if j in in_place:
                continue
            if kinds[j] == _FILL and fill is None:
                fill = M.fill(P)
            src = fill if kinds[j] == _FILL else dst[j] if kinds[j] == _CODED else stored[j]
            # whole records: the file's padding bytes too, as h5py reads them
            _whole(out)[chunks[j][1]] = _whole(_typed(P, src))[chunks[j][2]]


def _selection_shape(P):
    return tuple(b for b, k in zip(P.block, P.keep) if k)


def _h5py_select():
    """h5py's selection maker (h5py._hl.selections.select, which
    Dataset.__setitem__ uses), or None where this h5py has none: it is not
    h5py's public API, so its absence only leaves h5py's own refusals to
    h5py's write, where one rank's refusal leaves the others waiting."""
    try:
        from h5py._hl import selections
        return selections.select if hasattr(selections.Selection, "expand_shape") else None
    except (ImportError, AttributeError):
        return None


def _write_collective(dset, index, data, threads, backend):
    """write_direct in a file open with MPI-IO: dset[index] = data under
    dset.collective, which every rank makes.  The ranks first agree that each
    is ready, as gpulz_h5_write_direct does: a rank that fails before h5py's
    collective write (bad arguments, data numpy cannot take, a CUDA array it
    cannot bring to the host, a selection or shape h5py refuses, a dtype h5py
    or HDF5 cannot convert to the dataset's) raises its error, and every
    other rank raises too, instead of waiting in that write for ever."""
    import h5py
    from mpi4py import MPI
    failure = None
    try:
        _codec.make_params(_codec.encoder_options(), 1, threads, backend)
        if _codec._is_device(data):
            import cupy
            arr = cupy.asarray(data)
            _codec._after_producer(data)
            arr = cupy.asnumpy(arr)
        else:
            arr = numpy.asarray(data)
        names = index if isinstance(index, tuple) else (index,)
        # data that is not an array: h5py converts it with numpy to the
        # dataset's type (Dataset.__setitem__), not from numpy's guess at
        # its dtype, which HDF5 then converted (bytes cut at a NUL, integers
        # clipped).  Done here as h5py does it, for a dataset of a plain
        # type, so that numpy's refusal is this rank's before the write;
        # str, records, objects, array types and fields are left as they were
        if (not _codec._is_device(data) and not isinstance(data, numpy.ndarray)
                and arr.dtype.kind != "U" and dset.dtype.kind not in "OV"
                and dset.dtype.subdtype is None and not any(isinstance(x, str) for x in names)):
            arr = numpy.asarray(data, dtype=dset.dtype)
        # what h5py refuses before its write, asked here: a selection it
        # cannot make, data that does not broadcast to it (a scalar always
        # does; an array dtype's or a field's shape h5py works out itself)
        select = _h5py_select()
        if (select is not None and dset.dtype.subdtype is None and arr.shape != ()
                and not any(isinstance(x, str) for x in names)):
            sel = select(dset.shape, index, dataset=dset)
            if sel.nselect:
                sel.expand_shape(arr.shape)
        # a dtype with no conversion to the dataset's: h5py refuses it
        # (py_create) or HDF5 does, inside the write on this rank alone.
        # Where h5py converts the data itself (object, compound and array
        # datasets, fields by name) it is left to h5py.
        if (dset.dtype.kind not in "OV" and dset.dtype.subdtype is None
                and not any(isinstance(x, str) for x in names)
                and h5py.h5t.find(h5py.h5t.py_create(arr.dtype), dset.id.get_type()) is None):
            raise TypeError("gpulz: no conversion from %s to the dataset's %s" % (arr.dtype, dset.dtype))
    except Exception as e:  # every rank must reach the agreement below
        failure = e
    comm, info = dset.file.id.get_access_plist().get_fapl_mpio()
    try:
        ready = comm.allreduce(failure is None, op=MPI.LAND)
    finally:
        comm.Free()
        if info != MPI.INFO_NULL:
            info.Free()
    if failure is not None:
        raise failure
    if not ready:
        raise RuntimeError("gpulz: another rank failed before the collective write: no rank wrote")
    with dset.collective:
        dset[index] = arr
    return False


def _file_is_mpi(dset):
    """Whether dset's file is open with MPI-IO (h5py's driver "mpio").
    There write_direct_chunk from one rank changes the chunk index and
    allocates file space on that rank alone, and parallel HDF5 keeps its
    metadata consistent only where every rank makes the same change: the
    ranks' chunks read back wrong (docs/usage.md section 9).  As
    gpulz_h5_write_direct does, writes then go through h5py, collectively."""
    return getattr(dset.file, "driver", None) == "mpio"


def _device_usable():
    """Whether CUDA arrays can be worked on where they are: a CUDA build and
    a usable GPU; else they go through host memory, as the C calls do."""
    return _codec.gpu_available()[0]


def write_direct(dset, data, selection=None, *, threads=0, backend="auto"):
    """Write data into dset[selection] a batch of whole chunks at a time.

    dset: an h5py Dataset.  data: a numpy array (or what numpy.asarray
    takes), or a CUDA array (CuPy, or anything with
    __cuda_array_interface__), in the selection's shape.  selection: None
    (the whole dataset), or what dset[...] takes that is one box: slices of
    step 1 and integers (numpy.s_[0:256, :], 3, ...).  threads and backend
    ("auto", "cpu", "gpu") say where host chunks are compressed, never what
    is stored ("gpu" without a usable GPU raises GpulzError, as for
    compress(), where the filter would store chunks unfiltered); unlike
    the filter, the GPULZ_BACKEND and GPULZ_THREADS variables are not
    read, as for compress().

    The chunk path is taken when the selection is a box whose sides start
    on chunk borders and end on one or at the dataset's extent, data's
    dtype is the dataset's (no conversion; not variable-length), the
    dataset is chunked, its pipeline is the gpulz filter alone and it does
    not set H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS.  Each chunk of the box is
    then replaced whole: compressed in one gpulz_compress_batch() call per
    batch with the settings the filter takes from the dataset's stored
    cd_values, edge chunks padded with the fill value as HDF5 pads them,
    and stored with write_direct_chunk; a chunk that does not shrink (or
    fails) under an optional filter is stored unfiltered with bit 0 of its
    filter mask, as HDF5 stores it.  The stored bytes are the filter's.  A
    CUDA array is gathered and compressed on its GPU and only compressed
    chunks come to the host (through host memory where no GPU is usable).
    Otherwise the call is dset[selection] = data, through a host copy for a
    CUDA array.  In a file open with MPI-IO (driver "mpio") the chunk path
    is never taken for writes, as in gpulz_h5_write_direct: the call is
    dset[selection] = data under dset.collective, so every rank must make
    it (docs/usage.md section 9); where one rank fails before that write,
    every rank raises (the others RuntimeError) and no rank writes.

    Returns True where the chunk path was taken, False where h5py did the
    write.  Chunks written before a failure stay written.
    """
    import h5py
    index = Ellipsis if selection is None else selection
    # before anything a rank alone may refuse: the ranks agree there
    if _file_is_mpi(dset):
        return _write_collective(dset, index, data, threads, backend)
    device = _codec._is_device(data)
    if device:
        import cupy
        arr = cupy.asarray(data)
    else:
        arr = numpy.asarray(data)
    # bad arguments are refused before any work
    _codec.make_params(_codec.encoder_options(), 1, threads, backend)
    P = _plan(h5py, dset, selection, arr.dtype, True)
    if P is None or _selection_shape(P) != tuple(arr.shape):
        if device:
            _codec._after_producer(data)
            dset[index] = cupy.asnumpy(arr)
        else:
            # the caller's object, not numpy's guess at its dtype: h5py
            # converts what is not an array (bytes, str, lists, tuples for
            # records, Python and numpy scalars) with numpy to the dataset's
            # type, where HDF5's conversion from the guessed type cut bytes
            # at a NUL, clipped integers and refused str and records
            dset[index] = data
        return False
    p = _codec.make_params(P.opts, P.opts["symbol_size"], threads, backend)
    if device and _device_usable():
        with arr.device:
            box = _codec._device_input(data)[1].view(arr.dtype).reshape(P.block)
            _write_chunks(P, box, _Memory(True), p)
        return True
    if device:
        _codec._after_producer(data)
        arr = cupy.asnumpy(arr)
    _write_chunks(P, arr[P.expand()], _Memory(False), p)
    return True


def read_direct(dset, out, selection=None, *, threads=0, backend="auto"):
    """Read dset[selection] into out a batch of whole chunks at a time.

    dset: an h5py Dataset.  out: a writable numpy array, or a CUDA array
    (CuPy), in the selection's shape (as h5py's Dataset.read_direct takes
    its destination); selection, threads and backend as for write_direct().

    On the chunk path (write_direct()'s conditions, with out's dtype the
    dataset's, and a dataset of more than one chunk or with dimensions that
    can grow) the stored chunks of the box are read with
    read_direct_chunk and decompressed in one gpulz_decompress_batch()
    call per batch, on out's GPU for a CUDA array (only the stored chunks
    cross PCIe; through host memory where no GPU is usable); unallocated
    chunks give the fill value (zeros without one), unfiltered ones (bit 0
    of their filter mask) are copied as stored, and a chunk that cannot be
    decoded or declares another size than the dataset's chunks raises
    GpulzError.  Otherwise out[...] = dset[selection] (converted to out's
    dtype by HDF5 where it differs), through a host copy for a CUDA array.

    Returns True where the chunk path was taken, False where h5py did the
    read.  A CUDA out is ready when the call returns.
    """
    import h5py
    index = Ellipsis if selection is None else selection
    device = _codec._is_device(out)
    if device:
        import cupy
        arr = cupy.asarray(out)
    else:
        if not isinstance(out, numpy.ndarray):
            raise TypeError("out must be a numpy array or a CUDA array, not %s"
                            % type(out).__name__)
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        arr = out
    p = _codec.make_params(_codec.encoder_options(), 1, threads, backend)
    P = _plan(h5py, dset, selection, arr.dtype, False)
    if P is None or _selection_shape(P) != tuple(arr.shape):
        # a numpy array holds the elements of an array type (h5py's subarray
        # dtype) on trailing axes, in the base type: out's dtype is then
        # that of the elements, which HDF5 converts as an array type
        want = arr.dtype
        if dset.dtype.subdtype is not None:
            want = numpy.dtype((arr.dtype, dset.dtype.shape))
        # one field by name (dset["a"]) gives that field in its own type:
        # h5py reads it from a record of that field alone, so out's type
        # goes in such a record for HDF5 to convert to (h5py takes field
        # names only where the type it reads into is a record)
        names = [x for x in (index if isinstance(index, tuple) else (index,))
                 if isinstance(x, str)]
        fields = dset.dtype.fields or {}
        if not all(name in fields for name in names):
            # h5py's error for a field the dataset lacks (read as a field of
            # out's type, HDF5 would leave it as it was)
            dset[index]
        if len(names) == 1 and names[0] in fields and want.names is None:
            field = fields[names[0]][0]
            if field.subdtype is not None:
                want = numpy.dtype((arr.dtype, field.shape))
            want = numpy.dtype([(names[0], want)])
        host = dset[index] if want == dset.dtype else dset.astype(want)[index]
        if device:
            _codec._after_producer(out)
            host = cupy.asarray(host)
        arr[...] = host
        return False
    if device and _device_usable():
        with arr.device:
            M = _Memory(True)
            _codec._after_producer(out)
            _read_chunks(P, arr[P.expand()], M, p)
            M.stream.synchronize()
        return True
    if device:
        host = numpy.empty(arr.shape, dtype=arr.dtype)
        _read_chunks(P, host[P.expand()], _Memory(False), p)
        _codec._after_producer(out)
        arr[...] = cupy.asarray(host)
        cupy.cuda.get_current_stream().synchronize()
        return True
    _read_chunks(P, arr[P.expand()], _Memory(False), p)
    return True
