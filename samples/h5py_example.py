#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""h5py_example.py - write and read a dataset with the gpulz filter from h5py.

    HDF5_PLUGIN_PATH=/where/libH5Zgpulz.so/is PYTHONPATH=/where/gpulz_h5py.py/is \
        python3 h5py_example.py [FILE]

gpulz_h5py.py (installed next to this script, or in the build tree's samples/)
holds the filter ID and a helper class; without it, pass the numbers yourself:
compression=34791, compression_opts=(0, 0, 128, 2048, 0).
"""
import sys

import h5py
import numpy as np

from gpulz_h5py import Gpulz, available

path = sys.argv[1] if len(sys.argv) > 1 else "h5py_example.h5"
if not available():
    sys.exit("gpulz filter not found: set HDF5_PLUGIN_PATH (docs/troubleshooting.md)")

codes = (512 + np.round(3 * np.sin(np.arange(1 << 20) / 500.0))).astype(np.uint16)
with h5py.File(path, "w") as f:
    # defaults: symbol size from the dtype (2 here), window 128, block 2048
    f.create_dataset("codes", data=codes, chunks=(1 << 18,), **Gpulz())
    # explicit parameters, and the adaptive symbol size
    f.create_dataset("codes_s1", data=codes, chunks=(1 << 18,),
                     **Gpulz(symbol_size=1, window=255, block=4096, adaptive=True))

with h5py.File(path, "r") as f:
    for name in ("codes", "codes_s1"):
        ds = f[name]
        assert np.array_equal(ds[...], codes)
        stored = ds.id.get_storage_size()
        print("%s: %d bytes stored in %d (ratio %.2f), cd_values %s" % (
            name, codes.nbytes, stored, codes.nbytes / stored,
            tuple(ds.id.get_create_plist().get_filter(0)[2])))
