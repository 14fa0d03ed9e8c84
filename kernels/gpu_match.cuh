/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_match.cuh - the match step of the GPU encoder (docs/FORMAT.md §6 steps
 * 1-2): the canonical match key of every position of a block, and the greedy
 * walk over the keys.  Each step body is __host__ __device__ and written over
 * a Warp (gpu_warp.cuh), so the emulator runs these very functions.
 * Internal; included by gpu_encode.cuh.
 */
#ifndef GPULZ_GPU_MATCH_CUH
#define GPULZ_GPU_MATCH_CUH

#include "gpu_warp.cuh"
#include "gpulz_format.h"

/*
 * The match key of every position i of the block (c symbols, window W):
 *
 *   key[i] = Lbest(i) << 8 | (255 - dbest(i))
 *
 * with Lbest, dbest as FORMAT.md §6 step 2 defines them (Lbest may be 0).
 *
 * Why this is the canonical match.  For an offset d, len(d) at i is the
 * number of consecutive positions p = i, i+1, ... with x[p] == x[p-d], capped
 * at min(255, c-i); for d > i it is 0 (the offset is not allowed).  Call
 * run_d(i) that count capped at 255: run_d(i) = 0 if x[i] != x[i-d], else
 * min(run_d(i+1) + 1, 255), and run_d(c) = 0, which also applies the c-i cap
 * since a run can only count positions below c.  So a backward sweep over i
 * keeps run_d for every d in registers: lane l of group g owns d = 32g+l+1,
 * and holds k = run_d << 8 | (255 - d) (0 for d > W, never a match).  The
 * largest k over all d has the largest run and, among equal runs, the largest
 * 255-d, i.e. the smallest d: exactly (Lbest, dbest).  A lane keeps the max
 * of its groups, and a warp reduction gives the max over all lanes.
 *
 * Parallelism: the block's positions are split into one segment per warp.
 * A warp whose segment ends at b < c starts its sweep at p0 = min(c, b+255)
 * with all runs 0: its count at i < b is then min(true run, p0 - i), and
 * since p0 - i >= 256 the 255 cap makes it exact.  The 255 extra positions
 * are the price of independence; segments of >= 1024 positions keep it low.
 */

/* A symbol widened to the unsigned word it is compared in, where the compiler
 * cannot narrow it again (an empty asm on the device).  nvcc narrows a
 * comparison of two widened 16-bit symbols back to 16 bits and then
 * sign-extends both operands for it: eight of the sweep's thirty instructions
 * per position at S = 2, G = 4 (22 without them, as at S = 1 and 4). */
template <typename Sym>
GPULZ_HDI unsigned gpulz_word(Sym s)
{
    unsigned w = s;
#ifdef __CUDA_ARCH__
    asm("" : "+r"(w));
#endif
    return w;
}
GPULZ_HDI uint64_t gpulz_word(uint64_t s)
{
    return s;
}

/* The positions [*a, *b) of warp w of nw in a block of c symbols; *a >= c
 * when the warp has none. */
GPULZ_HDI void gpulz_segment(unsigned c, unsigned nw, unsigned w, unsigned *a, unsigned *b)
{
    const unsigned seg = (c + nw - 1) / nw;
    *a = w * seg;
    *b = c < *a + seg ? c : *a + seg;
}

/*
 * One step of the sweep, at position i, for positions i >= 32G and i >= W
 * (every offset allowed, every load inside the block), with the symbols
 * loaded: s is sym[i], v[g] sym[i - 32g - lane - 1].  A lane beyond the
 * window has cap = lo = 0, so its k stays 0 whatever it loaded.
 * Branch-free: the lanes disagree on every comparison.
 */
template <typename Sym, int G>
GPULZ_HDI unsigned gpulz_key_step(Sym s, const Sym (&v)[G], unsigned (&k)[G], const unsigned (&lo)[G],
                                  const unsigned (&cap)[G])
{
    const auto sw = gpulz_word(s);
    unsigned best = 0;
GPULZ_UNROLL
    for (int g = 0; g < G; g++) {
        const unsigned longer = min(k[g] + 256u, cap[g]);
        k[g] = gpulz_word(v[g]) == sw ? longer : lo[g];
        best = max(best, k[g]);
    }
    return best;
}

/* The same for positions i below 32G or W, where an offset d > i is not
 * allowed. */
template <typename Sym, int G>
GPULZ_HDI unsigned gpulz_key_step_near(const Sym *sym, unsigned i, const unsigned (&d)[G], unsigned (&k)[G],
                                       const unsigned (&lo)[G], const unsigned (&cap)[G])
{
    const Sym s = sym[i];
    unsigned best = 0;
GPULZ_UNROLL
    for (int g = 0; g < G; g++) {
        const bool inside = i >= d[g];
        const unsigned longer = min(k[g] + 256u, cap[g]);
        k[g] = inside && sym[inside ? i - d[g] : i] == s ? longer : lo[g];
        best = max(best, k[g]);
    }
    return best;
}

/* positions of the sweep's stored part in one round of loads */
#define GPULZ_SWEEP_ROUND 4

/* The far sweep's symbols at a lane's offsets for the position u below
 * p's (p: that position's symbol at offset 1 of group 0). */
template <typename Sym, int G>
GPULZ_HDI void gpulz_sweep_load(const Sym *p, unsigned u, Sym (&v)[G])
{
GPULZ_UNROLL
    for (int g = 0; g < G; g++)
        v[g] = p[-(int)(32 * g + u)];
}

/* A round's U keys, of positions top - 1 down, by the warp's leader. */
template <unsigned U, class Warp>
GPULZ_HDI void gpulz_sweep_put(uint16_t *key, unsigned top, const unsigned (&held)[U], const Warp &wp)
{
    if (wp.leader()) {
GPULZ_UNROLL
        for (unsigned u = 0; u < U; u++)
            key[top - 1 - u] = (uint16_t)held[u];
    }
}

/*
 * The keys of positions [a, b) of a block of c symbols, by one warp: the
 * backward sweep from p0 = min(c, b + 255), storing from b - 1 down.  Each
 * lane's state is an array over the Warp's lanes (one on the device).
 */
template <typename Sym, int G, class Warp>
GPULZ_HDI void gpulz_sweep(const Sym *sym, uint16_t *key, unsigned c, unsigned W, unsigned a, unsigned b,
                           const Warp &wp)
{
    const int NL = Warp::lanes;
    unsigned k[NL][G], d[NL][G], lo[NL][G], cap[NL][G], best[NL];
GPULZ_UNROLL
    for (int j = 0; j < NL; j++) {
GPULZ_UNROLL
        for (int g = 0; g < G; g++) {
            const unsigned dg = 32u * g + wp.lane(j) + 1;
            const bool act = dg <= W;
            d[j][g] = act ? dg : 1u;
            lo[j][g] = act ? 255u - dg : 0u;
            cap[j][g] = act ? 0xFF00u | lo[j][g] : 0u;
            k[j][g] = lo[j][g];
        }
    }
    /* positions i >= far: the far sweep, lane l's offsets 32g + l + 1 at
     * fixed distances below one pointer */
    const unsigned far = 32u * G > W ? 32u * G : W;
    unsigned i = min(c, b + 255u);
    if (i > far && i > a) {
        const Sym *p[NL];
GPULZ_UNROLL
        for (int j = 0; j < NL; j++)
            p[j] = sym + (i - 1) - (wp.lane(j) + 1);
        const Sym *x = sym + (i - 1);
        for (; i > b && i > far; i--) {
GPULZ_UNROLL
            for (int j = 0; j < NL; j++) {
                Sym v[G];
                gpulz_sweep_load<Sym, G>(p[j], 0, v);
                (void)gpulz_key_step<Sym, G>(*x, v, k[j], lo[j], cap[j]);
                p[j]--;
            }
            x--;
        }
        /* Rounds of U positions, each round's symbols loaded before the
         * last round's keys are stored: the compiler cannot tell that key
         * and sym do not overlap, so a load written after a store waits
         * for it, and one position at a time the warp waited a load, the
         * steps and the reduction for every position. */
        const unsigned U = GPULZ_SWEEP_ROUND;
        unsigned held[U];
        bool holding = false;
        for (; i >= a + U && i >= far + U; i -= U) {
            Sym s[U], v[NL][U][G];
GPULZ_UNROLL
            for (unsigned u = 0; u < U; u++)
                s[u] = x[-(int)u];
GPULZ_UNROLL
            for (int j = 0; j < NL; j++)
GPULZ_UNROLL
                for (unsigned u = 0; u < U; u++)
                    gpulz_sweep_load<Sym, G>(p[j], u, v[j][u]);
            if (holding)
                gpulz_sweep_put<U>(key, i + U, held, wp);
GPULZ_UNROLL
            for (unsigned u = 0; u < U; u++) {
GPULZ_UNROLL
                for (int j = 0; j < NL; j++)
                    best[j] = gpulz_key_step<Sym, G>(s[u], v[j][u], k[j], lo[j], cap[j]);
                held[u] = wp.max(best);
            }
GPULZ_UNROLL
            for (int j = 0; j < NL; j++)
                p[j] -= U;
            x -= U;
            holding = true;
        }
        if (holding)
            gpulz_sweep_put<U>(key, i + U, held, wp);
        for (; i > a && i > far; i--) {
GPULZ_UNROLL
            for (int j = 0; j < NL; j++) {
                Sym v[G];
                gpulz_sweep_load<Sym, G>(p[j], 0, v);
                best[j] = gpulz_key_step<Sym, G>(*x, v, k[j], lo[j], cap[j]);
                p[j]--;
            }
            x--;
            const unsigned m = wp.max(best);
            if (wp.leader())
                key[i - 1] = (uint16_t)m;
        }
    }
    for (; i > b; i--) {
GPULZ_UNROLL
        for (int j = 0; j < NL; j++)
            (void)gpulz_key_step_near<Sym, G>(sym, i - 1, d[j], k[j], lo[j], cap[j]);
    }
    for (; i > a; i--) {
GPULZ_UNROLL
        for (int j = 0; j < NL; j++)
            best[j] = gpulz_key_step_near<Sym, G>(sym, i - 1, d[j], k[j], lo[j], cap[j]);
        const unsigned m = wp.max(best);
        if (wp.leader())
            key[i - 1] = (uint16_t)m;
    }
}

/* Whether the token at a position whose key is k is a match (FORMAT.md §6:
 * its longest match at least Lmin long). */
GPULZ_HDI bool gpulz_key_matches(unsigned k, unsigned lmin)
{
    return (k >> 8) >= lmin;
}

/* Where the greedy parse of FORMAT.md §6 goes on after a token at a
 * position whose key is k: past the match, or to the next position. */
GPULZ_HDI unsigned gpulz_walk_step(unsigned k, unsigned lmin)
{
    return gpulz_key_matches(k, lmin) ? k >> 8 : 1;
}

/* A token starts at i: its bit into the word being filled (w's), that word
 * stored first where i lies in a later one. */
GPULZ_HDI void gpulz_walk_mark(uint32_t *starts, unsigned i, unsigned *w, unsigned *bits)
{
    if (i >> 5 != *w) {
        starts[*w] = *bits;
        *w = i >> 5;
        *bits = 0;
    }
    *bits |= 1u << (i & 31);
}

/*
 * The parse from position i to the first position at or past b: marks where
 * its tokens start (bit p of starts; the words are zeroed before and only
 * this walk writes them, so the word being filled stays in a register) and
 * counts its tokens and matches; returns the position it stops at.
 */
GPULZ_HDI unsigned gpulz_walk_range(const uint16_t *key, uint32_t *starts, unsigned i, unsigned b, unsigned lmin,
                                    unsigned *tokens, unsigned *matches)
{
    unsigned T = 0, M = 0, w = i >> 5, bits = 0;
    while (i < b) {
        const unsigned k = key[i];
        gpulz_walk_mark(starts, i, &w, &bits);
        T++;
        M += gpulz_key_matches(k, lmin);
        i += gpulz_walk_step(k, lmin);
    }
    if (T)
        starts[w] = bits;
    *tokens = T;
    *matches = M;
    return i;
}

/* positions a lane of gpulz_walk_warp walks before its segment */
#define GPULZ_WALK_RUN_IN 64

/*
 * A lane's walk of [a, b) corrected, now that the parse is known to enter
 * at e instead of where the lane entered: the parse from e, up to the first
 * position the lane's walk also took (from there the two go on together) or
 * to b, replaces the lane's marks and counts below that position; *leave
 * becomes the parse's first position past b where they never met.
 */
GPULZ_HDI void gpulz_walk_fix(const uint16_t *key, uint32_t *starts, unsigned a, unsigned b, unsigned e,
                              unsigned lmin, unsigned *tokens, unsigned *matches, unsigned *leave)
{
    unsigned p = e;
    while (p < b && !(starts[p >> 5] >> (p & 31) & 1))
        p += gpulz_walk_step(key[p], lmin);
    /* the lane's marks in [a, end) out, a word at a time (a starts a word;
     * a run of one value leaves them sparse), each one's token uncounted */
    const unsigned end = p < b ? p : b;
    for (unsigned w = a >> 5; 32 * w < end; w++) {
        uint32_t m = starts[w];
        if (32 * w + 32 > end)
            m &= (1u << (end & 31)) - 1;
        starts[w] &= ~m;
        for (; m; m &= m - 1) {
            (*tokens)--;
            *matches -= gpulz_key_matches(key[32 * w + (unsigned)gpulz_ffs(m) - 1], lmin);
        }
    }
    for (unsigned q = e; q < end; q += gpulz_walk_step(key[q], lmin)) {
        starts[q >> 5] |= 1u << (q & 31);
        (*tokens)++;
        *matches += gpulz_key_matches(key[q], lmin);
    }
    if (p >= b)
        *leave = p;
}

/* Lane l's positions [*a, *b) of a block of c, sl to a lane (*a >= c: none). */
GPULZ_HDI void gpulz_walk_segment(unsigned c, unsigned sl, unsigned l, unsigned *a, unsigned *b)
{
    *a = l * sl;
    *b = c < *a + sl ? c : *a + sl;
}

/*
 * The greedy parse of FORMAT.md §6 over the keys of a block of c symbols,
 * by a warp: it only marks where tokens start (bit i of starts, zeroed
 * before) and counts tokens and matches; gpulz_emit writes the tokens.
 * Unlike the CPU encoder it does not stop once the encoding is too long:
 * the caller decides from the counts (FORMAT.md §6 step 3), with the same
 * result.  The chain i -> key[i] -> i is the walk's time: by one thread,
 * it waits a shared-memory load for every token, while the block's other
 * warps wait at the barrier.  Here lane l walks its own
 * segment of whole words of start bits, starting GPULZ_WALK_RUN_IN
 * positions before it without marking: two walks that land on one position
 * go on together, and on most data they meet within a few tokens.  Where
 * every lane entered its segment at the position where the lane before
 * left its own, the lanes' marks are the parse, by induction from lane 0,
 * which starts at 0.  Otherwise, from the first lane that did not, each
 * lane in turn corrects its walk from where the lane before now leaves
 * (gpulz_walk_fix): inside a long run of one value, for one, walks from
 * different positions meet only at its end.  Returns whether any lane was
 * corrected.
 */
template <class Warp>
GPULZ_HDI bool gpulz_walk_warp(const uint16_t *key, uint32_t *starts, unsigned c, unsigned lmin, unsigned *tokens,
                               unsigned *matches, const Warp &wp)
{
    const int NL = Warp::lanes;
    const unsigned sl = ((c + 31) / 32 + 31) & ~31u; /* a lane's positions */
    const unsigned lanes = (c + sl - 1) / sl;        /* lanes with positions */
    unsigned entry[NL], leave[NL], before[NL], T[NL], M[NL];
    bool missed[NL];
GPULZ_UNROLL
    for (int j = 0; j < NL; j++) {
        unsigned a, b;
        gpulz_walk_segment(c, sl, wp.lane(j), &a, &b);
        unsigned i = a > GPULZ_WALK_RUN_IN ? a - GPULZ_WALK_RUN_IN : 0;
        T[j] = M[j] = 0;
        entry[j] = leave[j] = a;
        if (a >= c)
            continue;
        while (i < a)
            i += gpulz_walk_step(key[i], lmin);
        entry[j] = i;
        leave[j] = gpulz_walk_range(key, starts, i, b, lmin, &T[j], &M[j]);
    }
    wp.up(leave, before);
GPULZ_UNROLL
    for (int j = 0; j < NL; j++)
        missed[j] = wp.lane(j) > 0 && wp.lane(j) < lanes && entry[j] != before[j];
    const unsigned miss = wp.ballot(missed);
    if (miss) {
        const unsigned first = (unsigned)gpulz_ffs(miss) - 1;
        unsigned e = wp.from(leave, first - 1);
        for (unsigned l = first; l < lanes; l++) {
GPULZ_UNROLL
            for (int j = 0; j < NL; j++) {
                if (wp.lane(j) == l && e != entry[j]) {
                    unsigned a, b;
                    gpulz_walk_segment(c, sl, l, &a, &b);
                    gpulz_walk_fix(key, starts, a, b, e, lmin, &T[j], &M[j], &leave[j]);
                }
            }
            e = wp.from(leave, l);
        }
    }
    *tokens = wp.sum(T);
    *matches = wp.sum(M);
    return miss != 0;
}

#endif
