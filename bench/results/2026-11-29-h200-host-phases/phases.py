# SPDX-License-Identifier: BSD-3-Clause
# medians of the gaps between phase marks (PH t label) of each call, by call shape
import sys, statistics, collections
for f in sys.argv[1:]:
    marks = [l.split() for l in open(f) if l.startswith("PH ")]
    calls = []; cur = None
    for _, t, lab in marks:
        if lab in ("h:start", "d:start"):
            cur = [(lab, float(t))]; calls.append(cur)
        elif cur is not None:
            cur.append((lab, float(t)))
    shapes = collections.defaultdict(list)
    for c in calls[4:]:
        shapes[tuple(l for l, _ in c)].append([b[1] - a[1] for a, b in zip(c, c[1:])])
    print(f"== {f}")
    for shape, rows in shapes.items():
        med = [statistics.median(col) for col in zip(*rows)]
        print(f"  {len(rows)} calls, total {sum(med):.1f} us: " + " ".join(f"{b}+{d:.1f}" for b, d in zip(shape[1:], med)))
