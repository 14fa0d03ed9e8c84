# SPDX-License-Identifier: BSD-3-Clause
# Prints a timeline (us from the compress call) of trace.h's log: TRACE_FILE MARK_FILE.
import sys
tr, mark = sys.argv[1], sys.argv[2]
m = open(mark).read().split()
t0, t1, t2 = float(m[1]), float(m[2]), float(m[3])
ev = []
for line in open(tr):
    a, b, w, site = line.split()
    a = float(a); b = float(b)
    if a >= t0 - 1 and a <= t2 + 1: ev.append((a, b, w, site))
prev = t0
print(f"compress {t1-t0:.1f} us, decompress {t2-t1:.1f} us")
for a, b, w, site in ev:
    if abs(a - t1) < 50 and prev < t1 <= a: print("---- decompress"); 
    gap = a - prev
    print(f"{a-t0:8.1f} gap {gap:6.1f} call {b-a:6.1f} {w:8s} {site.split('/')[-1]}")
    prev = b
print(f"end gap {t2-prev:.1f}")
