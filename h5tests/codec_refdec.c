/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_refdec.c - see codec_refdec.h.  Each function follows one section
 * of docs/FORMAT.md and says which; every rule of section 20 (and of section
 * 9 for version 1) is checked before a value is used.  Sizes from the chunk
 * are 64-bit and are compared against what is left before any arithmetic
 * that could overflow.
 *
 * Where FORMAT.md leaves room, this decoder takes the most literal reading:
 *  - §15 "K values (0 to 4095)": K above 4095 is refused (the phrase could
 *    also be read as the range of the values, which §15 later bounds by
 *    2^(8u)).
 *  - §14/§16: a rANS stream of N = 0 (a table, no directory, no segment) is
 *    valid; only §18 (the encoder) stores empty streams.  gpulz's CPU
 *    decoder reads it too.
 *  - §12 and §20: flag bits past T_k are 0, refused when set, as version 1
 *    does (§5).
 *  - §20 "every match as section 9 checks it": version 2 matches keep
 *    version 1's Lmin <= L.
 *  - A stream's body too short for what it declares (its table, say) is
 *    CORRUPT; TRUNCATED is kept for the chunk itself ending early (§20).
 *  - Valid but non-canonical encodings (a stored stream where §18 would
 *    code one, tables with unused values or an unneeded escape, a parse that
 *    is not greedy, any g from 10 to 15) are read: §18 binds encoders.
 */
#include "codec_refdec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANS_M 4096u         /* §15: the model's slots */
#define RANS_L (1u << 16)    /* §16: the lower bound of a state */
#define MAX_ENTRIES 4096u    /* K + E <= 4095 + 1 */

enum { F_DELTA = 1, F_SPLIT = 2, F_LZSS = 4, F_ENTROPY = 8, F_CHECKSUM = 16 };

typedef struct ctx {
    const uint8_t *chunk;
    char *err;
    size_t errlen;
    refdec_info info;
} ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(ctx *c, int rc, const char *fmt, ...)
{
    if (c->err && c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

static void note(ctx *c, const uint8_t *at, unsigned len, const char *what)
{
    if (c->info.nfields < REFDEC_FIELDS) {
        struct refdec_field *f = &c->info.field[c->info.nfields++];
        f->pos = (uint64_t)(at - c->chunk);
        f->len = len;
        f->what = what;
    }
}

/* A run of bytes read front to back.  Running out is short_rc: TRUNCATED for
 * the chunk itself (it ends early), CORRUPT inside a stream body (its own
 * declared size is too small for what it holds). */
typedef struct span {
    const uint8_t *p;
    uint64_t len, pos;
    int short_rc;
} span;

static uint64_t left(const span *s)
{
    return s->len - s->pos;
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int take(ctx *c, span *s, uint64_t k, const uint8_t **out, const char *what)
{
    if (k > left(s))
        return fail(c, s->short_rc, "%s: needs %llu bytes, %llu left", what,
                    (unsigned long long)k, (unsigned long long)left(s));
    *out = s->p + s->pos;
    s->pos += k;
    return REFDEC_OK;
}

static int take_le(ctx *c, span *s, unsigned bytes, uint64_t *v, const char *what)
{
    const uint8_t *p = NULL;
    int rc = take(c, s, bytes, &p, what);
    if (rc == REFDEC_OK)
        *v = get_le(p, bytes);
    return rc;
}

/* ------------------------------------------------------------ §17 checksum */

#define P1 2654435761u
#define P2 2246822519u
#define P3 3266489917u
#define P4 668265263u
#define P5 374761393u

static uint32_t rotl32(uint32_t x, unsigned r)
{
    return (uint32_t)(x << r | x >> (32 - r));
}

static uint32_t mul32(uint32_t a, uint32_t b)
{
    return (uint32_t)((uint64_t)a * b);
}

static uint32_t mix32(uint32_t h)
{
    h = mul32(h ^ h >> 15, P2);
    h = mul32(h ^ h >> 13, P3);
    return h ^ h >> 16;
}

static uint32_t hash32(const uint8_t *b, uint64_t len)
{
    uint32_t lane[32];
    for (uint32_t l = 0; l < 32; l++)
        lane[l] = P1 + l;
    uint64_t words = (len + 3) / 4;
    for (uint64_t j = 0; j < words; j++) {
        uint32_t w = 0;
        for (unsigned i = 0; i < 4; i++)
            if (4 * j + i < len)
                w |= (uint32_t)b[4 * j + i] << (8 * i);
        unsigned l = (unsigned)(j % 32);
        lane[l] = mul32(rotl32(lane[l] + mul32(w, P2), 13), P1);
    }
    uint32_t H = (uint32_t)len;
    for (unsigned l = 0; l < 32; l++)
        H = mul32(rotl32(H + mul32(lane[l], P3), 17), P4);
    return mix32(H);
}

uint32_t refdec_checksum(const uint8_t *data, uint64_t n, unsigned S, unsigned C)
{
    uint64_t m = n / S, nb = m / C + (m % C != 0);
    uint32_t X = 0;
    for (uint64_t k = 0; k <= nb; k++) {
        uint64_t from, to;
        if (k < nb) {
            from = k * C * S;
            to = (k + 1) * C < m ? (k + 1) * C * S : m * S;
        } else {
            from = m * S;
            to = n;
        }
        X += mix32(hash32(data + from, to - from) + mul32((uint32_t)k, P5));
    }
    return mix32(X ^ (uint32_t)n ^ mul32((uint32_t)(n >> 32), P1));
}

/* ------------------------------------------------------------ §15 the table */

typedef struct table {
    unsigned K, E;
    uint32_t value[MAX_ENTRIES];
    uint32_t freq[MAX_ENTRIES], cum[MAX_ENTRIES];
    uint16_t slot[RANS_M]; /* the entry owning each slot */
} table;

/* LEB128, at most 3 bytes, minimal. */
static int varint(ctx *c, span *s, uint32_t *v, const char *what)
{
    uint32_t x = 0;
    for (unsigned i = 0; i < 3; i++) {
        const uint8_t *p = NULL;
        int rc = take(c, s, 1, &p, what);
        if (rc)
            return rc;
        x |= (uint32_t)(*p & 0x7F) << (7 * i);
        if (!(*p & 0x80)) {
            if (i > 0 && *p == 0)
                return fail(c, REFDEC_CORRUPT, "%s: varint not minimal", what);
            *v = x;
            return REFDEC_OK;
        }
    }
    return fail(c, REFDEC_CORRUPT, "%s: varint longer than 3 bytes", what);
}

static int read_table(ctx *c, span *s, unsigned u, table *t)
{
    uint64_t K, E;
    int rc;
    note(c, s->p + s->pos, 2, "table K");
    note(c, s->p + s->pos + 2, 1, "table E");
    note(c, s->p + s->pos + 3, 1, "table varint");
    if ((rc = take_le(c, s, 2, &K, "table K")) || (rc = take_le(c, s, 1, &E, "table E")))
        return rc;
    if (E > 1)
        return fail(c, REFDEC_CORRUPT, "table: E %llu is not 0 or 1", (unsigned long long)E);
    /* "The table lists K values (0 to 4095)" */
    if (K > RANS_M - 1)
        return fail(c, REFDEC_CORRUPT, "table: K %llu above 4095", (unsigned long long)K);
    if (K + E < 1)
        return fail(c, REFDEC_CORRUPT, "table: no entry");
    t->K = (unsigned)K;
    t->E = (unsigned)E;
    uint64_t limit = (uint64_t)1 << (8 * u), prev = 0;
    for (unsigned i = 0; i < t->K; i++) {
        uint32_t d;
        if ((rc = varint(c, s, &d, "table value")))
            return rc;
        uint64_t v = i == 0 ? d : prev + d + 1;
        if (v >= limit)
            return fail(c, REFDEC_CORRUPT, "table: value %llu not below 2^%u",
                        (unsigned long long)v, 8 * u);
        t->value[i] = (uint32_t)v;
        prev = v;
    }
    uint64_t sum = 0;
    for (unsigned i = 0; i < t->K + t->E; i++) {
        uint32_t f;
        if ((rc = varint(c, s, &f, "table frequency")))
            return rc;
        t->cum[i] = (uint32_t)(sum < RANS_M ? sum : RANS_M);
        sum += (uint64_t)f + 1;
        if (sum > RANS_M)
            return fail(c, REFDEC_CORRUPT, "table: frequencies add up to more than %u", RANS_M);
        t->freq[i] = f + 1;
    }
    if (sum != RANS_M)
        return fail(c, REFDEC_CORRUPT, "table: frequencies add up to %llu, not %u",
                    (unsigned long long)sum, RANS_M);
    for (unsigned i = 0; i < t->K + t->E; i++)
        for (uint32_t x = t->cum[i]; x < t->cum[i] + t->freq[i]; x++)
            t->slot[x] = (uint16_t)i;
    return REFDEC_OK;
}

/* ------------------------------------------------------------ §16 segments */

static int read_word(ctx *c, const uint8_t *words, uint64_t w, uint64_t *wi, uint64_t *x,
                     uint64_t seg)
{
    if (*wi >= w)
        return fail(c, REFDEC_CORRUPT, "segment %llu: a word read past its %llu words",
                    (unsigned long long)seg, (unsigned long long)w);
    *x = *x << 16 | get_le(words + 2 * *wi, 2);
    ++*wi;
    return REFDEC_OK;
}

static int decode_segment(ctx *c, const table *t, unsigned u, const uint8_t *states,
                          const uint8_t *words, uint64_t w, uint64_t count, uint16_t *out,
                          uint64_t seg)
{
    uint64_t x[32], wi = 0;
    int rc;
    for (unsigned l = 0; l < 32; l++) {
        x[l] = get_le(states + 4 * l, 4);
        if (x[l] < RANS_L)
            return fail(c, REFDEC_CORRUPT, "segment %llu: lane %u starts at %llu < 2^16",
                        (unsigned long long)seg, l, (unsigned long long)x[l]);
    }
    uint64_t rounds = (count + 31) / 32;
    unsigned esc_entry = t->E ? t->K : MAX_ENTRIES; /* the escape is listed last */
    for (uint64_t r = 0; r < rounds; r++) {
        int escaped[32] = {0};
        for (unsigned l = 0; l < 32; l++) {
            uint64_t i = 32 * r + l;
            if (i >= count)
                break;
            uint64_t s = x[l] % RANS_M;
            unsigned e = t->slot[s];
            x[l] = t->freq[e] * (x[l] / RANS_M) + s - t->cum[e];
            if (x[l] < RANS_L && (rc = read_word(c, words, w, &wi, &x[l], seg)))
                return rc;
            if (e == esc_entry)
                escaped[l] = 1;
            else
                out[i] = (uint16_t)t->value[e];
        }
        for (unsigned l = 0; l < 32; l++) {
            if (!escaped[l])
                continue;
            out[32 * r + l] = (uint16_t)(x[l] % ((uint64_t)1 << (8 * u)));
            x[l] >>= 8 * u;
            if (x[l] < RANS_L && (rc = read_word(c, words, w, &wi, &x[l], seg)))
                return rc;
            c->info.escapes++;
        }
    }
    for (unsigned l = 0; l < 32; l++)
        if (x[l] != RANS_L)
            return fail(c, REFDEC_CORRUPT, "segment %llu: lane %u ends at %llu, not 2^16",
                        (unsigned long long)seg, l, (unsigned long long)x[l]);
    if (wi != w)
        return fail(c, REFDEC_CORRUPT, "segment %llu: %llu of its %llu words read",
                    (unsigned long long)seg, (unsigned long long)wi, (unsigned long long)w);
    return REFDEC_OK;
}

static int decode_rans(ctx *c, span *s, uint64_t N, unsigned u, unsigned g, uint16_t *out)
{
    table *t = malloc(sizeof *t);
    if (!t)
        return fail(c, REFDEC_NOMEM, "out of memory");
    int rc = read_table(c, s, u, t);
    if (rc)
        goto done;
    uint64_t G = (uint64_t)1 << g, nseg = N / G + (N % G != 0);
    if (nseg > left(s) / 4) {
        rc = fail(c, REFDEC_CORRUPT, "rANS: a directory of %llu segments does not fit",
                  (unsigned long long)nseg);
        goto done;
    }
    const uint8_t *dir = NULL;
    take(c, s, 4 * nseg, &dir, "directory");
    if (nseg) {
        note(c, dir, 4, "directory word");
        note(c, dir + 4 * nseg, 4, "a state");
        note(c, dir + 4 * nseg + 124, 4, "lane 31 state");
        if (get_le(dir, 4))
            note(c, dir + 4 * nseg + 128, 2, "first word");
    }
    uint64_t need = 0;
    for (uint64_t k = 0; k < nseg; k++) {
        need += 128 + 2 * get_le(dir + 4 * k, 4);
        if (need > left(s)) {
            rc = fail(c, REFDEC_CORRUPT, "rANS: the segments take more than the stream's size");
            goto done;
        }
    }
    if (need != left(s)) {
        rc = fail(c, REFDEC_CORRUPT, "rANS: the segments take %llu bytes, the stream has %llu",
                  (unsigned long long)need, (unsigned long long)left(s));
        goto done;
    }
    for (uint64_t k = 0; k < nseg; k++) {
        uint64_t w = get_le(dir + 4 * k, 4), count = N - k * G < G ? N - k * G : G;
        const uint8_t *states = NULL, *words = NULL;
        take(c, s, 128, &states, "states");
        take(c, s, 2 * w, &words, "words");
        if ((rc = decode_segment(c, t, u, states, words, w, count, out + k * G, k)))
            goto done;
    }
    c->info.segments += nseg;
    c->info.streams_rans++;
done:
    free(t);
    return rc;
}

/* ------------------------------------------------------------ §14 a stream */

/* Read one stream of want units of u bytes from s; *out gets them (malloc'd). */
static int read_stream(ctx *c, span *s, uint64_t want, unsigned u, unsigned g, const char *name,
                       uint16_t **out)
{
    uint64_t kind, N, size;
    int rc;
    *out = NULL;
    if (left(s) >= 17) {
        note(c, s->p + s->pos, 1, "stream kind");
        note(c, s->p + s->pos + 1, 8, "stream N");
        note(c, s->p + s->pos + 9, 8, "stream size");
    }
    if ((rc = take_le(c, s, 1, &kind, name)) || (rc = take_le(c, s, 8, &N, name)) ||
        (rc = take_le(c, s, 8, &size, name)))
        return rc;
    if (kind > 2)
        return fail(c, REFDEC_CORRUPT, "%s: stream kind %llu", name, (unsigned long long)kind);
    if (N != want)
        return fail(c, REFDEC_CORRUPT, "%s: %llu units, the chunk needs %llu", name,
                    (unsigned long long)N, (unsigned long long)want);
    if (size > left(s))
        return fail(c, s->short_rc, "%s: a body of %llu bytes, %llu left", name,
                    (unsigned long long)size, (unsigned long long)left(s));
    span b = {s->p + s->pos, size, 0, REFDEC_CORRUPT};
    s->pos += size;
    /* N is at most what the chunk's checked fields allow (its symbol count
     * or its token count), so this allocation is bounded by them */
    if (N > SIZE_MAX / 2 - 1)
        return fail(c, REFDEC_NOMEM, "%s: %llu units", name, (unsigned long long)N);
    uint16_t *units = malloc((size_t)(N ? N : 1) * sizeof *units);
    if (!units)
        return fail(c, REFDEC_NOMEM, "out of memory");
    const uint8_t *p = NULL;
    if (kind == 0) {
        if (size % u || size / u != N) {
            rc = fail(c, REFDEC_CORRUPT, "%s: stored, %llu bytes for %llu units of %u", name,
                      (unsigned long long)size, (unsigned long long)N, u);
            goto bad;
        }
        take(c, &b, size, &p, name);
        for (uint64_t i = 0; i < N; i++)
            units[i] = (uint16_t)get_le(p + u * i, u);
        c->info.streams_stored++;
    } else if (kind == 1) {
        if (N < 1 || size != u) {
            rc = fail(c, REFDEC_CORRUPT, "%s: constant, %llu bytes for %llu units", name,
                      (unsigned long long)size, (unsigned long long)N);
            goto bad;
        }
        take(c, &b, u, &p, name);
        for (uint64_t i = 0; i < N; i++)
            units[i] = (uint16_t)get_le(p, u);
        c->info.streams_constant++;
    } else {
        if ((rc = decode_rans(c, &b, N, u, g, units)))
            goto bad;
    }
    *out = units;
    return REFDEC_OK;
bad:
    free(units);
    return rc;
}

/* ------------------------------------------------------------ symbols */

static uint64_t sym_get(const uint8_t *buf, uint64_t i, unsigned S)
{
    return get_le(buf + i * S, S);
}

static void sym_copy(uint8_t *buf, uint64_t to, uint64_t from, unsigned S)
{
    memmove(buf + to * S, buf + from * S, S);
}

/* §5: one match of block [base, base+cnt) at symbol o (relative): checked, then copied. */
static int match(ctx *c, uint8_t *buf, uint64_t base, uint64_t cnt, uint64_t *o, unsigned L,
                 unsigned D, unsigned S, unsigned W, uint64_t k)
{
    unsigned lm = S >= 4 ? 1 : S == 2 ? 2 : 3;
    if (L < lm || L > 255)
        return fail(c, REFDEC_CORRUPT, "block %llu: match length %u outside %u..255",
                    (unsigned long long)k, L, lm);
    if (D < 1 || D > W)
        return fail(c, REFDEC_CORRUPT, "block %llu: match offset %u outside 1..W = %u",
                    (unsigned long long)k, D, W);
    if (D > *o)
        return fail(c, REFDEC_CORRUPT, "block %llu: match offset %u reaches before the block",
                    (unsigned long long)k, D);
    if (L > cnt - *o)
        return fail(c, REFDEC_CORRUPT, "block %llu: match length %u past the block's end",
                    (unsigned long long)k, L);
    for (unsigned j = 0; j < L; j++, ++*o)
        sym_copy(buf, base + *o, base + *o - D, S);
    c->info.matches++;
    return REFDEC_OK;
}

/* ------------------------------------------------------------ version 2 */

typedef struct v2 {
    unsigned flags, S, W, C, g;
    uint64_t n, m, t, nb;
} v2;

static uint64_t block_count(const v2 *h, uint64_t k)
{
    return h->m - k * h->C < h->C ? h->m - k * h->C : h->C;
}

/* §12 without LZSS. */
static int body_fast(ctx *c, span *s, const v2 *h, uint8_t *buf)
{
    int split = !!(h->flags & F_SPLIT);
    unsigned J = split ? h->S : 1, u = split ? 1 : h->S;
    int rc = REFDEC_OK;
    for (unsigned j = 0; j < J; j++) {
        uint16_t *units;
        char name[32];
        snprintf(name, sizeof name, "stream %u", j);
        if ((rc = read_stream(c, s, h->m, u, h->g, name, &units)))
            return rc;
        for (uint64_t i = 0; i < h->m; i++) {
            if (split)
                buf[i * h->S + j] = (uint8_t)units[i];
            else
                put_le(buf + i * h->S, units[i], h->S);
        }
        free(units);
    }
    return rc;
}

/* §12 with LZSS. */
static int body_ratio(ctx *c, span *s, const v2 *h, uint8_t *buf)
{
    int split = !!(h->flags & F_SPLIT);
    unsigned J = split ? h->S : 1, u = split ? 1 : h->S;
    int rc;
    /* the token table */
    if (h->nb > left(s) / 2)
        return fail(c, REFDEC_TRUNCATED, "the token table of %llu blocks does not fit",
                    (unsigned long long)h->nb);
    const uint8_t *tt = NULL;
    take(c, s, 2 * h->nb, &tt, "token table");
    for (uint64_t k = 0; k < h->nb && k < 3; k++)
        note(c, tt + 2 * (h->nb - 1 - k), 2, "token count");
    uint64_t nflag = 0;
    for (uint64_t k = 0; k < h->nb; k++) {
        uint64_t T = get_le(tt + 2 * k, 2);
        if (T < 1 || T > block_count(h, k))
            return fail(c, REFDEC_CORRUPT, "block %llu: %llu tokens for %llu symbols",
                        (unsigned long long)k, (unsigned long long)T,
                        (unsigned long long)block_count(h, k));
        nflag += (T + 7) / 8;
    }
    uint16_t *flags = NULL, *lit[8] = {0}, *lens = NULL, *offs = NULL;
    if ((rc = read_stream(c, s, nflag, 1, h->g, "flags", &flags)))
        goto done;
    /* the flag bits: count them, and the bits past each T_k must be 0 */
    uint64_t nmatch = 0, nlit = 0, fpos = 0;
    for (uint64_t k = 0; k < h->nb; k++) {
        uint64_t T = get_le(tt + 2 * k, 2);
        for (uint64_t i = 0; i < (T + 7) / 8 * 8; i++) {
            unsigned bit = flags[fpos + i / 8] >> (i % 8) & 1;
            if (i >= T && bit) {
                rc = fail(c, REFDEC_CORRUPT, "block %llu: flag bit %llu past T = %llu is set",
                          (unsigned long long)k, (unsigned long long)i, (unsigned long long)T);
                goto done;
            }
            if (i < T) {
                nmatch += bit;
                nlit += !bit;
            }
        }
        fpos += (T + 7) / 8;
    }
    for (unsigned j = 0; j < J; j++) {
        char name[32];
        snprintf(name, sizeof name, "literals %u", j);
        if ((rc = read_stream(c, s, nlit, u, h->g, name, &lit[j])))
            goto done;
    }
    if ((rc = read_stream(c, s, nmatch, 1, h->g, "lengths", &lens)) ||
        (rc = read_stream(c, s, nmatch, 1, h->g, "offsets", &offs)))
        goto done;
    /* the tokens of each block, through the streams in order */
    uint64_t li = 0, mi = 0;
    fpos = 0;
    for (uint64_t k = 0; k < h->nb; k++) {
        uint64_t T = get_le(tt + 2 * k, 2), cnt = block_count(h, k), base = k * h->C, o = 0;
        for (uint64_t i = 0; i < T; i++) {
            if (flags[fpos + i / 8] >> (i % 8) & 1) {
                if ((rc = match(c, buf, base, cnt, &o, lens[mi], offs[mi], h->S, h->W, k)))
                    goto done;
                mi++;
            } else {
                if (o >= cnt) {
                    rc = fail(c, REFDEC_CORRUPT, "block %llu: a literal past the block's end",
                              (unsigned long long)k);
                    goto done;
                }
                uint8_t *d = buf + (base + o) * h->S;
                for (unsigned j = 0; j < J; j++) {
                    if (split)
                        d[j] = (uint8_t)lit[j][li];
                    else
                        put_le(d, lit[0][li], h->S);
                }
                li++;
                o++;
            }
        }
        if (o != cnt) {
            rc = fail(c, REFDEC_CORRUPT, "block %llu: %llu tokens decode to %llu of %llu symbols",
                      (unsigned long long)k, (unsigned long long)T, (unsigned long long)o,
                      (unsigned long long)cnt);
            goto done;
        }
        fpos += (T + 7) / 8;
    }
done:
    free(flags);
    for (unsigned j = 0; j < 8; j++)
        free(lit[j]);
    free(lens);
    free(offs);
    return rc;
}

/* §13: the running sum, restarting at each block. */
static void undelta(const v2 *h, uint8_t *buf)
{
    uint64_t mask = h->S == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * h->S)) - 1;
    for (uint64_t k = 0; k < h->nb; k++) {
        uint64_t base = k * h->C, cnt = block_count(h, k), acc = 0;
        for (uint64_t i = 0; i < cnt; i++) {
            acc = (acc + sym_get(buf, base + i, h->S)) & mask;
            put_le(buf + (base + i) * h->S, acc, h->S);
        }
    }
}

static int decode_v2(ctx *c, const uint8_t *src, size_t len, uint8_t *dst, size_t dst_cap,
                     size_t *dst_len)
{
    span s = {src, len, 0, REFDEC_TRUNCATED};
    const uint8_t *hd = NULL;
    int rc;
    if ((rc = take(c, &s, 32, &hd, "header")))
        return rc;
    v2 h;
    h.flags = hd[5];
    h.S = hd[6];
    h.W = hd[7];
    unsigned lgC = hd[8];
    h.g = hd[9];
    h.n = get_le(hd + 12, 8);
    h.nb = get_le(hd + 20, 8);
    uint32_t ck = (uint32_t)get_le(hd + 28, 4);
    /* §11 */
    if (h.flags & 0xE0)
        return fail(c, REFDEC_VERSION, "flag bits 5-7: %02x", h.flags);
    if (!(h.flags & F_ENTROPY))
        return fail(c, REFDEC_CORRUPT, "version 2 without ENTROPY");
    if (h.S != 1 && h.S != 2 && h.S != 4 && h.S != 8)
        return fail(c, REFDEC_CORRUPT, "symbol size %u", h.S);
    if ((h.flags & F_SPLIT) && h.S < 2)
        return fail(c, REFDEC_CORRUPT, "SPLIT with S = 1");
    if (!(h.flags & F_SPLIT) && h.S >= 4)
        return fail(c, REFDEC_CORRUPT, "S = %u without SPLIT", h.S);
    if ((h.flags & F_LZSS) ? h.W < 1 : h.W != 0)
        return fail(c, REFDEC_CORRUPT, "window %u %s LZSS", h.W,
                    h.flags & F_LZSS ? "with" : "without");
    if (lgC < 8 || lgC > 14)
        return fail(c, REFDEC_CORRUPT, "log2 C %u", lgC);
    if (h.g < 10 || h.g > 15)
        return fail(c, REFDEC_CORRUPT, "log2 G %u", h.g);
    if (hd[10] || hd[11])
        return fail(c, REFDEC_CORRUPT, "reserved bytes %02x %02x", hd[10], hd[11]);
    h.C = 1u << lgC;
    h.m = h.n / h.S;
    h.t = h.n % h.S;
    if (h.nb != h.m / h.C + (h.m % h.C != 0))
        return fail(c, REFDEC_CORRUPT, "nb %llu for n %llu", (unsigned long long)h.nb,
                    (unsigned long long)h.n);
    if (!(h.flags & F_CHECKSUM) && ck)
        return fail(c, REFDEC_CORRUPT, "a checksum field without CHECKSUM");
    if (h.n > dst_cap)
        return fail(c, REFDEC_DST_SIZE, "n %llu, room for %zu", (unsigned long long)h.n, dst_cap);
    c->info.version = 2;
    c->info.flags = h.flags;
    c->info.S = h.S;
    c->info.W = h.W;
    c->info.C = h.C;
    c->info.g = h.g;
    c->info.n = h.n;
    c->info.nb = h.nb;

    uint8_t *buf = malloc(h.n ? (size_t)h.n : 1);
    if (!buf)
        return fail(c, REFDEC_NOMEM, "out of memory");
    rc = h.flags & F_LZSS ? body_ratio(c, &s, &h, buf) : body_fast(c, &s, &h, buf);
    if (rc)
        goto done;
    if (h.flags & F_DELTA)
        undelta(&h, buf);
    /* the tail, as it is, ends the chunk */
    if (left(&s) < h.t) {
        rc = fail(c, REFDEC_TRUNCATED, "a tail of %llu bytes, %llu left",
                  (unsigned long long)h.t, (unsigned long long)left(&s));
        goto done;
    }
    if (left(&s) > h.t) {
        rc = fail(c, REFDEC_CORRUPT, "%llu bytes after the tail",
                  (unsigned long long)(left(&s) - h.t));
        goto done;
    }
    memcpy(buf + h.m * h.S, s.p + s.pos, h.t);
    if (h.t)
        note(c, s.p + s.pos, 1, "tail");
    if (h.flags & F_CHECKSUM) {
        uint32_t got = refdec_checksum(buf, h.n, h.S, h.C);
        if (got != ck) {
            rc = fail(c, REFDEC_CORRUPT, "checksum %08x, the chunk says %08x", got, ck);
            goto done;
        }
    }
    memcpy(dst, buf, h.n);
    *dst_len = h.n;
done:
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ version 1 */

static int decode_v1(ctx *c, const uint8_t *src, size_t len, uint8_t *dst, size_t dst_cap,
                     size_t *dst_len)
{
    span s = {src, len, 0, REFDEC_TRUNCATED};
    const uint8_t *hd = NULL;
    int rc;
    if ((rc = take(c, &s, 28, &hd, "header")))
        return rc;
    unsigned S = hd[6], W = hd[7], lgC = hd[8];
    uint64_t n = get_le(hd + 12, 8), nb = get_le(hd + 20, 8);
    if (hd[5])
        return fail(c, REFDEC_VERSION, "version 1 with flags %02x", hd[5]);
    if (S != 1 && S != 2 && S != 4 && S != 8)
        return fail(c, REFDEC_CORRUPT, "symbol size %u", S);
    if (W < 1)
        return fail(c, REFDEC_CORRUPT, "window 0");
    if (lgC < 8 || lgC > 14)
        return fail(c, REFDEC_CORRUPT, "log2 C %u", lgC);
    if (hd[9] || hd[10] || hd[11])
        return fail(c, REFDEC_CORRUPT, "reserved bytes");
    unsigned C = 1u << lgC;
    uint64_t m = n / S, t = n % S;
    if (nb != m / C + (m % C != 0))
        return fail(c, REFDEC_CORRUPT, "nb %llu for n %llu", (unsigned long long)nb,
                    (unsigned long long)n);
    if (n > dst_cap)
        return fail(c, REFDEC_DST_SIZE, "n %llu, room for %zu", (unsigned long long)n, dst_cap);
    if (nb > left(&s) / 4)
        return fail(c, REFDEC_TRUNCATED, "a block table of %llu entries does not fit",
                    (unsigned long long)nb);
    const uint8_t *tab = NULL;
    take(c, &s, 4 * nb, &tab, "block table");
    if (nb) {
        note(c, tab, 4, "block entry");
        note(c, tab + 4 * (nb - 1), 4, "block entry");
    }
    uint64_t total = 0;
    for (uint64_t k = 0; k < nb; k++) {
        uint32_t e = (uint32_t)get_le(tab + 4 * k, 4), size = e & 0x7FFFFFFFu;
        uint64_t raw = (m - k * C < C ? m - k * C : C) * S;
        if (e >> 31 ? size != raw : size < 2 || size >= raw)
            return fail(c, REFDEC_CORRUPT, "block %llu: table entry %08x for %llu raw bytes",
                        (unsigned long long)k, e, (unsigned long long)raw);
        total += size;
    }
    if (total + t > left(&s))
        return fail(c, REFDEC_TRUNCATED, "blocks and tail take %llu bytes, %llu left",
                    (unsigned long long)(total + t), (unsigned long long)left(&s));
    if (total + t < left(&s))
        return fail(c, REFDEC_CORRUPT, "%llu bytes after the tail",
                    (unsigned long long)(left(&s) - total - t));
    c->info.version = 1;
    c->info.flags = 0;
    c->info.S = S;
    c->info.W = W;
    c->info.C = C;
    c->info.n = n;
    c->info.nb = nb;
    uint8_t *buf = malloc(n ? (size_t)n : 1);
    if (!buf)
        return fail(c, REFDEC_NOMEM, "out of memory");
    for (uint64_t k = 0; k < nb && !rc; k++) {
        uint32_t e = (uint32_t)get_le(tab + 4 * k, 4), size = e & 0x7FFFFFFFu;
        uint64_t cnt = m - k * C < C ? m - k * C : C, base = k * C;
        const uint8_t *blk = NULL;
        take(c, &s, size, &blk, "block");
        if (e >> 31) {
            memcpy(buf + base * S, blk, size);
            c->info.blocks_raw++;
            continue;
        }
        span b = {blk, size, 0, REFDEC_CORRUPT};
        uint64_t T;
        const uint8_t *fl = NULL, *p = NULL;
        note(c, blk, 2, "token count");
        if ((rc = take_le(c, &b, 2, &T, "token count")))
            break;
        if (T < 1 || T > C) {
            rc = fail(c, REFDEC_CORRUPT, "block %llu: T = %llu", (unsigned long long)k,
                      (unsigned long long)T);
            break;
        }
        if ((rc = take(c, &b, (T + 7) / 8, &fl, "flag area")))
            break;
        for (uint64_t i = T; i < (T + 7) / 8 * 8; i++)
            if (fl[i / 8] >> (i % 8) & 1) {
                rc = fail(c, REFDEC_CORRUPT, "block %llu: flag bit %llu past T set",
                          (unsigned long long)k, (unsigned long long)i);
                break;
            }
        uint64_t o = 0;
        for (uint64_t i = 0; i < T && !rc; i++) {
            if (fl[i / 8] >> (i % 8) & 1) {
                if ((rc = take(c, &b, 2, &p, "match")))
                    break;
                rc = match(c, buf, base, cnt, &o, p[0], p[1], S, W, k);
            } else {
                if ((rc = take(c, &b, S, &p, "literal")))
                    break;
                if (o >= cnt) {
                    rc = fail(c, REFDEC_CORRUPT, "block %llu: a literal past its end",
                              (unsigned long long)k);
                    break;
                }
                memcpy(buf + (base + o) * S, p, S);
                o++;
            }
        }
        if (!rc && (o != cnt || left(&b)))
            rc = fail(c, REFDEC_CORRUPT, "block %llu: %llu of %llu symbols, %llu bytes unused",
                      (unsigned long long)k, (unsigned long long)o, (unsigned long long)cnt,
                      (unsigned long long)left(&b));
    }
    if (!rc) {
        memcpy(buf + m * S, s.p + s.pos, t);
        memcpy(dst, buf, n);
        *dst_len = n;
    }
    free(buf);
    return rc;
}

int refdec_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_cap, size_t *dst_len,
                  refdec_info *info, char *err, size_t errlen)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.chunk = src;
    c.err = err;
    c.errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    static const uint8_t magic[4] = {0x47, 0x50, 0x4C, 0x5A};
    for (size_t i = 0; i < 4 && i < len; i++)
        if (src[i] != magic[i])
            return fail(&c, REFDEC_CORRUPT, "not a gpulz chunk (magic)");
    if (len < 5)
        return fail(&c, REFDEC_TRUNCATED, "%zu bytes", len);
    int rc;
    if (src[4] == 1)
        rc = decode_v1(&c, src, len, dst, dst_cap, dst_len);
    else if (src[4] == 2)
        rc = decode_v2(&c, src, len, dst, dst_cap, dst_len);
    else
        rc = fail(&c, REFDEC_VERSION, "format version %u", src[4]);
    if (rc == REFDEC_OK && info)
        *info = c.info;
    return rc;
}

const char *refdec_strerror(int rc)
{
    switch (rc) {
    case REFDEC_OK:
        return "ok";
    case REFDEC_DST_SIZE:
        return "output too small";
    case REFDEC_CORRUPT:
        return "corrupt";
    case REFDEC_TRUNCATED:
        return "truncated";
    case REFDEC_VERSION:
        return "unknown version or flag";
    case REFDEC_NOMEM:
        return "out of memory";
    default:
        return "unknown status";
    }
}
