/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * probe7.c - how often fast's DELTA choice (FORMAT.md §19) made from a
 * sample of the chunk differs from the exact one, and what it costs.
 *
 * For each chunk of S = 2 symbols (blocks of C, the delta restarting at each
 * block): the exact choice from whole histograms of the symbols and of their
 * deltas (gpulz_fast_choose), and a sampled one: the same from the groups of 8
 * symbols the GPU's window sample visits (one run of 32 groups in each
 * `every` runs, at a hashed phase, about 2^18 groups; every group where the
 * chunk has fewer).  Where they differ, the exact estimate of the sampled
 * choice (its best SPLIT on the whole counts) against the exact best.
 *
 * Usage: probe7 FILE.u16 [CHUNK_MIB] [C] [MOST_GROUPS]
 * Links libgpulz (gpulz_fast_choose, gpulz_stream_estimate, gpulz_hist_narrow).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_entropy.h"
#include "gpulz_v2.h"

static void count(gpulz_fast_hists *H, const uint16_t *y, uint64_t i, uint64_t C)
{
    const uint32_t v = y[i], d = i % C ? (uint32_t)(uint16_t)(y[i] - y[i - 1]) : v;
    H->whole[0].count[v]++;
    H->whole[1].count[d]++;
    H->whole[0].N++;
    H->whole[1].N++;
}

static void reset(gpulz_fast_hists *H)
{
    for (int d = 0; d < 2; d++) {
        memset(H->whole[d].count, 0, 65536 * sizeof *H->whole[d].count);
        H->whole[d].N = 0;
        H->whole[d].lo = 0;
        H->whole[d].span = 65536;
    }
}

static void finish(gpulz_fast_hists *H)
{
    for (int d = 0; d < 2; d++)
        gpulz_hist_narrow(&H->whole[d]);
    gpulz_fast_hists_planes_from_whole(H);
}

/* the estimate of transform d with its better SPLIT, in 1/256 bits */
static uint64_t best_of(const gpulz_fast_hists *H, int d)
{
    uint64_t whole = 0, p0 = 0, p1 = 0;
    gpulz_stream_estimate(&H->whole[d], 14, &whole);
    gpulz_stream_estimate(&H->plane[d][0], 14, &p0);
    gpulz_stream_estimate(&H->plane[d][1], 14, &p1);
    return whole <= p0 + p1 ? whole : p0 + p1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: probe7 FILE.u16 [CHUNK_MIB] [C] [MOST_GROUPS]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 1;
    fseek(f, 0, SEEK_END);
    const long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint16_t *y = malloc((size_t)bytes + 2);
    if (!y || fread(y, 1, (size_t)bytes, f) != (size_t)bytes)
        return 1;
    fclose(f);
    const uint64_t total = (uint64_t)bytes / 2;
    const uint64_t chunk = argc > 2 && atof(argv[2]) > 0 ? (uint64_t)(atof(argv[2]) * (1 << 20) / 2) : total;
    const uint64_t C = argc > 3 ? strtoull(argv[3], NULL, 0) : 4096, most = argc > 4 ? strtoull(argv[4], NULL, 0) : 1u << 18;
    gpulz_fast_hists E, P;
    if (gpulz_fast_hists_init(&E, 2) != GPULZ_OK || gpulz_fast_hists_init(&P, 2) != GPULZ_OK)
        return 1;
    unsigned chunks = 0, differ = 0, sampled_chunks = 0;
    double worst = 0;
    for (uint64_t first = 0; first < total; first += chunk) {
        const uint64_t m = total - first < chunk ? total - first : chunk;
        const uint16_t *x = y + first;
        reset(&E);
        reset(&P);
        for (uint64_t i = 0; i < m; i++)
            count(&E, x, i, C);
        const uint64_t groups = m / 8, runs = (groups + 31) / 32, every = groups > most ? (groups + most - 1) / most : 1;
        for (uint64_t w = 0; w * every < runs; w++) {
            const uint64_t run = w * every + (every > 1 ? ((uint32_t)w * 0x9E3779B1u >> 7) % every : 0);
            for (uint64_t g = run * 32; g < run * 32 + 32 && g < groups; g++)
                for (uint64_t i = 8 * g; i < 8 * g + 8; i++)
                    count(&P, x, i, C);
        }
        for (uint64_t i = groups * 8; i < m; i++) /* the symbols past the last group */
            count(&P, x, i, C);
        finish(&E);
        finish(&P);
        int de, se, dp, sp;
        if (gpulz_fast_choose(&E, 14, &de, &se) != GPULZ_OK || gpulz_fast_choose(&P, 14, &dp, &sp) != GPULZ_OK)
            return 1;
        const uint64_t ce = best_of(&E, de), cp = best_of(&E, dp);
        const double loss = ce ? 100.0 * ((double)cp - (double)ce) / (double)ce : 0;
        chunks++;
        sampled_chunks += every > 1;
        differ += dp != de;
        worst = loss > worst ? loss : worst;
        printf("%s chunk %llu: %llu symbols, every %llu, exact DELTA %d (est %.0f B), sampled DELTA %d (est %.0f B, %+.3f %%), "
               "estimates no-delta %.0f B delta %.0f B\n",
               argv[1], (unsigned long long)(first / chunk), (unsigned long long)m, (unsigned long long)every, de,
               ce / 2048.0, dp, cp / 2048.0, loss, best_of(&E, 0) / 2048.0, best_of(&E, 1) / 2048.0);
    }
    printf("SUMMARY %s: %u chunks (%u sampled), %u choices differ, worst loss %.3f %%\n", argv[1], chunks,
           sampled_chunks, differ, worst);
    return 0;
}
