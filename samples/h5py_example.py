#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""h5py_example.py - write and read a dataset with the gpulz filter from h5py.

    pip install gpulz        # or the wheel python/build-wheel.sh builds (docs/python.md)
    python3 h5py_example.py [FILE]

`import gpulz` registers the filter that the package carries with h5py's
HDF5, so no HDF5_PLUGIN_PATH is needed, and gpulz.Gpulz gives the filter and
its parameters to create_dataset.  Without the package, with the plugin
where HDF5 finds it: compression=34791, compression_opts=(0, 0, 128, 2048, 0).
"""
import sys

import h5py
import numpy as np

import gpulz

path = sys.argv[1] if len(sys.argv) > 1 else "h5py_example.h5"

codes = (512 + np.round(3 * np.sin(np.arange(1 << 20) / 500.0))).astype(np.uint16)
with h5py.File(path, "w") as f:
    # defaults: symbol size from the dtype (2 here), window 128, block 2048, mode auto
    # (chunk format 2: per chunk the shorter of fast and ratio)
    f.create_dataset("codes", data=codes, chunks=(1 << 18,), **gpulz.Gpulz())
    # explicit parameters, and the adaptive symbol size
    f.create_dataset("codes_s1", data=codes, chunks=(1 << 18,),
                     **gpulz.Gpulz(symbol_size=1, window=255, block=4096, adaptive=True))
    # mode lz: chunk format 1, the bytes of gpulz 0.1, which every gpulz reads
    f.create_dataset("codes_lz", data=codes, chunks=(1 << 18,), **gpulz.Gpulz(mode="lz"))

with h5py.File(path, "r") as f:
    for name in ("codes", "codes_s1", "codes_lz"):
        ds = f[name]
        assert np.array_equal(ds[...], codes)
        stored = ds.id.get_storage_size()
        print("%s: %d bytes stored in %d (ratio %.2f), cd_values %s" % (
            name, codes.nbytes, stored, codes.nbytes / stored,
            tuple(ds.id.get_create_plist().get_filter(0)[2])))
