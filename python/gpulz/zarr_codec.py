# SPDX-License-Identifier: BSD-3-Clause
"""The Zarr v3 codec "gpulz", bytes to bytes (registered through the
zarr.codecs entry point): zarr.create_array(..., compressors=[GpulzZarrCodec()])
and arrays whose metadata names {"name": "gpulz"} open without an import.

Chunks that zarr hands over on the GPU (zarr.config.enable_gpu(), CuPy
buffers) are decoded there; host chunks are decoded on the host and put into
the buffer type zarr asks for."""
import asyncio
from dataclasses import dataclass, replace

from zarr.abc.codec import BytesBytesCodec
from zarr.core.common import parse_named_configuration

from ._codec import MODES, compress, decompress, encoder_options

_MODE_NAMES = {v: k for k, v in MODES.items()}
NAME = "gpulz"


def _item_size(dtype):
    size = getattr(dtype, "item_size", None)
    if size is None and hasattr(dtype, "to_native_dtype"):
        size = dtype.to_native_dtype().itemsize
    return size if size in (1, 2, 4, 8) else 1


@dataclass(frozen=True)
class GpulzZarrCodec(BytesBytesCodec):
    """The options of gpulz.compress(); symbol_size 0 (default) becomes the
    array's element size when the array is created, and is stored so."""

    is_fixed_size = False

    symbol_size: int = 0
    window: int = 128
    block: int = 2048
    adaptive: bool = False
    mode: str = "lz"
    checksum: bool = True

    def __init__(self, *, symbol_size=0, window=None, level=None, block=None, adaptive=False,
                 mode="lz", checksum=True):
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

    def _decode_sync(self, chunk_bytes, chunk_spec):
        data = chunk_bytes.as_array_like()
        if hasattr(data, "__cuda_array_interface__"):
            return chunk_spec.prototype.buffer.from_array_like(decompress(data))
        return chunk_spec.prototype.buffer.from_bytes(decompress(chunk_bytes.as_numpy_array()))

    def _encode_sync(self, chunk_bytes, chunk_spec):
        data = chunk_bytes.as_array_like()
        if hasattr(data, "__cuda_array_interface__"):
            return chunk_spec.prototype.buffer.from_array_like(compress(data, **self._options()))
        return chunk_spec.prototype.buffer.from_bytes(
            compress(chunk_bytes.as_numpy_array(), **self._options()))

    async def _decode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._decode_sync, chunk_bytes, chunk_spec)

    async def _encode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._encode_sync, chunk_bytes, chunk_spec)

    def compute_encoded_size(self, input_byte_length, chunk_spec):
        raise NotImplementedError
