# SPDX-License-Identifier: BSD-3-Clause
"""The numcodecs codec "gpulz" (registered through the numcodecs.codecs entry
point, so numcodecs.get_codec({"id": "gpulz", ...}) finds it once the package
is installed; zarr v2 arrays take it as compressor)."""
from numcodecs.abc import Codec
from numcodecs.compat import ensure_contiguous_ndarray

from ._codec import (DEFAULT_MODE, MODES, compress, decompress, encoder_options, integer,
                     make_params, refuse_references, symbol_size_of)

_MODE_NAMES = {v: k for k, v in MODES.items()}


class GpulzCodec(Codec):
    """gpulz as a numcodecs codec: one gpulz chunk per buffer.

    The options are those of gpulz.compress(); symbol_size 0 (default) takes
    it from the element size of each buffer encoded, as gpulz.compress()
    does (1 for bytes).  threads and
    backend choose where the work runs and never change the bytes: they
    describe this machine, not the data, and get_config() (what Zarr v2
    stores in .zarray) leaves them out, so that an array written with
    backend="gpu" reads where there is no GPU.
    """

    codec_id = "gpulz"

    def __init__(self, symbol_size=0, window=None, level=None, block=None, adaptive=False,
                 mode=DEFAULT_MODE, checksum=True, threads=0, backend="auto"):
        o = encoder_options(symbol_size, window, level, block, adaptive, mode, checksum)
        self.symbol_size = o["symbol_size"]
        self.window = o["window"]
        self.block = o["block"]
        self.adaptive = bool(adaptive)
        self.mode = _MODE_NAMES[o["mode"]]
        self.checksum = bool(checksum)
        self.threads = integer("threads", threads)
        # threads and backend checked now, not at the first encode
        make_params(o, o["symbol_size"] or 1, self.threads, backend)
        self.backend = backend

    def get_config(self):
        config = super().get_config()
        del config["threads"], config["backend"]
        return config

    def _options(self):
        return dict(window=self.window, block=self.block, adaptive=self.adaptive, mode=self.mode,
                    checksum=self.checksum, threads=self.threads, backend=self.backend)

    def encode(self, buf):
        refuse_references(buf)
        if not hasattr(buf, "__cuda_array_interface__"):
            buf = ensure_contiguous_ndarray(buf)
        return compress(buf, symbol_size=self.symbol_size or symbol_size_of(buf), **self._options())

    def decode(self, buf, out=None):
        if not hasattr(buf, "__cuda_array_interface__"):
            buf = ensure_contiguous_ndarray(buf)
        if out is None:
            return decompress(buf, threads=self.threads, backend=self.backend)
        if not hasattr(out, "__cuda_array_interface__"):
            decompress(buf, ensure_contiguous_ndarray(out), threads=self.threads,
                       backend=self.backend)
            return out
        return decompress(buf, out)
