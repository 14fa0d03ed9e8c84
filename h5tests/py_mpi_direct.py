# SPDX-License-Identifier: BSD-3-Clause
"""gpulz.write_direct and read_direct in a file open with MPI-IO (h5py's
driver "mpio"): every rank writes its own band of whole chunks of one
dataset; the write must not take the chunk path (write_direct_chunk from one
rank leaves the other ranks' chunks wrong) and must store every rank's rows.
Writes in which the last rank's arguments are refused (by gpulz, by numpy,
by h5py) must raise on every rank, the others saying that another rank
failed, and write nothing: before the ranks agreed, the others waited in
h5py's collective write, or in the agreement, for ever.  Each rank then reads its band back with read_direct, and rank 0 reads
the whole file serially.  Usage: mpiexec -n N python py_mpi_direct.py FILE"""
import sys

import h5py
import numpy as np
from mpi4py import MPI

import gpulz

comm = MPI.COMM_WORLD
rank, n = comm.rank, comm.size
path = sys.argv[1]
rows, cols = 64, 1024


def band(r):
    v = np.arange(rows * cols, dtype=np.uint64).reshape(rows, cols) % 97
    return (v + 1000 * (r + 1)).astype(np.uint16)


failed = 0
with h5py.File(path, "w", driver="mpio", comm=comm) as f:
    d = f.create_dataset("x", (rows * n, cols), dtype="uint16", chunks=(16, cols), **gpulz.Gpulz())
    took = gpulz.write_direct(d, band(rank), np.s_[rank * rows:(rank + 1) * rows, :])
    if took:
        print("rank %d: write_direct took its chunk path in a file open with MPI-IO" % rank)
        failed = 1
    # other values, which must not reach the file; the last rank's arguments
    # refused by gpulz (threads), by numpy (ragged rows), by h5py (rows that
    # do not fill the selection, text) or by HDF5 (objects, which have no
    # conversion to the dataset's type)
    other = band(rank) ^ np.uint16(0x5A5A)
    refusals = (("threads -1", other, -1), ("ragged data", [[1, 2], [3]], 0),
                ("half the rows", other[:rows // 2], 0),
                ("text", np.full(other.shape, "ab"), 0),
                ("objects", np.empty(other.shape, object), 0))
    for what, data, threads in refusals:
        if rank != n - 1:
            data, threads = other, 0
        try:
            gpulz.write_direct(d, data, np.s_[rank * rows:(rank + 1) * rows, :], threads=threads)
            print("rank %d: a write in which rank %d failed (%s) succeeded" % (rank, n - 1, what))
            failed = 1
        except RuntimeError as e:
            if rank == n - 1 or "another rank failed" not in str(e):
                print("rank %d (%s): %s" % (rank, what, e))
                failed = 1
        except Exception as e:
            if rank != n - 1:
                print("rank %d: %r where another rank failed (%s)" % (rank, e, what))
                failed = 1
    # bytes, not an array, as h5py takes them: converted by numpy to the
    # dataset's type (HDF5's conversion from numpy's guess, S4, stored them
    # cut at their NUL: empty)
    t = f.create_dataset("t", (4 * n,), dtype="S5", chunks=(4,), **gpulz.Gpulz())
    gpulz.write_direct(t, b"\x00r%d" % rank, np.s_[rank * 4:(rank + 1) * 4])
with h5py.File(path, "r", driver="mpio", comm=comm) as f:
    out = np.zeros((rows, cols), np.uint16)
    gpulz.read_direct(f["x"], out, np.s_[rank * rows:(rank + 1) * rows, :])
    if not np.array_equal(out, band(rank)):
        print("rank %d: read_direct of its rows read other values" % rank)
        failed = 1
comm.Barrier()
if rank == 0:
    with h5py.File(path, "r") as f:
        x, t = f["x"][...], f["t"][...]
    if t.tobytes() != b"".join(b"\x00r%d" % r + bytes(3 - len(str(r)))
                               for r in range(n) for _ in range(4)):
        print("bytes written by the ranks read back as %r" % (t,))
        failed = 1
    for r in range(n):
        if not np.array_equal(x[r * rows:(r + 1) * rows], band(r)):
            print("rows of rank %d read back wrong (first values %s)" % (r, x[r * rows, :4]))
            failed = 1
failed = comm.allreduce(failed, op=MPI.MAX)
if rank == 0 and not failed:
    print("%d ranks: write_direct went through h5py, collectively; every row read back" % n)
sys.exit(failed)
