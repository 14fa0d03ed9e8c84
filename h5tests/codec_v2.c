/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_v2.c - format 2 through the public API (docs/FORMAT.md §11-20):
 * round trips of every mode over the generator's kinds, symbol sizes, block
 * sizes, windows, thread counts and odd lengths; the same bytes from any
 * thread count; auto keeping the shortest candidate; damaged chunks (every
 * byte flipped, every truncation, a byte appended, header fields) failing
 * cleanly, and with the checksum never decoding to wrong bytes; the limits of
 * the API (the bound, a small output buffer, modes on the GPU); fast's
 * DELTA from the sample on large chunks of 16-bit symbols.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "codec_pick.h"
#include "codec_testutil.h"
#include "datagen.h"
#include "gpulz_entropy.h"
#include "gpulz_format2.h"
#include "gpulz_v2.h"

static const char *mode_name(gpulz_mode m)
{
    return gpulz_mode_name(m) ? gpulz_mode_name(m) : "?";
}

/* Compress with p, decompress with 1 and 3 threads, compare. */
static uint8_t *round_trip(const uint8_t *in, size_t n, const gpulz_params *p, size_t *len,
                           const char *what)
{
    uint8_t *c = tu_compress(in, n, p, len);
    if (!c)
        return NULL;
    uint8_t *out = tu_xmalloc(n);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        gpulz_params q = *p;
        q.threads = threads;
        size_t got = 0;
        int rc = gpulz_decompress(c, *len, out, n, &got, &q);
        TU_CHECK(rc == GPULZ_OK && got == n && (!n || !memcmp(out, in, n)),
                 "%s n=%zu S=%u C=%u W=%u mode %s flags %u threads %u: %s (%s)", what, n,
                 p->symbol_size, p->block_symbols, p->window, mode_name(p->mode), p->flags, threads,
                 gpulz_strerror(rc), gpulz_last_error());
    }
    free(out);
    return c;
}

static void kinds_trials(void)
{
    static const size_t sizes[] = {0, 1, 7, 255, 1000, 4099, 70001};
    static const gpulz_mode modes[] = {GPULZ_MODE_FAST, GPULZ_MODE_RATIO, GPULZ_MODE_AUTO};
    unsigned t = 0;
    for (const char *const *kind = gpulz_gen_kinds; *kind; kind++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            uint8_t *in = tu_xmalloc(n);
            gpulz_gen(*kind, in, n, 11 + si);
            for (unsigned S = 1; S <= 8; S *= 2) {
                for (unsigned mi = 0; mi < 3; mi++, t++) {
                    gpulz_params p;
                    tu_params(&p, S, t % 3 ? 128 : 1 + t % 255, 256u << (t % 4), 1 + t % 4);
                    p.mode = modes[mi];
                    if (t % 5 == 0)
                        p.flags |= GPULZ_FLAG_NO_CHECKSUM;
                    if (t % 7 == 0)
                        p.flags |= GPULZ_FLAG_ADAPTIVE;
                    size_t len = 0, len1 = 0;
                    uint8_t *c = round_trip(in, n, &p, &len, *kind);
                    if (!c)
                        continue;
                    /* the bytes depend on nothing but the data and the parameters */
                    gpulz_params one = p;
                    one.threads = 1;
                    uint8_t *c1 = tu_compress(in, n, &one, &len1);
                    TU_CHECK(c1 && len1 == len && !memcmp(c, c1, len),
                             "%s n=%zu S=%u mode %s: 1 thread and %u threads write different bytes",
                             *kind, n, S, mode_name(p.mode), p.threads);
                    TU_CHECK(len <= gpulz_compress_bound(n, &p), "%s n=%zu: %zu bytes exceed the bound",
                             *kind, n, len);
                    /* the version and stage flags of what each mode writes */
                    int lz_kept = p.mode == GPULZ_MODE_AUTO && (p.flags & GPULZ_FLAG_NO_CHECKSUM) && c[4] == 1;
                    if (!lz_kept) {
                        TU_CHECK(c[4] == 2 && (c[5] & GPULZ_V2_FLAG_ENTROPY), "%s: version %u flags %02x",
                                 *kind, c[4], c[5]);
                        TU_CHECK(!(c[5] & GPULZ_V2_FLAG_CHECKSUM) == !!(p.flags & GPULZ_FLAG_NO_CHECKSUM),
                                 "%s mode %s: checksum flag %02x with encoder flags %u", *kind,
                                 mode_name(p.mode), c[5], p.flags);
                        if (p.mode == GPULZ_MODE_FAST)
                            TU_CHECK(!(c[5] & GPULZ_V2_FLAG_LZSS), "fast wrote LZSS");
                        if (p.mode == GPULZ_MODE_RATIO)
                            TU_CHECK(c[5] & GPULZ_V2_FLAG_LZSS, "ratio wrote no LZSS");
                    }
                    free(c);
                    free(c1);
                }
            }
            free(in);
        }
    }
}

/* auto keeps the shorter of fast and ratio (fast on a tie), and lz only
 * without the checksum and only when strictly shorter. */
static void auto_trials(void)
{
    for (const char *const *kind = gpulz_gen_kinds; *kind; kind++) {
        size_t n = 20000;
        uint8_t *in = tu_xmalloc(n);
        gpulz_gen(*kind, in, n, 5);
        unsigned S = gpulz_gen_element_size(*kind);
        for (int ck = 0; ck < 2; ck++) {
            gpulz_params p;
            size_t len[4] = {0};
            uint8_t *c[4] = {NULL};
            for (int m = 0; m < 4; m++) {
                tu_params(&p, S, 128, 2048, 2);
                p.mode = (gpulz_mode)m;
                if (!ck)
                    p.flags |= GPULZ_FLAG_NO_CHECKSUM;
                c[m] = tu_compress(in, n, &p, &len[m]);
            }
            if (c[0] && c[1] && c[2] && c[3]) {
                size_t want = len[2] < len[1] ? len[2] : len[1];
                const uint8_t *from = len[2] < len[1] ? c[2] : c[1];
                if (!ck && len[0] < want) {
                    want = len[0];
                    from = c[0];
                }
                TU_CHECK(len[3] == want && !memcmp(c[3], from, want),
                         "%s checksum %d: auto wrote %zu bytes; lz %zu, fast %zu, ratio %zu", *kind, ck,
                         len[3], len[0], len[1], len[2]);
            }
            for (int m = 0; m < 4; m++)
                free(c[m]);
        }
        free(in);
    }
}

/* What format 2 is for: whole-symbol coding beats LZSS alone on
 * quantization codes, and delta on sorted integers. */
static void ratio_trials(void)
{
    static const struct {
        const char *kind;
        gpulz_mode mode;
    } cases[] = {{"quant", GPULZ_MODE_FAST}, {"quant", GPULZ_MODE_AUTO}, {"int", GPULZ_MODE_AUTO}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = 1 << 18, lz = 0, v2 = 0;
        uint8_t *in = tu_xmalloc(n);
        gpulz_gen(cases[i].kind, in, n, 3);
        gpulz_params p;
        tu_params(&p, gpulz_gen_element_size(cases[i].kind), 128, 2048, 0);
        uint8_t *a = tu_compress(in, n, &p, &lz);
        p.mode = cases[i].mode;
        uint8_t *b = tu_compress(in, n, &p, &v2);
        TU_CHECK(a && b && v2 < lz, "%s: mode %s wrote %zu bytes, lz %zu", cases[i].kind,
                 mode_name(cases[i].mode), v2, lz);
        free(a);
        free(b);
        free(in);
    }
}

/* Decode a damaged chunk: an error, or (only where no checksum guards it)
 * some output; with the checksum, never bytes other than the input's. */
static void expect_safe(const uint8_t *chunk, size_t len, const uint8_t *in, size_t n, int checksummed,
                        const char *what, size_t where)
{
    uint8_t *copy = tu_xmalloc(len), *out = tu_xmalloc(n);
    memcpy(copy, chunk, len);
    gpulz_params p;
    tu_params(&p, 1, 128, 2048, 1 + where % 2);
    size_t got = 0;
    int rc = gpulz_decompress(copy, len, out, n, &got, &p);
    if (rc == GPULZ_OK && checksummed)
        TU_CHECK(got == n && !memcmp(out, in, n), "%s at %zu: the checksum let wrong bytes through", what,
                 where);
    if (rc != GPULZ_OK)
        TU_CHECK(rc == GPULZ_ERR_CORRUPT || rc == GPULZ_ERR_TRUNCATED || rc == GPULZ_ERR_VERSION ||
                     rc == GPULZ_ERR_DST_SIZE,
                 "%s at %zu: status %d (%s)", what, where, rc, gpulz_last_error());
    free(copy);
    free(out);
}

static void damage_trials(void)
{
    static const char *const kinds[] = {"quant", "int", "text", "random", "zeros"};
    static const gpulz_mode modes[] = {GPULZ_MODE_FAST, GPULZ_MODE_RATIO};
    unsigned t = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        for (unsigned mi = 0; mi < 2; mi++) {
            for (unsigned S = 1; S <= 8; S *= 2, t++) {
                size_t n = 600 + 37 * t, len = 0;
                uint8_t *in = tu_xmalloc(n);
                gpulz_gen(kinds[k], in, n, t);
                gpulz_params p;
                tu_params(&p, S, 64, 256, 1);
                p.mode = modes[mi];
                uint8_t *c = tu_compress(in, n, &p, &len);
                if (!c) {
                    free(in);
                    continue;
                }
                uint8_t *d = tu_xmalloc(len + 1);
                for (size_t i = 0; i < len; i++) {
                    memcpy(d, c, len);
                    d[i] ^= (uint8_t)(1u << (i % 8));
                    expect_safe(d, len, in, n, 1, kinds[k], i);
                    d[i] = (uint8_t)(c[i] + 1 + i % 200);
                    expect_safe(d, len, in, n, 1, kinds[k], i);
                }
                for (size_t l = 0; l < len; l++) {
                    gpulz_params q;
                    tu_params(&q, 1, 128, 2048, 1);
                    size_t got;
                    uint8_t *out = tu_xmalloc(n);
                    int rc = gpulz_decompress(c, l, out, n, &got, &q);
                    TU_CHECK(rc == GPULZ_ERR_TRUNCATED || rc == GPULZ_ERR_CORRUPT,
                             "%s S=%u: truncated to %zu of %zu bytes: status %d", kinds[k], S, l, len, rc);
                    free(out);
                }
                memcpy(d, c, len);
                d[len] = 0;
                {
                    gpulz_params q;
                    tu_params(&q, 1, 128, 2048, 1);
                    size_t got;
                    uint8_t *out = tu_xmalloc(n);
                    TU_CHECK(gpulz_decompress(d, len + 1, out, n, &got, &q) == GPULZ_ERR_CORRUPT,
                             "%s S=%u: a byte appended was accepted", kinds[k], S);
                    free(out);
                }
                free(d);
                free(c);
                free(in);
            }
        }
    }
}

/* A fast chunk whose header declares far more bytes than its streams hold
 * units (n and nb rewritten alike): refused as CORRUPT by the layout walk
 * of gpulz_chunk_info_get, and by gpulz_decompressed_size, whose size
 * callers allocate, before anything of that size is allocated. */
static void declared_size_trial(void)
{
    size_t n = 1000, len = 0;
    uint8_t *in = tu_xmalloc(n);
    gpulz_gen("quant", in, n, 4);
    gpulz_params p;
    tu_params(&p, 1, 128, 256, 1);
    p.mode = GPULZ_MODE_FAST;
    uint8_t *c = tu_compress(in, n, &p, &len);
    if (c) {
        const uint64_t big = (uint64_t)1 << 30, nb = big / 256;
        for (int k = 0; k < 8; k++) {
            c[12 + k] = (uint8_t)(big >> (8 * k));
            c[20 + k] = (uint8_t)(nb >> (8 * k));
        }
        gpulz_chunk_info info;
        const int rc = gpulz_chunk_info_get(c, len, &info);
        TU_CHECK(rc == GPULZ_ERR_CORRUPT, "a chunk declaring 2^30 bytes over streams of 1000 units: %s",
                 gpulz_strerror(rc));
        uint64_t size = 0;
        const int src = gpulz_decompressed_size(c, len, &size);
        TU_CHECK(src == GPULZ_ERR_CORRUPT, "gpulz_decompressed_size of that chunk: %s, %llu bytes",
                 gpulz_strerror(src), (unsigned long long)size);
    }
    free(c);
    free(in);
}

/* Header fields of §11 one at a time. */
static void header_trials(void)
{
    size_t n = 3000, len = 0, got;
    uint8_t *in = tu_xmalloc(n), *out = tu_xmalloc(n);
    gpulz_gen("quant", in, n, 1);
    gpulz_params p;
    tu_params(&p, 2, 128, 256, 1);
    p.mode = GPULZ_MODE_RATIO;
    uint8_t *c = tu_compress(in, n, &p, &len);
    if (!c)
        return;
    static const struct {
        unsigned at;
        uint8_t value;
        int status;
        const char *what;
    } cases[] = {
        {4, 3, GPULZ_ERR_VERSION, "version 3"},
        {5, 0x3D, GPULZ_ERR_VERSION, "flag bit 5"},
        {5, 0x15, GPULZ_ERR_CORRUPT, "no ENTROPY"},
        {6, 3, GPULZ_ERR_CORRUPT, "symbol size 3"},
        {7, 0, GPULZ_ERR_CORRUPT, "window 0 with LZSS"},
        {9, 9, GPULZ_ERR_CORRUPT, "segments of 2^9"},
        {9, 16, GPULZ_ERR_CORRUPT, "segments of 2^16"},
        {10, 1, GPULZ_ERR_CORRUPT, "reserved byte"},
        {28, 0, GPULZ_ERR_CORRUPT, "checksum"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t saved = c[cases[i].at];
        c[cases[i].at] = cases[i].at == 28 ? (uint8_t)(saved + 1) : cases[i].value;
        int rc = gpulz_decompress(c, len, out, n, &got, &p);
        TU_CHECK(rc == cases[i].status, "%s: status %d, want %d (%s)", cases[i].what, rc, cases[i].status,
                 gpulz_last_error());
        c[cases[i].at] = saved;
    }
    /* the checksum field must be 0 without the flag */
    c[5] &= (uint8_t)~GPULZ_V2_FLAG_CHECKSUM;
    TU_CHECK(gpulz_decompress(c, len, out, n, &got, &p) == GPULZ_ERR_CORRUPT,
             "a checksum without the flag was accepted");
    c[5] |= GPULZ_V2_FLAG_CHECKSUM;

    gpulz_chunk_info info;
    TU_CHECK(gpulz_chunk_info_get(c, len, &info) == GPULZ_OK && info.format_version == 2 &&
                 (info.flags & GPULZ_V2_FLAG_LZSS) && info.symbol_size == 2 && info.uncompressed_size == n,
             "chunk info of a format 2 chunk");
    gpulz_block_info blocks[64];
    TU_CHECK(gpulz_block_table_get(c, len, blocks, 64) == GPULZ_ERR_VERSION, "a format 2 block table");
    TU_CHECK(gpulz_decompress(c, len, out, n - 1, &got, &p) == GPULZ_ERR_DST_SIZE, "a small output buffer");
    free(c);
    free(in);
    free(out);
}

static void api_trials(void)
{
    size_t n = 5000, len = 0;
    uint8_t *in = tu_xmalloc(n);
    gpulz_gen("quant", in, n, 2);
    gpulz_params p;
    tu_params(&p, 2, 128, 2048, 1);
    p.mode = (gpulz_mode)4;
    TU_CHECK(gpulz_params_check(&p) == GPULZ_ERR_PARAM, "mode 4 accepted");
    TU_CHECK(gpulz_mode_name((gpulz_mode)4) == NULL && !strcmp(gpulz_mode_name(GPULZ_MODE_AUTO), "auto"),
             "mode names");
    /* every mode runs on the GPU backend, or says that there is no GPU */
    p.backend = GPULZ_BACKEND_GPU;
    p.mode = GPULZ_MODE_RATIO; /* the largest bound of the three */
    uint8_t *out = tu_xmalloc(gpulz_compress_bound(n, &p));
    for (int m = GPULZ_MODE_FAST; m <= GPULZ_MODE_AUTO; m++) {
        p.mode = (gpulz_mode)m;
        int rc = gpulz_compress(in, n, out, gpulz_compress_bound(n, &p), &len, &p);
        TU_CHECK(gpulz_gpu_available() ? rc == GPULZ_OK : rc == GPULZ_ERR_NO_GPU || rc == GPULZ_ERR_CUDA,
                 "mode %s on the GPU backend: %d", gpulz_mode_name(p.mode), rc);
    }
    /* an empty input at NULL in every format 2 mode, and its chunk decoded
     * into NULL: no offset from or copy out of the null pointer (the
     * sanitizers' build, codec_asan.sh, would stop there) */
    for (int m = GPULZ_MODE_FAST; m <= GPULZ_MODE_AUTO; m++) {
        gpulz_params q;
        tu_params(&q, 2, 128, 2048, 2);
        q.mode = (gpulz_mode)m;
        const size_t cap = gpulz_compress_bound(0, &q);
        uint8_t *chunk = tu_xmalloc(cap ? cap : 1);
        size_t clen = 0, got = 1;
        int rc = gpulz_compress(NULL, 0, chunk, cap, &clen, &q);
        TU_CHECK(rc == GPULZ_OK, "mode %s: an empty input at NULL: %s", gpulz_mode_name(q.mode), gpulz_strerror(rc));
        rc = rc == GPULZ_OK ? gpulz_decompress(chunk, clen, NULL, 0, &got, &q) : rc;
        TU_CHECK(rc == GPULZ_OK && got == 0, "mode %s: its chunk into NULL: %s, %zu bytes", gpulz_mode_name(q.mode),
                 gpulz_strerror(rc), got);
        free(chunk);
    }
    /* an output buffer that holds the result but not the bound */
    p.backend = GPULZ_BACKEND_CPU;
    uint8_t *c = tu_compress(in, n, &p, &len);
    if (c) {
        TU_CHECK(gpulz_compress(in, n, out, len, &len, &p) == GPULZ_OK, "an exact buffer was refused");
        TU_CHECK(gpulz_compress(in, n, out, len - 1, &len, &p) == GPULZ_ERR_DST_SIZE,
                 "a buffer one byte short was accepted");
    }
    free(c);
    free(out);
    free(in);
}

/* A stream whose last segment codes longer than its units (skewed
 * segments, then a random one, which the skewed model codes in more than a
 * byte a unit): with several workers that segment outgrows the slot each
 * segment is coded into and is coded again by the calling thread; the
 * bytes are those of one thread, and the chunk shows the long segment. */
static void long_segment_trial(void)
{
    const size_t G = (size_t)1 << GPULZ_SEG_LOG2_DEFAULT, segs = 24, n = segs * G;
    uint8_t *in = tu_xmalloc(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        in[i] = i < (segs - 1) * G ? (uint8_t)((x >> 16) % 97 == 0) : (uint8_t)(x >> 16);
    }
    gpulz_params p, one;
    tu_params(&p, 1, 128, 4096, 4);
    p.mode = GPULZ_MODE_FAST;
    one = p;
    one.threads = 1;
    size_t len = 0, len1 = 0;
    uint8_t *c = round_trip(in, n, &p, &len, "long segment");
    uint8_t *c1 = tu_compress(in, n, &one, &len1);
    TU_CHECK(c && c1 && len1 == len && !memcmp(c, c1, len), "long segment: 4 threads and 1 write different bytes");
    gpulz_layout L;
    gpulz_stream_view V;
    memset(&V, 0, sizeof V);
    int rc = c ? gpulz_header_parse(c, len, &L, NULL) : GPULZ_ERR_PARAM;
    if (rc == GPULZ_OK)
        rc = gpulz_stream_open(c + L.table_end, len - L.table_end, UINT64_MAX, 1, L.seg_log2, "symbols", &V);
    TU_CHECK(rc == GPULZ_OK && V.kind == GPULZ_STREAM_RANS && V.nseg == segs,
             "long segment: the chunk's stream is not %zu rANS segments (%s)", segs, gpulz_last_error());
    if (rc == GPULZ_OK && V.nseg == segs)
        TU_CHECK((size_t)GPULZ_RANS_WORD_BYTES * V.words[segs - 1] > G &&
                     (size_t)GPULZ_RANS_WORD_BYTES * V.words[0] < G,
                 "long segment: segments of %u and %u words, not a short one and a long one", V.words[0],
                 V.words[segs - 1]);
    gpulz_stream_close(&V);
    free(c);
    free(c1);
    free(in);
}

/* Fast's choice among DELTA and SPLIT (§19) from h's exact counts of each
 * transform (2^16 each), deltas restarting every C symbols. */
static int exact_delta(const uint8_t *in, size_t m, unsigned C)
{
    gpulz_fast_hists H;
    int delta = -1, split = 0;
    if (gpulz_fast_hists_init(&H, 2) != GPULZ_OK)
        return -1;
    for (size_t i = 0; i < m; i++) {
        const unsigned v = in[2 * i] | (unsigned)in[2 * i + 1] << 8;
        const unsigned b = i % C ? in[2 * i - 2] | (unsigned)in[2 * i - 1] << 8 : 0;
        H.whole[0].count[v]++;
        H.whole[1].count[(v - b) & 0xFFFFu]++;
    }
    for (int d = 0; d < 2; d++) {
        H.whole[d].N = m;
        gpulz_hist_narrow(&H.whole[d]);
    }
    gpulz_fast_hists_planes_from_whole(&H, 0);
    if (gpulz_fast_choose(&H, GPULZ_SEG_LOG2_DEFAULT, -1, &delta, &split) != GPULZ_OK)
        delta = -1;
    gpulz_fast_hists_free(&H);
    return delta;
}

/*
 * §19: past GPULZ_PICK_GROUPS groups of 8 symbols of S = 2, fast takes DELTA
 * as the sample says: on inputs where the sample and the whole chunk
 * disagree (codec_pick.h) the chunk's DELTA flag follows the sample, the
 * exact estimate the other way.
 */
static void pick_trials(void)
{
    const unsigned C = 4096;
    const uint64_t every = gpulz_sample_every(PICK_GROUPS, GPULZ_PICK_SAMPLE);
    uint8_t *in = tu_xmalloc(2 * PICK_SYMBOLS);
    TU_CHECK(every == 72 && gpulz_pick_sampled(PICK_SYMBOLS, 2) &&
                 !gpulz_pick_sampled(8 * (uint64_t)GPULZ_PICK_GROUPS + 7, 2) && !gpulz_pick_sampled(PICK_SYMBOLS, 4),
             "the sample: one run in %llu, not 72", (unsigned long long)every);
    for (int walk_sampled = 0; walk_sampled < 2; walk_sampled++) {
        const char *what = walk_sampled ? "walk sampled" : "walk not sampled";
        TU_CHECK(pick_input(in, walk_sampled) == 0, "%s: out of memory", what);
        const int exact = exact_delta(in, PICK_SYMBOLS, C);
        TU_CHECK(exact == !walk_sampled, "%s: the whole chunk's estimates pick DELTA %d, not %d", what, exact,
                 !walk_sampled);
        gpulz_params p;
        tu_params(&p, 2, 128, C, 2);
        p.mode = GPULZ_MODE_FAST;
        size_t len = 0;
        uint8_t *c = round_trip(in, 2 * PICK_SYMBOLS, &p, &len, "sampled DELTA");
        gpulz_layout L;
        const int rc = c ? gpulz_header_parse(c, len, &L, NULL) : GPULZ_ERR_PARAM;
        TU_CHECK(rc == GPULZ_OK && !!(L.flags & GPULZ_V2_FLAG_DELTA) == walk_sampled,
                 "%s: fast wrote DELTA %d, the sample's pick is %d (%s)", what,
                 rc == GPULZ_OK ? !!(L.flags & GPULZ_V2_FLAG_DELTA) : -1, walk_sampled, gpulz_strerror(rc));
        free(c);
    }
    free(in);
}

/*
 * §19's sampled DELTA as docs/FORMAT.md states it, written from the text
 * alone (none of gpulz_format2.h's sample or weight helpers): the threshold
 * G > 2^22, the runs of codec_pick.h's ref_sample_shape/ref_sample_run,
 * groups below G; counts of the symbols and of their deltas restarting every C;
 * weight c lg(c), lg(c) = 256 b + floor((c - 2^b) 256 / 2^b).  1: DELTA,
 * 0: no DELTA, -1: not sampled (the exact estimate decides).
 */
static uint64_t ref_lg(uint64_t c)
{
    unsigned b = 0;
    while (c >> (b + 1))
        b++;
    return 256 * (uint64_t)b + (c - ((uint64_t)1 << b)) * 256 / ((uint64_t)1 << b);
}

static int ref_sampled_delta(const uint8_t *x, uint64_t m, uint64_t C)
{
    const uint64_t G = m / 8;
    if (G <= ((uint64_t)1 << 22))
        return -1;
    uint64_t e, R;
    ref_sample_shape(G, &e, &R);
    uint64_t *cnt = calloc(2 * 65536, sizeof *cnt), weight[2] = {0, 0};
    if (!cnt)
        return -2;
    for (uint64_t w = 0; w < R; w++) {
        const uint64_t r = ref_sample_run(w, e);
        for (uint64_t g = 32 * r; g < 32 * r + 32 && g < G; g++)
            for (uint64_t i = 8 * g; i < 8 * g + 8; i++) {
                const unsigned v = x[2 * i] | (unsigned)x[2 * i + 1] << 8;
                const unsigned before = i % C ? x[2 * i - 2] | (unsigned)x[2 * i - 1] << 8 : 0;
                cnt[v]++;
                cnt[65536 + ((v - before) & 0xFFFFu)]++;
            }
    }
    for (uint32_t v = 0; v < 2 * 65536; v++)
        weight[v >> 16] += cnt[v] ? cnt[v] * ref_lg(cnt[v]) : 0;
    free(cnt);
    return weight[1] > weight[0];
}

/*
 * The library's sampled DELTA against ref_sampled_delta: codec_pick.h's two
 * inputs, then mixtures of a 4-value walk (its deltas weigh more) and a
 * choice between two far values (its symbols do) in regions of random
 * lengths and shares, at sizes past the threshold whose last group and run
 * are partial, with several block sizes.  Both answers must come up.
 */
static void pick_reference_trials(void)
{
    static const unsigned blocks[] = {256, 1024, 4096, 16384};
    uint8_t *in = tu_xmalloc(2 * PICK_SYMBOLS);
    uint64_t seed = 4242;
    int seen[2] = {0, 0};
    for (int t = 0; t < 8; t++) {
        uint64_t m = PICK_SYMBOLS;
        const unsigned C = t < 2 ? 4096 : blocks[tu_below(&seed, 4)];
        if (t < 2) {
            TU_CHECK(pick_input(in, t) == 0, "reference pick: out of memory");
        } else {
            m = 8 * (((uint64_t)1 << 22) + 1 + tu_below(&seed, PICK_GROUPS - ((uint64_t)1 << 22) - 1)) +
                tu_below(&seed, 8);
            const uint64_t share = 300 + tu_below(&seed, 500); /* of 1000: the walk's */
            unsigned at = 1;
            for (uint64_t i = 0; i < m;) {
                const uint64_t len = 1 + tu_below(&seed, 400000);
                const int walk = tu_below(&seed, 1000) < share;
                for (uint64_t j = 0; j < len && i < m; j++, i++) {
                    const uint64_t r = tu_next(&seed);
                    unsigned v;
                    if (walk) {
                        at = at == 0 ? 1 : at == 3 ? 2 : (r & 1) ? at + 1 : at - 1;
                        v = 100 + at;
                    } else {
                        v = r & 1 ? 5007 : 5000;
                    }
                    in[2 * i] = (uint8_t)v;
                    in[2 * i + 1] = (uint8_t)(v >> 8);
                }
            }
        }
        const int want = ref_sampled_delta(in, m, C);
        TU_CHECK(want == 0 || want == 1, "reference pick %d: %llu symbols not sampled (%d)", t,
                 (unsigned long long)m, want);
        gpulz_params p;
        tu_params(&p, 2, 128, C, 2);
        p.mode = GPULZ_MODE_FAST;
        size_t len = 0;
        uint8_t *c = tu_compress(in, 2 * m, &p, &len);
        gpulz_layout L;
        const int rc = c ? gpulz_header_parse(c, len, &L, NULL) : GPULZ_ERR_PARAM;
        const int got = rc == GPULZ_OK ? !!(L.flags & GPULZ_V2_FLAG_DELTA) : -1;
        TU_CHECK(got == want, "reference pick %d (%llu symbols, C %u): the chunk's DELTA %d, FORMAT.md's rule %d",
                 t, (unsigned long long)m, C, got, want);
        if (want == 0 || want == 1)
            seen[want]++;
        free(c);
    }
    TU_CHECK(seen[0] && seen[1], "reference pick: DELTA %d times, none %d times; both must come up", seen[1],
             seen[0]);
    free(in);
}

/*
 * Chunk sizes whose sample's last run starts at or past the last group, or
 * runs over it (FORMAT.md §19: only groups below G count; pick_edge_groups),
 * each input ending where an unreadable page begins: a read past the chunk
 * crashes the test, and the pick must be the text's.
 */
static void pick_edge_trials(void)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t seed = 777;
    for (int past = 0; past < 2; past++) {
        const uint64_t G = pick_edge_groups(past);
        TU_CHECK(G > 0, "edge pick: no size whose last run is %s the end", past ? "past" : "over");
        if (!G)
            continue;
        const uint64_t m = 8 * G + (past ? 5 : 0);
        const size_t n = 2 * m, span = (n + page - 1) / page * page + page;
        uint8_t *base = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        TU_CHECK(base != MAP_FAILED, "edge pick: cannot map %zu bytes", span);
        if (base == MAP_FAILED)
            return;
        TU_CHECK(mprotect(base + span - page, page, PROT_NONE) == 0, "edge pick: cannot protect the guard page");
        uint8_t *in = base + span - page - n;
        for (uint64_t i = 0; i < m; i++) {
            const unsigned v = i % 4096 < 2048 ? 100 + (unsigned)(i % 3) : (tu_next(&seed) & 1 ? 5007 : 5000);
            in[2 * i] = (uint8_t)v;
            in[2 * i + 1] = (uint8_t)(v >> 8);
        }
        const int want = ref_sampled_delta(in, m, 4096);
        gpulz_params p;
        tu_params(&p, 2, 128, 4096, 2);
        p.mode = GPULZ_MODE_FAST;
        size_t len = 0;
        uint8_t *c = tu_compress(in, n, &p, &len);
        gpulz_layout L;
        const int rc = c ? gpulz_header_parse(c, len, &L, NULL) : GPULZ_ERR_PARAM;
        TU_CHECK(rc == GPULZ_OK && !!(L.flags & GPULZ_V2_FLAG_DELTA) == want,
                 "edge pick (G %llu, last run %s the end): the chunk's DELTA %d, FORMAT.md's rule %d",
                 (unsigned long long)G, past ? "past" : "over", rc == GPULZ_OK ? !!(L.flags & GPULZ_V2_FLAG_DELTA) : -1,
                 want);
        free(c);
        munmap(base, span);
    }
}

int main(void)
{
    long_segment_trial();
    pick_trials();
    pick_reference_trials();
    pick_edge_trials();
    kinds_trials();
    auto_trials();
    ratio_trials();
    damage_trials();
    header_trials();
    declared_size_trial();
    api_trials();
    return tu_finish("codec_v2");
}
