/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_pick.h - inputs on which fast's DELTA from the sample (FORMAT.md
 * §19, gpulz_pick_sampled) and the whole chunk's estimates disagree, for the
 * CPU's test (codec_v2) and the GPU's (gpu_codec_test).
 */
#ifndef GPULZ_CODEC_PICK_H
#define GPULZ_CODEC_PICK_H

#include <stdint.h>
#include <stdlib.h>

#include "gpulz_format2.h"

/* 9/8 of GPULZ_PICK_GROUPS groups of 8 symbols (72 MiB) and 3 more: the
 * sample takes one run of groups in 72 */
#define PICK_GROUPS (9 * (uint64_t)GPULZ_PICK_GROUPS / 8)
#define PICK_SYMBOLS (8 * PICK_GROUPS + 3)

/*
 * PICK_SYMBOLS 16-bit symbols into in: a walk over 4 values (its deltas cost
 * less than its symbols) and a choice between 2 values far apart (its
 * symbols cost less), the walk in the sampled groups (walk_sampled) or in
 * the rest, which is 71 times as large: the sample picks DELTA exactly where
 * walk_sampled, the whole chunk's estimates the other way.  0, or -1 where
 * out of memory.
 */
static inline int pick_input(uint8_t *in, int walk_sampled)
{
    const uint64_t every = gpulz_sample_every(PICK_GROUPS, GPULZ_PICK_SAMPLE);
    const uint64_t picks = gpulz_sample_picks(PICK_GROUPS, every);
    uint8_t *sampled = (uint8_t *)calloc(PICK_GROUPS, 1);
    if (!sampled)
        return -1;
    for (uint64_t w = 0; w < picks; w++) {
        const uint64_t k0 = gpulz_sample_run(w, every) * GPULZ_SAMPLE_RUN;
        for (uint64_t k = k0; k < k0 + GPULZ_SAMPLE_RUN && k < PICK_GROUPS; k++)
            sampled[k] = 1;
    }
    uint32_t x = 99, at = 1;
    for (uint64_t i = 0; i < PICK_SYMBOLS; i++) {
        x = x * 1103515245u + 12345u;
        unsigned v;
        if ((i / 8 < PICK_GROUPS && sampled[i / 8]) == walk_sampled) {
            at = at == 0 ? 1 : at == 3 ? 2 : (x >> 16 & 1) ? at + 1 : at - 1;
            v = 100 + at;
        } else {
            v = x >> 16 & 1 ? 5007 : 5000;
        }
        in[2 * i] = (uint8_t)v;
        in[2 * i + 1] = (uint8_t)(v >> 8);
    }
    free(sampled);
    return 0;
}

/*
 * FORMAT.md §19's sample as its text gives it, for the tests' own checks
 * (none of gpulz_format2.h's helpers): for G groups, e = ceil(G / 2^16)
 * and R = ceil(ceil(G / 32) / e) runs; run w starts at group 32 r_w.
 */
static inline void ref_sample_shape(uint64_t G, uint64_t *e, uint64_t *R)
{
    *e = (G + 65535) / 65536;
    *R = ((G + 31) / 32 + *e - 1) / *e;
}

static inline uint64_t ref_sample_run(uint64_t w, uint64_t e)
{
    return w * e + ((uint64_t)(uint32_t)(w * 2654435761ull) >> 7) % e;
}

/*
 * The first chunk size past the threshold, in groups of 8 symbols, whose
 * sample's last run starts at or past its last group (past = 1), or runs
 * over it (past = 0); 0 below PICK_GROUPS where there is none.
 */
static inline uint64_t pick_edge_groups(int past)
{
    for (uint64_t G = ((uint64_t)1 << 22) + 1; G < PICK_GROUPS; G++) {
        uint64_t e, R;
        ref_sample_shape(G, &e, &R);
        const uint64_t r = ref_sample_run(R - 1, e);
        if (past ? 32 * r >= G : 32 * r < G && 32 * r + 32 > G)
            return G;
    }
    return 0;
}

#endif
