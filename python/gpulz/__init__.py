# SPDX-License-Identifier: BSD-3-Clause
"""gpulz: lossless multi-byte LZSS + rANS compression, on the CPU or an NVIDIA GPU.

    import gpulz, h5py
    with h5py.File("out.h5", "w") as f:
        f.create_dataset("x", data=x, chunks=(1 << 18,), **gpulz.Gpulz())

Importing gpulz registers the bundled HDF5 plugin with h5py's HDF5 where the
filter is not available already (as hdf5plugin does); PLUGIN_PATH is the
folder to give HDF5_PLUGIN_PATH for programs that are not Python.
compress() and decompress() run the codec on numpy arrays, bytes and CuPy
arrays, compress_batch() and decompress_batch() on lists of them;
write_direct() and read_direct() move whole chunks of an h5py dataset
between numpy or CuPy arrays and the file in batches, around HDF5's filter
pipeline; numcodecs and Zarr v3 find the codec "gpulz" through entry points.
docs/python.md has the recipes; `python -m gpulz.test` checks an install.
"""
import collections.abc
import ctypes
import os

from . import _build_info
from ._codec import (DEFAULT_MODE, GpulzError, compress, compress_batch, decompress,
                     decompress_batch, decompressed_size, encoder_options, gpu_available,
                     library_version)
from ._h5direct import read_direct, write_direct
from ._header import C as _C
from ._header import INCLUDE_DIR

__all__ = ["DEFAULT_MODE", "FILTER_ID", "PROVISIONAL_FILTER_ID", "FILTER_NAME", "PLUGIN_PATH", "Gpulz",
           "GpulzError", "compress", "compress_batch", "decompress", "decompress_batch",
           "decompressed_size", "get_config", "get_include", "read_direct", "register",
           "write_direct"]

_HERE = os.path.dirname(os.path.abspath(__file__))

#: the HDF5 filter ID this build writes (gpulz_cd.h's H5Z_FILTER_GPULZ)
FILTER_ID = _C["H5Z_FILTER_GPULZ"]
#: the ID of files written before a registered one; read through a second module
PROVISIONAL_FILTER_ID = _C["H5Z_FILTER_GPULZ_PROVISIONAL"]
FILTER_NAME = _C["H5Z_GPULZ_NAME"]
#: the folder holding the plugin alone: HDF5_PLUGIN_PATH for h5dump, h5repack, nccopy...
PLUGIN_PATH = os.path.join(_HERE, "plugins")
PLUGIN_FILE = os.path.join(PLUGIN_PATH, "libH5Zgpulz.so")
_PLUGINS = [(FILTER_ID, PLUGIN_FILE)]
if PROVISIONAL_FILTER_ID != FILTER_ID:
    _PLUGINS.append((PROVISIONAL_FILTER_ID,
                     os.path.join(PLUGIN_PATH, "libH5Zgpulz_provisional.so")))

try:
    from importlib.metadata import version as _dist_version
    __version__ = _dist_version(_build_info.DISTRIBUTION)
except Exception:  # not installed as a distribution (a build folder)
    __version__ = library_version()


def get_include():
    """The folder of gpulz.h and gpulz_cd.h, for C extensions."""
    return INCLUDE_DIR


try:
    from h5py.filters import FilterRefBase as _FilterBase
except ImportError:  # no h5py: the same mapping protocol, for h5netcdf and friends
    class _FilterBase(collections.abc.Mapping):
        filter_id = None
        filter_options = ()

        @property
        def _kwargs(self):
            return {"compression": self.filter_id, "compression_opts": self.filter_options}

        def __getitem__(self, item):
            return self._kwargs[item]

        def __len__(self):
            return len(self._kwargs)

        def __iter__(self):
            return iter(self._kwargs)


class Gpulz(_FilterBase):
    """The gpulz HDF5 filter and its cd_values, for h5py's create_dataset(**Gpulz(...)).

    symbol_size: bytes per symbol 1, 2, 4 or 8; 0 (default) = the datatype's size.
    window (1..255, default 128) or level (1..4: window 32, 64, 128, 255).
    block: symbols per block, a power of two 256..16384 (default 2048).
    adaptive: also try symbol size 1 where the ratio is under 1.5.
    mode: "auto" (default), "fast" or "ratio" (chunk format 2), or "lz"
    (format 1, which gpulz 0.1 reads); each runs on the GPU and the CPU.
    checksum: False for no checksum in the chunks (fast, ratio, auto).

    The values go into the slots of gpulz_cd.h: for mode lz the five of gpulz
    0.1, slot 0 saying format 1 (which keeps them lz), otherwise seven, the
    mode last (slot 5, the chunk size, is the filter's own).
    A value of the wrong type is a TypeError (window=2.5 is not window 2), one
    out of range a ValueError.  h5py adds compression= filters as optional:
    a chunk that does not shrink is stored unfiltered.
    """

    filter_id = FILTER_ID

    def __init__(self, symbol_size=0, window=None, level=None, block=None, adaptive=False,
                 mode=DEFAULT_MODE, checksum=True):
        o = encoder_options(symbol_size, window, level, block, adaptive, mode, checksum)
        lz = o["mode"] == _C["H5Z_GPULZ_CD_MODE_LZ"]
        cd = [0] * _C["H5Z_GPULZ_CD_NELMTS_STORED"]
        # set_local writes the version the mode writes; lz's five values need
        # it to be lz rather than the default (H5Z_gpulz_cd_mode())
        cd[_C["H5Z_GPULZ_CD_VERSION"]] = _C["H5Z_GPULZ_CD_VERSION_LZ"] if lz else 0
        cd[_C["H5Z_GPULZ_CD_SYMBOL"]] = o["symbol_size"]
        cd[_C["H5Z_GPULZ_CD_WINDOW"]] = o["window"]
        cd[_C["H5Z_GPULZ_CD_BLOCK"]] = o["block"]
        cd[_C["H5Z_GPULZ_CD_FLAGS"]] = o["flags"]
        cd[_C["H5Z_GPULZ_CD_CHUNK_BYTES"]] = 0  # set_local writes the chunk size
        cd[_C["H5Z_GPULZ_CD_MODE"]] = o["mode"]
        n = _C["H5Z_GPULZ_CD_NELMTS"] if lz else _C["H5Z_GPULZ_CD_NELMTS_STORED"]
        self.filter_options = tuple(cd[:n])

    def __repr__(self):
        return "%s(filter_id=%d, filter_options=%r)" % (type(self).__name__, self.filter_id,
                                                       self.filter_options)


_registered = []


def _register_one(h5py, fid, path):
    plugin = ctypes.CDLL(path)
    plugin.init_filter.argtypes = [ctypes.c_char_p]
    plugin.init_filter.restype = ctypes.c_int
    # bind the plugin to h5py's HDF5: h5z's module links it (hdf5plugin's way)
    if plugin.init_filter(os.fsencode(h5py.h5z.__file__)) != 0:
        raise RuntimeError("gpulz: the plugin %s cannot bind to h5py's HDF5 (%s)"
                           % (path, h5py.h5z.__file__))
    plugin.H5PLget_plugin_info.restype = ctypes.c_void_p
    cls = plugin.H5PLget_plugin_info()
    if not cls:
        raise RuntimeError("gpulz: H5PLget_plugin_info() of %s returned NULL" % path)
    if hasattr(h5py.h5z, "register_filter"):
        h5py.h5z.register_filter(cls)
    else:  # h5py before 3.8: H5Zregister of the HDF5 that h5z links
        register = ctypes.CDLL(h5py.h5z.__file__).H5Zregister
        register.argtypes = [ctypes.c_void_p]
        register.restype = ctypes.c_int
        if register(cls) < 0:
            raise RuntimeError("gpulz: H5Zregister failed")


def register(force=False):
    """Register the bundled plugin with h5py's HDF5.

    Without force only where the filter is not available already (another
    gpulz found through HDF5_PLUGIN_PATH or HDF5's plugin folder is kept);
    with force the bundled one replaces it.  Returns the IDs registered now.
    """
    import h5py
    done = []
    for fid, path in _PLUGINS:
        if not os.path.exists(path):
            continue
        if h5py.h5z.filter_avail(fid):
            if not force:
                continue
            h5py.h5z.unregister_filter(fid)
        _register_one(h5py, fid, path)
        done.append(fid)
        if fid not in _registered:
            _registered.append(fid)
    return tuple(done)


def get_config():
    """What this install is: a dict of the package and library versions, the
    plugin file and folder, the filter ID and whether h5py's HDF5 has the
    filter (and whether gpulz registered it), whether the CUDA backend was
    built and a GPU is usable now (with the reason when not), and h5py's and
    its HDF5's versions (None without h5py)."""
    usable, reason = gpu_available()
    cfg = {
        "version": __version__,
        "library_version": library_version(),
        "distribution": _build_info.DISTRIBUTION,
        "plugin": PLUGIN_FILE,
        "plugin_path": PLUGIN_PATH,
        "filter_id": FILTER_ID,
        "provisional_filter_id": PROVISIONAL_FILTER_ID,
        "registered": tuple(_registered),
        "filter_available": None,
        "cuda_built": _build_info.CUDA_BUILT,
        "gpu_usable": usable,
        "gpu_reason": reason,
        "h5py_version": None,
        "hdf5_version": None,
    }
    try:
        import h5py
    except ImportError:
        return cfg
    cfg["filter_available"] = bool(h5py.h5z.filter_avail(FILTER_ID))
    cfg["h5py_version"] = h5py.version.version
    cfg["hdf5_version"] = h5py.version.hdf5_version
    return cfg


try:
    import h5py as _h5py  # noqa: F401
except ImportError:
    pass
else:
    register(force=False)
