/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_corrupt.c - the decoder against damaged and hostile chunks
 * (docs/FORMAT.md §9): every prefix of valid chunks, targeted breakage of
 * each header field, table entry, token count, flag area and match token,
 * and thousands of random bit flips, overwrites, insertions and deletions.
 *
 * Where the damage necessarily breaks a rule of the format the decoder must
 * fail (with the expected status where the rule fixes it).  Elsewhere
 * (a flipped literal, an offset changed to another valid one) the damaged
 * chunk may be valid: then decompress may return OK, but only with exactly
 * the original size.  Always: dst is written only inside dst_cap (a guard
 * after it is checked), a failure comes with a non-empty gpulz_last_error(),
 * and gpulz_chunk_info_get agrees with decompress about the header.
 *
 * Usage: codec_corrupt [random-iterations-per-chunk]   (default 10000)
 */
#include "codec_testutil.h"
#include "crafted_chunks.h"
#include "datagen.h"

#define GUARD 256
#define GUARD_BYTE 0x5A
#define SLACK 4096

enum { MAY_PASS = 0, MUST_FAIL = 1 };

static unsigned long attempts, passed_valid, failed_as_expected;
static unsigned long status_count[16];

static uint64_t get_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * Decompress buf; n is the original chunk's size.  want: 0 for any error,
 * else the one status the damage must give.
 */
static void attempt(const uint8_t *buf, size_t len, size_t n, int must_fail, int want,
                    const char *what)
{
    attempts++;
    /* alternate an exact dst_cap with a roomy one, so size checks are not all that stops it */
    size_t cap = attempts % 2 ? n : n + SLACK;
    uint8_t *dst = tu_xmalloc(cap + GUARD);
    memset(dst, GUARD_BYTE, cap + GUARD);
    gpulz_params p;
    tu_params(&p, 1, 128, 256, attempts % 3 == 0 ? 2 : 1);
    /* a copy of exactly len bytes, so valgrind and ASan see any read past it */
    uint8_t *src = tu_xmalloc(len);
    memcpy(src, buf, len);
    size_t got = (size_t)-1;
    tu_clear_error();
    int rc = gpulz_decompress(src, len, dst, cap, &got, &p);
    status_count[rc <= 0 && rc > -16 ? -rc : 15]++;
    if (rc == GPULZ_OK) {
        if (must_fail)
            tu_fail("%s: decompress accepted a chunk that breaks the format", what);
        else if (got != n)
            tu_fail("%s: decompress accepted a damaged chunk and gave %zu bytes, not %zu", what,
                    got, n);
        else
            passed_valid++;
    } else {
        if (rc != GPULZ_ERR_CORRUPT && rc != GPULZ_ERR_TRUNCATED && rc != GPULZ_ERR_VERSION &&
            rc != GPULZ_ERR_DST_SIZE)
            tu_fail("%s: decompress returned %d (%s)", what, rc, gpulz_strerror(rc));
        else if (want && rc != want)
            tu_fail("%s: decompress returned %s, want %s (%s)", what, gpulz_strerror(rc),
                    gpulz_strerror(want), gpulz_last_error());
        else
            failed_as_expected++;
        TU_CHECK(gpulz_last_error()[0] != 0, "%s: failure %d without detail", what, rc);
    }
    for (size_t i = cap; i < cap + GUARD; i++)
        if (dst[i] != GUARD_BYTE) {
            tu_fail("%s: decompress wrote %zu bytes past dst_cap", what, i - cap + 1);
            break;
        }

    /* the header calls see the same header */
    gpulz_chunk_info info;
    int irc = gpulz_chunk_info_get(src, len, &info);
    if (rc == GPULZ_OK)
        TU_CHECK(irc == GPULZ_OK && info.uncompressed_size == got && info.compressed_size == len,
                 "%s: decompress accepted what chunk_info_get rejects (%d)", what, irc);
    if (irc != GPULZ_OK)
        TU_CHECK(rc != GPULZ_OK, "%s: chunk_info_get rejects, decompress accepts", what);
    /* and the block table tiles the chunk: header, blocks in order, the tail */
    if (irc == GPULZ_OK) {
        size_t count = (size_t)info.block_count + 1;
        gpulz_block_info *b = malloc(count * sizeof *b);
        TU_CHECK(b != NULL, "%s: allocation", what);
        TU_CHECK(gpulz_block_table_get(src, len, b, count - 1) == GPULZ_ERR_DST_SIZE,
                 "%s: a table without room for the tail was filled", what);
        TU_CHECK(gpulz_block_table_get(src, len, b, count) == GPULZ_OK, "%s: block table refused", what);
        uint64_t at = info.header_size, raw = 0, bytes = 0;
        for (size_t k = 0; k < count; k++) {
            TU_CHECK(b[k].offset == at, "%s: block %zu at %llu, expected %llu", what, k,
                     (unsigned long long)b[k].offset, (unsigned long long)at);
            at += b[k].stored_size;
            bytes += b[k].raw_size;
            raw += k < count - 1 && b[k].stored_raw;
        }
        TU_CHECK(at == info.compressed_size && bytes == info.uncompressed_size &&
                     raw == info.raw_blocks,
                 "%s: the table adds up to %llu stored, %llu raw bytes, %llu raw blocks", what,
                 (unsigned long long)at, (unsigned long long)bytes, (unsigned long long)raw);
        free(b);
    }
    uint64_t dsize;
    int drc = gpulz_decompressed_size(src, len, &dsize);
    if (rc == GPULZ_OK)
        TU_CHECK(drc == GPULZ_OK && dsize == got, "%s: decompressed_size disagrees", what);
    free(src);
    free(dst);
}

/* Where things are in a valid chunk, found by this file's own walk. */
typedef struct token {
    size_t pos;     /* byte offset in the chunk */
    unsigned match; /* 1 match, 0 literal */
    unsigned o;     /* symbols decoded before it */
    unsigned L;
} token;

typedef struct block_map {
    size_t start;   /* first byte */
    uint32_t entry;
    unsigned c;     /* symbols */
    token *tok;
    unsigned T;
} block_map;

typedef struct chunk_map {
    unsigned S, W, C, lmin;
    size_t n, nb, table_end;
    block_map *b;
} chunk_map;

static void map_chunk(const uint8_t *ch, chunk_map *M)
{
    M->S = ch[6];
    M->W = ch[7];
    M->C = 1u << ch[8];
    M->lmin = M->S >= 4 ? 1 : M->S == 2 ? 2 : 3;
    M->n = get_le(ch + 12, 8);
    M->nb = get_le(ch + 20, 8);
    M->table_end = 28 + 4 * M->nb;
    M->b = calloc(M->nb ? M->nb : 1, sizeof *M->b);
    size_t pos = M->table_end, m = M->n / M->S;
    for (size_t k = 0; k < M->nb; k++) {
        block_map *B = &M->b[k];
        B->start = pos;
        B->entry = (uint32_t)get_le(ch + 28 + 4 * k, 4);
        B->c = (unsigned)(m - k * M->C < M->C ? m - k * M->C : M->C);
        if (!(B->entry >> 31)) {
            B->T = (unsigned)get_le(ch + pos, 2);
            B->tok = calloc(B->T, sizeof *B->tok);
            size_t f = pos + 2, p = f + (B->T + 7) / 8;
            unsigned o = 0;
            for (unsigned t = 0; t < B->T; t++) {
                token *K = &B->tok[t];
                K->pos = p;
                K->o = o;
                K->match = ch[f + t / 8] >> (t % 8) & 1;
                if (K->match) {
                    K->L = ch[p];
                    o += K->L;
                    p += 2;
                } else {
                    o++;
                    p += M->S;
                }
            }
        }
        pos += B->entry & 0x7FFFFFFFu;
    }
}

static void unmap_chunk(chunk_map *M)
{
    for (size_t k = 0; k < M->nb; k++)
        free(M->b[k].tok);
    free(M->b);
}

/* Decompress a copy of the first newlen bytes of ch (len of them valid),
 * changed by body. */
#define MUTATE(ch, newlen, body, must, want, ...)                                                  \
    do {                                                                                           \
        uint8_t *x = tu_xmalloc((newlen) + 1);                                                     \
        memcpy(x, ch, (newlen) < len ? (newlen) : len);                                            \
        body;                                                                                      \
        char what_[200];                                                                           \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                                \
        attempt(x, newlen, M.n, must, want, what_);                                                \
        free(x);                                                                                   \
    } while (0)

static void targeted(const uint8_t *ch, size_t len, const char *name)
{
    chunk_map M;
    map_chunk(ch, &M);

    /* every prefix ends early; one byte more is one too many */
    for (size_t l = 0; l < len; l++)
        MUTATE(ch, l, (void)0, MUST_FAIL, GPULZ_ERR_TRUNCATED, "%s: prefix of %zu bytes", name, l);
    MUTATE(ch, len + 1, x[len] = 0, MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: one byte appended", name);

    /* header fields (§2) */
    for (int i = 0; i < 4; i++)
        MUTATE(ch, len, x[i] ^= 0x20, MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: magic byte %d", name, i);
    static const uint8_t versions[] = {0, 3, 255};
    for (int i = 0; i < 3; i++)
        MUTATE(ch, len, x[4] = versions[i], MUST_FAIL, GPULZ_ERR_VERSION, "%s: version %u", name,
               versions[i]);
    for (int b = 0; b < 8; b++)
        MUTATE(ch, len, x[5] = (uint8_t)(1u << b), MUST_FAIL, GPULZ_ERR_VERSION,
               "%s: chunk flag bit %d", name, b);
    static const uint8_t bad_S[] = {0, 3, 5, 6, 7, 9, 16, 255};
    for (int i = 0; i < 8; i++)
        MUTATE(ch, len, x[6] = bad_S[i], MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: S %u", name, bad_S[i]);
    for (unsigned S = 1; S <= 8; S *= 2)
        if (S != M.S)
            MUTATE(ch, len, x[6] = (uint8_t)S, MAY_PASS, 0, /* 10 bytes are 10 or 5 symbols */
                   "%s: S %u instead of %u", name, S, M.S);
    MUTATE(ch, len, x[7] = 0, MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: W 0", name);
    for (unsigned W = 1; W <= 255; W += W < 8 ? 1 : 37)
        MUTATE(ch, len, x[7] = (uint8_t)W, MAY_PASS, 0, "%s: W %u instead of %u", name, W, M.W);
    static const uint8_t bad_lg[] = {0, 1, 7, 15, 16, 31, 255};
    for (int i = 0; i < 7; i++)
        MUTATE(ch, len, x[8] = bad_lg[i], MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: log2 C %u", name,
               bad_lg[i]);
    for (unsigned lg = 8; lg <= 14; lg++)
        MUTATE(ch, len, x[8] = (uint8_t)lg, MAY_PASS, 0, "%s: log2 C %u", name, lg);
    for (int i = 9; i < 12; i++)
        for (int v = 1; v < 256; v *= 4)
            MUTATE(ch, len, x[i] = (uint8_t)v, MUST_FAIL, GPULZ_ERR_CORRUPT,
                   "%s: reserved byte %d = %d", name, i, v);
    /* n and nb: a different n changes the block sizes or the tail */
    uint64_t ns[] = {M.n + 1, M.n - 1, M.n + M.S, M.n + (uint64_t)M.C * M.S, M.n * 2 + 1,
                     UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 255, (uint64_t)1 << 63,
                     (uint64_t)1 << 40};
    for (int i = 0; i < 10; i++)
        if (ns[i] != M.n)
            MUTATE(ch, len, put_le(x + 12, ns[i], 8), MUST_FAIL, 0, "%s: n %llu instead of %zu",
                   name, (unsigned long long)ns[i], M.n);
    for (int bit = 0; bit < 64; bit++)
        MUTATE(ch, len, x[12 + bit / 8] ^= (uint8_t)(1u << bit % 8), MUST_FAIL, 0,
               "%s: n bit %d", name, bit);
    uint64_t nbs[] = {M.nb + 1, M.nb - 1, 0, UINT64_MAX, (uint64_t)1 << 62, M.nb * 2 + 1};
    for (int i = 0; i < 6; i++)
        if (nbs[i] != M.nb)
            MUTATE(ch, len, put_le(x + 20, nbs[i], 8), MUST_FAIL, 0, "%s: nb %llu instead of %zu",
                   name, (unsigned long long)nbs[i], M.nb);
    for (int bit = 0; bit < 64; bit++)
        MUTATE(ch, len, x[20 + bit / 8] ^= (uint8_t)(1u << bit % 8), MUST_FAIL, 0,
               "%s: nb bit %d", name, bit);

    /* table entries (§3) */
    for (size_t k = 0; k < M.nb; k++) {
        size_t e = 28 + 4 * k;
        uint32_t v = M.b[k].entry, size = v & 0x7FFFFFFFu;
        MUTATE(ch, len, x[e + 3] ^= 0x80, MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: block %zu raw bit",
               name, k);
        uint32_t sizes[] = {size + 1, size - 1, 0, 1, 2, 0x7FFFFFFFu, size * 2};
        for (int i = 0; i < 7; i++)
            if (sizes[i] != size)
                MUTATE(ch, len, put_le(x + e, (v & 0x80000000u) | sizes[i], 4), MUST_FAIL, 0,
                       "%s: block %zu size %u instead of %u", name, k, sizes[i], size);
        if (k + 1 < M.nb) /* swapped entries: the blocks' bytes are read as the other's */
            MUTATE(ch, len,
                   (put_le(x + e, M.b[k + 1].entry, 4), put_le(x + e + 4, M.b[k].entry, 4)),
                   MAY_PASS, 0,
                   "%s: blocks %zu and %zu swapped in the table", name, k, k + 1);
    }

    /* encoded blocks (§5) */
    for (size_t k = 0; k < M.nb; k++) {
        block_map *B = &M.b[k];
        if (B->entry >> 31)
            continue;
        size_t s = B->start;
        unsigned T = B->T;
        uint32_t Ts[] = {0, B->c + 1, 0xFFFF, T + 1, T - 1, T + 8, T - 8};
        for (int i = 0; i < 7; i++)
            if (Ts[i] != T && Ts[i] <= 0xFFFF)
                MUTATE(ch, len, put_le(x + s, Ts[i], 2), i < 3 ? MUST_FAIL : MAY_PASS,
                       i < 3 ? GPULZ_ERR_CORRUPT : 0, "%s: block %zu T %u instead of %u", name, k,
                       Ts[i], T);
        if (T % 8)
            for (unsigned b = T % 8; b < 8; b++)
                MUTATE(ch, len, x[s + 2 + (T - 1) / 8] |= (uint8_t)(1u << b), MUST_FAIL,
                       GPULZ_ERR_CORRUPT, "%s: block %zu flag bit %u past T", name, k,
                       (T - 1) / 8 * 8 + b);
        unsigned step = T > 40 ? T / 40 : 1;
        for (unsigned t = 0; t < T; t += step) {
            token *K = &B->tok[t];
            /* a token changes kind: lengths shift, which may still parse */
            MUTATE(ch, len, x[s + 2 + t / 8] ^= (uint8_t)(1u << t % 8), MAY_PASS, 0,
                   "%s: block %zu token %u kind flipped", name, k, t);
            if (!K->match) {
                MUTATE(ch, len, x[K->pos] ^= 0x40, MAY_PASS, 0, "%s: block %zu literal %u", name,
                       k, t);
                continue;
            }
            size_t lp = K->pos, dp = K->pos + 1;
            unsigned L = K->L, left = B->c - K->o;
            /* any other length changes the block's symbol count */
            unsigned Ls[] = {0, M.lmin - 1, L - 1, L + 1, 255, left + 1};
            for (int i = 0; i < 6; i++)
                if (Ls[i] != L && Ls[i] <= 255)
                    MUTATE(ch, len, x[lp] = (uint8_t)Ls[i], MUST_FAIL, GPULZ_ERR_CORRUPT,
                           "%s: block %zu token %u L %u instead of %u", name, k, t, Ls[i], L);
            MUTATE(ch, len, x[dp] = 0, MUST_FAIL, GPULZ_ERR_CORRUPT, "%s: block %zu token %u D 0",
                   name, k, t);
            if (M.W < 255)
                MUTATE(ch, len, x[dp] = (uint8_t)(M.W + 1), MUST_FAIL, GPULZ_ERR_CORRUPT,
                       "%s: block %zu token %u D W+1", name, k, t);
            if (K->o < 255)
                MUTATE(ch, len, x[dp] = (uint8_t)(K->o + 1), MUST_FAIL,
                       GPULZ_ERR_CORRUPT, "%s: block %zu token %u D %u past the start (o %u)",
                       name, k, t, K->o + 1, K->o);
            unsigned dmax = K->o < M.W ? K->o : M.W;
            MUTATE(ch, len, x[dp] = (uint8_t)(1 + (x[dp] % dmax)), MAY_PASS, 0,
                   "%s: block %zu token %u D within range", name, k, t);
        }
        /* the block's last byte and its end */
        MUTATE(ch, len, x[s + (B->entry & 0x7FFFFFFFu) - 1] ^= 0xFF, MAY_PASS, 0,
               "%s: block %zu last byte", name, k);
    }
    unmap_chunk(&M);
}

static void random_damage(const uint8_t *ch, size_t len, const char *name, unsigned long iters,
                          uint64_t seed)
{
    chunk_map M;
    map_chunk(ch, &M);
    uint64_t s = seed;
    uint8_t *x = tu_xmalloc(len + 64);
    for (unsigned long it = 0; it < iters; it++) {
        size_t xl = len;
        memcpy(x, ch, len);
        unsigned kind = (unsigned)tu_below(&s, 6);
        int must = MAY_PASS, want = 0;
        char what[300];
        switch (kind) {
        case 0: { /* 1 to 4 bit flips anywhere */
            unsigned flips = 1 + (unsigned)tu_below(&s, 4);
            for (unsigned f = 0; f < flips; f++) {
                size_t bit = tu_below(&s, len * 8);
                x[bit / 8] ^= (uint8_t)(1u << bit % 8);
            }
            snprintf(what, sizeof what, "%s: random %u bit flips (iteration %lu)", name, flips, it);
            break;
        }
        case 1: { /* a byte overwritten, in the header and table more often */
            size_t at = tu_below(&s, 2) && M.table_end <= len ? tu_below(&s, M.table_end)
                                                               : tu_below(&s, len);
            x[at] = (uint8_t)tu_next(&s);
            snprintf(what, sizeof what, "%s: byte %zu overwritten (iteration %lu)", name, at, it);
            break;
        }
        case 2: { /* the first bytes of a block (token count, flags) overwritten */
            if (!M.nb)
                continue;
            block_map *B = &M.b[tu_below(&s, M.nb)];
            size_t at = B->start + tu_below(&s, 6);
            if (at < len)
                x[at] = (uint8_t)tu_next(&s);
            snprintf(what, sizeof what, "%s: block head byte %zu overwritten (iteration %lu)", name,
                     at, it);
            break;
        }
        case 3: { /* a byte inserted or deleted: the sizes no longer add up */
            size_t at = tu_below(&s, len + 1);
            if (tu_below(&s, 2) && len > 0) {
                at = at == len ? len - 1 : at;
                memmove(x + at, ch + at + 1, len - at - 1);
                xl = len - 1;
            } else {
                memcpy(x + at + 1, ch + at, len - at);
                x[at] = (uint8_t)tu_next(&s);
                xl = len + 1;
            }
            must = MUST_FAIL;
            snprintf(what, sizeof what, "%s: byte %s at %zu (iteration %lu)", name,
                     xl < len ? "deleted" : "inserted", at, it);
            break;
        }
        case 4: { /* garbage after a plausible header */
            xl = len > 28 ? len : 28 + tu_below(&s, 64);
            for (size_t i = 28; i < xl; i++)
                x[i] = (uint8_t)tu_next(&s);
            snprintf(what, sizeof what, "%s: garbage after the header (iteration %lu)", name, it);
            break;
        }
        default: { /* several overwrites in the token area */
            for (int i = 0; i < 3 && len > M.table_end; i++)
                x[M.table_end + tu_below(&s, len - M.table_end)] = (uint8_t)tu_next(&s);
            snprintf(what, sizeof what, "%s: token bytes overwritten (iteration %lu)", name, it);
            break;
        }
        }
        attempt(x, xl, M.n, must, want, what);
    }
    free(x);
    unmap_chunk(&M);
}

/* Headers whose n and nb agree only through 64-bit wrap-around, and other lies. */
static void hostile_headers(void)
{
    uint8_t h[28 + 16] = {'G', 'P', 'L', 'Z', 1, 0, 1, 128, 8, 0, 0, 0};
    struct {
        uint64_t n, nb;
        unsigned S, lg;
    } cases[] = {
        {UINT64_MAX, 0, 1, 8},       {UINT64_MAX - 200, 0, 1, 8}, {UINT64_MAX, 0, 1, 14},
        {UINT64_MAX, 1, 1, 8},       {UINT64_MAX, 0, 2, 8},       {(uint64_t)1 << 63, 0, 1, 8},
        {UINT64_MAX - 16000, 0, 1, 14}, {255, 0, 1, 8},           {256, 0, 1, 8},
        {3, 1, 4, 8},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        h[6] = (uint8_t)cases[i].S;
        h[8] = (uint8_t)cases[i].lg;
        put_le(h + 12, cases[i].n, 8);
        put_le(h + 20, cases[i].nb, 8);
        for (size_t len = 28; len <= 28 + 16; len += 4) {
            gpulz_chunk_info info;
            tu_clear_error();
            int rc = gpulz_chunk_info_get(h, len, &info);
            TU_CHECK(rc != GPULZ_OK && gpulz_last_error()[0],
                     "chunk_info_get accepts n=%llu nb=%llu S=%u C=2^%u in %zu bytes",
                     (unsigned long long)cases[i].n, (unsigned long long)cases[i].nb, cases[i].S,
                     cases[i].lg, len);
            uint8_t out[64];
            size_t got;
            rc = gpulz_decompress(h, len, out, sizeof out, &got, NULL);
            TU_CHECK(rc != GPULZ_OK, "decompress accepts n=%llu nb=%llu",
                     (unsigned long long)cases[i].n, (unsigned long long)cases[i].nb);
        }
    }
}

/*
 * A header that declares far more than its bytes can hold, with a table
 * that adds up: blocks of 16384 symbols of 8 bytes, each "encoded" in 2
 * bytes.  The size calls, whose callers allocate what they answer, refuse
 * it (they answered 1000 x 128 KiB for a 6 KB chunk): gpulz_decompressed_size,
 * which does not read the table, as a chunk shorter than its header needs;
 * gpulz_chunk_info_get, whose table adds up, as damaged.  The decoder too.
 * Then the most compressible blocks there are, zeros, in every symbol size
 * and the largest and smallest blocks: the size calls still answer them.
 */
static void lying_blocks(void)
{
    const uint64_t nb = 1000, C = 16384, S = 8;
    const size_t len = 28 + 4 * nb + 2 * nb;
    uint8_t *ch = tu_xmalloc(len);
    memcpy(ch, "GPLZ\x01\x00\x08\x80\x0e\x00\x00\x00", 12);
    put_le(ch + 12, nb * C * S, 8);
    put_le(ch + 20, nb, 8);
    for (uint64_t k = 0; k < nb; k++) {
        put_le(ch + 28 + 4 * k, 2, 4);
        put_le(ch + 28 + 4 * nb + 2 * k, 1, 2); /* a token count of 1, nothing more */
    }
    uint64_t size = 0;
    tu_clear_error();
    int rc = gpulz_decompressed_size(ch, len, &size);
    TU_CHECK(rc == GPULZ_ERR_TRUNCATED && gpulz_last_error()[0],
             "decompressed_size of 2-byte blocks of 128 KiB: %d, %llu bytes", rc, (unsigned long long)size);
    gpulz_chunk_info info;
    rc = gpulz_chunk_info_get(ch, len, &info);
    /* its table, walked there, adds up: the blocks are what is wrong */
    TU_CHECK(rc == GPULZ_ERR_CORRUPT, "chunk_info_get of 2-byte blocks of 128 KiB: %d", rc);
    uint8_t out[64];
    size_t got = 0;
    TU_CHECK(gpulz_decompress(ch, len, out, sizeof out, &got, NULL) != GPULZ_OK, "2-byte blocks decoded");
    free(ch);

    for (unsigned s = 1; s <= 8; s *= 2)
        for (unsigned c = 256; c <= 16384; c *= 64) {
            const size_t n = (size_t)s * c * 3 + s + 1; /* three blocks, a block of one symbol, a tail */
            uint8_t *zeros = calloc(n, 1);
            gpulz_params p;
            tu_params(&p, s, 255, c, 1);
            size_t clen = 0;
            uint8_t *z = zeros ? tu_compress(zeros, n, &p, &clen) : NULL;
            TU_CHECK(z != NULL, "zeros S=%u C=%u: compress", s, c);
            if (z) {
                rc = gpulz_decompressed_size(z, clen, &size);
                TU_CHECK(rc == GPULZ_OK && size == n, "zeros S=%u C=%u (%zu bytes in %zu): %d, %s", s, c, n,
                         clen, rc, gpulz_last_error());
                TU_CHECK(gpulz_chunk_info_get(z, clen, &info) == GPULZ_OK, "zeros S=%u C=%u: chunk_info_get", s, c);
            }
            free(z);
            free(zeros);
        }
}

/*
 * One-block chunks written by hand, each breaking exactly one rule of §5
 * while everything else (table, sizes, symbol count) stays consistent, so
 * that only the check of that rule can reject them.  Some of them (a token
 * cut off at the end of the chunk) show only under valgrind or ASan when
 * the check is missing: the chunk is the last thing in its buffer.
 */
static void crafted(void)
{
    static const struct {
        const char *what;
        unsigned S, W, n, blen, ok;
        uint8_t b[16];
    } cases[] = {
        {"control: literal + match L 9 D 1", 1, 128, 10, 6, 1, {2, 0, 2, 'a', 9, 1}},
        {"match L 2 under Lmin 3 (S 1)", 1, 128, 10, 8, 0, {3, 0, 6, 'a', 2, 1, 7, 1}},
        {"match L 1 under Lmin 2 (S 2)", 2, 128, 20, 9, 0, {3, 0, 6, 'a', 'a', 1, 1, 8, 1}},
        {"match offset 2 past the 1 decoded symbol", 1, 128, 10, 6, 0, {2, 0, 2, 'a', 9, 2}},
        {"match offset 0", 1, 128, 10, 6, 0, {2, 0, 2, 'a', 9, 0}},
        {"match offset 2 beyond W 1", 1, 1, 10, 7, 0, {3, 0, 4, 'a', 'b', 8, 2}},
        {"a byte after the last token", 1, 128, 10, 7, 0, {2, 0, 2, 'a', 9, 1, 0}},
        {"match cut off by the chunk's end", 1, 128, 10, 5, 0, {2, 0, 2, 'a', 9}},
        {"literal cut off by the chunk's end", 8, 128, 16, 13, 0,
         {2, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2}},
        {"T 3 but tokens for 2", 1, 128, 10, 6, 0, {3, 0, 2, 'a', 9, 1}},
        {"flag area cut off", 1, 128, 10, 2, 0, {9, 0}},
        {"T 0", 1, 128, 10, 3, 0, {0, 0, 0}},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t ch[28 + 4 + 16] = {'G', 'P', 'L', 'Z', 1, 0};
        ch[6] = (uint8_t)cases[i].S;
        ch[7] = (uint8_t)cases[i].W;
        ch[8] = 8;
        put_le(ch + 12, cases[i].n, 8);
        put_le(ch + 20, 1, 8);
        put_le(ch + 28, cases[i].blen, 4);
        memcpy(ch + 32, cases[i].b, cases[i].blen);
        size_t len = 32 + cases[i].blen;
        char what[120];
        snprintf(what, sizeof what, "crafted: %s", cases[i].what);
        attempt(ch, len, cases[i].n, cases[i].ok ? MAY_PASS : MUST_FAIL,
                cases[i].ok ? 0 : GPULZ_ERR_CORRUPT, what);
        if (cases[i].ok) {
            uint8_t out[16];
            size_t got = 0;
            int rc = gpulz_decompress(ch, len, out, sizeof out, &got, NULL);
            TU_CHECK(rc == GPULZ_OK && got == 10 && !memcmp(out, "aaaaaaaaaa", 10),
                     "crafted control chunk does not decode: %s", gpulz_last_error());
        }
    }
}

/*
 * The crafted chunks of crafted_chunks.h (gpu_codec_test gives them to the
 * GPU decoders): the CPU decoder, the reference, gives each the status it
 * was built for, the controls decode to their bytes, and nothing is
 * written past the output's end.  A base chunk from the encoder without
 * the shape its rewrites assume is a failure, not a skip: the cases would
 * be gone from both tests unnoticed.
 */
static void crafted_shared(void)
{
    cc_list L;
    cc_build(&L);
    TU_CHECK(!L.broken, "crafted chunks: an encoder chunk lacks the streams its rewrites need");
    unsigned bad = 0;
    for (size_t i = 0; i < L.count; i++) {
        const cc_case *c = &L.c[i];
        uint8_t *src = tu_xmalloc(c->len), *dst = tu_xmalloc(c->cap + GUARD);
        memcpy(src, c->bytes, c->len);
        memset(dst, GUARD_BYTE, c->cap + GUARD);
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            gpulz_params p;
            tu_params(&p, 1, 128, 256, threads);
            size_t got = 0;
            tu_clear_error();
            int rc = gpulz_decompress(src, c->len, dst, c->cap, &got, &p);
            const int ok = (c->want == CC_ANY ? rc == GPULZ_OK || rc == GPULZ_ERR_CORRUPT : rc == c->want) &&
                           (rc != GPULZ_OK || !c->expect ||
                            (got == c->expect_len && !memcmp(dst, c->expect, got)));
            TU_CHECK(ok, "crafted %s (threads %u): %s, want %s (%s)", c->name, threads, gpulz_strerror(rc),
                     c->want == CC_ANY ? "ok or corrupt" : gpulz_strerror(c->want), gpulz_last_error());
            bad += !ok;
            for (size_t j = c->cap; j < c->cap + GUARD; j++)
                if (dst[j] != GUARD_BYTE) {
                    tu_fail("crafted %s: decompress wrote past dst_cap", c->name);
                    break;
                }
        }
        free(src);
        free(dst);
    }
    printf("crafted chunks: %zu cases, %u failures\n", L.count, bad);
    cc_free(&L);
}

/* Inputs whose chunks mix stored and encoded blocks, tails and all symbol sizes. */
static uint8_t *make_input(unsigned which, size_t n)
{
    uint8_t *in = tu_xmalloc(n);
    uint64_t s = 99 + which;
    static const char *const kinds[] = {"records", "zeros", "quant", "int", "float", "runs"};
    if (which < 6) {
        if (n)
            gpulz_gen(kinds[which], in, n, which);
    } else if (which == 6) { /* stored and encoded blocks alternate */
        for (size_t i = 0; i < n; i++)
            in[i] = (i / 256) % 2 ? (uint8_t)tu_next(&s) : (uint8_t)(i / 7);
    } else {
        tu_fill_matchy(in, n, &s);
    }
    return in;
}

int main(int argc, char **argv)
{
    unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    struct {
        unsigned which;
        size_t n;
        unsigned S, W, C;
    } bases[] = {
        {1, 0, 1, 128, 256},    {1, 3, 4, 128, 256},   {7, 10, 1, 128, 256},
        {7, 2000, 1, 128, 256}, {0, 3001, 4, 64, 256}, {1, 5000, 2, 255, 256},
        {6, 4000, 1, 32, 256},  {2, 4097, 2, 128, 512}, {3, 6001, 8, 2, 256},
        {4, 3000, 4, 255, 256}, {5, 2050, 1, 1, 256},  {8, 2500, 2, 7, 256},
        {9, 1200, 8, 255, 256}, {10, 9000, 1, 200, 256},
    };
    hostile_headers();
    lying_blocks();
    crafted();
    crafted_shared();
    for (unsigned i = 0; i < sizeof bases / sizeof *bases; i++) {
        uint8_t *in = make_input(bases[i].which, bases[i].n);
        gpulz_params p;
        tu_params(&p, bases[i].S, bases[i].W, bases[i].C, 1);
        size_t len = 0;
        uint8_t *ch = tu_compress(in, bases[i].n, &p, &len);
        free(in);
        if (!ch)
            continue;
        char name[100];
        snprintf(name, sizeof name, "chunk %u (n=%zu S=%u W=%u C=%u, %zu bytes)", i, bases[i].n,
                 bases[i].S, bases[i].W, bases[i].C, len);
        unsigned long before = attempts;
        targeted(ch, len, name);
        random_damage(ch, len, name, iters, 1000 + i);
        printf("%s: %lu damaged versions\n", name, attempts - before);
        free(ch);
    }
    printf("%lu damaged chunks: %lu rejected, %lu still valid (decoded to the original size)\n",
           attempts, failed_as_expected, passed_valid);
    printf("statuses: ok %lu, corrupt %lu, truncated %lu, version %lu, dst_size %lu\n",
           status_count[0], status_count[-GPULZ_ERR_CORRUPT], status_count[-GPULZ_ERR_TRUNCATED],
           status_count[-GPULZ_ERR_VERSION], status_count[-GPULZ_ERR_DST_SIZE]);
    return tu_finish("codec_corrupt");
}
