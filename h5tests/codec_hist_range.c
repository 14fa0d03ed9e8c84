/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_hist_range.c - gpulz_hist_narrow, which gives histograms counted
 * elsewhere (the GPU's) the range the model's scans read: on sparse
 * histograms of 2^8 and 2^16 values, with and without wrapping around the
 * end, every non-zero count lies in the range, no shorter range would hold
 * them all, and the model and the estimate are those of the whole range.
 */
#include "codec_testutil.h"
#include "gpulz_entropy.h"

#include <string.h>

/* The shortest range holding every non-zero count, by trying each of them
 * as its first value. */
static uint32_t shortest_span(const gpulz_hist *h, uint32_t V)
{
    uint32_t best = V;
    for (uint32_t lo = 0; lo < V; lo++) {
        if (!h->count[lo])
            continue;
        uint32_t need = 0;
        for (uint32_t v = 0; v < V; v++)
            if (h->count[v] && (v - lo + V) % V + 1 > need)
                need = (v - lo + V) % V + 1;
        best = need < best ? need : best;
    }
    return best;
}

static int models_equal(const gpulz_model *a, const gpulz_model *b, uint32_t V)
{
    if (a->K != b->K || a->E != b->E || a->N != b->N || a->escaped != b->escaped || a->distinct != b->distinct ||
        memcmp(a->value, b->value, a->K * sizeof *a->value) || memcmp(a->freq, b->freq, (a->K + a->E) * sizeof *a->freq))
        return 0;
    /* the entries of values the histogram has (the others are unused) */
    for (uint32_t v = 0; v < V; v++)
        if (a->entry[v] != b->entry[v] && (a->entry[v] != a->K || b->entry[v] != 0))
            return 0;
    return 1;
}

static void trial(unsigned u, uint64_t *s, unsigned t)
{
    const uint32_t V = (uint32_t)1 << (8 * u);
    gpulz_hist whole, narrow;
    TU_CHECK(gpulz_hist_init(&whole, u) == GPULZ_OK && gpulz_hist_init(&narrow, u) == GPULZ_OK, "init");
    /* a cluster of values somewhere, maybe across the end, maybe a second
     * one, maybe one value only */
    const unsigned shape = (unsigned)tu_below(s, 5);
    const uint32_t at = (uint32_t)tu_below(s, V), width = 1 + (uint32_t)tu_below(s, shape == 4 ? 1 : V / 8);
    for (uint32_t j = 0; j < width; j++)
        if (tu_below(s, 3))
            whole.count[(at + j) % V] += 1 + tu_below(s, 1000);
    whole.count[at] += 1;
    if (shape == 1 || shape == 2)
        whole.count[(at + V / 2 + (uint32_t)tu_below(s, V / 4)) % V] += 1 + tu_below(s, 50);
    if (shape == 3) {
        whole.count[0] += 1;
        whole.count[V - 1] += 1;
    }
    for (uint32_t v = 0; v < V; v++)
        whole.N += whole.count[v];
    memcpy(narrow.count, whole.count, (size_t)V * sizeof *whole.count);
    narrow.N = whole.N;
    gpulz_hist_narrow(&narrow);

    uint32_t a[2], b[2];
    const unsigned pieces = gpulz_hist_pieces(&narrow, a, b);
    uint64_t inside = 0;
    for (unsigned i = 0; i < pieces; i++)
        for (uint32_t v = a[i]; v < b[i]; v++)
            inside += narrow.count[v];
    TU_CHECK(inside == whole.N, "u=%u trial %u: the range [%u, +%u) leaves out counts", u, t, narrow.lo,
             narrow.span);
    TU_CHECK(narrow.span == shortest_span(&whole, V), "u=%u trial %u: span %u, the shortest is %u", u, t,
             narrow.span, shortest_span(&whole, V));

    gpulz_model mw, mn;
    memset(&mw, 0, sizeof mw);
    memset(&mn, 0, sizeof mn);
    TU_CHECK(gpulz_model_build(&mw, &whole) == GPULZ_OK && gpulz_model_build(&mn, &narrow) == GPULZ_OK, "models");
    TU_CHECK(models_equal(&mw, &mn, V), "u=%u trial %u: the model differs with the range", u, t);
    uint64_t cw = 0, cn = 0;
    TU_CHECK(gpulz_stream_estimate(&whole, 14, &cw) == GPULZ_OK && gpulz_stream_estimate(&narrow, 14, &cn) == GPULZ_OK &&
                 cw == cn,
             "u=%u trial %u: estimates %llu and %llu", u, t, (unsigned long long)cw, (unsigned long long)cn);
    gpulz_model_free(&mw);
    gpulz_model_free(&mn);
    gpulz_hist_free(&whole);
    gpulz_hist_free(&narrow);
}

int main(void)
{
    uint64_t s = 0x6a09e667f3bcc908ull;
    for (unsigned t = 0; t < 300; t++)
        trial(1, &s, t);
    for (unsigned t = 0; t < 40; t++)
        trial(2, &s, t);

    /* nothing counted: the range stays whole */
    gpulz_hist h;
    TU_CHECK(gpulz_hist_init(&h, 2) == GPULZ_OK, "init");
    gpulz_hist_narrow(&h);
    TU_CHECK(h.lo == 0 && h.span == 65536, "an empty histogram's range changed to [%u, +%u)", h.lo, h.span);
    gpulz_hist_free(&h);
    return tu_finish("codec_hist_range");
}
