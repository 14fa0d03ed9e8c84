/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_roundtrip.c - round trips through the CPU codec over the parameter
 * space of docs/FORMAT.md: every symbol size, window edges and levels, block
 * sizes, the input lengths where the layout changes (0, 1, S-1, S, one
 * block, one block plus a byte, many blocks, tails) and every data kind of
 * tools/datagen.  Each chunk is also checked against the layout rules
 * (§2-3, §7) by this file's own parser, compressed again with other thread
 * counts (identical bytes required) and decompressed into a buffer with a
 * guard after it.  Then: stored-raw blocks on random data, the adaptive
 * symbol size rule (§8) against separate compressions, parameter checks,
 * too-small buffers, and the info calls.
 *
 * Usage: codec_roundtrip [quick]   (quick: a smaller sweep, for sanitizers)
 */
#include "codec_testutil.h"
#include "datagen.h"

#define GUARD 64
#define GUARD_BYTE 0xA5

static int quick;
static unsigned long roundtrips;

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

static uint64_t le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* §2-3, §7: the chunk's header and table as this test reads them. */
static void check_layout(const uint8_t *c, size_t len, const uint8_t *in, size_t n, unsigned S,
                         unsigned W, unsigned C, const char *what, uint64_t *raw_out)
{
    size_t m = n / S, nb = (m + C - 1) / C;
    if (len < 28 + 4 * nb) {
        tu_fail("%s: chunk of %zu bytes is shorter than its header and table", what, len);
        return;
    }
    TU_CHECK(!memcmp(c, "GPLZ", 4) && c[4] == 1 && c[5] == 0, "%s: magic/version/flags", what);
    TU_CHECK(c[6] == S && c[7] == W && c[8] == log2u(C), "%s: header S/W/C %u/%u/%u, want %u/%u/%u",
             what, c[6], c[7], c[8], S, W, log2u(C));
    TU_CHECK(c[9] == 0 && c[10] == 0 && c[11] == 0, "%s: reserved bytes", what);
    TU_CHECK(le(c + 12, 8) == n, "%s: header n", what);
    TU_CHECK(le(c + 20, 8) == nb, "%s: header nb %llu, want %zu", what,
             (unsigned long long)le(c + 20, 8), nb);
    size_t total = 28 + 4 * nb;
    uint64_t raw = 0;
    for (size_t k = 0; k < nb; k++) {
        uint32_t e = (uint32_t)le(c + 28 + 4 * k, 4);
        size_t rawsize = (m - k * C < C ? m - k * C : C) * S, size = e & 0x7FFFFFFFu;
        if (e & 0x80000000u) {
            raw++;
            TU_CHECK(size == rawsize, "%s: block %zu stored with size %zu, raw size %zu", what, k,
                     size, rawsize);
            TU_CHECK(!memcmp(c + total, in + k * C * S, rawsize), "%s: stored block %zu is not the input",
                     what, k);
        } else {
            TU_CHECK(size >= 2 && size < rawsize, "%s: block %zu encoded size %zu, raw size %zu",
                     what, k, size, rawsize);
        }
        total += size;
    }
    TU_CHECK(total + n % S == len, "%s: sizes add up to %zu, chunk is %zu", what, total + n % S,
             len);
    TU_CHECK(total + n % S != len || !memcmp(c + total, in + m * S, n % S), "%s: tail bytes", what);
    TU_CHECK(len <= 28 + 4 * nb + n, "%s: chunk of %zu bytes exceeds the bound", what, len);
    if (raw_out)
        *raw_out = raw;
}

/* Decompress with dst_cap == n and a guard after it; returns 1 if intact and equal. */
static int decompress_check(const uint8_t *c, size_t len, const uint8_t *in, size_t n,
                            unsigned threads, const char *what)
{
    uint8_t *out = tu_xmalloc(n + GUARD);
    memset(out, GUARD_BYTE, n + GUARD);
    gpulz_params p;
    tu_params(&p, 1, 128, 256, threads);
    size_t got = (size_t)-1;
    int rc = gpulz_decompress(c, len, out, n, &got, &p), ok = 1;
    if (rc != GPULZ_OK) {
        tu_fail("%s: decompress (threads %u): %s (%s)", what, threads, gpulz_strerror(rc),
                gpulz_last_error());
        ok = 0;
    } else {
        if (got != n || memcmp(out, in, n) != 0) {
            tu_fail("%s: decompress (threads %u) gives %zu bytes, not the input", what, threads,
                    got);
            ok = 0;
        }
        for (size_t i = 0; i < GUARD; i++)
            if (out[n + i] != GUARD_BYTE) {
                tu_fail("%s: decompress wrote past the end of dst", what);
                ok = 0;
                break;
            }
    }
    free(out);
    return ok;
}

/*
 * The full round trip of one input under params (S, W, C, flags).  Returns
 * the compressed size and the S the chunk used through *S_used.
 */
static size_t roundtrip(const uint8_t *in, size_t n, unsigned S, unsigned W, unsigned C,
                        unsigned flags, int other_threads, unsigned *S_used, uint64_t *raw_blocks)
{
    char what[160];
    snprintf(what, sizeof what, "n=%zu S=%u W=%u C=%u flags=%u", n, S, W, C, flags);
    roundtrips++;
    gpulz_params p;
    tu_params(&p, S, W, C, 1);
    p.flags = flags;
    size_t nb_max = (n + C - 1) / C; /* S = 1 has the most blocks (adaptive) */
    size_t bound = gpulz_compress_bound(n, &p);
    size_t want_bound = 28 + 4 * (flags & GPULZ_FLAG_ADAPTIVE ? nb_max : (n / S + C - 1) / C) + n;
    TU_CHECK(bound == want_bound, "%s: bound %zu, want %zu", what, bound, want_bound);
    size_t len = 0;
    uint8_t *c = tu_compress(in, n, &p, &len);
    if (!c)
        return 0;
    unsigned Su = len >= 7 ? c[6] : 0;
    if (S_used)
        *S_used = Su;
    TU_CHECK(Su == S || (Su == 1 && (flags & GPULZ_FLAG_ADAPTIVE)), "%s: chunk has S=%u", what, Su);
    uint64_t raw = 0;
    check_layout(c, len, in, n, Su ? Su : 1, W, C, what, &raw);
    if (raw_blocks)
        *raw_blocks = raw;

    /* the info calls agree with the input and with the layout */
    gpulz_chunk_info info;
    int rc = gpulz_chunk_info_get(c, len, &info);
    if (rc != GPULZ_OK) {
        tu_fail("%s: chunk_info_get: %s (%s)", what, gpulz_strerror(rc), gpulz_last_error());
    } else {
        size_t nb = (n / Su + C - 1) / C;
        TU_CHECK(info.format_version == 1 && info.flags == 0 && info.symbol_size == Su &&
                     info.window == W && info.block_symbols == C && info.uncompressed_size == n &&
                     info.block_count == nb && info.raw_blocks == raw &&
                     info.header_size == 28 + 4 * nb && info.compressed_size == len,
                 "%s: chunk_info fields disagree", what);
    }
    uint64_t dsize = 0;
    rc = gpulz_decompressed_size(c, len, &dsize);
    TU_CHECK(rc == GPULZ_OK && dsize == n, "%s: decompressed_size %llu rc %d", what,
             (unsigned long long)dsize, rc);

    decompress_check(c, len, in, n, 1, what);

    if (other_threads) {
        static const unsigned counts[] = {2, 3, 0};
        for (unsigned t = 0; t < 3; t++) {
            gpulz_params q = p;
            q.threads = counts[t];
            size_t len2 = 0;
            uint8_t *c2 = tu_compress(in, n, &q, &len2);
            if (c2)
                TU_CHECK(len2 == len && !memcmp(c, c2, len), "%s: threads %u write other bytes",
                         what, counts[t]);
            free(c2);
        }
        decompress_check(c, len, in, n, 2, what);
    }

    /* an output buffer of exactly the compressed size is enough; one byte less is not */
    uint8_t *exact = tu_xmalloc(len + GUARD);
    memset(exact, GUARD_BYTE, len + GUARD);
    size_t len3 = 0;
    rc = gpulz_compress(in, n, exact, len, &len3, &p);
    TU_CHECK(rc == GPULZ_OK && len3 == len && !memcmp(exact, c, len),
             "%s: compress into exactly %zu bytes: %s", what, len, gpulz_strerror(rc));
    for (size_t i = 0; i < GUARD; i++)
        if (exact[len + i] != GUARD_BYTE) {
            tu_fail("%s: compress wrote past dst_cap", what);
            break;
        }
    memset(exact, GUARD_BYTE, len + GUARD);
    tu_clear_error();
    rc = gpulz_compress(in, n, exact, len - 1, &len3, &p);
    TU_CHECK(rc == GPULZ_ERR_DST_SIZE && gpulz_last_error()[0],
             "%s: compress into %zu bytes returned %s, want ERR_DST_SIZE", what, len - 1,
             gpulz_strerror(rc));
    for (size_t i = len - 1; i < len + GUARD; i++)
        if (exact[i] != GUARD_BYTE) {
            tu_fail("%s: failed compress wrote past dst_cap", what);
            break;
        }
    free(exact);
    if (n > 0) {
        uint8_t *out = tu_xmalloc(n);
        size_t got = 0;
        rc = gpulz_decompress(c, len, out, n - 1, &got, &p);
        TU_CHECK(rc == GPULZ_ERR_DST_SIZE && got == n, "%s: decompress into n-1 bytes returned %s, size %zu", what,
                 gpulz_strerror(rc), got);
        /* no room at all asks the size */
        got = 0;
        rc = gpulz_decompress(c, len, NULL, 0, &got, &p);
        TU_CHECK(rc == GPULZ_ERR_DST_SIZE && got == n, "%s: decompress into nothing returned %s, size %zu", what,
                 gpulz_strerror(rc), got);
        free(out);
    }
    free(c);
    return len;
}

static void fill(const char *kind, uint8_t *b, size_t n, uint64_t seed)
{
    if (gpulz_gen(kind, b, n, seed) != 0)
        tu_fail("datagen does not know kind %s", kind);
}

/* 1. The sweep over parameters, lengths and kinds. */
static void sweep(void)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const unsigned windows[] = {1, 2, 127, 128, 255, 32, 64};
    static const unsigned blocks[] = {256, 2048};
    size_t maxn = 17 * 256 * 8 + 16;
    if (maxn < 3 * 2048 * 8 + 16)
        maxn = 3 * 2048 * 8 + 16;
    uint8_t *in = tu_xmalloc(maxn);
    unsigned nw = quick ? 3 : 7;
    for (unsigned si = 0; si < 4; si++)
        for (unsigned wi = 0; wi < nw; wi++)
            for (unsigned ci = 0; ci < 2; ci++) {
                unsigned S = sizes[si], W = windows[wi], C = blocks[ci];
                size_t one = (size_t)C * S;
                size_t many = C == 256 ? 17 * one + S + 1 : 3 * one + S + 1;
                size_t lengths[] = {0, 1, S - 1, S, S + 1, one - 1, one, one + 1, one + S, many};
                for (unsigned li = 0; li < sizeof lengths / sizeof *lengths; li++) {
                    size_t n = lengths[li];
                    if (li > 0 && n == 0)
                        continue;
                    for (unsigned k = 0; gpulz_gen_kinds[k]; k++) {
                        if (quick && k % 3 != li % 3)
                            continue;
                        fill(gpulz_gen_kinds[k], in, n, 1000 * li + k);
                        /* thread counts matter only with many blocks */
                        roundtrip(in, n, S, W, C, 0, li == 9, NULL, NULL);
                    }
                }
            }
    free(in);
}

/* Other block sizes, down to the smallest and up to the largest. */
static void block_sizes(void)
{
    static const unsigned blocks[] = {256, 512, 1024, 4096, 8192, 16384};
    uint8_t *in = tu_xmalloc(2 * 16384 * 8 + 8);
    for (unsigned ci = 0; ci < 6; ci++)
        for (unsigned S = 1; S <= 8; S *= 2) {
            unsigned C = blocks[ci];
            size_t lengths[] = {(size_t)C * S, (size_t)C * S + 1, 2 * (size_t)C * S + S - 1};
            for (unsigned li = 0; li < 3; li++)
                for (unsigned k = 0; gpulz_gen_kinds[k]; k++) {
                    if ((quick || C >= 8192) && (k + li + S) % 4 != 0)
                        continue;
                    fill(gpulz_gen_kinds[k], in, lengths[li], 77 + k);
                    roundtrip(in, lengths[li], S, 255, C, 0, 0, NULL, NULL);
                }
        }
    free(in);
}

/* Random lengths and parameters, data from the test's own generators. */
static void random_inputs(void)
{
    unsigned iters = quick ? 40 : 1000;
    uint8_t *in = tu_xmalloc(100001);
    for (unsigned it = 0; it < iters; it++) {
        uint64_t s = 4242 + it;
        unsigned S = 1u << tu_below(&s, 4);
        unsigned W = 1 + (unsigned)tu_below(&s, 255);
        unsigned C = 256u << tu_below(&s, 7);
        size_t n = tu_below(&s, 4) ? tu_below(&s, 100001) : tu_below(&s, 5000);
        if (tu_below(&s, 2))
            tu_fill_matchy(in, n, &s);
        else
            fill(gpulz_gen_kinds[tu_below(&s, 8)], in, n, s);
        roundtrip(in, n, S, W, C, 0, it % 10 == 0, NULL, NULL);
    }
    free(in);
}

/* Many blocks, so that 2 and more workers really share them: every thread
 * count writes the same bytes and decodes them alike. */
static void threads_identical(void)
{
    static const char *const kinds[] = {"records", "random", "quant", "runs"};
    uint8_t *in = tu_xmalloc(64 * 256 * 8 + 8);
    for (unsigned S = 1; S <= 8; S *= 2)
        for (unsigned k = 0; k < (quick ? 1u : 4u); k++) {
            size_t n = 64 * 256 * (size_t)S + (S > 1 ? S - 1 : 0);
            fill(kinds[k], in, n, S + 10 * k);
            roundtrip(in, n, S, 128, 256, 0, 1, NULL, NULL);
        }
    free(in);
}

/* Levels name windows 32, 64, 128 and 255; nothing else is a level. */
static void levels(void)
{
    static const unsigned want[] = {0, 32, 64, 128, 255, 0};
    for (int l = 0; l <= 5; l++)
        TU_CHECK(gpulz_level_window(l) == want[l], "level %d window %u, want %u", l,
                 gpulz_level_window(l), want[l]);
    TU_CHECK(gpulz_level_window(-1) == 0, "level -1 has a window");
    uint8_t in[5000];
    gpulz_gen("records", in, sizeof in, 9);
    size_t prev = 0;
    for (int l = 1; l <= 4; l++) {
        size_t len = roundtrip(in, sizeof in, 4, gpulz_level_window(l), 2048, 0, 0, NULL, NULL);
        /* a larger window sees every match a smaller one does, but greedy
         * parsing is not monotone in general: only report */
        printf("level %d: records 5000 -> %zu bytes\n", l, len);
        (void)prev;
        prev = len;
    }
}

/* Stored blocks: random bytes never shrink, every entry has the raw bit,
 * and the chunk is exactly the bound 28 + 4 nb + n. */
static void stored_raw(void)
{
    uint8_t *in = tu_xmalloc(5 * 2048 * 8 + 7);
    for (unsigned S = 1; S <= 8; S *= 2)
        for (unsigned C = 256; C <= 2048; C *= 8) {
            size_t n = 5 * (size_t)C * S + (S > 1 ? S - 1 : 0);
            gpulz_gen("random", in, n, S * 31 + C);
            uint64_t raw = 0;
            size_t len = roundtrip(in, n, S, 255, C, 0, 1, NULL, &raw);
            size_t nb = (n / S + C - 1) / C;
            TU_CHECK(raw == nb, "random S=%u C=%u: %llu of %zu blocks raw", S, C,
                     (unsigned long long)raw, nb);
            TU_CHECK(len == 28 + 4 * nb + n, "random S=%u C=%u: %zu bytes, want the bound %zu", S,
                     C, len, 28 + 4 * nb + n);
        }
    /* and compressible data does shrink, so the encoder is not storing everything */
    memset(in, 0, 65536);
    size_t len = roundtrip(in, 65536, 1, 128, 2048, 0, 0, NULL, NULL);
    TU_CHECK(len < 65536 / 50, "zeros: 65536 -> %zu bytes", len);
    free(in);
}

/* An input that a byte-wise matcher finds repeats in and a symbol-wise one
 * mostly does not: copies from earlier at odd byte distances. */
static void fill_unaligned(uint8_t *b, size_t n, uint64_t seed, unsigned copy_pct, unsigned align)
{
    uint64_t s = seed;
    size_t i = 0;
    while (i < n) {
        if (i >= 64 && tu_below(&s, 100) < copy_pct) {
            size_t d = 1 + tu_below(&s, 60);
            d = d / align * align + (align > 1 ? 1 : 0);
            size_t len = 8 + tu_below(&s, 24);
            for (size_t e = i + len < n ? i + len : n; i < e; i++)
                b[i] = b[i - d];
        } else {
            b[i++] = (uint8_t)tu_next(&s);
        }
    }
}

/*
 * §8: with the adaptive flag the result is the S chunk unless S > 1 and its
 * ratio n / len is under 1.5, in which case the smaller of it and the S = 1
 * chunk (the S chunk on a tie).  Checked against separate compressions, and
 * the inputs must reach every branch of the rule.
 */
static void adaptive(void)
{
    unsigned long kept_good = 0, kept_good_though_1_smaller = 0, picked_1 = 0, kept_poor = 0,
                  at_boundary = 0;
    uint8_t *in = tu_xmalloc(40000);
    for (unsigned S = 1; S <= 8; S *= 2)
        for (unsigned v = 0; v < (quick ? 12u : 40u); v++) {
            size_t n = 1000 + 937 * v;
            if (v < 8)
                fill(gpulz_gen_kinds[v], in, n, v);
            else
                fill_unaligned(in, n, v, 10 + 3 * (v % 30), 1 + v % 3);
            gpulz_params ps, p1, pa;
            tu_params(&ps, S, 128, 256, 1);
            tu_params(&p1, 1, 128, 256, 1);
            pa = ps;
            pa.flags = GPULZ_FLAG_ADAPTIVE;
            size_t ls = 0, l1 = 0, la = 0;
            uint8_t *cs = tu_compress(in, n, &ps, &ls), *c1 = tu_compress(in, n, &p1, &l1);
            unsigned Su = 0;
            roundtrip(in, n, S, 128, 256, GPULZ_FLAG_ADAPTIVE, 0, &Su, NULL);
            uint8_t *ca = tu_compress(in, n, &pa, &la);
            if (cs && c1 && ca) {
                int poor = S > 1 && 2 * n < 3 * ls;
                const uint8_t *want = poor && l1 < ls ? c1 : cs;
                size_t wlen = poor && l1 < ls ? l1 : ls;
                TU_CHECK(la == wlen && !memcmp(ca, want, wlen),
                         "adaptive S=%u n=%zu: got %zu bytes (S=%u); S chunk %zu, S=1 chunk %zu", S,
                         n, la, ca[6], ls, l1);
                if (S > 1) {
                    if (!poor) {
                        kept_good++;
                        kept_good_though_1_smaller += l1 < ls;
                    } else if (l1 < ls) {
                        picked_1++;
                    } else {
                        kept_poor++;
                    }
                }
            }
            free(cs);
            free(c1);
            free(ca);
        }
    /* The boundary itself: ratio exactly 1.5 (2n == 3 len) is not "under".
     * Inputs whose S chunk sits near ratio 1.5, grown a byte at a time. */
    static const struct {
        unsigned S, pct, align;
    } near[] = {{4, 30, 2}, {4, 25, 1}, {4, 35, 2}, {2, 10, 1}, {2, 12, 1}};
    for (unsigned j = 0; j < sizeof near / sizeof *near && !quick; j++)
        for (size_t n = 3000; n < 3400; n++) {
            unsigned S = near[j].S;
            fill_unaligned(in, n, 5, near[j].pct, near[j].align);
            gpulz_params ps, pa;
            tu_params(&ps, S, 128, 256, 1);
            pa = ps;
            pa.flags = GPULZ_FLAG_ADAPTIVE;
            size_t ls = 0, la = 0;
            uint8_t *cs = tu_compress(in, n, &ps, &ls);
            if (cs && 2 * n == 3 * ls) {
                gpulz_params p1;
                tu_params(&p1, 1, 128, 256, 1);
                size_t l1 = 0;
                uint8_t *c1 = tu_compress(in, n, &p1, &l1), *ca = tu_compress(in, n, &pa, &la);
                at_boundary += l1 < ls; /* only then does the boundary decide */
                free(c1);
                TU_CHECK(ca && la == ls && !memcmp(ca, cs, ls),
                         "adaptive at ratio 1.5 (S=%u n=%zu) did not keep S", S, n);
                free(ca);
            }
            free(cs);
        }
    free(in);
    printf("adaptive: ratio >= 1.5 kept S %lu times (%lu with a smaller S=1 chunk), picked S=1 "
           "%lu times, kept a poor S %lu times, %lu exactly at 1.5\n",
           kept_good, kept_good_though_1_smaller, picked_1, kept_poor, at_boundary);
    TU_CHECK(kept_good && picked_1 && kept_poor, "adaptive: inputs do not reach every branch");
    if (!quick)
        TU_CHECK(kept_good_though_1_smaller && at_boundary,
                 "adaptive: no input separates 'ratio under 1.5' from 'S=1 is smaller'");
}

/* gpulz_params_check and gpulz_compress reject every out-of-range field. */
static void params(void)
{
    gpulz_params p;
    gpulz_params_init(&p);
    TU_CHECK(p.symbol_size == 1 && p.window == 128 && p.block_symbols == 2048 && p.flags == 0 &&
                 p.threads == 0 && p.backend == GPULZ_BACKEND_AUTO &&
                 p.mode == GPULZ_MODE_DEFAULT && GPULZ_MODE_DEFAULT == GPULZ_MODE_AUTO,
             "params_init defaults (mode %d)", (int)p.mode);
    TU_CHECK(gpulz_params_check(&p) == GPULZ_OK, "defaults rejected");
    TU_CHECK(gpulz_params_check(NULL) == GPULZ_ERR_PARAM, "NULL params accepted");
    struct {
        unsigned S, W, C, flags;
        int backend;
        int ok;
    } cases[] = {
        {1, 1, 256, 0, 0, 1},       {8, 255, 16384, 1, 2, 1},  {2, 128, 512, 0, 1, 1},
        {4, 64, 8192, 1, 0, 1},     {0, 128, 2048, 0, 0, 0},   {3, 128, 2048, 0, 0, 0},
        {5, 128, 2048, 0, 0, 0},    {16, 128, 2048, 0, 0, 0},  {1, 0, 2048, 0, 0, 0},
        {1, 256, 2048, 0, 0, 0},    {1, 1000, 2048, 0, 0, 0},  {1, 128, 0, 0, 0, 0},
        {1, 128, 128, 0, 0, 0},     {1, 128, 255, 0, 0, 0},    {1, 128, 257, 0, 0, 0},
        {1, 128, 1000, 0, 0, 0},    {1, 128, 32768, 0, 0, 0},  {1, 128, 3072, 0, 0, 0},
        {1, 128, 2048, 4, 0, 0},    {1, 128, 2048, 0x80, 0, 0}, {1, 128, 2048, 0, 3, 0},
        {1, 128, 2048, 0, -1, 0},
    };
    uint8_t in[100] = {0}, out[400];
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        gpulz_params_init(&p);
        p.symbol_size = cases[i].S;
        p.window = cases[i].W;
        p.block_symbols = cases[i].C;
        p.flags = cases[i].flags;
        p.backend = (gpulz_backend)cases[i].backend;
        if (p.backend == GPULZ_BACKEND_AUTO || p.backend == GPULZ_BACKEND_GPU)
            p.backend = cases[i].ok ? GPULZ_BACKEND_CPU : p.backend;
        tu_clear_error();
        int rc = gpulz_params_check(&p);
        if (cases[i].ok) {
            TU_CHECK(rc == GPULZ_OK, "params case %u rejected: %s", i, gpulz_last_error());
        } else {
            TU_CHECK(rc == GPULZ_ERR_PARAM && gpulz_last_error()[0],
                     "params case %u (S=%u W=%u C=%u flags=%u backend=%d) gave %d", i, p.symbol_size,
                     p.window, p.block_symbols, p.flags, (int)p.backend, rc);
            size_t len = 0;
            TU_CHECK(gpulz_compress(in, sizeof in, out, sizeof out, &len, &p) == GPULZ_ERR_PARAM,
                     "compress accepted params case %u", i);
            TU_CHECK(gpulz_compress_bound(sizeof in, &p) == 0, "bound of params case %u", i);
        }
    }
    /* null buffers */
    size_t len = 0;
    tu_params(&p, 1, 128, 2048, 1);
    TU_CHECK(gpulz_compress(NULL, 10, out, sizeof out, &len, &p) == GPULZ_ERR_PARAM,
             "compress of NULL src");
    TU_CHECK(gpulz_compress(in, 10, out, sizeof out, NULL, &p) == GPULZ_ERR_PARAM,
             "compress with NULL dst_len");
    TU_CHECK(gpulz_compress(in, 10, NULL, 0, &len, &p) == GPULZ_ERR_DST_SIZE,
             "compress into NULL dst");
    TU_CHECK(gpulz_compress_bound(SIZE_MAX - 10, &p) == 0, "bound overflow not reported");
    TU_CHECK(gpulz_compress(NULL, 0, out, sizeof out, &len, &p) == GPULZ_OK && len == 28,
             "compress of 0 bytes from NULL");
    TU_CHECK(gpulz_compress(in, 0, out, sizeof out, &len, &p) == GPULZ_OK && len == 28,
             "compress of 0 bytes");
    /* a chunk of 0 bytes decodes into no buffer at all */
    size_t got = 1;
    TU_CHECK(gpulz_decompress(out, len, NULL, 0, &got, NULL) == GPULZ_OK && got == 0,
             "decompress of an empty chunk into NULL");
    TU_CHECK(gpulz_decompress(NULL, len, out + 100, 100, &got, NULL) == GPULZ_ERR_PARAM,
             "decompress of NULL src");
    TU_CHECK(gpulz_decompress(out, len, out + 100, 100, NULL, NULL) == GPULZ_ERR_PARAM,
             "decompress with NULL dst_len");
    uint64_t sz;
    gpulz_chunk_info info;
    TU_CHECK(gpulz_decompressed_size(NULL, 28, &sz) == GPULZ_ERR_PARAM, "size of NULL");
    TU_CHECK(gpulz_chunk_info_get(NULL, 28, &info) == GPULZ_ERR_PARAM, "info of NULL");
    TU_CHECK(gpulz_strerror(GPULZ_ERR_CORRUPT)[0] && gpulz_strerror(12345)[0], "strerror texts");
    TU_CHECK(gpulz_version_string()[0] == '0' + GPULZ_VERSION_MAJOR, "version string");
    /* in place, or overlapping: refused, every mode (an encoder wrote over
     * input it had still to read; auto's checksum then matched the damage) */
    static uint8_t buf[2 * 10000 + 4096];
    for (int m = 0; m < 4; m++) {
        gpulz_params q;
        gpulz_params_init(&q);
        q.mode = (gpulz_mode)m;
        for (size_t i = 0; i < 10000; i++)
            buf[i] = (uint8_t)(i / 3 % 251);
        size_t clen = 0, dlen = 0;
        TU_CHECK(gpulz_compress(buf, 10000, buf, sizeof buf, &clen, &q) == GPULZ_ERR_PARAM,
                 "mode %d: compress in place accepted", m);
        TU_CHECK(gpulz_compress(buf, 10000, buf + 9999, sizeof buf - 9999, &clen, &q) == GPULZ_ERR_PARAM,
                 "mode %d: compress into an overlapping dst accepted", m);
        TU_CHECK(gpulz_compress(buf, 10000, buf + 10000, sizeof buf - 10000, &clen, &q) == GPULZ_OK,
                 "mode %d: compress into the bytes right after src refused", m);
        memmove(buf, buf + 10000, clen);
        TU_CHECK(gpulz_decompress(buf, clen, buf + clen - 1, sizeof buf - clen + 1, &dlen, NULL) ==
                     GPULZ_ERR_PARAM,
                 "mode %d: decompress into an overlapping dst accepted", m);
        TU_CHECK(gpulz_decompress(buf, clen, buf + clen, sizeof buf - clen, &dlen, NULL) == GPULZ_OK &&
                     dlen == 10000 && buf[clen + 9999] == (uint8_t)(9999 / 3 % 251),
                 "mode %d: decompress right after src", m);
    }
}

int main(int argc, char **argv)
{
    quick = argc > 1 && !strcmp(argv[1], "quick");
    params();
    levels();
    stored_raw();
    threads_identical();
    adaptive();
    sweep();
    block_sizes();
    random_inputs();
    printf("%lu round trips\n", roundtrips);
    return tu_finish("codec_roundtrip");
}
