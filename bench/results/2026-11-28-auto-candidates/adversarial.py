#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Three uint16 arrays made to defeat a rule that runs ratio only where fast compresses less
than 8x: rows of 100 codes of a coarse smooth profile, every row the same (a field constant
along one axis); a low-entropy pattern of period 64; the same rows with 2 % of the values +1.
Usage: adversarial.py [OUTDIR]"""
import os, sys
import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else '.'
rng = np.random.default_rng(5)
prof = np.round(3 * np.sin(np.linspace(0, 3, 100)) + rng.normal(0, 0.3, 100)).astype(np.int64) + 512
a = np.tile(prof, (6000, 1)).astype('<u2')
a.tofile(os.path.join(out, 'adv_rows.u16'))
pat = rng.choice(4, 64, p=[0.7, 0.1, 0.1, 0.1]).astype('<u2')
np.tile(pat, 20000).tofile(os.path.join(out, 'adv_period.u16'))
b = a.copy()
b[rng.random(b.shape) < 0.02] += 1
b.tofile(os.path.join(out, 'adv_rows_noisy.u16'))
