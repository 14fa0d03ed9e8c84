# SPDX-License-Identifier: BSD-3-Clause
"""h5_py_register.py - the plugin registered from Python the way hdf5plugin and
Python wheels do it, without HDF5's plugin search (run by h5_py.sh and
h5_py_wheel.sh with the plugin file as argv[1]).

    python3 h5_py_register.py PLUGIN.so          both ways below, each in a process of
        its own (a binding lasts for the process) with HDF5_PLUGIN_PATH an empty folder
    python3 h5_py_register.py PLUGIN.so ctypes   load the plugin with ctypes, call
        init_filter(<h5py's h5z module>) and H5PLget_plugin_info(), register the
        class with h5py's HDF5 (h5py.h5z.register_filter, or H5Zregister)
    python3 h5_py_register.py PLUGIN.so retry    ask H5PLget_plugin_info() from
        ctypes first (which cannot bind: the caller is not HDF5), then let HDF5
        load the plugin from its folder: the failed first try must not stick

HDF5_PLUGIN_PATH names an empty folder, so that only these ways can make the
filter available.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

FID = int(os.environ.get("GPULZ_FILTER_ID", "34791"))


def fail(what):
    print("FAIL:", what)
    sys.exit(1)


def roundtrip(how):
    x = (300 + np.arange(1 << 18) // 64 % 50).astype(np.int32)
    with h5py.File("h5_py_register_%s.h5" % how, "w", driver="core", backing_store=False) as f:
        d = f.create_dataset("x", data=x, chunks=(1 << 16,), compression=FID)
        if not np.array_equal(d[...], x):
            fail("%s: data differ" % how)
        if d.id.get_chunk_info(0).filter_mask != 0 or d.id.get_storage_size() >= x.nbytes // 4:
            fail("%s: the filter did not run" % how)
        values = tuple(d.id.get_create_plist().get_filter(0)[2])
        # no cd_values: the default mode, auto (chunk format 2)
        if len(values) != 7 or values[0] != 2 or values[5] != (1 << 16) * 4 or values[6] != 3:
            fail("%s: stored cd_values %r" % (how, values))
    print("%s: round trip through the gpulz filter, cd_values %r" % (how, values))


def main():
    plugin = sys.argv[1]
    if len(sys.argv) == 2:
        with tempfile.TemporaryDirectory() as empty:
            env = dict(os.environ, HDF5_PLUGIN_PATH=empty)
            for how in ("ctypes", "retry"):
                if subprocess.run([sys.executable, __file__, plugin, how], env=env).returncode:
                    sys.exit(1)
        return
    how = sys.argv[2]
    if h5py.h5z.filter_avail(FID):
        fail("the filter is available before registration: HDF5_PLUGIN_PATH=%s"
             % os.environ.get("HDF5_PLUGIN_PATH"))
    lib = ctypes.CDLL(plugin)
    lib.H5PLget_plugin_info.restype = ctypes.c_void_p
    first = lib.H5PLget_plugin_info()
    print("H5PLget_plugin_info() from ctypes, before anything: %s"
          % ("a class" if first else "NULL (no HDF5 to bind to)"))
    if how == "ctypes":
        init_filter = lib.init_filter
        init_filter.argtypes = [ctypes.c_char_p]
        init_filter.restype = ctypes.c_int
        if init_filter(b"/nonexistent/libhdf5.so") != -1:
            fail("init_filter accepted a library that does not exist")
        if init_filter(os.fsencode(h5py.h5z.__file__)) != 0:
            fail("init_filter(%s) failed" % h5py.h5z.__file__)
        cls = lib.H5PLget_plugin_info()
        if not cls:
            fail("H5PLget_plugin_info() is NULL after init_filter")
        if hasattr(h5py.h5z, "register_filter"):
            h5py.h5z.register_filter(cls)
        else:  # h5py before 3.8: H5Zregister of the HDF5 that h5z was linked with
            register = ctypes.CDLL(h5py.h5z.__file__).H5Zregister
            register.argtypes = [ctypes.c_void_p]
            if register(cls) < 0:
                fail("H5Zregister failed")
    elif how == "retry":
        h5py.h5pl.append(os.fsencode(os.path.dirname(os.path.abspath(plugin))))
    else:
        fail("unknown mode %r" % how)
    if not h5py.h5z.filter_avail(FID):
        fail("%s: the filter is not available" % how)
    roundtrip(how)


main()
