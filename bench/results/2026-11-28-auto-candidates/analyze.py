#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""auto's ratio candidate, chunk by chunk (autostudy.c's CSVs): per array, how many chunks
ratio wins and what fast alone would cost; then rules that run ratio only where a chunk
looks poorly compressible (fast's exact size, or the order-0 entropy of the symbols or of
their deltas, at least n/K bytes; or fast's and long runs), against auto's exact choice."""
import collections, csv, sys


def want_ratio(r, kind, K):
    """Whether a rule runs ratio on chunk r: its estimate of at least n/K bytes (the order-0
    entropy of the symbols or their deltas, or fast's exact size), or with 'fast|run' also
    where at least 95 % of the symbols repeat the one before (long runs, LZ's strength)."""
    b = int(r['bytes'])
    if kind == 'entropy':  # only S = 2 rows carry the entropies
        return min(float(r['H0bytes']), float(r['Hdbytes'])) >= b / K
    return int(r['fast']) >= b / K or (kind == 'fast|run' and float(r['run1']) >= 0.95)

for fn in sys.argv[1:] or ['chunks-1mib.csv', 'chunks-4mib.csv', 'chunks-1mib-other.csv']:
    rows = list(csv.DictReader(open(fn)))
    print(fn)
    per = collections.OrderedDict()
    for r in rows:
        v = per.setdefault(r['file'].split('/')[-1].replace('.u16', ''), [0, 0, 0, 0, 0])
        b, f, q = int(r['bytes']), int(r['fast']), int(r['ratio'])
        v[0] += b; v[1] += f; v[2] += min(f, q); v[3] += 1; v[4] += q < f
    print('| array | chunks ratio wins | auto ratio | fast alone | fast alone, bytes |')
    print('|---|---|---|---|---|')
    for k, v in per.items():
        print('| %s | %d of %d | %.2f | %.2f | %+.1f %% |' % (k, v[4], v[3], v[0] / v[2], v[0] / v[1], 100 * (v[1] / v[2] - 1)))
    if 'fast_cpu_us' in rows[0]:
        tot = sum(int(r['bytes']) for r in rows)
        tf = sum(float(r['fast_cpu_us']) for r in rows)
        tr = sum(float(r['ratio_cpu_us']) for r in rows)
        print('one core: fast %.0f MB/s, ratio %.0f MB/s, both (auto today) %.0f MB/s' % (tot / tf, tot / tr, tot / (tf + tr)))
    for K in (6, 8, 10, 16):
        for kind in ('entropy', 'fast', 'fast|run') if float(rows[0]['H0bytes']) >= 0 else ('fast', 'fast|run'):
            tot = auto = rule = run = rb = 0
            worst = collections.defaultdict(lambda: [0, 0])
            for r in rows:
                b, f, q = int(r['bytes']), int(r['fast']), int(r['ratio'])
                use = want_ratio(r, kind, K)
                run += use; rb += b * use; tot += b; auto += min(f, q); rule += min(f, q) if use else f
                worst[r['file']][0] += min(f, q); worst[r['file']][1] += min(f, q) if use else f
            w = max((v[1] / v[0] - 1, k) for k, v in worst.items())
            line = '  %-7s >= n/%-2d: ratio on %2d of %d chunks (%2.0f %% of bytes), size %+.2f %%, worst array %+.2f %% (%s)' % (
                kind, K, run, len(rows), 100 * rb / tot, 100 * (rule / auto - 1), 100 * w[0], w[1].split('/')[-1].replace('.u16', '') if w[0] > 0 else 'none')
            if 'fast_cpu_us' in rows[0]:
                t = sum(float(r['fast_cpu_us']) + (float(r['ratio_cpu_us']) if want_ratio(r, kind, K) else 0) for r in rows)
                line += ', one core %.0f MB/s' % (tot / t)
            print(line)
