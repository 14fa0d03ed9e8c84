# SPDX-License-Identifier: BSD-3-Clause
"""h5_py.py - gpulz through h5py (run by h5_py.sh).

Each check asserts what a user relies on: the data reads back, the stored
chunks are gpulz chunks and smaller (read_direct_chunk, storage size), the
per-chunk filter mask says the filter ran, set_local stored the 7-slot
vector (mode auto, chunk format 2, unless slot 0 asks for lz), variable-length
strings (filter run with no cd_values: the default mode) work.  The
plugin is the build's, found by HDF5 (HDF5_PLUGIN_PATH) and given its
cd_values as numbers, as any h5py program without the gpulz package does;
the package's gpulz.Gpulz is checked by h5tests/py_wheel.sh.
"""
import os
import re
import subprocess
import sys

import h5py
import numpy as np

FID = int(os.environ.get("GPULZ_FILTER_ID", "34791"))
PATH = "h5_py.h5"


def gpulz_filter(symbol_size=0, window=128, block=2048, adaptive=False, version=0):
    """create_dataset's arguments for the filter: cd_values version (0: set by
    set_local, the default mode; 1: mode lz), symbol size, window, block,
    flags (docs/usage.md)."""
    return {"compression": FID,
            "compression_opts": (version, symbol_size, window, block, 1 if adaptive else 0)}


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def chunk_masks(ds):
    return [ds.id.get_chunk_info(i).filter_mask for i in range(ds.id.get_num_chunks())]


def stored_filter(ds):
    plist = ds.id.get_create_plist()
    check(plist.get_nfilters() == 1, "one filter in the pipeline")
    fid, flags, values, name = plist.get_filter(0)
    return fid, flags, tuple(values), name.decode()


def main():
    check(h5py.h5z.filter_avail(FID), "h5py finds filter %d (HDF5_PLUGIN_PATH=%s)"
          % (FID, os.environ.get("HDF5_PLUGIN_PATH")))
    ints = (np.arange(1 << 20, dtype="<i4") // 16) % 5000
    field = np.cos(np.linspace(0, 40, 300 * 400)).reshape(300, 400)
    field = np.round(field * 64) / 64  # few distinct values, as after quantization
    noise = np.random.default_rng(1).integers(0, 256, size=1 << 18, dtype=np.uint8)
    words = np.array(["gpulz", "h5py", "chunk", "filter", "lzss", ""], dtype=object)
    strings = np.array([words[i % 6] * (i % 4) + str(i % 50) for i in range(5000)], dtype=object)

    with h5py.File(PATH, "w") as f:
        f.create_dataset("ints", data=ints, chunks=(1 << 18,), **gpulz_filter())
        f.create_dataset("ints_lz", data=ints, chunks=(1 << 18,), **gpulz_filter(version=1))
        f.create_dataset("field", data=field, chunks=(100, 200),
                         **gpulz_filter(symbol_size=8, window=255, block=4096, adaptive=True))
        f.create_dataset("plain_opts", data=ints, chunks=(1 << 18,), compression=FID,
                         compression_opts=(0, 2, 0, 0, 0))
        f.create_dataset("noise", data=noise, chunks=(1 << 16,), compression=FID)
        # no compression_opts: HDF5 skips set_local for vlen, the filter gets cd_nelmts == 0
        f.create_dataset("strings", data=strings, chunks=(1000,), dtype=h5py.string_dtype(),
                         compression=FID)
        # a mandatory filter needs the low-level API
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_chunk((1 << 16,))
        dcpl.set_filter(FID, h5py.h5z.FLAG_MANDATORY, (0, 0, 0, 0, 0))
        dsid = h5py.h5d.create(f.id, b"mandatory_noise", h5py.h5t.STD_U8LE,
                               h5py.h5s.create_simple(noise.shape), dcpl=dcpl)
        dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, noise)
        dsid.close()

    with h5py.File(PATH, "r") as f:
        ds = f["ints"]
        check(np.array_equal(ds[...], ints), "ints read back")
        fid, flags, values, name = stored_filter(ds)
        check(fid == FID and values == (2, 4, 128, 2048, 0, (1 << 18) * 4, 3), "ints cd_values %r" % (values,))
        check(flags & h5py.h5z.FLAG_OPTIONAL, "compression= adds the filter as optional")
        check(name.startswith("gpulz (multi-byte LZSS"), "stored name %r" % name)
        check(chunk_masks(ds) == [0, 0, 0, 0], "ints masks %r" % chunk_masks(ds))
        mask, raw = ds.id.read_direct_chunk((0,))
        check(mask == 0 and raw[:4] == b"GPLZ" and raw[4] == 2 and raw[6] == 4,
              "chunk 0 is a gpulz chunk, format 2, S 4")
        check(len(raw) < (1 << 18) * 4 // 4, "chunk 0 takes %d bytes" % len(raw))
        check(ds.id.get_storage_size() < ints.nbytes // 4,
              "ints: %d bytes stored for %d" % (ds.id.get_storage_size(), ints.nbytes))
        print("ints: %d -> %d bytes, cd_values %r" % (ints.nbytes, ds.id.get_storage_size(), values))

        ds = f["ints_lz"]
        check(np.array_equal(ds[...], ints), "ints_lz read back")
        values = stored_filter(ds)[2]
        check(values == (1, 4, 128, 2048, 0, (1 << 18) * 4, 0), "ints_lz cd_values %r" % (values,))
        raw = ds.id.read_direct_chunk((0,))[1]
        check(raw[4] == 1 and raw[6] == 4, "ints_lz: chunk 0 is format 1, S 4")
        print("ints_lz: %d -> %d bytes, cd_values %r" % (ints.nbytes, ds.id.get_storage_size(), values))

        ds = f["field"]
        check(np.array_equal(ds[...], field), "field read back")
        check(stored_filter(ds)[2] == (2, 8, 255, 4096, 1, 100 * 200 * 8, 3),
              "field cd_values %r" % (stored_filter(ds)[2],))
        check(all(m == 0 for m in chunk_masks(ds)), "field masks")
        check(ds.id.get_storage_size() < field.nbytes // 2, "field shrinks")
        print("field: %d -> %d bytes" % (field.nbytes, ds.id.get_storage_size()))

        ds = f["plain_opts"]
        check(np.array_equal(ds[...], ints), "plain_opts read back")
        check(stored_filter(ds)[2] == (2, 2, 128, 2048, 0, (1 << 18) * 4, 3), "plain_opts cd_values")
        check(ds.id.read_direct_chunk((0,))[1][6] == 2, "plain_opts chunk has S 2")

        ds = f["noise"]
        check(np.array_equal(ds[...], noise), "noise read back")
        check(chunk_masks(ds) == [1, 1, 1, 1], "optional filter skipped random chunks: %r" % chunk_masks(ds))
        ds = f["mandatory_noise"]
        check(np.array_equal(ds[...], noise), "mandatory noise read back")
        check(chunk_masks(ds) == [0, 0, 0, 0], "mandatory filter ran on random chunks")
        check(ds.id.get_storage_size() > noise.nbytes, "stored raw blocks plus headers")

        ds = f["strings"]
        back = ds.asstr()[...]
        check(list(back) == list(strings), "variable-length strings read back")
        check(stored_filter(ds)[2] == (), "vlen: no cd_values stored (set_local not called)")
        check(chunk_masks(ds) == [0] * 5, "vlen heap references were compressed: %r" % chunk_masks(ds))
        raw = ds.id.read_direct_chunk((0,))[1]
        check(raw[4] == 2 and raw[6] == 1, "vlen chunk: the default mode (format 2), S 1")
        print("strings: 5 chunks of heap references compressed, round trip ok")

    # the same file through the C tools
    h5dump = os.environ.get("H5DUMP")
    if h5dump:
        out = subprocess.run([h5dump, "-d", "/strings", "-s", "4999", "-c", "1", PATH],
                             capture_output=True, text=True)
        check(out.returncode == 0 and str(strings[4999]) in out.stdout, "h5dump reads h5py's file")

    os.remove(PATH)

    # the plugin used h5py's own libhdf5 and loaded no second one (a plugin
    # linked to the system's would map it beside a wheel's)
    if os.path.exists("/proc/self/maps"):
        with open("/proc/self/maps") as maps:
            libs = {line.split()[-1] for line in maps
                    if re.search(r"/libhdf5(_serial|_openmpi)?(-[0-9a-f]+)?\.so", line)}
        check(len(libs) == 1, "one libhdf5 in the process, not %r" % sorted(libs))
    print("h5py %s, HDF5 %s: all checks passed" % (h5py.__version__, h5py.version.hdf5_version))


main()
