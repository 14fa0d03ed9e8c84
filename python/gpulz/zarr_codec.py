# SPDX-License-Identifier: BSD-3-Clause
"""The Zarr v3 codec "gpulz", bytes to bytes (registered through the
zarr.codecs entry point): zarr.create_array(..., compressors=[GpulzZarrCodec()])
and arrays whose metadata names {"name": "gpulz"} open without an import.

Each chunk is decoded where zarr wants the result: into a device buffer on
the GPU when the chunk's buffer prototype is a device one (zarr's GPU mode,
zarr.config.enable_gpu(), gives zarr.core.buffer.gpu.Buffer), else on the
host.  Chunks are encoded where zarr hands them over.  Where no GPU is usable
(the CPU wheel) the work runs on the host and the result is copied into the
buffer type zarr asked for.  The bytes are the same either way.

zarr's batched encode() and decode() go to gpulz.compress_batch() and
decompress_batch() in one worker thread per batch, so that a batch reaches
the library as one."""
import asyncio
from dataclasses import dataclass, replace

from zarr.abc.codec import BytesBytesCodec
from zarr.core.common import parse_named_configuration

from ._codec import (DEFAULT_MODE, MODES, compress_batch, decompress_batch, dtype_symbol_size,
                     encoder_options, gpu_available)

_MODE_NAMES = {v: k for k, v in MODES.items()}
NAME = "gpulz"


def _item_size(dtype):
    """The symbol size for an array spec's dtype (dtype_symbol_size(), the
    HDF5 filter's rule): a zarr data type (zarr 3.1 and later) or the numpy
    dtype itself (zarr 3.0's ArraySpec.dtype)."""
    return dtype_symbol_size(dtype.to_native_dtype() if hasattr(dtype, "to_native_dtype")
                             else dtype)


@dataclass(frozen=True)
class GpulzZarrCodec(BytesBytesCodec):
    """The options of gpulz.compress(); symbol_size 0 (default) becomes the
    array's element size (the largest of 8, 4, 2, 1 that divides it, as for
    gpulz.compress()) when the array is created, and is stored so."""

    is_fixed_size = False

    symbol_size: int = 0
    window: int = 128
    block: int = 2048
    adaptive: bool = False
    mode: str = DEFAULT_MODE
    checksum: bool = True

    def __init__(self, *, symbol_size=0, window=None, level=None, block=None, adaptive=False,
                 mode=DEFAULT_MODE, checksum=True):
        o = encoder_options(symbol_size, window, level, block, adaptive, mode, checksum)
        object.__setattr__(self, "symbol_size", o["symbol_size"])
        object.__setattr__(self, "window", o["window"])
        object.__setattr__(self, "block", o["block"])
        object.__setattr__(self, "adaptive", bool(adaptive))
        object.__setattr__(self, "mode", _MODE_NAMES[o["mode"]])
        object.__setattr__(self, "checksum", bool(checksum))

    @classmethod
    def from_dict(cls, data):
        _, configuration = parse_named_configuration(data, NAME, require_configuration=False)
        return cls(**(configuration or {}))

    def to_dict(self):
        return {"name": NAME, "configuration": {
            "symbol_size": self.symbol_size, "window": self.window, "block": self.block,
            "adaptive": self.adaptive, "mode": self.mode, "checksum": self.checksum}}

    def evolve_from_array_spec(self, array_spec):
        if self.symbol_size == 0:
            return replace(self, symbol_size=_item_size(array_spec.dtype))
        return self

    def _options(self):
        return dict(symbol_size=self.symbol_size or 1, window=self.window, block=self.block,
                    adaptive=self.adaptive, mode=self.mode, checksum=self.checksum)

    # zarr's single-chunk entry points (sharding and the sync codec protocol
    # call these) are batches of one
    def _decode_sync(self, chunk_bytes, chunk_spec):
        return self._decode_batch([(chunk_bytes, chunk_spec)])[0]

    def _encode_sync(self, chunk_bytes, chunk_spec):
        return self._encode_batch([(chunk_bytes, chunk_spec)])[0]

    async def _decode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._decode_sync, chunk_bytes, chunk_spec)

    async def _encode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._encode_sync, chunk_bytes, chunk_spec)

    async def decode(self, chunks_and_specs):
        return await asyncio.to_thread(self._decode_batch, list(chunks_and_specs))

    async def encode(self, chunks_and_specs):
        return await asyncio.to_thread(self._encode_batch, list(chunks_and_specs))

    def _decode_batch(self, items):
        gpu = _gpu_usable()
        inputs, outs = [], []
        for chunk, spec in items:
            if chunk is not None:
                device = gpu and _device_prototype(spec.prototype)
                inputs.append((_to_device(chunk) if device else _to_host(chunk), spec))
        results = self._run(decompress_batch, inputs, {})
        for chunk, spec in items:
            outs.append(None if chunk is None else _as_prototype(next(results), spec.prototype))
        return outs

    def _encode_batch(self, items):
        device_ok = _gpu_usable()
        inputs, outs = [], []
        for chunk, spec in items:
            if chunk is not None:
                data = chunk.as_array_like()
                device = device_ok and _on_device(data)
                inputs.append((_to_device(chunk) if device else _to_host(chunk), spec))
        results = self._run(compress_batch, inputs, self._options())
        for chunk, spec in items:
            outs.append(None if chunk is None else _as_prototype(next(results), spec.prototype))
        return outs

    @staticmethod
    def _run(batch_fn, inputs, options):
        """batch_fn over the device chunks and over the host chunks (a batch
        is one or the other); the results in the order of inputs."""
        results = [None] * len(inputs)
        for device in (True, False):
            where = [i for i, (data, _) in enumerate(inputs) if _on_device(data) == device]
            if where:
                for i, r in zip(where, batch_fn([inputs[i][0] for i in where], **options)):
                    results[i] = r
        return iter(results)

    def compute_encoded_size(self, input_byte_length, chunk_spec):
        # what zarr's compressors answer: the size depends on the data, and
        # zarr asks only where every codec has a fixed size (a shard index)
        raise NotImplementedError("gpulz chunks have no fixed size")


_prototype_kind = {}


def _on_device(data):
    return hasattr(data, "__cuda_array_interface__")


def _gpu_usable():
    return gpu_available()[0]


def _device_prototype(prototype):
    """Whether zarr wants the prototype's buffers in device memory (a GPU
    Buffer of zarr or of another library with the CUDA array interface)."""
    cls = prototype.buffer
    if cls not in _prototype_kind:
        _prototype_kind[cls] = _on_device(cls.create_zero_length().as_array_like())
    return _prototype_kind[cls]


def _to_host(buf):
    data = buf.as_array_like()
    if _on_device(data):
        return buf.as_numpy_array()
    return data


def _to_device(buf):
    data = buf.as_array_like()
    if _on_device(data):
        return data
    import cupy
    return cupy.asarray(buf.as_numpy_array())


def _as_prototype(result, prototype):
    """result (bytes, a bytearray or a CuPy uint8 array) as a buffer of the
    prototype: kept on the GPU for a device prototype, copied across where
    it lies on the other side."""
    if _on_device(result):
        if _device_prototype(prototype):
            return prototype.buffer.from_array_like(result)
        import cupy
        return prototype.buffer.from_bytes(cupy.asnumpy(result).tobytes())
    return prototype.buffer.from_bytes(bytes(result))
