#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A cheap test for repeats within the window, per 1 MiB piece of uint16 files: among every 16th
position whose symbol differs from the one before, the share with a match of at least 4 symbols
at a distance of 2..128 inside its 2048-symbol block.  Usage: probe.py FILE.u16... > CSV"""
import numpy as np, sys, csv
# per 1 MiB piece: among sampled positions whose symbol differs from the one before (not inside a run),
# the share with a match of >= 4 symbols at a distance of 2..128 inside its 2048-symbol block
W, C, STEP, L = 128, 2048, 16, 4
def probe(x):
    m = len(x); idx = np.arange(W + 1, m - L, STEP)
    idx = idx[(idx % C) >= 1]
    idx = idx[x[idx] != x[idx - 1]]
    if len(idx) == 0: return 0.0, 0
    hit = np.zeros(len(idx), bool)
    for d in range(2, W + 1):
        ok = (idx % C) >= d
        eq = ok.copy()
        for k in range(L):
            eq &= x[idx + k] == x[idx - d + k]
        hit |= eq
    return hit.mean(), len(idx)
out = csv.writer(sys.stdout)
for fn, S in [(f, 2) for f in sys.argv[1:]]:
    a = np.fromfile(fn, dtype='<u2')
    per = (1 << 20) // 2
    for o in range(0, len(a), per):
        p, n = probe(a[o:o + per])
        out.writerow([fn, o * 2, '%.4f' % p, n])
