#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""v2_refenc.py - an encoder of chunk format version 2 written from docs/FORMAT.md
alone (sections 11-19, and sections 1-6 for mode lz), with the Python standard
library only and no code shared with kernels/.  It is slow and literal on purpose:
every rule is written the way the spec words it, with the section cited.

It writes the golden vectors of h5tests/golden2/ (codec_golden2 checks that
gpulz writes exactly these bytes and that both gpulz_decompress and the
independent decoder of codec_refdec.c give the input back):

    python3 h5tests/v2_refenc.py --write-golden h5tests/golden2
    python3 h5tests/v2_refenc.py --check-golden h5tests/golden2   # regenerate and compare
    python3 h5tests/v2_refenc.py --compress MODE S W C [--no-checksum] IN OUT
    python3 h5tests/v2_refenc.py --diff PROG COUNT [SEED [KEEPDIR]]
        random inputs compressed by gpulz (PROG: build/h5tests/codec_refdec_test,
        its --compress) and by this encoder; every difference is printed
    python3 h5tests/v2_refenc.py --diff-adaptive PROG COUNT [SEED [KEEPDIR]]
        the same, half of the cases with GPULZ_FLAG_ADAPTIVE (section 8 around the mode)
    python3 h5tests/v2_refenc.py --variants PROG COUNT [SEED]
        valid chunks that no mode writes (a parse that is not greedy, streams
        stored or rANS-coded against section 18, other tables, any g), decoded
        by gpulz and by codec_refdec.c (PROG --decode)

The vector file format is the one of h5tests/golden/ (codec_golden.h) with two
more keys, read by h5tests/codec_golden2.c:

    mode fast|ratio|auto|decode    the encoder mode; "decode": a valid chunk that
                                   this encoder wrote with stage choices forced
                                   (not what any mode would choose), only decoded
    checksum 1|0                   0: GPULZ_FLAG_NO_CHECKSUM
    symbol_size N, window N, block_symbols N
    input / output                 hex bytes, "XX" or "XX*N" for N copies
    '#' starts a comment (the generator describes each stream in comments)

bits(f) of section 19 is computed exactly: the float candidate is confirmed
(or corrected) by an integer comparison, see bits_exact().
"""
import math
import os
import random
import struct
import sys
from collections import Counter

MASK = 0xFFFFFFFF
M = 4096  # section 15: the model's slots
MAGIC = b"GPLZ"
F_DELTA, F_SPLIT, F_LZSS, F_ENTROPY, F_CHECKSUM = 1, 2, 4, 8, 16
ESC = None  # the escape entry's "value"


# ---------------------------------------------------------------- section 19: bits(f)

def bits_exact(f):
    """round(256*log2(M/f)) for 1 <= f <= M, exactly.

    r is that value iff |256*log2(4096/f) - r| < 1/2, i.e.
    2^((2r-1)/512) < 4096/f < 2^((2r+1)/512); raised to the 512th power and
    multiplied by 2*f^512 (all integers):  2^(2r) f^512 < 2^6145 < 2^(2r+2) f^512.
    Equality is impossible (it would need f a power of two, then the value is an
    integer and 2r+512a = 6145 has the wrong parity), so no f gives a tie.  The
    float estimate is only a starting point; the integer test decides."""
    assert 1 <= f <= M
    fp = f ** 512
    top = 1 << 6145
    r = round(256 * (12 - math.log2(f)))
    for cand in (r, r - 1, r + 1, r - 2, r + 2):
        if cand >= 0 and (fp << (2 * cand)) < top < (fp << (2 * cand + 2)):
            return cand
    raise AssertionError("bits(%d) not found" % f)


BITS = [0] + [bits_exact(f) for f in range(1, M + 1)]


# ---------------------------------------------------------------- section 17: checksum

P1, P2, P3, P4, P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393


def rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & MASK


def mix(h):
    h = ((h ^ (h >> 15)) * P2) & MASK
    h = ((h ^ (h >> 13)) * P3) & MASK
    return h ^ (h >> 16)


def hash32(b):
    lanes = [(P1 + l) & MASK for l in range(32)]
    nw = (len(b) + 3) // 4
    padded = bytes(b) + bytes(4 * nw - len(b))
    for j in range(nw):
        w = int.from_bytes(padded[4 * j:4 * j + 4], "little")
        l = j % 32
        lanes[l] = (rotl((lanes[l] + w * P2) & MASK, 13) * P1) & MASK
    H = len(b) & MASK
    for l in range(32):
        H = (rotl((H + lanes[l] * P3) & MASK, 17) * P4) & MASK
    return mix(H)


def checksum(data, S, C):
    n = len(data)
    m = n // S
    nb = -(-m // C)
    X = 0
    for k in range(nb + 1):
        if k < nb:
            piece = data[k * C * S:min((k + 1) * C, m) * S]
        else:
            piece = data[m * S:]
        X = (X + mix((hash32(piece) + k * P5) & MASK)) & MASK
    return mix(X ^ (n & MASK) ^ (((n >> 32) * P1) & MASK))


# ---------------------------------------------------------------- sections 2, 6, 13

def lmin(S):
    """section 6: the smallest L with L*S > 2."""
    L = 1
    while L * S <= 2:
        L += 1
    return L


def split_blocks(data, S, C):
    """section 2: m symbols (S-byte little-endian integers) in blocks of C, the tail."""
    n = len(data)
    m = n // S
    syms = [int.from_bytes(data[i * S:(i + 1) * S], "little") for i in range(m)]
    blocks = [syms[k:k + C] for k in range(0, m, C)]
    return blocks, data[m * S:]


def delta(block, S):
    """section 13: y[0] = x[0], y[i] = x[i] - x[i-1] mod 2^(8S), within the block."""
    mod = 1 << (8 * S)
    return [block[0]] + [(block[i] - block[i - 1]) % mod for i in range(1, len(block))]


def parse(x, W, S):
    """section 6 step 2: the greedy parse of one block; tokens ('L', sym) or ('M', L, D)."""
    c = len(x)
    lm = lmin(S)
    out = []
    i = 0
    while i < c:
        best_len, best_d = 0, 0
        lim = min(255, c - i)
        for d in range(1, min(W, i) + 1):
            L = 0
            while L < lim and x[i + L] == x[i + L - d]:
                L += 1
            if L > best_len:  # strictly larger: the smallest d reaching the largest L
                best_len, best_d = L, d
                if L == lim:
                    break  # no d can do better, and a larger d would not win a tie
        if best_len >= lm:
            out.append(("M", best_len, best_d))
            i += best_len
        else:
            out.append(("L", x[i]))
            i += 1
    return out


# ---------------------------------------------------------------- version 1 (mode lz)

def encode_v1(data, S, W, C):
    """sections 1-6: gpulz 0.1's bytes."""
    n = len(data)
    blocks, tail = split_blocks(data, S, C)
    nb = len(blocks)
    table, bodies = [], []
    for blk in blocks:
        raw = b"".join(s.to_bytes(S, "little") for s in blk)
        toks = parse(blk, W, S)
        T = len(toks)
        flags = bytearray((T + 7) // 8)
        tb = bytearray()
        for i, t in enumerate(toks):
            if t[0] == "M":
                flags[i // 8] |= 1 << (i % 8)
                tb += bytes([t[1], t[2]])
            else:
                tb += t[1].to_bytes(S, "little")
        E = 2 + len(flags) + len(tb)
        if E < len(raw):
            table.append(E)
            bodies.append(struct.pack("<H", T) + bytes(flags) + bytes(tb))
        else:
            table.append(0x80000000 | len(raw))
            bodies.append(raw)
    hdr = MAGIC + bytes([1, 0, S, W, C.bit_length() - 1, 0, 0, 0]) + struct.pack("<QQ", n, nb)
    return hdr + b"".join(struct.pack("<I", e) for e in table) + b"".join(bodies) + tail


# ---------------------------------------------------------------- sections 14-16, 18

def uleb(v):
    """section 15: LEB128, minimal, at most 3 bytes."""
    assert 0 <= v < (1 << 21)
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


class Table:
    """section 18 step 4: the entries, their counts and frequencies."""

    def __init__(self, units):
        N = len(units)
        self.N = N
        cnt = Counter(units)
        by_count = sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0]))
        entered, esc_count, self.escaped_units = [], 0, 0
        for v, c in by_count:
            if c * M >= N and len(entered) < M - 1:
                entered.append((v, c))
            else:
                esc_count += c
        self.escaped_units = esc_count
        # "the order above": count higher first, then value lower first; the escape
        # after the values of its count
        ents = [(v, c) for v, c in entered]
        if esc_count:
            ents.append((ESC, esc_count))
        ents.sort(key=lambda e: (-e[1], 1 if e[0] is ESC else 0, e[0] if e[0] is not ESC else 0))
        self.order = ents
        f = [c * M // N for _, c in ents]
        rem = [c * M % N for _, c in ents]
        deficit = M - sum(f)
        idx = sorted(range(len(ents)), key=lambda i: (-rem[i], i))
        assert 0 <= deficit <= len(ents)
        for i in idx[:deficit]:
            f[i] += 1
        f = [max(1, x) for x in f]
        while sum(f) > M:
            changed = False
            for i in range(len(f)):
                if sum(f) == M:
                    break
                if f[i] > 1:
                    f[i] -= 1
                    changed = True
            assert changed
        assert sum(f) == M
        self.freq = {ents[i][0]: f[i] for i in range(len(ents))}
        self.count = {ents[i][0]: ents[i][1] for i in range(len(ents))}
        self.values = sorted(v for v, _ in entered)
        self.K = len(self.values)
        self.E = 1 if esc_count else 0
        # the table order: values ascending, the escape last; c_i cumulative
        self.cum = {}
        acc = 0
        for v in self.values + ([ESC] if self.E else []):
            self.cum[v] = acc
            acc += self.freq[v]
        assert acc == M

    def serialise(self):
        out = bytearray(struct.pack("<HB", self.K, self.E))
        prev = None
        for v in self.values:
            out += uleb(v if prev is None else v - prev - 1)
            prev = v
        for v in self.values + ([ESC] if self.E else []):
            out += uleb(self.freq[v] - 1)
        return bytes(out)

    def cost(self, u, nseg):
        """section 19: the estimate in 1/256 bits."""
        s = sum(self.count[e] * BITS[self.freq[e]] for e in self.count)
        s += 2048 * u * self.escaped_units
        s += 2048 * (17 + 3 + 3 * (self.K + self.E) + 132 * nseg)
        return s


def rans_segment(units, tab, u):
    """section 16: one segment; 32 states and the word area."""
    c = len(units)
    R = -(-c // 32)
    x = [1 << 16] * 32
    emitted = []
    inset = set(tab.values)
    for r in range(R - 1, -1, -1):
        for l in range(31, -1, -1):
            i = 32 * r + l
            if i < c and units[i] not in inset:
                v = units[i]
                if x[l] >= 1 << (32 - 8 * u):
                    emitted.append(x[l] & 0xFFFF)
                    x[l] >>= 16
                x[l] = (x[l] << (8 * u)) + v
        for l in range(31, -1, -1):
            i = 32 * r + l
            if i < c:
                e = units[i] if units[i] in inset else ESC
                f, cc = tab.freq[e], tab.cum[e]
                if x[l] >= f << 20:
                    emitted.append(x[l] & 0xFFFF)
                    x[l] >>= 16
                x[l] = (x[l] // f) * M + (x[l] % f) + cc
    words = emitted[::-1]
    for s in x:
        assert (1 << 16) <= s < (1 << 32)
    return struct.pack("<32I", *x), words


def encode_stream(units, u, g, info=None, force_rans=False, var=None):
    """sections 14 and 18 step 3; info (a list) gets a description.  force_rans codes
    every non-empty stream with rANS (valid, but not what section 18 chooses); var (a
    Variant) makes other valid but non-canonical choices at random."""
    N = len(units)
    G = 1 << g
    force_stored = False
    if var is not None and N:
        pick = var.rnd.random()
        force_rans = force_rans or pick < 0.4
        force_stored = 0.4 <= pick < 0.55
    if force_stored:
        kind, desc = 0, "stored (forced) N=%d u=%d" % (N, u)
        body = b"".join(v.to_bytes(u, "little") for v in units)
    elif N == 0:
        kind, body, desc = 0, b"", "stored N=0"
    elif all(v == units[0] for v in units) and not force_rans:
        kind, body = 1, units[0].to_bytes(u, "little")
        desc = "constant N=%d u=%d value=%d" % (N, u, units[0])
    else:
        tab = Table(units)
        if var is not None:
            var.perturb(tab, units, u)
        segs = [units[s:s + G] for s in range(0, N, G)]
        dirw, segb = [], []
        for seg in segs:
            st, words = rans_segment(seg, tab, u)
            dirw.append(len(words))
            segb.append(st + struct.pack("<%dH" % len(words), *words))
        body = tab.serialise() + struct.pack("<%dI" % len(dirw), *dirw) + b"".join(segb)
        kind = 2
        desc = "rANS N=%d u=%d K=%d E=%d escaped=%d segments=%d size=%d" % (
            N, u, tab.K, tab.E, tab.escaped_units, len(segs), len(body))
        if len(body) >= N * u and not force_rans:
            desc = "stored (rANS would take %d >= %d) N=%d u=%d" % (len(body), N * u, N, u)
            kind = 0
            body = b"".join(v.to_bytes(u, "little") for v in units)
    if info is not None:
        if info and info[-1].endswith(": "):
            info[-1] += desc
        else:
            info.append(desc)
    return bytes([kind]) + struct.pack("<QQ", N, len(body)) + body


def stream_cost(units, u, g):
    """section 19."""
    N = len(units)
    if N == 0:
        return 2048 * 17
    if all(v == units[0] for v in units):
        return 2048 * (17 + u)
    tab = Table(units)
    return tab.cost(u, -(-N // (1 << g)))


def to_units(syms, S, split):
    """section 12: J streams of units (planes with SPLIT)."""
    if split:
        return [[(s >> (8 * j)) & 0xFF for s in syms] for j in range(S)], 1
    return [list(syms)], S


def shape_allowed(S, split):
    """section 11: SPLIT only with S >= 2, always with S >= 4."""
    if S == 1:
        return not split
    if S >= 4:
        return split
    return True


def transformed_blocks(data, S, C, use_delta):
    blocks, tail = split_blocks(data, S, C)
    if use_delta:
        blocks = [delta(b, S) for b in blocks]
    return blocks, tail


def fast_streams(blocks, S, split):
    syms = [s for b in blocks for s in b]
    return to_units(syms, S, split)


def ratio_parts(blocks, S, W, split, var=None):
    """section 12 (with LZSS): the token counts and the streams."""
    Ts, flags, lits, lens, offs = [], [], [], [], []
    for b in blocks:
        toks = parse(b, W, S) if var is None else var.parse(b, W, S)
        Ts.append(len(toks))
        fb = [0] * ((len(toks) + 7) // 8)
        for i, t in enumerate(toks):
            if t[0] == "M":
                fb[i // 8] |= 1 << (i % 8)
                lens.append(t[1])
                offs.append(t[2])
            else:
                lits.append(t[1])
        flags += fb
    litj, u = to_units(lits, S, split)
    return Ts, flags, litj, u, lens, offs


def encode_v2(data, S, W, C, use_delta, split, lzss, cksum, g=14, notes=None, force_rans=False,
              var=None):
    """sections 11-18 with the stage choices given."""
    assert shape_allowed(S, split)
    n = len(data)
    blocks, tail = transformed_blocks(data, S, C, use_delta)
    nb = len(blocks)
    info = notes if notes is not None else []
    body = bytearray()
    if not lzss:
        streams, u = fast_streams(blocks, S, split)
        for j, st in enumerate(streams):
            info.append("stream %d: " % j)
            body += encode_stream(st, u, g, info, force_rans, var)
    else:
        Ts, flags, litj, u, lens, offs = ratio_parts(blocks, S, W, split, var)
        body += b"".join(struct.pack("<H", T) for T in Ts)
        info.append("tokens %d, matches %d" % (sum(Ts), len(lens)))
        info.append("flags: ")
        body += encode_stream(flags, 1, g, info, force_rans, var)
        for j, st in enumerate(litj):
            info.append("literals %d: " % j)
            body += encode_stream(st, u, g, info, force_rans, var)
        info.append("lengths: ")
        body += encode_stream(lens, 1, g, info, force_rans, var)
        info.append("offsets: ")
        body += encode_stream(offs, 1, g, info, force_rans, var)
    fl = F_ENTROPY | (F_DELTA if use_delta else 0) | (F_SPLIT if split else 0) | \
        (F_LZSS if lzss else 0) | (F_CHECKSUM if cksum else 0)
    ck = checksum(data, S, C) if cksum else 0
    hdr = MAGIC + bytes([2, fl, S, W if lzss else 0, C.bit_length() - 1, g, 0, 0]) + \
        struct.pack("<QQI", n, nb, ck)
    return hdr + bytes(body) + tail


# ---------------------------------------------------------------- section 19: modes

def fast_choice(data, S, C, g=14):
    """(delta, split) of mode fast: the first candidate of the lowest estimate."""
    best = None
    for use_delta in (False, True):
        blocks, _ = transformed_blocks(data, S, C, use_delta)
        for split in (False, True):
            if not shape_allowed(S, split):
                continue
            streams, u = fast_streams(blocks, S, split)
            est = sum(stream_cost(st, u, g) for st in streams)
            if best is None or est < best[0]:
                best = (est, use_delta, split)
    return best[1], best[2]


def ratio_choice(data, S, W, C, g=14):
    use_delta, _ = fast_choice(data, S, C, g)
    if S == 1:
        return use_delta, False
    if S >= 4:
        return use_delta, True
    blocks, _ = transformed_blocks(data, S, C, use_delta)
    ests = []
    for split in (False, True):
        _, _, litj, u, _, _ = ratio_parts(blocks, S, W, split)
        ests.append(sum(stream_cost(st, u, g) for st in litj))
    return use_delta, ests[1] < ests[0]


def compress(data, mode, S, W, C, cksum=True, notes=None, adaptive=False):
    """gpulz_compress with params.mode = mode (section 19).  adaptive: section 8 as it
    reads, around whatever the mode writes (section 19 does not say how the flag
    combines with the modes of version 2)."""
    data = bytes(data)
    if adaptive:
        first = compress(data, mode, S, W, C, cksum, notes)
        if S > 1 and len(data) < 1.5 * len(first):
            second = compress(data, mode, 1, W, C, cksum)
            if len(second) < len(first):
                return second
        return first
    if mode == "lz":
        return encode_v1(data, S, W, C)
    if mode == "fast":
        d, sp = fast_choice(data, S, C)
        return encode_v2(data, S, W, C, d, sp, False, cksum, notes=notes)
    if mode == "ratio":
        d, sp = ratio_choice(data, S, W, C)
        return encode_v2(data, S, W, C, d, sp, True, cksum, notes=notes)
    if mode == "auto":
        nf, nr = [], []
        f = compress(data, "fast", S, W, C, cksum, nf)
        r = compress(data, "ratio", S, W, C, cksum, nr)
        best, bn = (f, ["auto: fast"] + nf) if len(f) <= len(r) else (r, ["auto: ratio"] + nr)
        if not cksum:
            lz = encode_v1(data, S, W, C)
            if len(lz) < len(f) and len(lz) < len(r):
                best, bn = lz, ["auto: lz (version 1)"]
        if notes is not None:
            notes += bn
        return best
    raise ValueError(mode)


# ---------------------------------------------------------------- valid, non-canonical chunks

class Variant:
    """Choices the format allows but section 18 does not make: a parse that is not
    greedy, streams stored or rANS-coded against the rule, tables with other
    frequencies, unused values, an escape entry nobody needs, values escaped that
    could enter.  Every chunk written with one is valid (sections 11-17)."""

    def __init__(self, rnd):
        self.rnd = rnd

    def parse(self, x, W, S):
        rnd = self.rnd
        c, lm, out, i = len(x), lmin(S), [], 0
        while i < c:
            lim = min(255, c - i)
            lens = []
            for d in range(1, min(W, i) + 1):
                L = 0
                while L < lim and x[i + L] == x[i + L - d]:
                    L += 1
                lens.append(L)
            best = max(lens) if lens else 0
            if best >= lm and rnd.random() < 0.85:
                L = best if rnd.random() < 0.6 else rnd.randint(lm, best)
                ds = [d + 1 for d, l in enumerate(lens) if l >= L]
                d = ds[0] if rnd.random() < 0.6 else rnd.choice(ds)
                out.append(("M", L, d))
                i += L
            else:
                out.append(("L", x[i]))
                i += 1
        return out

    def perturb(self, tab, units, u):
        rnd = self.rnd
        vals = list(tab.values)
        f = {v: tab.freq[v] for v in vals}
        fe = tab.freq[ESC] if tab.E else 0
        present = set(units)

        def donor():
            big = [v for v in vals if f[v] > 1] + ([ESC] if fe > 1 else [])
            return rnd.choice(big) if big else None

        def take1(d):
            nonlocal fe
            if d is ESC:
                fe -= 1
            else:
                f[d] -= 1

        for _ in range(rnd.randint(1, 3)):
            op = rnd.randrange(4)
            if op == 0 and len(vals) + (1 if fe else 0) >= 2:  # move slots
                d = donor()
                if d is None:
                    continue
                k = rnd.randint(1, (f[d] if d is not ESC else fe) - 1)
                targets = [v for v in vals if v != d] + ([ESC] if fe and d is not ESC else [])
                t = rnd.choice(targets)
                for _ in range(k):
                    take1(d)
                if t is ESC:
                    fe += k
                else:
                    f[t] += k
            elif op == 1 and len(vals) < M - 1:  # a value the stream never holds
                d = donor()
                cands = [rnd.randrange(1 << (8 * u)) for _ in range(8)]
                cands = [v for v in cands if v not in present and v not in f]
                if d is None or not cands:
                    continue
                take1(d)
                vals.append(cands[0])
                f[cands[0]] = 1
                vals.sort()
            elif op == 2 and not fe:  # an escape entry nothing needs
                d = donor()
                if d is None:
                    continue
                take1(d)
                fe = 1
            elif op == 3 and vals:  # escape values that could enter
                for v in rnd.sample(vals, rnd.randint(1, min(3, len(vals)))):
                    fe += f.pop(v)
                    vals.remove(v)
        assert sum(f.values()) + fe == M and all(x >= 1 for x in f.values())
        tab.values = vals
        tab.K = len(vals)
        tab.E = 1 if fe else 0
        tab.freq = dict(f)
        if fe:
            tab.freq[ESC] = fe
        tab.escaped_units = sum(1 for x in units if x not in f)
        assert tab.E or not tab.escaped_units
        tab.cum, acc = {}, 0
        for v in vals + ([ESC] if fe else []):
            tab.cum[v] = acc
            acc += tab.freq[v]


# ---------------------------------------------------------------- comparisons with gpulz

def random_input(rnd):
    """(data, kind): inputs of the kinds codec_refdec_test uses, smaller."""
    kind = rnd.randrange(10)
    r = rnd.random()
    n = rnd.randrange(12) if r < 0.1 else rnd.randrange(400) if r < 0.5 else \
        rnd.randrange(400, 4000) if r < 0.95 else rnd.randrange(4000, 12000)
    if kind == 0:
        d = rng_bytes(rnd, n)
    elif kind == 1:
        d = bytes(n)
    elif kind == 2:
        k = rnd.randint(1, 40)
        alpha = [rnd.getrandbits(8) for _ in range(k)]
        d = skewed(rnd, n, alpha, [1.0 / (i + 1) ** 1.5 for i in range(k)])
    elif kind == 3:
        k = rnd.randint(1, 40)
        alpha = [rnd.getrandbits(16) for _ in range(k)]
        d = u16s(rnd.choices(alpha, [1.0 / (i + 1) for i in range(k)], k=n // 2)) + \
            rng_bytes(rnd, n % 2)
    elif kind == 4:
        step = rnd.choice([1, 3, 50, 1000])
        v, vals = rnd.getrandbits(20), []
        for _ in range(n // 4):
            v += rnd.randrange(step)
            vals.append(v)
        d = u32s(vals) + rng_bytes(rnd, n % 4)
    elif kind == 5:
        x, vals = float(rnd.randrange(100)), []
        for _ in range(n // 8):
            x += 0.125 * rnd.randrange(8)
            vals.append(x)
        d = f64s(vals) + rng_bytes(rnd, n % 8)
    elif kind == 6:
        d = text_like(rnd, n)
    elif kind == 7:  # runs
        out = bytearray()
        while len(out) < n:
            out += bytes([rnd.choice([0, 1, 7, 255])]) * rnd.choice([1, 2, 3, 8, 30, 300])
        d = bytes(out[:n])
    elif kind == 8:  # rare values among few common ones: escapes once n > 4096 units
        w = rnd.choice([1, 2])
        vals = [rnd.getrandbits(8 * w) if rnd.random() < 0.02 else 0x4142 + rnd.randrange(5)
                for _ in range(n // w)]
        d = b"".join((v & ((1 << (8 * w)) - 1)).to_bytes(w, "little") for v in vals) + \
            bytes(n % w)
    else:  # a period with point changes
        p = rnd.randint(1, 40)
        base = rng_bytes(rnd, p)
        d = bytearray((base * (n // p + 1))[:n])
        for _ in range(n // 50):
            d[rnd.randrange(n)] ^= 1
        d = bytes(d)
    return d, kind


def random_params(rnd):
    S = rnd.choice([1, 2, 4, 8])
    W = rnd.choice([128, 128, rnd.randint(1, 255)])
    C = 256 << rnd.randrange(7)
    return S, W, C


def run_prog(args):
    import subprocess
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


def diff_with_gpulz(prog, count, seed, keep, with_adaptive=False):
    """gpulz_compress (through codec_refdec_test --compress) against this encoder."""
    import tempfile
    rnd = random.Random(seed)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for it in range(count):
            data, kind = random_input(rnd)
            S, W, C = random_params(rnd)
            mode = rnd.choice(["fast", "ratio", "auto"])
            ck = rnd.random() < 0.7
            adaptive = with_adaptive and rnd.random() < 0.5
            want = compress(data, mode, S, W, C, ck, adaptive=adaptive)
            fin, fout = os.path.join(tmp, "in"), os.path.join(tmp, "out")
            with open(fin, "wb") as f:
                f.write(data)
            r = run_prog([prog, "--compress", mode, str(S), str(W), str(C),
                          str((1 if ck else 0) | (2 if adaptive else 0)), fin, fout])
            if r.returncode:
                print("case %d: gpulz failed: %s" % (it, r.stdout.strip()))
                bad += 1
                continue
            with open(fout, "rb") as f:
                got = f.read()
            if got != want:
                bad += 1
                i = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]),
                         min(len(got), len(want)))
                print("case %d: kind %d n %d S %d W %d C %d mode %s checksum %d adaptive %d: gpulz "
                      "writes %d bytes, this encoder %d, first difference at byte %d" %
                      (it, kind, len(data), S, W, C, mode, ck, adaptive, len(got), len(want), i))
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    for nm, b in (("in", data), ("gpulz", got), ("ref", want)):
                        with open(os.path.join(keep, "case%d.%s" % (it, nm)), "wb") as f:
                            f.write(b)
    print("%d cases, %d differ" % (count, bad))
    return 1 if bad else 0


def variants_through_decoders(prog, count, seed):
    """Valid chunks that no mode writes, through both decoders (--decode)."""
    import tempfile
    rnd = random.Random(seed)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for it in range(count):
            data, kind = random_input(rnd)
            S, W, C = random_params(rnd)
            split = S >= 4 or (S == 2 and rnd.random() < 0.5)
            ch = encode_v2(data, S, W, C, rnd.random() < 0.5, split, rnd.random() < 0.6,
                           rnd.random() < 0.7, g=rnd.randint(10, 15), var=Variant(rnd))
            fn = os.path.join(tmp, "v%05d" % it)
            with open(fn, "wb") as f:
                f.write(ch)
            with open(fn + ".in", "wb") as f:
                f.write(data)
            files.append(fn)
        for k in range(0, len(files), 200):
            r = run_prog([prog, "--decode"] + files[k:k + 200])
            for line in r.stdout.splitlines():
                if "refdec ok (" not in line or "gpulz_decompress success (" not in line or \
                        "same bytes" not in line or "input same" not in line:
                    bad += 1
                    print(line)
    print("%d valid non-canonical chunks, %d not read by both decoders" % (count, bad))
    return 1 if bad else 0


# ---------------------------------------------------------------- golden vectors

def hexlines(b, width=16):
    """hex with runs of 4 or more equal bytes as XX*N."""
    toks = []
    i = 0
    while i < len(b):
        j = i
        while j < len(b) and b[j] == b[i]:
            j += 1
        if j - i >= 4:
            toks.append("%02X*%d" % (b[i], j - i))
        else:
            toks += ["%02X" % b[i]] * (j - i)
        i = j
    return "\n".join(" ".join(toks[k:k + width]) for k in range(0, len(toks), width))


def describe_header(ch):
    if ch[4] == 1:
        return ["version 1 (lz)"]
    fl = ch[5]
    names = [nm for bit, nm in ((1, "DELTA"), (2, "SPLIT"), (4, "LZSS"), (8, "ENTROPY"),
                                (16, "CHECKSUM")) if fl & bit]
    return ["version 2, flags %s, S %d, W %d, log2 C %d, g %d" % ("|".join(names), ch[6], ch[7],
                                                                 ch[8], ch[9])]


def vector_text(name, why, data, mode, S, W, C, cksum, out, notes):
    lines = ["# %s: %s" % (name, why),
             "# Written by h5tests/v2_refenc.py (an encoder from docs/FORMAT.md alone).",
             "# " + describe_header(out)[0]]
    lines += ["#   " + x for x in notes if x]
    lines += ["mode %s" % mode, "checksum %d" % (1 if cksum else 0), "symbol_size %d" % S,
              "window %d" % W, "block_symbols %d" % C, "input"]
    if data:
        lines.append(hexlines(data))
    lines.append("output")
    if out:
        lines.append(hexlines(out))
    return "\n".join(lines) + "\n"


def rng_bytes(rnd, n):
    return bytes(rnd.getrandbits(8) for _ in range(n))


def skewed(rnd, n, alphabet, weights):
    return bytes(rnd.choices(alphabet, weights, k=n))


def text_like(rnd, n):
    words = ["the", "chunk", "format", "of", "gpulz", "symbol", "block", "stream", "segment",
             "lane", "rANS", "table", "and", "a", "is", "with", "escape", "delta", "split",
             "window", "data", "HDF5", "filter", "bytes", "value"]
    out = []
    while sum(len(w) + 1 for w in out) < n:
        w = rnd.choice(words)
        if rnd.random() < 0.1:
            w = w.capitalize()
        out.append(w)
    s = " ".join(out).encode()
    return s[:n]


def u16s(vals):
    return b"".join(struct.pack("<H", v & 0xFFFF) for v in vals)


def u32s(vals):
    return b"".join(struct.pack("<I", v & MASK) for v in vals)


def f64s(vals):
    return b"".join(struct.pack("<d", v) for v in vals)


def golden_cases():
    """(name, why, data, mode, S, W, C, checksum, expect) -- expect checks the shape.

    expect is a function of (chunk bytes, notes) that returns None or what is wrong, so
    that a change of the data that no longer reaches a shape fails loudly here."""
    rnd = random.Random(20261123)
    cases = []

    def flags_are(want_set, want_clear=0, version=2):
        def chk(ch, notes):
            if ch[4] != version:
                return "version %d, want %d" % (ch[4], version)
            if version == 2 and ((ch[5] & want_set) != want_set or ch[5] & want_clear):
                return "flags %02x, want set %02x clear %02x" % (ch[5], want_set, want_clear)
            return None
        return chk

    def notes_have(*subs, base=None):
        def chk(ch, notes):
            if base:
                e = base(ch, notes)
                if e:
                    return e
            joined = "\n".join(notes)
            for s in subs:
                if s not in joined:
                    return "no '%s' in %s" % (s, notes)
            return None
        return chk

    add = cases.append
    # -- empty and tiny
    add(("empty-fast", "n = 0, mode fast: one stored stream of N 0", b"", "fast", 1, 128, 256,
         True, notes_have("stored N=0", base=flags_are(F_ENTROPY | F_CHECKSUM))))
    add(("empty-ratio-s4", "n = 0, mode ratio, S 4: no blocks, every stream empty", b"", "ratio",
         4, 128, 256, True, notes_have("stored N=0", base=flags_are(F_LZSS | F_SPLIT))))
    add(("empty-auto-nock", "n = 0, auto without checksum: lz (version 1) is shortest", b"",
         "auto", 2, 64, 1024, False, flags_are(0, version=1)))
    add(("tail-only-s8", "n = 5 < S = 8: no symbols, a 5-byte tail", bytes([1, 2, 3, 4, 5]),
         "fast", 8, 128, 256, True, flags_are(F_SPLIT)))
    add(("tiny-s2-tail-ratio", "7 bytes, S 2: 3 symbols and a tail, ratio",
         bytes([9, 0, 9, 0, 9, 0, 7]), "ratio", 2, 128, 256, True, flags_are(F_LZSS)))
    # -- fast, whole symbols
    add(("fast-s1-text", "text, S 1: one rANS stream, no delta",
         text_like(rnd, 3000), "fast", 1, 128, 2048, True,
         notes_have("rANS", base=flags_are(F_CHECKSUM, F_DELTA | F_SPLIT))))
    add(("fast-s1-ramp-delta", "a slow ramp of bytes, S 1: delta wins",
         bytes((i // 7 + (rnd.random() < 0.2)) & 0xFF for i in range(1500)), "fast", 1, 128, 256,
         True, notes_have("rANS", base=flags_are(F_DELTA))))
    codes = [rnd.getrandbits(16) for _ in range(12)]
    add(("fast-s2-whole", "u16 codes from 12 values with skew: whole symbols (u = 2)",
         u16s(rnd.choices(codes, [40, 20, 10, 8, 6, 5, 4, 3, 1, 1, 1, 1], k=1500)) + b"\x55",
         "fast", 2, 128, 1024, True, notes_have("rANS N=1500 u=2", base=flags_are(0, F_SPLIT))))
    add(("fast-s1-zeros", "all zeros, S 1: one constant stream", bytes(1000), "fast", 1, 128,
         512, True, notes_have("constant N=1000")))
    add(("fast-s1-random-stored", "random bytes: rANS does not pay, stored",
         rng_bytes(rnd, 700), "fast", 1, 128, 256, True, notes_have("stored (rANS")))
    add(("fast-s1-nock", "text without the checksum", text_like(rnd, 900), "fast", 1, 128, 256,
         False, notes_have("rANS", base=flags_are(0, F_CHECKSUM))))
    # -- fast, byte planes
    add(("fast-s2-split", "u16 with independent bytes: planes cheaper than whole symbols",
         u16s(rnd.choice(range(0, 200, 3)) + 256 * rnd.choice([0, 1, 1, 2]) for _ in range(1200)),
         "fast", 2, 128, 256, True, notes_have("rANS", base=flags_are(F_SPLIT, F_DELTA))))
    sorted_ints = sorted(rnd.randrange(1 << 20) for _ in range(900))
    add(("fast-s4-sorted-delta", "sorted int32 and a 3-byte tail: delta, planes, constant high planes",
         u32s(sorted_ints) + b"\x01\x02\x03", "fast", 4, 128, 256, True,
         notes_have("constant", "rANS", base=flags_are(F_DELTA | F_SPLIT))))
    fl = [1000.0 + 0.25 * rnd.randrange(64) for _ in range(300)]
    add(("fast-s8-floats", "float64 from 64 values: 8 planes, some constant",
         f64s(fl) + b"\xAA\xBB", "fast", 8, 128, 256, True,
         notes_have("constant", base=flags_are(F_SPLIT, F_DELTA))))
    add(("fast-s4-random", "random int32: every plane is stored, yet the estimate (the rANS "
         "formula of section 19, even for a stream that will be stored) picks delta",
         rng_bytes(rnd, 1024), "fast", 4, 128, 256, True,
         notes_have("stored (rANS", base=flags_are(F_SPLIT | F_DELTA))))
    # -- escapes
    common = list(range(60, 80))
    esc1 = bytes(rnd.choice(common) for _ in range(6000))
    esc1 = bytearray(esc1)
    for i, v in enumerate(range(0, 40)):
        esc1[100 + 97 * i] = v  # 40 values seen once: 1*4096 < 6000, escaped
    add(("fast-s1-escape", "6000 bytes, 40 values seen once: escaped (u = 1)", bytes(esc1),
         "fast", 1, 128, 4096, True, notes_have("E=1 escaped=40")))
    c16 = [0x1234, 0xABCD, 0x0F0F, 0x7777, 0x8001, 0xC3A5]
    vals = rnd.choices(c16, [30, 25, 20, 15, 6, 4], k=6000)
    for i in range(30):
        vals[50 + 190 * i] = rnd.getrandbits(16)
    add(("fast-s2-escape", "6000 u16 from 6 codes and 30 random ones: escapes of u = 2",
         u16s(vals), "fast", 2, 128, 2048, True,
         notes_have("E=1 escaped=30", base=flags_are(0, F_SPLIT | F_DELTA))))
    # -- the orders of section 18 step 4 where they decide (8192 units: every odd count
    #    has the remainder N/2, so which of the tied entries gets the extra slot matters)
    def tied(counts, nsing, seed):
        units = []
        for v, c in zip((10, 20, 30, 40), counts):
            units += [v] * c
        units += [100 + i for i in range(nsing)]
        random.Random(seed).shuffle(units)
        return bytes(units)
    add(("fast-s1-tie-escape-last", "8192 bytes: counts 8178, 5, 3, 3 and 3 escaped singletons; "
         "the remainders of 5, 3, 3 and the escape (3) tie, 2 slots go by the order: the escape "
         "after the values of its count", tied([8178, 5, 3, 3], 3, 0), "fast", 1, 128, 16384, True,
         notes_have("K=4 E=1 escaped=3", base=flags_are(0, F_DELTA))))
    add(("fast-s1-tie-escape-by-count", "8192 bytes: counts 8174, 7, 3, 3 and 5 escaped "
         "singletons; the escape (5) ranks by its count, before the values of count 3",
         tied([8174, 7, 3, 3], 5, 0), "fast", 1, 128, 16384, True,
         notes_have("K=4 E=1 escaped=5", base=flags_are(0, F_DELTA))))
    walk = [200] * 9684 + [3] * 4658 + [9] * 206 + [100]
    random.Random(1).shuffle(walk)
    add(("fast-s1-walk", "14549 bytes: the escape (count 1) gets 0 slots, is raised to 1, and "
         "the walk takes the slot back from the first entry by count (value 200), not value 3",
         bytes(walk), "fast", 1, 128, 16384, True,
         notes_have("K=3 E=1 escaped=1", base=flags_are(0, F_DELTA))))
    # -- several segments (g = 14: 16384 units a segment)
    add(("fast-s1-2seg", "20000 skewed bytes: two segments of one stream",
         skewed(rnd, 20000, list(range(16)), [2 ** (16 - i) for i in range(16)]), "fast", 1, 128,
         16384, True, notes_have("segments=2")))
    # -- ratio
    add(("ratio-s1-text", "text, S 1, W 64: tokens, flags, literals, lengths, offsets",
         text_like(rnd, 2500), "ratio", 1, 64, 1024, True, notes_have("rANS", base=flags_are(F_LZSS))))
    runs = bytearray()
    while len(runs) < 3000:
        runs += bytes([rnd.choice([0, 1, 2, 200])]) * rnd.choice([1, 2, 5, 9, 40])
    add(("ratio-s1-runs-blocks", "runs over 12 blocks of 256, W 16", bytes(runs[:3000]), "ratio",
         1, 16, 256, True, flags_are(F_LZSS)))
    pat = [rnd.getrandbits(16) for _ in range(7)]
    v16 = []
    while len(v16) < 1400:
        v16 += pat[:rnd.randrange(1, 8)] if rnd.random() < 0.6 else [rnd.getrandbits(16)]
    add(("ratio-s2-whole", "u16 with repeats of a 7-value pattern, S 2, and a tail",
         u16s(v16[:1400]) + b"\x42", "ratio", 2, 128, 512, True, flags_are(F_LZSS)))
    v16b = []
    while len(v16b) < 1400:
        if rnd.random() < 0.5 and len(v16b) > 8:
            k = rnd.randrange(2, 9)
            v16b += v16b[-k:][:k]
        else:
            v16b.append(rnd.randrange(40) + 256 * rnd.randrange(3))
    add(("ratio-s2-split", "u16 with independent small bytes and repeats: literal planes",
         u16s(v16b[:1400]), "ratio", 2, 128, 512, True, flags_are(F_LZSS | F_SPLIT)))
    add(("ratio-s4-sorted", "sorted int32 with duplicates, S 4, W 32: delta and matches",
         u32s(sorted(rnd.randrange(3000) for _ in range(1000))) + b"\x09", "ratio", 4, 32, 256,
         True, flags_are(F_LZSS | F_SPLIT)))
    add(("ratio-s1-2seg-nock", "24000 bytes, 16 values, W 4: > 16384 literals, 2 segments, no checksum",
         skewed(rnd, 24000, list(range(100, 116)), [2 ** (16 - i) for i in range(16)]), "ratio", 1,
         4, 16384, False, notes_have("segments=2", base=flags_are(F_LZSS, F_CHECKSUM))))
    add(("ratio-s8-tail", "float64 repeats, S 8, and a 7-byte tail",
         f64s([1.5, 2.5, 1.5, 2.5, 3.0] * 40 + [rnd.random() for _ in range(20)]) + bytes(range(7)),
         "ratio", 8, 128, 256, True, flags_are(F_LZSS | F_SPLIT)))
    # -- auto
    add(("auto-text", "text: auto keeps ratio", text_like(rnd, 2000), "auto", 1, 128, 2048, True,
         flags_are(F_LZSS | F_CHECKSUM)))
    add(("auto-skew-fast", "skewed bytes without repeats: auto keeps fast",
         skewed(rnd, 1500, list(range(8)), [50, 20, 10, 8, 5, 4, 2, 1]), "auto", 1, 128, 1024,
         True, flags_are(F_CHECKSUM, F_LZSS)))
    add(("auto-random-lz", "random bytes without the checksum: auto keeps lz (version 1)",
         rng_bytes(rnd, 300), "auto", 1, 128, 256, False, flags_are(0, version=1)))
    add(("auto-s2-nock", "u16 codes without the checksum: version 2 still wins",
         u16s(rnd.choices(codes[:4], [8, 4, 2, 1], k=800)), "auto", 2, 128, 256, False,
         flags_are(0, F_CHECKSUM)))
    return cases


def decode_only_cases():
    """Valid chunks with the stage choices forced: (name, why, data, S, W, C, choices)."""
    rnd = random.Random(7)
    cases = []
    add = cases.append
    add(("force-g10-3seg", "fast S 1, g 10 (not what the encoder picks): 3 segments, last short",
         skewed(rnd, 2500, list(range(20)), list(range(20, 0, -1))), 1, 0, 1024,
         dict(use_delta=False, split=False, lzss=False, cksum=True, g=10)))
    add(("force-s2-split-delta-random", "random u16 with delta and planes forced",
         rng_bytes(rnd, 999), 2, 0, 256,
         dict(use_delta=True, split=True, lzss=False, cksum=True)))
    add(("force-ratio-g15-delta", "ratio S 2 whole symbols, delta, g 15",
         u16s([i * 3 for i in range(500)] * 2), 2, 9, 256,
         dict(use_delta=True, split=False, lzss=True, cksum=False, g=15, force_rans=True)))
    # every value escaped (K = 0): only a forced rANS stream has it
    add(("force-k0-all-escaped", "4100 distinct u16, rANS forced: K = 0, the escape only",
         u16s(rnd.sample(range(65536), 4100)), 2, 0, 8192,
         dict(use_delta=False, split=False, lzss=False, cksum=True, force_rans=True)))
    # 4096 values of equal count: 4095 enter, the 4096th is escaped (the M - 1 rule)
    vals = list(range(0, 65536, 16))
    rnd.shuffle(vals)
    add(("force-4095-values", "4096 u16 values once each, rANS forced: 4095 in the table, "
         "the largest escaped", u16s(vals), 2, 0, 16384,
         dict(use_delta=False, split=False, lzss=False, cksum=True, force_rans=True)))
    add(("force-rans-tiny", "rANS forced on 5 units (1 round, 27 idle lanes)",
         bytes([3, 1, 4, 1, 5]), 1, 0, 256,
         dict(use_delta=False, split=False, lzss=False, cksum=True, force_rans=True)))
    add(("force-ratio-rans-all", "ratio S 1 with every non-empty stream rANS forced, 2 blocks",
         text_like(rnd, 400), 1, 32, 256,
         dict(use_delta=False, split=False, lzss=True, cksum=True, force_rans=True)))
    return cases


# ---------------------------------------------------------------- hand-made chunks

def v2_header(flags, S, W, lgC, g, n, nb, ck=0, reserved=0, version=2):
    return MAGIC + bytes([version, flags, S, W, lgC, g]) + struct.pack("<HQQI", reserved, n, nb, ck)


def stream_bytes(kind, N, body, size=None):
    return bytes([kind]) + struct.pack("<QQ", N, len(body) if size is None else size) + body


def rans_parts(units, u, G=1 << 14):
    """The table, directory words and segments (states, words) of a rANS stream."""
    tab = Table(units)
    segs = [rans_segment(units[k:k + G], tab, u) for k in range(0, len(units), G)]
    return tab, segs


def rans_body(tab_bytes, segs, dirw=None, extra=b""):
    dirw = [len(w) for _, w in segs] if dirw is None else dirw
    return tab_bytes + struct.pack("<%dI" % len(dirw), *dirw) + b"".join(
        st + struct.pack("<%dH" % len(w), *w) for st, w in segs) + extra


def ratio_chunk(S, W, C, blocks, tail=b"", T_override=None, pad_bits=0, lit_extra=0,
                len_extra=0, g=14, flags_extra=0, n_override=None):
    """A ratio chunk of S = 1 or 2 (no SPLIT) with stored streams, from token lists
    (('L', value) or ('M', L, D)) per block; the overrides break one rule each.
    Returns the chunk and what it decodes to (where it is valid)."""
    Ts, flags, lits, lens, offs, n_sym = [], [], [], [], [], 0
    data = bytearray()
    for toks in blocks:
        syms = []
        for t in toks:
            if t[0] == "M":
                for _ in range(t[1]):
                    syms.append(syms[-t[2]] if 0 < t[2] <= len(syms) else 0)
            else:
                syms.append(t[1])
        data += b"".join(v.to_bytes(S, "little") for v in syms)
    data += tail
    for k, toks in enumerate(blocks):
        Ts.append(len(toks) if T_override is None or T_override[0] != k else T_override[1])
        fb = [0] * ((len(toks) + 7) // 8)
        for i, t in enumerate(toks):
            if t[0] == "M":
                fb[i // 8] |= 1 << (i % 8)
                lens.append(t[1])
                offs.append(t[2])
                n_sym += t[1]
            else:
                lits.append(t[1])
                n_sym += 1
        if k == 0 and pad_bits:
            fb[-1] |= pad_bits
        flags += fb
    n = n_sym * S + len(tail) if n_override is None else n_override
    nb = len(blocks)
    body = b"".join(struct.pack("<H", T) for T in Ts)
    body += stream_bytes(0, len(flags), bytes(flags))
    lit_units = lits + [0] * lit_extra
    body += stream_bytes(0, len(lit_units), b"".join(v.to_bytes(S, "little") for v in lit_units))
    body += stream_bytes(0, len(lens) + len_extra, bytes(lens + [3] * len_extra))
    body += stream_bytes(0, len(offs) + len_extra, bytes(offs + [1] * len_extra))
    return v2_header(F_ENTROPY | F_LZSS | flags_extra, S, W, C.bit_length() - 1, g, n, nb) + \
        body + tail, bytes(data)


def crafted_cases():
    """(name, why, chunk, input or None): chunks written by hand from the spec, with
    input None for those a decoder must refuse (section 20 says which rule)."""
    out = []
    ok = lambda name, why, ch, data: out.append(("decode-" + name, why, ch, data))
    bad = lambda name, why, ch: out.append(("reject-" + name, why, ch, None))

    # -- fast, S 1: one rANS stream (forced) of 300 units in 10 rounds
    data = b"abracadabra " * 25
    n, u = len(data), 1
    tab, segs = rans_parts(list(data), u)
    tb = tab.serialise()
    hdr = lambda **kw: v2_header(kw.get("flags", F_ENTROPY), kw.get("S", 1), kw.get("W", 0),
                                 kw.get("lgC", 8), kw.get("g", 14), kw.get("n", n),
                                 kw.get("nb", 2), kw.get("ck", 0), kw.get("reserved", 0))
    good_body = rans_body(tb, segs)
    st = lambda body, **kw: stream_bytes(kw.get("kind", 2), kw.get("N", n), body, kw.get("size"))
    ok("crafted-fast-base", "the base of the reject-fast-* chunks: S 1, one rANS stream",
       hdr() + st(good_body), data)
    bad("fast-kind-3", "stream kind 3 (section 14)", hdr() + st(good_body, kind=3))
    bad("fast-N-short", "the stream holds N = m - 1 units (section 12)",
        hdr() + st(good_body, N=n - 1))
    bad("fast-size-long", "the stream's size says one byte more than the chunk has: ends early",
        hdr() + st(good_body, size=len(good_body) + 1))
    bad("fast-E-2", "table E = 2 (section 15)", hdr() + st(tb[:2] + b"\x02" + good_body[3:]))
    bad("fast-K-E-0", "table K = 0, E = 0: no entry (section 15)",
        hdr() + st(b"\x00\x00\x00" + good_body[3:]))
    # values and frequencies: rebuild the table with one field written otherwise
    vals = tab.values
    fr = [tab.freq[v] for v in vals] + ([tab.freq[ESC]] if tab.E else [])

    def table_with(first=None, fdelta=0, raw_first=None):
        b = bytearray(struct.pack("<HB", tab.K, tab.E))
        prev = None
        for v in vals:
            if prev is None and raw_first is not None:
                b += raw_first
            else:
                b += uleb(v if prev is None else v - prev - 1) if prev is not None or first is None \
                    else uleb(first)
            prev = v
        for i, f in enumerate(fr):
            b += uleb(f - 1 + (fdelta if i == 0 else 0))
        return bytes(b)

    assert table_with() == tb
    bad("fast-varint-not-minimal", "the first value (0x20) as 2 bytes A0 00 (section 15: minimal)",
        hdr() + st(rans_body(table_with(raw_first=bytes([0x80 | vals[0], 0x00])), segs)))
    bad("fast-varint-4-bytes", "the first value as 4 bytes (section 15: at most 3)",
        hdr() + st(rans_body(table_with(raw_first=bytes([0x80 | vals[0], 0x80, 0x80, 0x00])),
                             segs)))
    bad("fast-value-256", "the values ascend past 255 for u = 1 (section 15: below 2^(8u))",
        hdr() + st(rans_body(table_with(first=0xF8), segs)))
    bad("fast-freq-4097", "the frequencies add up to 4097 (section 15)",
        hdr() + st(rans_body(table_with(fdelta=1), segs)))
    bad("fast-freq-4095", "the frequencies add up to 4095 (section 15)",
        hdr() + st(rans_body(table_with(fdelta=-1), segs)))
    st0, w0 = segs[0]
    lanes = list(struct.unpack("<32I", st0))
    low = list(lanes)
    low[0] = 0xFFFF
    bad("fast-state-low", "lane 0 starts at 2^16 - 1 (section 16: at least 2^16)",
        hdr() + st(rans_body(tb, [(struct.pack("<32I", *low), w0)])))
    bad("fast-word-extra", "one word more in the segment than the decoder reads (section 16)",
        hdr() + st(rans_body(tb, [(st0, w0 + [0x1234])])))
    bad("fast-word-missing", "the last word taken away: a word read past w_s (section 16)",
        hdr() + st(rans_body(tb, [(st0, w0[:-1])])))
    bad("fast-directory-long", "w_0 one more than the words there: the segments do not add up "
        "to the body (section 16)", hdr() + st(rans_body(tb, segs, dirw=[len(w0) + 1])))
    bad("fast-body-extra", "one byte after the segments, inside the stream's size (section 16)",
        hdr() + st(rans_body(tb, segs, extra=b"\x00")))
    # five units: lanes 5..31 have no unit and must start (and so end) at 2^16
    d5 = bytes([3, 1, 4, 1, 5])
    t5, s5 = rans_parts(list(d5), 1)
    l5 = list(struct.unpack("<32I", s5[0][0]))
    assert l5[31] == 1 << 16
    l5[31] += 1
    h5 = v2_header(F_ENTROPY, 1, 0, 8, 14, 5, 1)
    ok("crafted-idle-lanes", "5 units: lanes 5 to 31 keep their 2^16", h5 + stream_bytes(
        2, 5, rans_body(t5.serialise(), s5)), d5)
    bad("fast-idle-lane", "lane 31 has no unit and starts at 2^16 + 1 (section 16)",
        h5 + stream_bytes(2, 5, rans_body(t5.serialise(), [(struct.pack("<32I", *l5), s5[0][1])])))
    # header fields (section 11)
    body = st(good_body)
    for name, why, kw in (
            ("flag-bit-5", "stage flag bit 5", dict(flags=F_ENTROPY | 0x20)),
            ("no-entropy", "LZSS without ENTROPY", dict(flags=F_LZSS, W=8)),
            ("split-s1", "SPLIT with S 1", dict(flags=F_ENTROPY | F_SPLIT)),
            ("w-without-lzss", "W 5 without LZSS", dict(W=5)),
            ("g-9", "g 9 with ENTROPY", dict(g=9)),
            ("g-16", "g 16 with ENTROPY", dict(g=16)),
            ("reserved", "reserved bytes 01 00", dict(reserved=1)),
            ("checksum-field", "a checksum field without CHECKSUM", dict(ck=1)),
            ("nb", "nb 3 for 300 symbols in blocks of 256", dict(nb=3)),
            ("log2c-7", "log2 C 7", dict(lgC=7, nb=3))):
        bad("header-" + name, why + " (section 11)", hdr(**kw) + body)
    bad("header-s4-no-split", "S 4 without SPLIT (section 11)",
        v2_header(F_ENTROPY, 4, 0, 8, 14, 4, 1) + stream_bytes(1, 1, b"\x01\x02\x03\x04"))
    ck = checksum(data, 1, 256)
    ok("crafted-fast-checksum", "the base with CHECKSUM", hdr(flags=F_ENTROPY | F_CHECKSUM, ck=ck)
       + body, data)
    bad("checksum-wrong", "the checksum off by one (section 17)",
        hdr(flags=F_ENTROPY | F_CHECKSUM, ck=(ck + 1) & MASK) + body)
    bad("byte-appended", "one byte after the chunk (section 11)", hdr() + body + b"\x00")
    bad("tail-missing", "n says one tail byte more than the chunk has (S 2: 2 symbols + 1)",
        v2_header(F_ENTROPY, 2, 0, 8, 14, 5, 1) + stream_bytes(1, 2, b"\x07\x00"))
    # other stream kinds
    bad("constant-n0", "a constant stream of N 0 (section 14: N >= 1)",
        v2_header(F_ENTROPY, 1, 0, 8, 14, 0, 0) + stream_bytes(1, 0, b"\x00"))
    bad("constant-size-2", "a constant stream of u = 1 with size 2 (section 14)",
        v2_header(F_ENTROPY, 1, 0, 8, 14, 3, 1) + stream_bytes(1, 3, b"\x07\x07"))
    bad("stored-size", "a stored stream of 3 units of u = 2 in 5 bytes (section 14)",
        v2_header(F_ENTROPY, 2, 0, 8, 14, 6, 1) + stream_bytes(0, 3, b"\x01\x02\x03\x04\x05"))
    # K = 4096 (every other rule kept: 4096 values of frequency 1, u = 2)
    units = list(range(4096))
    t4 = Table(units)
    t4.values, t4.K, t4.E = list(range(4096)), 4096, 0
    t4.freq = {v: 1 for v in units}
    t4.cum = {v: v for v in units}
    s4 = [rans_segment(units, t4, 2)]
    bad("k-4096", "a table of K = 4096 values (section 15: K is 0 to 4095), every other rule "
        "kept", v2_header(F_ENTROPY, 2, 0, 14, 14, 8192, 1) +
        stream_bytes(2, 4096, rans_body(t4.serialise(), s4)))
    # a rANS stream of no units: a table, no directory, no segment
    ok("spec-rans-n0", "n = 0 with a rANS stream of N = 0: nothing in sections 14-16 or 20 "
       "forbids it (section 18 stores empty streams, but that binds encoders)",
       v2_header(F_ENTROPY, 1, 0, 8, 14, 0, 0) + stream_bytes(2, 0, b"\x01\x00\x00\x00\xFF\x1F"),
       b"")

    # a table far larger than its stream: 2 units, 10 values (8 never used) and an escape
    units = [7, 9]
    tb2 = Table(units)
    tb2.values = [1, 2, 3, 7, 9, 20, 30, 40, 50, 255]
    tb2.K, tb2.E = 10, 1
    tb2.freq = {v: 400 for v in tb2.values}
    tb2.freq[7], tb2.freq[ESC] = 396, 100
    tb2.cum, acc = {}, 0
    for v in tb2.values + [ESC]:
        tb2.cum[v] = acc
        acc += tb2.freq[v]
    assert acc == M
    ok("crafted-table-unused", "2 units and a table of 10 values (8 unused) and an unused escape",
       v2_header(F_ENTROPY, 1, 0, 8, 14, 2, 1) + stream_bytes(2, 2, rans_body(
           tb2.serialise(), [rans_segment(units, tb2, 1)])), bytes(units))
    # equal units through rANS: one entry of frequency 4096, no word at all
    t1, s1 = rans_parts([5] * 100, 1)
    assert t1.K == 1 and not s1[0][1]
    ok("crafted-rans-one-entry", "100 equal units coded with rANS (one entry, f 4096): the "
       "states never move and the segment has no word",
       v2_header(F_ENTROPY, 1, 0, 8, 14, 100, 1) + stream_bytes(2, 100, rans_body(
           t1.serialise(), s1)), bytes([5] * 100))

    # -- ratio, S 1, W 4, stored streams
    A, B, Cc = ord("a"), ord("b"), ord("c")
    base = [("L", A), ("L", B), ("L", Cc), ("M", 6, 3), ("L", A), ("M", 3, 4)]  # 13 symbols
    rc = lambda blocks, **kw: ratio_chunk(1, 4, 256, blocks, **kw)[0]
    ok("crafted-ratio-base", "the base of the reject-ratio-* chunks: 6 tokens, 2 matches",
       *ratio_chunk(1, 4, 256, [base]))
    ok("crafted-ratio-lazy", "a parse that is not greedy (a literal where a match was possible, "
       "a shorter match, a farther offset): valid, not canonical",
       *ratio_chunk(1, 4, 256, [[("L", A), ("L", B), ("L", A), ("L", B), ("M", 3, 4),
                                 ("L", A)]]))
    bad("ratio-L-below-Lmin", "a match of L 2 with S 1 (section 5: Lmin 3)",
        rc([[("L", A), ("L", B), ("M", 2, 2)]]))
    bad("ratio-D-above-W", "a match of D 5 with W 4 (section 5)",
        rc([[("L", A), ("L", B), ("L", A), ("L", B), ("L", A), ("M", 3, 5)]]))
    bad("ratio-D-before-block", "a match of D 3 after 2 symbols (section 5)",
        rc([[("L", A), ("L", B), ("M", 3, 3)]]))
    bad("ratio-T-0", "T_0 = 0 (section 12: 1 to the block's symbol count)",
        rc([base], T_override=(0, 0)))
    bad("ratio-T-above-count", "T_0 = 14 for a block of 13 symbols (section 12)",
        rc([base], T_override=(0, 14)))
    bad("ratio-decodes-short", "n says 14 symbols, the tokens make 13 (section 12)",
        rc([base], n_override=14))
    bad("ratio-pad-bit", "a flag bit past T_0 set (section 12: bits past T_k are 0)",
        rc([base], pad_bits=0x80))
    bad("ratio-literals-extra", "the literal stream holds one unit more than the 0 flags",
        rc([base], lit_extra=1))
    bad("ratio-lengths-extra", "lengths and offsets hold one unit more than the 1 flags",
        rc([base], len_extra=1))
    bad("ratio-w-0", "LZSS with W 0 (section 11)", ratio_chunk(1, 0, 256, [[("L", A)]])[0])
    ok("crafted-ratio-blocks", "three blocks of 256 (matches of 255), 256 and 1 symbols; "
       "each block's matches start over", *ratio_chunk(1, 4, 256, [
           [("L", A), ("M", 255, 1)], [("L", B), ("M", 255, 1)], [("L", Cc)]]))
    bad("ratio-match-across-blocks", "block 1 begins with a match into block 0 (section 5)",
        rc([[("L", A), ("M", 255, 1)], [("M", 255, 1), ("L", A)]]))
    bad("ratio-match-past-end", "a match of 255 where 254 symbols are left (section 5)",
        v2_header(F_ENTROPY | F_LZSS, 1, 4, 8, 14, 255, 1) + b"\x02\x00" +
        stream_bytes(0, 1, b"\x02") + stream_bytes(0, 1, b"a") + stream_bytes(0, 1, b"\xff") +
        stream_bytes(0, 1, b"\x01"))
    return out


def write_golden(d, check_only=False):
    os.makedirs(d, exist_ok=True)
    bad = 0
    written = {}
    for name, why, data, mode, S, W, C, ck, expect in golden_cases():
        notes = []
        out = compress(data, mode, S, W, C, ck, notes)
        err = expect(out, notes) if expect else None
        if err:
            print("%s: does not reach its shape: %s" % (name, err), file=sys.stderr)
            bad += 1
        written[name + ".hex"] = vector_text(name, why, data, mode, S, W, C, ck, out, notes)
    for name, why, data, S, W, C, ch in decode_only_cases():
        notes = []
        ch = dict(ch)
        out = encode_v2(data, S, W, C, ch.pop("use_delta"), ch.pop("split"), ch.pop("lzss"),
                        ch.pop("cksum"), notes=notes, **ch)
        written["decode-" + name + ".hex"] = vector_text(name, why, data, "decode", S, max(W, 1),
                                                         C, out[5] & F_CHECKSUM != 0, out, notes)
    for name, why, ch, data in crafted_cases():
        mode = "decode" if data is not None else "reject"
        written[name + ".hex"] = vector_text(name, why, data or b"", mode, ch[6], max(ch[7], 1),
                                             1 << min(max(ch[8], 8), 14),
                                             ch[5] & F_CHECKSUM != 0, ch, [])
    if check_only:
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".hex") and fn not in written:
                print("%s is not written by this generator" % os.path.join(d, fn), file=sys.stderr)
                bad += 1
    for fn, text in sorted(written.items()):
        p = os.path.join(d, fn)
        if check_only:
            try:
                with open(p) as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:
                print("%s differs" % p, file=sys.stderr)
                bad += 1
        else:
            with open(p, "w") as f:
                f.write(text)
        print("%-40s %s" % (fn, "checked" if check_only else "written"))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] in ("--write-golden", "--check-golden"):
        return write_golden(argv[2], argv[1] == "--check-golden")
    if len(argv) >= 4 and argv[1] in ("--diff", "--diff-adaptive"):
        return diff_with_gpulz(argv[2], int(argv[3]), int(argv[4]) if len(argv) > 4 else 1,
                               argv[5] if len(argv) > 5 else None, argv[1] == "--diff-adaptive")
    if len(argv) >= 4 and argv[1] == "--variants":
        return variants_through_decoders(argv[2], int(argv[3]),
                                         int(argv[4]) if len(argv) > 4 else 1)
    if len(argv) >= 8 and argv[1] == "--compress":
        mode, S, W, C = argv[2], int(argv[3]), int(argv[4]), int(argv[5])
        ck = "--no-checksum" not in argv
        files = [a for a in argv[6:] if a != "--no-checksum"]
        with open(files[0], "rb") as f:
            data = f.read()
        notes = []
        out = compress(data, mode, S, W, C, ck, notes)
        with open(files[1], "wb") as f:
            f.write(out)
        for x in describe_header(out) + notes:
            print(x)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
