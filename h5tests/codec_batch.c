/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_batch.c - the batched API on host buffers (CPU backend): each chunk
 * of a batch is byte for byte what one gpulz_compress() of it writes, over
 * many chunks of mixed sizes and contents (empty, tiny, zeros, random,
 * compressible, a few blocks), in every mode; one chunk given too little
 * room, and one damaged chunk when decoding, get their own status while the
 * others succeed; the call's status and detail name the first failure; the
 * bound and the thread counts.  And the cut of a batch into one run of
 * chunks per GPU (gpulz_batch_split), which needs no GPU to be checked, and
 * the batch size the library advises (gpulz_batch_chunks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_testutil.h"
#include "gpulz.h"
#include "gpulz_batch.h"

#define CHUNKS 40

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Chunk i's size and content: a spread of the cases that differ in the codec. */
static size_t make_chunk(size_t i, uint8_t **out)
{
    static const size_t sizes[] = {0, 1, 3, 7, 64, 255, 4096, 5000, 65536, 100003, 262144};
    size_t n = sizes[i % (sizeof sizes / sizeof sizes[0])];
    uint8_t *b = tu_xmalloc(n ? n : 1);
    switch ((i / 3) % 4) {
    case 0:
        memset(b, 0, n);
        break;
    case 1:
        for (size_t k = 0; k < n; k++)
            b[k] = (uint8_t)rnd();
        break;
    case 2:
        for (size_t k = 0; k < n; k++)
            b[k] = (uint8_t)((k / 4) % 16 * 3 + (k % 4));
        break;
    default:
        for (size_t k = 0; k < n; k++)
            b[k] = k % 97 < 50 ? (uint8_t)(k / 97) : (uint8_t)rnd() % 4;
    }
    *out = b;
    return n;
}

static void batch_against_single(gpulz_mode mode, unsigned S, unsigned flags, unsigned threads)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.mode = mode;
    p.symbol_size = S;
    p.flags = flags;
    p.threads = threads;
    p.backend = GPULZ_BACKEND_CPU;
    const void *src[CHUNKS];
    uint8_t *in[CHUNKS], *out[CHUNKS], *back[CHUNKS];
    void *dst[CHUNKS], *dec[CHUNKS];
    size_t len[CHUNKS], cap[CHUNKS], got[CHUNKS], dec_cap[CHUNKS], dec_len[CHUNKS];
    int st[CHUNKS];
    for (size_t i = 0; i < CHUNKS; i++) {
        len[i] = make_chunk(i, &in[i]);
        src[i] = in[i];
    }
    size_t total = gpulz_compress_batch_bound(CHUNKS, len, &p, cap);
    TU_CHECK(total > 0, "bound of the batch");
    /* chunk 5 (255 random bytes) cannot fit in 8 bytes */
    const size_t tight = 5;
    cap[tight] = 8;
    for (size_t i = 0; i < CHUNKS; i++) {
        out[i] = tu_xmalloc(cap[i]);
        dst[i] = out[i];
    }
    int rc = gpulz_compress_batch(CHUNKS, src, len, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0);
    TU_CHECK(rc == GPULZ_ERR_DST_SIZE, "mode %d S %u: call status %d, want the tight chunk's", mode, S, rc);
    TU_CHECK(strstr(gpulz_last_error(), "chunk 5 of 40") != NULL, "detail names the chunk: %s",
             gpulz_last_error());
    for (size_t i = 0; i < CHUNKS; i++) {
        if (i == tight) {
            TU_CHECK(st[i] == GPULZ_ERR_DST_SIZE, "tight chunk status %d", st[i]);
            continue;
        }
        size_t bound = gpulz_compress_bound(len[i], &p), one_len = 0;
        uint8_t *one = tu_xmalloc(bound);
        gpulz_params q = p;
        q.threads = 1;
        TU_CHECK(gpulz_compress(in[i], len[i], one, bound, &one_len, &q) == GPULZ_OK, "single chunk %zu", i);
        TU_CHECK(st[i] == GPULZ_OK, "mode %d chunk %zu (%zu bytes): status %d", mode, i, len[i], st[i]);
        TU_CHECK(st[i] != GPULZ_OK || (got[i] == one_len && memcmp(out[i], one, one_len) == 0),
                 "mode %d S %u chunk %zu (%zu bytes): batch bytes differ from one call", mode, S, i, len[i]);
        free(one);
    }

    /* decoding: the compressed chunks back, chunk 7 damaged, the tight one empty */
    const size_t damaged = 7;
    size_t clen[CHUNKS];
    const void *csrc[CHUNKS];
    for (size_t i = 0; i < CHUNKS; i++) {
        clen[i] = i == tight ? 0 : got[i];
        csrc[i] = out[i];
        dec_cap[i] = len[i];
        back[i] = tu_xmalloc(len[i] ? len[i] : 1);
        dec[i] = back[i];
    }
    /* a header that claims another format version */
    out[damaged][0] ^= 0x7f;
    gpulz_params d;
    gpulz_params_init(&d);
    d.threads = threads;
    d.backend = GPULZ_BACKEND_CPU;
    /* no room: every sound chunk's size, the damaged one's own status */
    size_t no_cap[CHUNKS] = {0};
    void *no_dst[CHUNKS] = {NULL};
    rc = gpulz_decompress_batch(CHUNKS, csrc, clen, no_dst, no_cap, dec_len, st, &d, GPULZ_MEMORY_HOST, NULL, NULL,
                                0);
    TU_CHECK(rc != GPULZ_OK && st[damaged] != GPULZ_OK && st[damaged] != GPULZ_ERR_DST_SIZE,
             "sizes asked: call %d, damaged chunk %d", rc, st[damaged]);
    for (size_t i = 0; i < CHUNKS; i++)
        TU_CHECK(i == tight || i == damaged ||
                     (len[i] ? st[i] == GPULZ_ERR_DST_SIZE && dec_len[i] == len[i] : st[i] == GPULZ_OK),
                 "mode %d chunk %zu: sizes asked: %d, %zu of %zu bytes", mode, i, st[i], dec_len[i], len[i]);
    rc = gpulz_decompress_batch(CHUNKS, csrc, clen, dec, dec_cap, dec_len, st, &d, GPULZ_MEMORY_HOST, NULL,
                                NULL, 0);
    TU_CHECK(rc != GPULZ_OK && st[tight] != GPULZ_OK, "empty input fails: %d", st[tight]);
    TU_CHECK(st[damaged] != GPULZ_OK, "damaged chunk decodes: %d", st[damaged]);
    for (size_t i = 0; i < CHUNKS; i++) {
        if (i == tight || i == damaged)
            continue;
        TU_CHECK(st[i] == GPULZ_OK && dec_len[i] == len[i] && memcmp(back[i], in[i], len[i]) == 0,
                 "mode %d chunk %zu: decoded %d, %zu of %zu bytes", mode, i, st[i], dec_len[i], len[i]);
    }
    for (size_t i = 0; i < CHUNKS; i++) {
        free(in[i]);
        free(out[i]);
        free(back[i]);
    }
}

/* What concerns the whole call: every status says it. */
static void whole_call_errors(void)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_CPU;
    uint8_t a[16] = {0}, b[160];
    const void *src[2] = {a, a};
    void *dst[2] = {b, b + 80};
    size_t len[2] = {16, 16}, cap[2] = {80, 80}, got[2];
    int st[2] = {1, 1};
    p.window = 0;
    TU_CHECK(gpulz_compress_batch(2, src, len, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                     GPULZ_ERR_PARAM &&
                 st[0] == GPULZ_ERR_PARAM && st[1] == GPULZ_ERR_PARAM,
             "bad parameters refused for every chunk");
    p.window = 128;
    st[0] = st[1] = GPULZ_OK; /* what a caller's array may hold before the call */
    TU_CHECK(gpulz_compress_batch(2, NULL, len, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                     GPULZ_ERR_PARAM &&
                 st[0] == GPULZ_ERR_PARAM && st[1] == GPULZ_ERR_PARAM,
             "null array refused for every chunk: %d %d", st[0], st[1]);
    st[0] = st[1] = GPULZ_OK;
    TU_CHECK(gpulz_decompress_batch(2, src, len, dst, cap, NULL, st, NULL, GPULZ_MEMORY_DEVICE, NULL, NULL, 0) ==
                     GPULZ_ERR_PARAM &&
                 st[0] == GPULZ_ERR_PARAM && st[1] == GPULZ_ERR_PARAM,
             "null dst_len refused for every chunk: %d %d", st[0], st[1]);
    TU_CHECK(gpulz_compress_batch(2, src, len, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, b, 1) ==
                 GPULZ_ERR_PARAM,
             "device scratch with host buffers refused");
    /* src[i] may be NULL where src_len[i] is 0: an empty chunk, truncated
     * like any other, not a parameter error */
    {
        const void *none[2] = {NULL, a};
        size_t zero[2] = {0, 0};
        TU_CHECK(gpulz_decompress_batch(2, none, zero, dst, cap, got, st, NULL, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                         GPULZ_ERR_TRUNCATED &&
                     st[0] == GPULZ_ERR_TRUNCATED && st[1] == GPULZ_ERR_TRUNCATED,
                 "empty chunks, NULL or not: %d %d", st[0], st[1]);
    }
    TU_CHECK(gpulz_compress_batch(0, NULL, NULL, NULL, NULL, NULL, NULL, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                 GPULZ_OK,
             "an empty batch is fine");
    /* statuses may be NULL */
    TU_CHECK(gpulz_compress_batch(2, src, len, dst, cap, got, NULL, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                 GPULZ_OK,
             "no statuses array");
    /* the batch's device scratch holds at least one chunk's (0 in a build without CUDA) */
    TU_CHECK(gpulz_compress_batch_scratch_size(2, len, &p) >= gpulz_compress_device_scratch_size(16, &p) &&
                 gpulz_decompress_batch_scratch_size(2, cap) >= gpulz_decompress_device_scratch_size(80),
             "batch scratch below a chunk's");
    TU_CHECK(gpulz_compress_batch_scratch_size(0, NULL, &p) == 0, "an empty batch needs no scratch");
    if (!gpulz_gpu_available())
        TU_CHECK(gpulz_compress_batch(2, src, len, dst, cap, got, st, &p, GPULZ_MEMORY_DEVICE, NULL, NULL, 0) !=
                         GPULZ_OK &&
                     st[0] != GPULZ_OK && st[1] != GPULZ_OK,
                 "device buffers without a GPU fail every chunk");
}

/*
 * The cuts of weights w into parts runs: in order from 0 to count, and each
 * cut the chunk border nearest to its share of the total among the borders
 * not before the previous cut, the earliest on a tie.
 */
static void split_case(const char *what, size_t count, const size_t *w, unsigned parts)
{
    size_t cut[70], again[70];
    double total = 0;
    int zeros = 1;
    for (size_t i = 0; i < count; i++) {
        total += (double)w[i];
        zeros &= w[i] == 0;
    }
    if (zeros)
        total = (double)count;
    gpulz_batch_split(count, w, parts, cut);
    TU_CHECK(cut[0] == 0 && cut[parts] == count, "%s: runs from %zu to %zu of %zu", what, cut[0], cut[parts],
             count);
    double prefix = 0;
    size_t at = 0;
    for (unsigned k = 1; k < parts; k++) {
        TU_CHECK(cut[k - 1] <= cut[k] && cut[k] <= count, "%s: cut %u at %zu after %zu", what, k, cut[k],
                 cut[k - 1]);
        const double target = total * k / parts;
        /* the best border from the previous cut on */
        double p = prefix, best_gap = -1;
        size_t best = at;
        for (size_t j = at; j <= count; j++) {
            double gap = p > target ? p - target : target - p;
            if (best_gap < 0 || gap < best_gap) {
                best_gap = gap;
                best = j;
            }
            if (j < count)
                p += zeros ? 1.0 : (double)w[j];
        }
        TU_CHECK(cut[k] == best, "%s: cut %u of %u at %zu, the nearest border is %zu", what, k, parts, cut[k],
                 best);
        for (; at < cut[k] && at < count; at++)
            prefix += zeros ? 1.0 : (double)w[at];
    }
    gpulz_batch_split(count, w, parts, again);
    TU_CHECK(memcmp(cut, again, (parts + 1) * sizeof *cut) == 0, "%s: another call cut elsewhere", what);
}

static void split(void)
{
    size_t w[64], cut[5];
    for (size_t i = 0; i < 64; i++)
        w[i] = (size_t)4 << 20;
    /* equal chunks: by count, the runs' lengths at most one apart */
    for (unsigned parts = 1; parts <= 4; parts++)
        for (size_t count = 1; count <= 64; count++) {
            gpulz_batch_split(count, w, parts, cut);
            size_t lo = count, hi = 0;
            for (unsigned k = 0; k < parts; k++) {
                size_t n = cut[k + 1] - cut[k];
                lo = n < lo ? n : lo;
                hi = n > hi ? n : hi;
            }
            TU_CHECK(hi - lo <= 1, "%zu equal chunks on %u devices: runs of %zu to %zu", count, parts, lo, hi);
            split_case("equal", count, w, parts);
        }
    gpulz_batch_split(16, w, 2, cut);
    TU_CHECK(cut[1] == 8, "16 chunks on 2 devices: %zu and %zu", cut[1], 16 - cut[1]);
    /* by bytes, not by count: one large chunk against many small ones */
    size_t big[8] = {(size_t)64 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20};
    gpulz_batch_split(8, big, 2, cut);
    TU_CHECK(cut[1] == 1, "the large chunk alone: cut at %zu", cut[1]);
    split_case("one large", 8, big, 2);
    split_case("one large of 4", 8, big, 4);
    size_t last_big[4] = {1, 1, 1, 100};
    gpulz_batch_split(4, last_big, 2, cut);
    TU_CHECK(cut[1] == 3, "the large chunk last: cut at %zu", cut[1]);
    /* a tie takes the earlier border */
    size_t two[2] = {5, 5};
    gpulz_batch_split(1, two, 2, cut);
    TU_CHECK(cut[1] == 0 && cut[2] == 1, "one chunk on two devices: %zu %zu", cut[1], cut[2]);
    /* weights of 0 count the chunks; a few of them among others go along */
    size_t zeros[6] = {0};
    gpulz_batch_split(6, zeros, 3, cut);
    TU_CHECK(cut[1] == 2 && cut[2] == 4, "empty chunks: %zu %zu", cut[1], cut[2]);
    size_t some[6] = {0, 10, 0, 0, 10, 0};
    split_case("some empty", 6, some, 2);
    split_case("some empty of 4", 6, some, 4);
    /* no chunk, and sizes whose sum passes size_t */
    gpulz_batch_split(0, w, 3, cut);
    TU_CHECK(cut[0] == 0 && cut[1] == 0 && cut[2] == 0 && cut[3] == 0, "no chunk");
    size_t huge[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
    split_case("huge", 4, huge, 2);
    gpulz_batch_split(4, huge, 2, cut);
    TU_CHECK(cut[1] == 2, "huge: cut at %zu", cut[1]);
    /* mixed sizes, as a batch of edge and whole chunks or a decoder's */
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + rnd() % 64;
        for (size_t i = 0; i < n; i++)
            w[i] = rnd() % 4 == 0 ? 0 : (size_t)(rnd() % ((size_t)16 << 20));
        split_case("mixed", n, w, 1 + (unsigned)(rnd() % 8));
    }
}

/*
 * A chunk's dst that shares a byte with another chunk's dst or src fails the
 * whole call with GPULZ_ERR_PARAM before any chunk runs (the chunks run at
 * once, and one out given to two chunks held one of them, without an error);
 * dsts that only touch, rooms to the buffer's end (a chunk writes what its
 * header declares), a chunk's own src and dst (its own status), and the
 * sizes asked with no room are not refused whole.  Pairs far apart in a
 * large batch are found, and named.
 */
#define OV 200
static void overlapping_buffers(void)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_CPU;
    static uint8_t in[OV][600], packed[OV][700], out[OV * 700 + 64];
    const void *src[OV];
    void *dst[OV];
    size_t len[OV], cap[OV], got[OV], clen[OV];
    int st[OV];
    for (size_t i = 0; i < OV; i++) {
        for (size_t k = 0; k < sizeof in[i]; k++)
            in[i][k] = (uint8_t)(k % 7 == 0 ? rnd() : i);
        len[i] = sizeof in[i];
        src[i] = in[i];
        dst[i] = packed[i];
        cap[i] = sizeof packed[i];
    }
    TU_CHECK(gpulz_compress_batch(OV, src, len, dst, cap, clen, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                 GPULZ_OK,
             "overlap: the separate batch (%s)", gpulz_last_error());
    /* dsts cut from one buffer, touching: decoded as one call per chunk */
    for (size_t i = 0; i < OV; i++) {
        src[i] = packed[i];
        dst[i] = out + i * len[i];
        cap[i] = len[i];
    }
    TU_CHECK(gpulz_decompress_batch(OV, src, clen, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                 GPULZ_OK,
             "overlap: touching dsts refused (%s)", gpulz_last_error());
    for (size_t i = 0; i < OV; i++)
        TU_CHECK(got[i] == len[i] && memcmp(out + i * len[i], in[i], len[i]) == 0, "touching dsts: chunk %zu", i);
    /* each chunk's room the rest of the buffer: what a chunk writes is what
     * its header declares, so these overlap nothing written */
    memset(out, 0, sizeof out);
    for (size_t i = 0; i < OV; i++)
        cap[i] = sizeof out - i * len[i];
    TU_CHECK(gpulz_decompress_batch(OV, src, clen, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                 GPULZ_OK,
             "overlap: rooms to the buffer's end refused (%s)", gpulz_last_error());
    for (size_t i = 0; i < OV; i++) {
        TU_CHECK(got[i] == len[i] && memcmp(out + i * len[i], in[i], len[i]) == 0, "rooms to the end: chunk %zu", i);
        cap[i] = len[i];
    }
    const struct {
        const char *what;
        size_t a, b, shift; /* chunk a's dst moved onto chunk b's dst (shift into it) or src */
        int onto_src;
        const char *names;
    } cases[] = {{"one dst for two chunks", 1, 0, 0, 0, "chunk 1's dst overlaps chunk 0's dst"},
                 {"one byte shared at the end", 150, 149, 599, 0, "chunk 150's dst overlaps chunk 149's dst"},
                 {"a dst over another chunk's src", 150, 3, 0, 1, "chunk 150's dst overlaps chunk 3's src"},
                 {"a dst over a later chunk's src", 2, 199, 0, 1, "chunk 2's dst overlaps chunk 199's src"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (size_t i = 0; i < OV; i++)
            dst[i] = out + i * len[i];
        dst[cases[c].a] = (cases[c].onto_src ? (uint8_t *)packed[cases[c].b] : out + cases[c].b * len[cases[c].b]) +
                          cases[c].shift;
        uint8_t *moved = dst[cases[c].a];
        memset(out, 0xA5, sizeof out);
        uint8_t before[700];
        memcpy(before, moved, sizeof before);
        for (size_t i = 0; i < OV; i++)
            st[i] = 12345;
        int rc = gpulz_decompress_batch(OV, src, clen, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0);
        TU_CHECK(rc == GPULZ_ERR_PARAM && strstr(gpulz_last_error(), cases[c].names),
                 "overlap, %s: status %d (%s)", cases[c].what, rc, gpulz_last_error());
        int all = 1;
        for (size_t i = 0; i < OV; i++)
            all &= st[i] == GPULZ_ERR_PARAM;
        TU_CHECK(all, "overlap, %s: not every status says so", cases[c].what);
        TU_CHECK(out[0] == 0xA5 && out[sizeof out - 1] == 0xA5 && memcmp(before, moved, sizeof before) == 0,
                 "overlap, %s: a chunk was decoded", cases[c].what);
    }
    /* compressing too: a dst over another chunk's input */
    for (size_t i = 0; i < OV; i++) {
        src[i] = in[i];
        dst[i] = packed[i];
        cap[i] = sizeof packed[i];
    }
    dst[10] = in[11] + 50;
    cap[10] = 100;
    TU_CHECK(gpulz_compress_batch(OV, src, len, dst, cap, clen, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                     GPULZ_ERR_PARAM &&
                 strstr(gpulz_last_error(), "chunk 10's dst overlaps chunk 11's src"),
             "overlap: compressing onto another chunk's input (%s)", gpulz_last_error());
    /* a chunk's own src and dst: its own status, the others done */
    dst[10] = in[10];
    cap[10] = sizeof in[10];
    TU_CHECK(gpulz_compress_batch(OV, src, len, dst, cap, clen, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                     GPULZ_ERR_PARAM &&
                 st[10] == GPULZ_ERR_PARAM && st[9] == GPULZ_OK && st[11] == GPULZ_OK,
             "overlap: a chunk's own src and dst (%d %d %d)", st[9], st[10], st[11]);
    /* sizes asked with no room: nothing to overlap */
    for (size_t i = 0; i < OV; i++) {
        src[i] = packed[i];
        dst[i] = NULL;
        cap[i] = 0;
    }
    dst[10] = packed[10];
    TU_CHECK(gpulz_compress_batch(OV, src, len, dst, cap, clen, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) !=
                     GPULZ_ERR_PARAM ||
                 !strstr(gpulz_last_error(), "overlaps"),
             "overlap: rooms of 0 bytes refused as overlapping");
}

/* How many chunks a batch should hold: 256 MiB of chunks, at most 1024, at
 * least one. */
static void batch_chunks(void)
{
    const struct {
        size_t chunk, want;
    } cases[] = {{(size_t)4 << 20, 64}, {(size_t)3 << 20, 85}, {(size_t)16 << 20, 16}, {1000, 1024},
                 {(size_t)256 << 20, 1}, {(size_t)1 << 30, 1}, {SIZE_MAX, 1}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t got = gpulz_batch_chunks(cases[k].chunk);
        TU_CHECK(got == cases[k].want, "chunks of %zu bytes: %zu a batch, not %zu", cases[k].chunk, got,
                 cases[k].want);
    }
    TU_CHECK(gpulz_batch_chunks(0) >= 1, "empty chunks: at least one a batch");
}

int main(void)
{
    static const gpulz_mode modes[] = {GPULZ_MODE_LZ, GPULZ_MODE_FAST, GPULZ_MODE_RATIO, GPULZ_MODE_AUTO};
    for (int m = 0; m < 4; m++)
        batch_against_single(modes[m], 1 + 3 * (m % 2), 0, 0);
    batch_against_single(GPULZ_MODE_LZ, 4, GPULZ_FLAG_ADAPTIVE, 3);
    batch_against_single(GPULZ_MODE_FAST, 2, GPULZ_FLAG_ADAPTIVE | GPULZ_FLAG_NO_CHECKSUM, 1);
    batch_against_single(GPULZ_MODE_LZ, 8, 0, 64);
    whole_call_errors();
    overlapping_buffers();
    split();
    batch_chunks();
    return tu_finish("codec_batch");
}
