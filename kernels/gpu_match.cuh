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
 * One step of the sweep, at position i, for positions i >= W (every offset
 * allowed).  pg[g] points at sym[i - d[g]]; a lane beyond the window has
 * d = 1 (so its load stays inside the block) and cap = lo = 0, so its k stays
 * 0.  Branch-free: the lanes disagree on every comparison.
 */
template <typename Sym, int G>
GPULZ_HDI unsigned gpulz_key_step(Sym s, const Sym *const (&pg)[G], unsigned (&k)[G], const unsigned (&lo)[G],
                                  const unsigned (&cap)[G])
{
    const auto sw = gpulz_word(s);
    unsigned best = 0;
GPULZ_UNROLL
    for (int g = 0; g < G; g++) {
        const unsigned longer = min(k[g] + 256u, cap[g]);
        k[g] = gpulz_word(*pg[g]) == sw ? longer : lo[g];
        best = max(best, k[g]);
    }
    return best;
}

/* The same for positions i < W, where an offset d > i is not allowed. */
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
    /* positions i >= W: the far sweep, with a pointer per offset */
    unsigned i = min(c, b + 255u);
    if (i > W && i > a) {
        const Sym *pg[NL][G];
GPULZ_UNROLL
        for (int j = 0; j < NL; j++) {
GPULZ_UNROLL
            for (int g = 0; g < G; g++)
                pg[j][g] = sym + (i - 1) - d[j][g];
        }
        const Sym *x = sym + (i - 1);
        for (; i > b && i > W; i--) {
GPULZ_UNROLL
            for (int j = 0; j < NL; j++) {
                (void)gpulz_key_step<Sym, G>(*x, pg[j], k[j], lo[j], cap[j]);
GPULZ_UNROLL
                for (int g = 0; g < G; g++)
                    pg[j][g]--;
            }
            x--;
        }
GPULZ_UNROLL_4
        for (; i > a && i > W; i--) {
GPULZ_UNROLL
            for (int j = 0; j < NL; j++) {
                best[j] = gpulz_key_step<Sym, G>(*x, pg[j], k[j], lo[j], cap[j]);
GPULZ_UNROLL
                for (int g = 0; g < G; g++)
                    pg[j][g]--;
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

/*
 * The greedy parse of FORMAT.md §6 over the keys, by one thread: it only
 * marks where tokens start (bit i of starts) and counts tokens and matches;
 * gpulz_emit writes the tokens with a whole warp.  Every instruction here
 * runs on one lane while 31 wait, so the loop is kept to the chain
 * i -> key[i] -> i and a few counters.  Unlike the CPU encoder it does not
 * stop once the encoding is too long: the caller decides from the counts
 * (FORMAT.md §6 step 3), with the same result.
 */
GPULZ_HDI void gpulz_walk(const uint16_t *key, uint32_t *starts, unsigned c, unsigned lmin, unsigned *tokens,
                          unsigned *matches)
{
    unsigned i = 0, T = 0, M = 0;
    while (i < c) {
        const unsigned L = key[i] >> 8;
        const bool m = L >= lmin;
        starts[i >> 5] |= 1u << (i & 31);
        i += m ? L : 1;
        T++;
        M += m;
    }
    *tokens = T;
    *matches = M;
}

#endif
