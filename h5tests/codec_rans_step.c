/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_rans_step.c - the GPU encoder's rANS step by multiplication, from
 * the fields gpulz_rans_prepare gives a frequency (gpulz_rans_encode_prepared),
 * gives the state and word of §16's step, written here as FORMAT.md states
 * it, with a division, for every frequency 1..M: the multiplier meets the
 * condition under which the quotient is exact for every 32-bit state, the
 * fields hold f, its multiplier and its shift as the step takes them, and
 * the two steps agree at each frequency's edges (the renormalisation
 * threshold, the bounds of a state, multiples of f) and at random states.
 */
#include "codec_testutil.h"

/* §16's symbol step: x in [2^16, 2^32); a word first where x >= f 2^20. */
static uint32_t step_by_division(uint32_t x, uint32_t f, uint32_t c, int *emit, uint32_t *word)
{
    *emit = (uint64_t)x >= (uint64_t)f << (32 - GPULZ_RANS_LOG2_M);
    if (*emit) {
        *word = x & 0xFFFFu;
        x >>= 16;
    }
    return (x / f << GPULZ_RANS_LOG2_M) + x % f + c;
}

static void compare(uint32_t x, uint32_t f, uint32_t c, uint32_t thr, uint32_t r, uint32_t cfl)
{
    int e0 = 0, e1 = 0;
    uint32_t w0 = 0, w1 = 0;
    const uint32_t s0 = step_by_division(x, f, c, &e0, &w0);
    const uint32_t s1 = gpulz_rans_encode_prepared(x, thr, r, c, cfl, &e1, &w1);
    TU_CHECK(s0 == s1 && e0 == e1 && (!e0 || w0 == w1),
             "f %u c %u x %u: division gives state %u emit %d word %u, multiplication %u %d %u", f, c, x, s0, e0,
             w0, s1, e1, w1);
}

int main(void)
{
    uint64_t seed = 0x5eed5eedu;
    unsigned long steps = 0;
    for (uint32_t f = 1; f <= GPULZ_RANS_M; f++) {
        unsigned l = 99;
        const uint32_t r = gpulz_rans_recip(f, &l);
        /* l = ceil(log2 f), and 2^(32+l) < m f <= 2^(32+l) + 2^l for m = 2^32 + r:
         * then floor(x m / 2^(32+l)) = floor(x / f) for all x < 2^32 */
        TU_CHECK(l <= GPULZ_RANS_LOG2_M && (1u << l) >= f && (l == 0 || (1u << (l - 1)) < f),
                 "f %u: shift %u is not ceil(log2 f)", f, l);
        if (l > GPULZ_RANS_LOG2_M)
            continue;
        /* m f - 2^(32+l) = r f - 2^32 (2^l - f), both terms below 2^44 */
        const uint64_t rf = (uint64_t)r * f, gap = ((uint64_t)1 << 32) * ((1u << l) - f);
        TU_CHECK(rf > gap && rf - gap <= (1u << l), "f %u: multiplier %u out of the exact range", f, r);
        uint32_t pthr = 0, pr = 0, cfl = 0;
        gpulz_rans_prepare(f, &pthr, &pr, &cfl);
        TU_CHECK(pr == r && (uint64_t)pthr + 1 == (uint64_t)f << (32 - GPULZ_RANS_LOG2_M) &&
                     cfl >> 5 == GPULZ_RANS_M - f && (cfl & 31u) == l,
                 "f %u: prepared fields thr %u r %u cfl %u do not hold f, r %u and l %u", f, pthr, pr, cfl, r, l);
        const uint32_t c = f < GPULZ_RANS_M ? (uint32_t)tu_below(&seed, GPULZ_RANS_M - f + 1) : 0;
        const uint64_t thr = (uint64_t)f << (32 - GPULZ_RANS_LOG2_M);
        const uint64_t edge[] = {GPULZ_RANS_L, GPULZ_RANS_L + 1, thr - 1, thr, thr + 1, 0xFFFFFFFFu, 0xFFFFFFFEu};
        for (size_t i = 0; i < sizeof edge / sizeof *edge; i++, steps++)
            if (edge[i] >= GPULZ_RANS_L && edge[i] <= 0xFFFFFFFFu)
                compare((uint32_t)edge[i], f, c, pthr, pr, cfl);
        for (int i = 0; i < 400; i++, steps++) {
            /* near a multiple of f below the threshold (where the quotient
             * steps), or anywhere in [2^16, 2^32) */
            uint64_t x = i & 1 ? (tu_below(&seed, thr / f) * f + tu_below(&seed, 3)) - 1
                               : GPULZ_RANS_L + tu_below(&seed, ((uint64_t)1 << 32) - GPULZ_RANS_L);
            if (x < GPULZ_RANS_L || x > 0xFFFFFFFFu)
                x = GPULZ_RANS_L;
            compare((uint32_t)x, f, c, pthr, pr, cfl);
        }
    }
    printf("%lu steps compared\n", steps);
    return tu_finish("codec_rans_step");
}
