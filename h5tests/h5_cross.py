# SPDX-License-Identifier: BSD-3-Clause
"""h5_cross.py - h5py's side of h5_cross.sh.

  make PLAIN OUT   write the reference data uncompressed to PLAIN and with gpulz to OUT
  check PLAIN F    F's datasets a and b equal PLAIN's and went through gpulz
  checkc F         the dataset 'field' of samples/h5_write_read equals its formula
"""
import os
import sys

import h5py
import numpy as np

FID = int(os.environ["GPULZ_FILTER_ID"])


def data():
    rng = np.random.default_rng(5)
    y, x = np.mgrid[0:300, 0:500]
    a = (512 + np.rint(3 * np.sin(x / 40.0) * np.cos(y / 25.0))).astype(np.int32)
    a[rng.random(a.shape) < 0.02] = 0
    b = np.cumsum(rng.integers(-2, 3, 100000)).astype(np.float32) / 8
    return a, b


def fail(msg):
    print("h5_cross.py: " + msg, file=sys.stderr)
    sys.exit(1)


def uses_gpulz(ds):
    plist = ds.id.get_create_plist()
    return any(plist.get_filter(i)[0] == FID for i in range(plist.get_nfilters()))


def main(argv):
    if argv[1] == "make":
        a, b = data()
        with h5py.File(argv[2], "w") as f:
            f.create_dataset("a", data=a, chunks=(100, 250))
            f.create_dataset("b", data=b, chunks=(30000,))
        with h5py.File(argv[3], "w") as f:
            f.create_dataset("a", data=a, chunks=(100, 250), compression=FID,
                             compression_opts=(1, 0, 128, 2048, 0))
            f.create_dataset("b", data=b, chunks=(30000,), compression=FID,
                             compression_opts=(1, 0, 128, 2048, 0))
    elif argv[1] == "check":
        with h5py.File(argv[2], "r") as p, h5py.File(argv[3], "r") as f:
            for name in ("a", "b"):
                if not uses_gpulz(f[name]):
                    fail(f"{argv[3]}:{name} does not use filter {FID}")
                if not np.array_equal(p[name][...], f[name][...]):
                    fail(f"{argv[3]}:{name} differs from {argv[2]}")
    elif argv[1] == "checkc":
        y, x = np.mgrid[0:512, 0:1024]
        want = (((y // 8 + x // 32) % 64) / 16.0).astype(np.float32)
        with h5py.File(argv[2], "r") as f:
            if not uses_gpulz(f["field"]):
                fail(f"{argv[2]}:field does not use filter {FID}")
            if not np.array_equal(f["field"][...], want):
                fail(f"{argv[2]}:field differs from the formula of h5_write_read.c")
    else:
        fail("usage: make PLAIN OUT | check PLAIN F | checkc F")


main(sys.argv)
