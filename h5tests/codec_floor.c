/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_floor.c - gpulz_stream_floor, the least a stream can take, which
 * lets auto skip coding a candidate that cannot be the shorter: on streams
 * of 1- and 2-byte units of many shapes (skewed, near-constant, flat,
 * escapes, lengths across segment boundaries, the same units sorted and
 * shuffled) it is never above the coded stream's length, and on skewed
 * data it is close enough to it to be worth asking; and ratio given fast's
 * length to beat stops where it loses (quantization codes) and codes its
 * own bytes where it wins (repeated rows).
 */
#include "codec_testutil.h"
#include "datagen.h"
#include "gpulz_entropy.h"
#include "gpulz_v2.h"

/* N units of u bytes of a shape: 0 geometric, 1 one value nearly always,
 * 2 a few values evenly, 3 wide (u = 2: most values escaped), 4 sorted
 * geometric (long runs: the states' worst orders) */
static void fill(uint8_t *b, uint64_t N, unsigned u, unsigned shape, uint64_t *s)
{
    const uint32_t V = (uint32_t)1 << (8 * u);
    uint32_t prev = 0;
    for (uint64_t i = 0; i < N; i++) {
        uint32_t v;
        switch (shape) {
        case 0:
        case 4: v = 0; while (v < V - 1 && tu_below(s, 3)) v++; break;
        case 1: v = tu_below(s, 5000) ? 7 : (uint32_t)tu_below(s, V); break;
        case 2: v = (uint32_t)tu_below(s, 5) * 3; break;
        default: v = (uint32_t)tu_below(s, V); break;
        }
        if (shape == 4)
            v = v > prev ? v : prev; /* non-decreasing: runs of each value */
        prev = v;
        b[u * i] = (uint8_t)v;
        if (u == 2)
            b[u * i + 1] = (uint8_t)(v >> 8);
    }
}

/* ratio with fast's length to beat: GPULZ_NOT_SHORTER where ratio alone
 * codes longer, its own bytes where it codes shorter. */
static void beat_trial(const char *what, const uint8_t *in, size_t n, int ratio_wins)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = 2;
    p.threads = 1;
    const size_t cap = gpulz_v2_bound(n, 2, p.block_symbols);
    uint8_t *f = tu_xmalloc(cap), *r = tu_xmalloc(cap), *b = tu_xmalloc(cap);
    size_t lf = 0, lr = 0, lb = 0;
    TU_CHECK(gpulz_v2_encode(in, n, 2, GPULZ_MODE_FAST, &p, f, &lf) == GPULZ_OK, "%s: fast", what);
    TU_CHECK(gpulz_v2_encode(in, n, 2, GPULZ_MODE_RATIO, &p, r, &lr) == GPULZ_OK, "%s: ratio", what);
    TU_CHECK((lr < lf) == ratio_wins, "%s: ratio %zu bytes against fast's %zu", what, lr, lf);
    int rc = gpulz_v2_encode_beat(in, n, 2, GPULZ_MODE_RATIO, &p, lf, b, &lb);
    if (ratio_wins)
        TU_CHECK(rc == GPULZ_OK && lb == lr && !memcmp(b, r, lr), "%s: ratio to beat %zu returned %d, %zu bytes",
                 what, lf, rc, lb);
    else
        TU_CHECK(rc == GPULZ_NOT_SHORTER, "%s: ratio (%zu bytes) to beat fast's %zu returned %d", what, lr, lf, rc);
    free(f);
    free(r);
    free(b);
}

int main(void)
{
    {
        const size_t n = (size_t)1 << 20;
        uint8_t *in = tu_xmalloc(n);
        gpulz_gen("quant", in, n, 3);
        beat_trial("quantization codes", in, n, 0);
        /* rows of 100 codes, every row the same: LZSS's matches */
        for (size_t i = 200; i < n; i++)
            in[i] = in[i - 200];
        beat_trial("repeated rows", in, n, 1);
        free(in);
    }
    static const uint64_t lengths[] = {1, 31, 33, 1000, 16384, 16385, 50000, 140000};
    const unsigned g = GPULZ_SEG_LOG2_DEFAULT;
    uint64_t s = 0x5eed;
    double worst_skewed = 1.0;
    unsigned coded = 0;
    for (unsigned u = 1; u <= 2; u++)
        for (unsigned shape = 0; shape < 5; shape++)
            for (unsigned li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
                const uint64_t N = lengths[li];
                uint8_t *b = tu_xmalloc(N * u);
                uint8_t *out = tu_xmalloc(2 * N * u + 4096 + 160 * (N / 16384 + 1));
                fill(b, N, u, shape, &s);
                gpulz_units U = {b, u, u, N};
                gpulz_hist h;
                TU_CHECK(gpulz_hist_init(&h, u) == GPULZ_OK, "hist_init");
                gpulz_hist_add(&h, &U);
                size_t len = 0;
                uint64_t floor = 0;
                TU_CHECK(gpulz_stream_encode(&U, &h, g, 1, out, &len) == GPULZ_OK, "encode: %s",
                         gpulz_last_error());
                gpulz_model m = {0};
                TU_CHECK(gpulz_model_build(&m, &h) == GPULZ_OK, "model: %s", gpulz_last_error());
                floor = gpulz_stream_floor(&m, &h, gpulz_stream_kind(N, u, &m, g), g);
                gpulz_model_free(&m);
                TU_CHECK(floor <= len, "u=%u shape %u N=%llu: floor %llu above the coded %zu bytes", u, shape,
                         (unsigned long long)N, (unsigned long long)floor, len);
                if (out[0] == GPULZ_STREAM_RANS) {
                    coded++;
                    if (shape == 0 && N >= 16384 && (double)floor / len < worst_skewed)
                        worst_skewed = (double)floor / len;
                }
                gpulz_hist_free(&h);
                free(out);
                free(b);
            }
    TU_CHECK(coded >= 20, "only %u of the streams were rANS-coded", coded);
    /* skewed units code near their entropy: the floor stays within a few
     * per cent of them (the table and states exact, the words bounded) */
    TU_CHECK(worst_skewed > 0.95, "the floor of a skewed stream is %.3f of its length", worst_skewed);
    printf("codec_floor: %u rANS streams, skewed ones' floor at least %.4f of their length\n", coded, worst_skewed);
    return tu_finish("codec_floor");
}
