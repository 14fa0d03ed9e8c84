/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_v2.c - format 2 chunks on the CPU, the reference the GPU is checked
 * against: the transform, the streams of both shapes, the mode's choices by
 * the cost estimate, the checksum (docs/FORMAT.md §11-19), and the decoder
 * that checks everything §20 lists.  Blocks and segments spread over cores
 * through the one thread pool.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_codec.h"
#include "gpulz_entropy.h"
#include "gpulz_parallel.h"
#include "gpulz_v2.h"

#define FAIL(st, ...)                                   \
    do {                                                \
        rc = gpulz_fail((st), __VA_ARGS__);             \
        goto done;                                      \
    } while (0)

/* ---- the checksum (§17) -------------------------------------------------- */

/* A little-endian 32-bit word in one load where the host is little-endian. */
static inline uint32_t ck_word(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return gpulz_get_u32(p);
#endif
}

/* The lanes' steps over the whole rounds of 32 words among the words at b,
 * from and into h; returns the words done.  Each lane is a chain of
 * dependent steps, one per round; the 32 lanes are independent. */
static uint64_t ck_rounds(const uint8_t *b, uint64_t words, uint32_t *h)
{
    uint64_t j = 0;
    for (; j + GPULZ_CK_LANES <= words; j += GPULZ_CK_LANES)
        for (unsigned l = 0; l < GPULZ_CK_LANES; l++)
            h[l] = gpulz_ck_lane_step(h[l], ck_word(b + 4 * (j + l)));
    return j;
}

/*
 * With AVX2 (x86-64, chosen at run time; not with GPULZ_CPU_SIMD=0, as the
 * entropy decoder), 8 lanes to a register and the 32 lanes in 4 registers
 * throughout: the compiler's own vectorisation of the loop above kept them
 * in memory, a store and a load in every step of each lane's chain.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__has_include)
#if __has_include(<immintrin.h>)
#include <immintrin.h>
#define CK_AVX2 1
#endif
#endif
#ifndef CK_AVX2
#define CK_AVX2 0
#endif

#if CK_AVX2
__attribute__((target("avx2"))) static uint64_t ck_rounds_avx2(const uint8_t *b, uint64_t words, uint32_t *h)
{
    const __m256i p1 = _mm256_set1_epi32((int)GPULZ_CK_P1), p2 = _mm256_set1_epi32((int)GPULZ_CK_P2);
    __m256i v[4];
    for (unsigned g = 0; g < 4; g++)
        v[g] = _mm256_loadu_si256((const __m256i *)(h + 8 * g));
    uint64_t j = 0;
    for (; j + GPULZ_CK_LANES <= words; j += GPULZ_CK_LANES)
#pragma GCC unroll 4
        for (unsigned g = 0; g < 4; g++) {
            __m256i w = _mm256_loadu_si256((const __m256i *)(b + 4 * j + 32 * g));
            __m256i x = _mm256_add_epi32(v[g], _mm256_mullo_epi32(w, p2));
            x = _mm256_or_si256(_mm256_slli_epi32(x, 13), _mm256_srli_epi32(x, 19));
            v[g] = _mm256_mullo_epi32(x, p1);
        }
    for (unsigned g = 0; g < 4; g++)
        _mm256_storeu_si256((__m256i *)(h + 8 * g), v[g]);
    return j;
}
#endif

typedef uint64_t (*ck_rounds_fn)(const uint8_t *, uint64_t, uint32_t *);

static ck_rounds_fn ck_rounds_pick(void)
{
    static ck_rounds_fn picked; /* chosen once; every thread would choose the same */
    ck_rounds_fn f = __atomic_load_n(&picked, __ATOMIC_RELAXED);
    if (f)
        return f;
    f = ck_rounds;
#if CK_AVX2
    const char *env = getenv("GPULZ_CPU_SIMD");
    if (!(env && !strcmp(env, "0")) && __builtin_cpu_supports("avx2"))
        f = ck_rounds_avx2;
#endif
    __atomic_store_n(&picked, f, __ATOMIC_RELAXED);
    return f;
}

static uint32_t piece_hash(const uint8_t *b, uint64_t len)
{
    uint32_t h[GPULZ_CK_LANES];
    for (unsigned l = 0; l < GPULZ_CK_LANES; l++)
        h[l] = gpulz_ck_lane_init(l);
    const uint64_t words = len / 4;
    uint64_t j = words >= GPULZ_CK_LANES ? ck_rounds_pick()(b, words, h) : 0;
    for (; j < words; j++)
        h[j % GPULZ_CK_LANES] = gpulz_ck_lane_step(h[j % GPULZ_CK_LANES], gpulz_get_u32(b + 4 * j));
    if (len % 4) {
        uint8_t last[4] = {0, 0, 0, 0};
        memcpy(last, b + 4 * words, len % 4);
        h[words % GPULZ_CK_LANES] = gpulz_ck_lane_step(h[words % GPULZ_CK_LANES], gpulz_get_u32(last));
    }
    uint32_t H = gpulz_ck_piece_start(len);
    for (unsigned l = 0; l < GPULZ_CK_LANES; l++)
        H = gpulz_ck_piece_fold(H, h[l]);
    return H;
}

/* §17: the checksum from the terms of the blocks, term[0..nb) (term has room
 * for nb + 1), and the tail of the n bytes at data. */
static uint32_t ck_finish(uint32_t *term, const uint8_t *data, const gpulz_layout *L)
{
    /* piece nb: the tail, possibly empty (data may be NULL for n = 0) */
    const uint64_t tail_at = L->symbols * L->symbol_size;
    term[L->blocks] = gpulz_ck_term(L->tail ? piece_hash(data + tail_at, L->tail) : piece_hash(NULL, 0),
                                    L->blocks);
    uint32_t X = 0;
    for (uint64_t k = 0; k <= L->blocks; k++)
        X += term[k];
    return gpulz_ck_final(X, L->n);
}

typedef struct ck_job {
    const uint8_t *data;
    uint64_t piece; /* bytes of a whole block */
    uint64_t bytes; /* bytes of all blocks, the tail excluded */
    uint32_t *term;
} ck_job;

static int ck_one(void *ctx, unsigned worker, uint64_t k)
{
    (void)worker;
    ck_job *J = ctx;
    uint64_t off = k * J->piece, len = J->bytes - off < J->piece ? J->bytes - off : J->piece;
    J->term[k] = gpulz_ck_term(piece_hash(J->data + off, len), k);
    return GPULZ_OK;
}

int gpulz_checksum(const uint8_t *data, uint64_t n, unsigned S, unsigned C, unsigned threads,
                   uint32_t *sum)
{
    gpulz_layout L;
    int rc = gpulz_layout_make(&L, n, S, GPULZ_WINDOW_DEFAULT, C);
    if (rc != GPULZ_OK)
        return rc;
    uint32_t *term = malloc((L.blocks + 1) * sizeof *term);
    if (!term)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the checksum's terms");
    ck_job J = {data, (uint64_t)C * S, L.symbols * S, term};
    rc = gpulz_parallel_for(L.blocks, gpulz_worker_count(threads, L.blocks), GPULZ_BLOCK_GRAIN, NULL,
                            ck_one, &J);
    if (rc == GPULZ_OK)
        *sum = ck_finish(term, data, &L);
    free(term);
    return rc;
}

/* ---- the transform (§13) ------------------------------------------------- */

static inline uint64_t sym_get(const uint8_t *p, unsigned S)
{
    uint64_t v = 0;
    memcpy(&v, p, S); /* little-endian hosts, as the rest of the CPU codec */
    return v;
}

static inline void sym_put(uint8_t *p, uint64_t v, unsigned S)
{
    memcpy(p, &v, S);
}

/* One block's delta over w-byte symbols, inlined per size so that the loads
 * and stores are single moves. */
static inline __attribute__((always_inline)) void delta_span(const uint8_t *x, uint8_t *y, uint64_t first,
                                                              uint64_t end, const unsigned w)
{
    const uint64_t mask = gpulz_symbol_mask(w);
    uint64_t prev = 0;
    for (uint64_t i = first; i < end; i++) {
        uint64_t v = sym_get(x + i * w, w);
        sym_put(y + i * w, (v - prev) & mask, w);
        prev = v;
    }
}

/* SSE2 (part of x86-64) for the inverse transform and the planes below. */
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define V2_SSE2 1
#else
#define V2_SSE2 0
#endif

/*
 * The inverse over one block of count symbols of w bytes from in to out
 * (the same buffer, or apart): a running sum modulo 2^(8w).  With SSE2, 16
 * bytes at a time: within a vector the lanes' prefix sums by shifted adds,
 * then the sum so far added and the last lane carried on; lane arithmetic
 * wraps as the mask does.  The rest scalar.
 */
static inline __attribute__((always_inline)) void undelta_span(const uint8_t *in, uint8_t *out, size_t count,
                                                                const unsigned w)
{
    const size_t bytes = count * w;
    size_t i = 0;
#if V2_SSE2
    __m128i run = _mm_setzero_si128();
    for (; i + 16 <= bytes; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
        switch (w) {
        case 1:
            x = _mm_add_epi8(x, _mm_slli_si128(x, 1));
            x = _mm_add_epi8(x, _mm_slli_si128(x, 2));
            x = _mm_add_epi8(x, _mm_slli_si128(x, 4));
            x = _mm_add_epi8(_mm_add_epi8(x, _mm_slli_si128(x, 8)), run);
            run = _mm_set1_epi8((char)(_mm_cvtsi128_si32(_mm_srli_si128(x, 12)) >> 24));
            break;
        case 2:
            x = _mm_add_epi16(x, _mm_slli_si128(x, 2));
            x = _mm_add_epi16(x, _mm_slli_si128(x, 4));
            x = _mm_add_epi16(_mm_add_epi16(x, _mm_slli_si128(x, 8)), run);
            run = _mm_shufflehi_epi16(x, 0xFF);
            run = _mm_unpackhi_epi64(run, run);
            break;
        case 4:
            x = _mm_add_epi32(x, _mm_slli_si128(x, 4));
            x = _mm_add_epi32(_mm_add_epi32(x, _mm_slli_si128(x, 8)), run);
            run = _mm_shuffle_epi32(x, 0xFF);
            break;
        default:
            x = _mm_add_epi64(_mm_add_epi64(x, _mm_slli_si128(x, 8)), run);
            run = _mm_unpackhi_epi64(x, x);
            break;
        }
        _mm_storeu_si128((__m128i *)(out + i), x);
    }
#endif
    const uint64_t mask = gpulz_symbol_mask(w);
    uint64_t prev = i ? sym_get(out + i - w, w) : 0;
    for (; i < bytes; i += w) {
        prev = (prev + sym_get(in + i, w)) & mask;
        sym_put(out + i, prev, w);
    }
}

static void undelta(const uint8_t *in, uint8_t *out, size_t count, unsigned S)
{
    switch (S) {
    case 1: undelta_span(in, out, count, 1); break;
    case 2: undelta_span(in, out, count, 2); break;
    case 4: undelta_span(in, out, count, 4); break;
    default: undelta_span(in, out, count, 8); break;
    }
}

/*
 * c symbols of S bytes put together at out from S byte planes, plane j's
 * bytes at p + j * pitch (SPLIT's streams, decoded each into a plane of its
 * own: one move per 32 units where a store per unit at a stride of S was
 * the decoder's largest cost).  Where SSE2 is there, 16 symbols at a time by
 * rounds of unpacks, bytes then pairs then quads; the rest scalar.
 */
static void interleave(const uint8_t *p, size_t pitch, size_t c, unsigned S, uint8_t *out)
{
    size_t i = 0;
#if V2_SSE2
#define LD(j) _mm_loadu_si128((const __m128i *)(p + (j) * pitch + i))
#define ST(o, v) _mm_storeu_si128((__m128i *)(out + S * i + 16 * (o)), v)
    switch (S) {
    case 2:
        for (; i + 16 <= c; i += 16) {
            __m128i a = LD(0), b = LD(1);
            ST(0, _mm_unpacklo_epi8(a, b));
            ST(1, _mm_unpackhi_epi8(a, b));
        }
        break;
    case 4:
        for (; i + 16 <= c; i += 16) {
            __m128i a = LD(0), b = LD(1), d = LD(2), e = LD(3);
            __m128i abl = _mm_unpacklo_epi8(a, b), abh = _mm_unpackhi_epi8(a, b);
            __m128i del = _mm_unpacklo_epi8(d, e), deh = _mm_unpackhi_epi8(d, e);
            ST(0, _mm_unpacklo_epi16(abl, del));
            ST(1, _mm_unpackhi_epi16(abl, del));
            ST(2, _mm_unpacklo_epi16(abh, deh));
            ST(3, _mm_unpackhi_epi16(abh, deh));
        }
        break;
    case 8:
        for (; i + 16 <= c; i += 16) {
            __m128i b[8], w[8];
            for (unsigned j = 0; j < 8; j += 2) {
                __m128i x = LD(j), y = LD(j + 1);
                b[j] = _mm_unpacklo_epi8(x, y);     /* symbols 0-7, bytes j, j + 1 */
                b[j + 1] = _mm_unpackhi_epi8(x, y); /* symbols 8-15 */
            }
            for (unsigned h = 0; h < 2; h++) { /* h: symbols 0-7 or 8-15 */
                w[4 * h] = _mm_unpacklo_epi16(b[h], b[2 + h]);     /* bytes 0-3 of 4 symbols */
                w[4 * h + 1] = _mm_unpackhi_epi16(b[h], b[2 + h]); /* of the next 4 */
                w[4 * h + 2] = _mm_unpacklo_epi16(b[4 + h], b[6 + h]); /* bytes 4-7 */
                w[4 * h + 3] = _mm_unpackhi_epi16(b[4 + h], b[6 + h]);
            }
            for (unsigned q = 0; q < 4; q++) { /* q: symbols 4q .. 4q + 3 */
                const unsigned lo = 4 * (q / 2) + q % 2;
                ST(2 * q, _mm_unpacklo_epi32(w[lo], w[lo + 2]));
                ST(2 * q + 1, _mm_unpackhi_epi32(w[lo], w[lo + 2]));
            }
        }
        break;
    default:
        break;
    }
#undef LD
#undef ST
#endif
    for (; i < c; i++)
        for (unsigned j = 0; j < S; j++)
            out[S * i + j] = p[j * pitch + i];
}

typedef struct delta_job {
    const uint8_t *x;
    uint8_t *y;
    uint64_t m;
    unsigned S, C;
} delta_job;

static int delta_block(void *ctx, unsigned worker, uint64_t k)
{
    (void)worker;
    const delta_job *J = ctx;
    const uint64_t first = k * J->C, end = J->m - first < J->C ? J->m : first + J->C;
    switch (J->S) {
    case 1: delta_span(J->x, J->y, first, end, 1); break;
    case 2: delta_span(J->x, J->y, first, end, 2); break;
    case 4: delta_span(J->x, J->y, first, end, 4); break;
    default: delta_span(J->x, J->y, first, end, 8); break;
    }
    return GPULZ_OK;
}

static int delta_run(const uint8_t *x, uint8_t *y, const gpulz_layout *L, unsigned threads)
{
    delta_job J = {x, y, L->symbols, L->symbol_size, L->block_symbols};
    return gpulz_parallel_for(L->blocks, gpulz_worker_count(threads, L->blocks), GPULZ_BLOCK_GRAIN, NULL,
                              delta_block, &J);
}

/* ---- streams over symbols ------------------------------------------------ */

/* Stream j of m symbols at y: byte j of each with SPLIT, else the symbols. */
static gpulz_units symbol_units(const uint8_t *y, uint64_t m, unsigned S, int split, unsigned j)
{
    /* no offset from a NULL buffer (an empty input may have one) */
    gpulz_units U = {y ? (uint8_t *)(uintptr_t)y + (split && m ? j : 0) : NULL, S, split ? 1u : S, m};
    return U;
}

static int units_encode(const gpulz_units *U, const gpulz_hist *h, unsigned g, unsigned threads, uint8_t **p)
{
    size_t len = 0;
    int rc = gpulz_stream_encode(U, h, g, threads, *p, &len);
    *p += len;
    return rc;
}

/* ---- fast's choice (§19) -------------------------------------------------- */

void gpulz_fast_hists_free(gpulz_fast_hists *H)
{
    for (int d = 0; d < 2; d++) {
        gpulz_hist_free(&H->whole[d]);
        for (unsigned j = 0; j < 8; j++)
            gpulz_hist_free(&H->plane[d][j]);
    }
}

static int fast_hists_make(gpulz_fast_hists *H, unsigned S, int whole)
{
    int rc = GPULZ_OK;
    memset(H, 0, sizeof *H);
    H->S = S;
    for (int d = 0; d < 2 && rc == GPULZ_OK; d++) {
        if (S <= 2 && whole) {
            rc = gpulz_hist_init(&H->whole[d], S);
        } else if (S <= 2) { /* empty and without counts, all values its range */
            H->whole[d].u = S;
            H->whole[d].span = (uint32_t)1 << (8 * S);
        }
        for (unsigned j = 0; j < (S >= 2 ? S : 0) && rc == GPULZ_OK; j++)
            rc = gpulz_hist_init(&H->plane[d][j], 1);
    }
    if (rc != GPULZ_OK)
        gpulz_fast_hists_free(H);
    return rc;
}

int gpulz_fast_hists_init(gpulz_fast_hists *H, unsigned S)
{
    return fast_hists_make(H, S, 1);
}

int gpulz_fast_hists_init_planes(gpulz_fast_hists *H, unsigned S)
{
    return fast_hists_make(H, S, 0);
}

void gpulz_fast_hists_planes_from_whole(gpulz_fast_hists *H, unsigned made)
{
    for (int d = 0; d < 2; d++) {
        gpulz_hist *w = &H->whole[d], *lo = &H->plane[d][0], *hi = &H->plane[d][1];
        if (made >> d & 1)
            continue;
        memset(lo->count, 0, 256 * sizeof *lo->count);
        memset(hi->count, 0, 256 * sizeof *hi->count);
        lo->N = hi->N = w->N;
        /* a transform nothing was counted for (ratio's literals have no
         * delta's): its range is still all 2^16 values, whose zeros (fresh
         * pages) would be read for nothing */
        if (!w->N)
            continue;
        /* the rows (the high byte's) that meet the whole's range, the
         * others all 0; two pieces that share a row make it every row, so
         * that none is added twice */
        uint32_t ra[2], rb[2];
        unsigned rows = gpulz_hist_pieces(w, ra, rb);
        for (unsigned p = 0; p < rows; p++) {
            ra[p] >>= 8;
            rb[p] = ((rb[p] - 1) >> 8) + 1;
        }
        if (rows == 2 && ra[1] < rb[0]) {
            rows = 1;
            ra[0] = 0;
            rb[0] = 256;
        }
        /* row by row, so that the sums vectorise */
        for (unsigned p = 0; p < rows; p++)
            for (uint32_t b = ra[p]; b < rb[p]; b++) {
                const uint64_t *row = w->count + 256 * b;
                uint64_t sum = 0;
                for (uint32_t a = 0; a < 256; a++) {
                    lo->count[a] += row[a];
                    sum += row[a];
                }
                hi->count[b] = sum;
            }
    }
}

/* The histograms of one transform's symbols, counted on the CPU. */
static void fast_hists_count(gpulz_fast_hists *H, int d, const uint8_t *y, uint64_t m)
{
    const unsigned S = H->S;
    if (S <= 2) {
        gpulz_units U = symbol_units(y, m, S, 0, 0);
        gpulz_hist_add(&H->whole[d], &U);
    } else {
        for (unsigned j = 0; j < S; j++) {
            gpulz_units U = symbol_units(y, m, S, 1, j);
            gpulz_hist_add(&H->plane[d][j], &U);
        }
    }
}

int gpulz_fast_choose(const gpulz_fast_hists *H, unsigned g, int fixed, int *delta, int *split)
{
    const unsigned S = H->S;
    uint64_t best = UINT64_MAX;
    for (int d = fixed < 0 ? 0 : fixed; d < (fixed < 0 ? 2 : fixed + 1); d++)
        for (int sp = 0; sp < 2; sp++) {
            if (!gpulz_v2_flags_ok(GPULZ_V2_FLAG_ENTROPY | (sp ? GPULZ_V2_FLAG_SPLIT : 0), S))
                continue;
            uint64_t cost = 0, c;
            for (unsigned j = 0; j < (sp ? S : 1); j++) {
                int rc = gpulz_stream_estimate(sp ? &H->plane[d][j] : &H->whole[d], g, &c);
                if (rc != GPULZ_OK)
                    return rc;
                cost += c;
            }
            if (cost < best) {
                best = cost;
                *delta = d;
                *split = sp;
            }
        }
    return GPULZ_OK;
}

/*
 * The least and greatest of 16-bit values taken unsigned, and taken signed
 * (kept as v ^ 0x8000, which orders unsigned as (int16_t)v does): a
 * histogram's range is the shorter of the two intervals, the second one
 * around 0 for a delta's values of both signs.
 */
typedef struct span16 {
    uint32_t lo[2], hi[2]; /* [0]: unsigned, [1]: signed */
} span16;
#define SPAN16_EMPTY {{0xFFFF, 0xFFFF}, {0, 0}}

static inline void span16_add(span16 *s, uint32_t v)
{
    const uint32_t f = v ^ 0x8000;
    s->lo[0] = v < s->lo[0] ? v : s->lo[0];
    s->hi[0] = v > s->hi[0] ? v : s->hi[0];
    s->lo[1] = f < s->lo[1] ? f : s->lo[1];
    s->hi[1] = f > s->hi[1] ? f : s->hi[1];
}

/* h's range from the span of all its counted values (at least one) */
static void span16_narrow(gpulz_hist *h, const span16 *s)
{
    const uint32_t su = s->hi[0] - s->lo[0] + 1, ss = s->hi[1] - s->lo[1] + 1;
    h->lo = ss < su ? s->lo[1] ^ 0x8000 : s->lo[0];
    h->span = ss < su ? ss : su;
}

#if V2_SSE2
/* The same 8 values at a time with SSE2's signed comparisons: the signed
 * ones of v ^ 0x8000 are the unsigned ones of v. */
typedef struct span16_vec {
    __m128i lo[2], hi[2]; /* [0]: of v ^ 0x8000, [1]: of v */
} span16_vec;

static inline void span16_vec_init(span16_vec *a)
{
    for (int k = 0; k < 2; k++) {
        a->lo[k] = _mm_set1_epi16(0x7FFF);
        a->hi[k] = _mm_set1_epi16(-0x8000);
    }
}

static inline void span16_vec_add(span16_vec *a, __m128i v)
{
    const __m128i f = _mm_xor_si128(v, _mm_set1_epi16(-0x8000));
    a->lo[0] = _mm_min_epi16(a->lo[0], f);
    a->hi[0] = _mm_max_epi16(a->hi[0], f);
    a->lo[1] = _mm_min_epi16(a->lo[1], v);
    a->hi[1] = _mm_max_epi16(a->hi[1], v);
}

/* the lanes' least (or greatest) as the unsigned of the value ^ 0x8000 */
static inline uint32_t span16_lanes(__m128i x, int greatest)
{
    for (int sh = 8; sh >= 2; sh /= 2) {
        const __m128i y = sh == 8 ? _mm_srli_si128(x, 8) : sh == 4 ? _mm_srli_si128(x, 4) : _mm_srli_si128(x, 2);
        x = greatest ? _mm_max_epi16(x, y) : _mm_min_epi16(x, y);
    }
    return ((uint32_t)_mm_cvtsi128_si32(x) & 0xFFFF) ^ 0x8000;
}

static void span16_vec_fold(const span16_vec *a, span16 *s)
{
    for (int k = 0; k < 2; k++) {
        const uint32_t lo = span16_lanes(a->lo[k], 0), hi = span16_lanes(a->hi[k], 1);
        s->lo[k] = lo < s->lo[k] ? lo : s->lo[k];
        s->hi[k] = hi > s->hi[k] ? hi : s->hi[k];
    }
}
#endif

/* The longest range counted through copies of its own (4 of each transform:
 * 128 KiB at most, in L2). */
#define COUNT16_COMPACT 4096u

/* The counting passes of fast_count16 for the transforms in `which` (bit
 * 0 the symbols, bit 1 their deltas), a constant where it is inlined. */
static inline __attribute__((always_inline)) void count16_compact(const uint8_t *src, uint64_t m, uint64_t C,
                                                                  uint32_t *cv, uint32_t lv, uint32_t nv,
                                                                  uint32_t *cd, uint32_t ld, uint32_t nd,
                                                                  const unsigned which)
{
    for (uint64_t first = 0; first < m; first += C) {
        const uint64_t end = m - first < C ? m : first + C;
        uint32_t prev = 0;
        uint64_t i = first;
        for (; i + 4 <= end; i += 4)
#pragma GCC unroll 4
            for (unsigned k = 0; k < 4; k++) {
                const uint32_t v = (uint32_t)sym_get(src + (i + k) * 2, 2), d = (v - prev) & 0xFFFF;
                prev = v;
                if (which & 1)
                    cv[k * nv + ((v - lv) & 0xFFFF)]++;
                if (which & 2)
                    cd[k * nd + ((d - ld) & 0xFFFF)]++;
            }
        for (; i < end; i++) {
            const uint32_t v = (uint32_t)sym_get(src + i * 2, 2), d = (v - prev) & 0xFFFF;
            prev = v;
            if (which & 1)
                cv[(v - lv) & 0xFFFF]++;
            if (which & 2)
                cd[(d - ld) & 0xFFFF]++;
        }
    }
}

static inline __attribute__((always_inline)) void count16_wide(const uint8_t *src, uint64_t m, uint64_t C,
                                                               uint64_t *c0, uint64_t *c1, const unsigned which)
{
    for (uint64_t first = 0; first < m; first += C) {
        const uint64_t end = m - first < C ? m : first + C;
        uint32_t prev = 0;
        for (uint64_t i = first; i < end; i++) {
            const uint32_t v = (uint32_t)sym_get(src + i * 2, 2);
            if (which & 1)
                c0[v]++;
            if (which & 2)
                c1[(v - prev) & 0xFFFF]++;
            prev = v;
        }
    }
}

/*
 * fast_count_both_s for S = 2: first each transform's span (span16) in a
 * pass of its own, 8 symbols at a time with SSE2; then the counts.  Where
 * both ranges are short, into 4 copies of 32-bit counters of the range
 * alone, a symbol's copy by its place mod 4, so that runs of one value do
 * not wait on their own increments, added into the histograms at the end;
 * else straight into the 2^16 counters.  With only 0 or 1 (DELTA picked
 * from the sample, §19) just that transform is counted, as on the GPU: the
 * other's histogram is left empty.
 */
static int fast_count16(gpulz_fast_hists *H, const uint8_t *src, uint64_t m, uint64_t C, int only)
{
    const unsigned which = only < 0 ? 3u : 1u << only;
    gpulz_hist *h0 = &H->whole[0], *h1 = &H->whole[1];
    span16 sp[2] = {SPAN16_EMPTY, SPAN16_EMPTY};
#if V2_SSE2
    span16_vec acc[2];
    span16_vec_init(&acc[0]);
    span16_vec_init(&acc[1]);
#endif
    for (uint64_t first = 0; first < m; first += C) {
        const uint64_t end = m - first < C ? m : first + C;
        /* the block's first delta is its first symbol */
        const uint32_t v0 = (uint32_t)sym_get(src + first * 2, 2);
        span16_add(&sp[0], v0);
        span16_add(&sp[1], v0);
        uint64_t i = first + 1;
#if V2_SSE2
        for (; i + 8 <= end; i += 8) {
            const __m128i v = _mm_loadu_si128((const __m128i *)(src + 2 * i));
            const __m128i before = _mm_loadu_si128((const __m128i *)(src + 2 * i - 2));
            span16_vec_add(&acc[0], v);
            span16_vec_add(&acc[1], _mm_sub_epi16(v, before));
        }
#endif
        for (; i < end; i++) {
            const uint32_t v = (uint32_t)sym_get(src + i * 2, 2);
            span16_add(&sp[0], v);
            span16_add(&sp[1], (v - (uint32_t)sym_get(src + i * 2 - 2, 2)) & 0xFFFF);
        }
    }
#if V2_SSE2
    span16_vec_fold(&acc[0], &sp[0]);
    span16_vec_fold(&acc[1], &sp[1]);
#endif
    /* a range only where these are all the counts */
    const int fresh = h0->N == 0 && h1->N == 0 && m;
    if (fresh) {
        span16_narrow(h0, &sp[0]);
        span16_narrow(h1, &sp[1]);
    }
    /* short ranges of the transforms counted (a transform left out has none) */
    if (fresh && (!(which & 1) || h0->span <= COUNT16_COMPACT) && (!(which & 2) || h1->span <= COUNT16_COMPACT) &&
        m <= UINT32_MAX) {
        const uint32_t lv = h0->lo, ld = h1->lo, nv = which & 1 ? h0->span : 0, nd = which & 2 ? h1->span : 0;
        uint32_t *cv = calloc(4 * ((size_t)nv + nd), sizeof *cv), *cd = cv + 4 * (size_t)nv;
        if (!cv)
            return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the choice's counters");
        switch (which) {
        case 1: count16_compact(src, m, C, cv, lv, nv, cd, ld, nd, 1); break;
        case 2: count16_compact(src, m, C, cv, lv, nv, cd, ld, nd, 2); break;
        default: count16_compact(src, m, C, cv, lv, nv, cd, ld, nd, 3); break;
        }
        for (uint32_t j = 0; j < nv; j++)
            h0->count[(lv + j) & 0xFFFF] += (uint64_t)cv[j] + cv[nv + j] + cv[2 * nv + j] + cv[3 * nv + j];
        for (uint32_t j = 0; j < nd; j++)
            h1->count[(ld + j) & 0xFFFF] += (uint64_t)cd[j] + cd[nd + j] + cd[2 * nd + j] + cd[3 * nd + j];
        free(cv);
    } else {
        switch (which) {
        case 1: count16_wide(src, m, C, h0->count, h1->count, 1); break;
        case 2: count16_wide(src, m, C, h0->count, h1->count, 2); break;
        default: count16_wide(src, m, C, h0->count, h1->count, 3); break;
        }
    }
    h0->N += which & 1 ? m : 0;
    h1->N += which & 2 ? m : 0;
    return GPULZ_OK;
}

/*
 * The histograms of both transforms in one pass over src, the delta (§13,
 * per block from 0) taken on the fly: the same counts as fast_hists_count
 * over src and over its delta, without writing the delta first (it is
 * written only when chosen).  Byte planes go through 32-bit counters per
 * plane, flushed before they could overflow.
 */
static inline __attribute__((always_inline)) int fast_count_both_s(gpulz_fast_hists *H, const uint8_t *src,
                                                                    const gpulz_layout *L, const unsigned S,
                                                                    int only)
{
    const uint64_t m = L->symbols, C = L->block_symbols, mask = gpulz_symbol_mask(S);
    if (S == 1) {
        uint64_t *c0 = H->whole[0].count, *c1 = H->whole[1].count;
        for (uint64_t first = 0; first < m; first += C) {
            const uint64_t end = m - first < C ? m : first + C;
            uint64_t prev = 0;
            for (uint64_t i = first; i < end; i++) {
                uint64_t v = sym_get(src + i * S, S);
                c0[v]++;
                c1[(v - prev) & mask]++;
                prev = v;
            }
        }
        H->whole[0].N += m;
        H->whole[1].N += m;
        return GPULZ_OK;
    }
    if (S == 2)
        return fast_count16(H, src, m, C, only);
    uint32_t (*c)[S][256] = calloc(2, sizeof *c);
    if (!c)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the choice's counters");
    uint64_t since = 0;
    for (uint64_t first = 0; first < m; first += C) {
        const uint64_t end = m - first < C ? m : first + C;
        uint64_t prev = 0;
        for (uint64_t i = first; i < end; i++) {
            uint64_t v = sym_get(src + i * S, S), d = (v - prev) & mask;
            prev = v;
#pragma GCC unroll 8
            for (unsigned j = 0; j < S; j++) {
                c[0][j][v >> 8 * j & 255]++;
                c[1][j][d >> 8 * j & 255]++;
            }
        }
        since += end - first;
        if (since >= (uint64_t)1 << 31 || end == m) {
            for (int d = 0; d < 2; d++)
                for (unsigned j = 0; j < S; j++) {
                    for (unsigned v = 0; v < 256; v++)
                        H->plane[d][j].count[v] += c[d][j][v];
                    H->plane[d][j].N += since;
                }
            memset(c, 0, 2 * sizeof *c);
            since = 0;
        }
    }
    free(c);
    return GPULZ_OK;
}

/* §19: fast's DELTA from the sample (S = 2 past GPULZ_PICK_GROUPS groups):
 * 1 where the sample's deltas weigh more than its symbols. */
static int pick_delta(const uint8_t *src, uint64_t m, uint64_t C, int *delta)
{
    uint32_t *count = calloc(2 * 65536, sizeof *count);
    if (!count)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the sample's counters");
    const uint64_t groups = m / 8, every = gpulz_sample_every(groups, GPULZ_PICK_SAMPLE);
    const uint64_t picks = gpulz_sample_picks(groups, every);
    for (uint64_t w = 0; w < picks; w++) {
        /* the last run may start past the last group: none of it is counted */
        const uint64_t k0 = gpulz_sample_run(w, every) * GPULZ_SAMPLE_RUN;
        if (k0 >= groups)
            continue;
        const uint64_t k1 = groups - k0 < GPULZ_SAMPLE_RUN ? groups : k0 + GPULZ_SAMPLE_RUN;
        for (uint64_t i = 8 * k0; i < 8 * k1; i++) {
            const uint32_t v = (uint32_t)sym_get(src + 2 * i, 2);
            const uint32_t before = i % C ? (uint32_t)sym_get(src + 2 * i - 2, 2) : 0;
            count[v]++;
            count[65536 + ((v - before) & 0xFFFFu)]++;
        }
    }
    uint64_t weight[2] = {0, 0};
    for (uint32_t v = 0; v < 2 * 65536; v++)
        weight[v >> 16] += gpulz_pick_weight(count[v]);
    free(count);
    *delta = weight[1] > weight[0];
    return GPULZ_OK;
}

/* §19: fast's choice of DELTA and SPLIT, the first of the lowest estimate;
 * *y is the transformed symbols (src itself, or *own with DELTA), and H
 * keeps the histograms for the coder. */
static int choose_fast(const uint8_t *src, const gpulz_layout *L, unsigned g, unsigned threads,
                       gpulz_fast_hists *H, int *delta, int *split, const uint8_t **y, uint8_t **own)
{
    const unsigned S = L->symbol_size;
    const uint64_t m = L->symbols;
    int rc = GPULZ_OK;
    *own = NULL;
    /* past the threshold DELTA comes from the sample, and only its
     * transform is counted (S = 2 alone takes the sample) */
    int fixed = -1;
    if (gpulz_pick_sampled(m, S) && (rc = pick_delta(src, m, L->block_symbols, &fixed)) != GPULZ_OK)
        return rc;
    switch (S) {
    case 1: rc = fast_count_both_s(H, src, L, 1, -1); break;
    case 2: rc = fast_count_both_s(H, src, L, 2, fixed); break;
    case 4: rc = fast_count_both_s(H, src, L, 4, -1); break;
    default: rc = fast_count_both_s(H, src, L, 8, -1); break;
    }
    if (rc != GPULZ_OK)
        return rc;
    if (S == 2)
        gpulz_fast_hists_planes_from_whole(H, 0);
    if ((rc = gpulz_fast_choose(H, g, fixed, delta, split)) != GPULZ_OK)
        return rc;
    if (*delta) {
        if (!(*own = malloc(m ? m * S : 1)))
            return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the transformed symbols");
        if ((rc = delta_run(src, *own, L, threads)) != GPULZ_OK)
            return rc;
    }
    *y = *delta ? *own : src;
    return GPULZ_OK;
}

uint64_t gpulz_v2_bound(uint64_t n, unsigned S, unsigned C)
{
    gpulz_layout L;
    if (gpulz_layout_make(&L, n, S, GPULZ_WINDOW_DEFAULT, C) != GPULZ_OK)
        return 0;
    /* the ratio shape's worst case covers fast's: every stream stored, the
     * flags taking a bit per symbol and a byte per block more */
    uint64_t fixed = GPULZ_V2_HEADER_SIZE + 3 * L.blocks + (uint64_t)GPULZ_STREAM_HEADER_SIZE * (8 + 3) +
                     L.symbols / 8 + 1;
    return n > UINT64_MAX - fixed ? 0 : n + fixed;
}

/* ---- the ratio shape's tokens (§12) --------------------------------------- */

typedef struct lz_job {
    const uint8_t *y;
    const gpulz_layout *L;
    gpulz_cpu_scratch **scratch;
    /* per block of the window from block base, in slots at its symbol
     * offset in the window: flags, literals, lengths, offsets */
    uint8_t *flags, *lits, *lens, *offs;
    uint64_t base;
    uint32_t *T, *nlit, *nmatch;
} lz_job;

/* Blocks tokenised at a time into slots of their own (lz_job): a whole
 * block's room each, every page of it written however few tokens the block
 * has, so that on a large chunk the slots of all blocks at once took three
 * times the chunk; a window's tokens are appended to the streams before the
 * next window's are made. */
#define LZ_WINDOW_MIN 1024u
#define LZ_WINDOW_MAX 8192u

static int lz_init(void *ctx, unsigned worker)
{
    lz_job *J = ctx;
    if (!(J->scratch[worker] = gpulz_cpu_scratch_new()))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate encoder scratch");
    return GPULZ_OK;
}

static int lz_block(void *ctx, unsigned worker, uint64_t i)
{
    lz_job *J = ctx;
    const gpulz_layout *L = J->L;
    const unsigned S = L->symbol_size, C = L->block_symbols;
    const uint64_t k = J->base + i, first = k * C, slot = i * C;
    const unsigned c = gpulz_block_raw_size(L, k) / S;
    const uint8_t *flags, *tok;
    uint32_t tbytes;
    uint32_t T = gpulz_cpu_parse_block(J->y + first * S, c, S, L->window, J->scratch[worker], &flags, &tok,
                                       &tbytes);
    memcpy(J->flags + slot / 8, flags, gpulz_flag_bytes(T));
    uint8_t *lit = J->lits + slot * S, *len = J->lens + slot, *off = J->offs + slot;
    uint32_t nl = 0, nm = 0, pos = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (flags[t / 8] >> (t % 8) & 1) {
            len[nm] = tok[pos];
            off[nm++] = tok[pos + 1];
            pos += GPULZ_MATCH_SIZE;
        } else {
            memcpy(lit + (size_t)nl++ * S, tok + pos, S);
            pos += S;
        }
    }
    J->T[k] = T;
    J->nlit[k] = nl;
    J->nmatch[k] = nm;
    return GPULZ_OK;
}

int gpulz_ratio_split(gpulz_fast_hists *H, unsigned g, unsigned planes_made, int *split)
{
    uint64_t whole = 0, planes = 0, c = 0;
    int rc;
    *split = H->S >= 4;
    if (H->S != 2)
        return GPULZ_OK;
    gpulz_fast_hists_planes_from_whole(H, planes_made);
    if ((rc = gpulz_stream_estimate(&H->whole[0], g, &whole)) != GPULZ_OK ||
        (rc = gpulz_stream_estimate(&H->plane[0][0], g, &c)) != GPULZ_OK)
        return rc;
    planes = c;
    if ((rc = gpulz_stream_estimate(&H->plane[0][1], g, &c)) != GPULZ_OK)
        return rc;
    planes += c;
    *split = planes < whole;
    return GPULZ_OK;
}

/* The ratio shape's token table and streams from the transformed symbols y,
 * SPLIT chosen for the literals, written at *p; GPULZ_NOT_SHORTER before
 * the streams' coding where their floors show the chunk cannot be shorter
 * than beat (0: no such length). */
static int encode_ratio(const uint8_t *y, gpulz_layout *L, unsigned g, unsigned threads, size_t beat,
                        uint8_t *dst, uint8_t **p)
{
    const unsigned S = L->symbol_size, C = L->block_symbols;
    const uint64_t nb = L->blocks, m = L->symbols;
    int rc = GPULZ_OK;
    unsigned workers = gpulz_worker_count(threads, nb);
    gpulz_units units[GPULZ_STREAMS_MAX];
    gpulz_hist hist[GPULZ_STREAMS_MAX];
    memset(hist, 0, sizeof hist);
    /* each stream's model, built once for its floor and its coding (80 KB
     * each: not on the caller's stack) */
    gpulz_model *model = calloc(GPULZ_STREAMS_MAX, sizeof *model);
    /* the window's slots; one window is the whole chunk, its streams made in
     * its own slots */
    uint64_t win = (uint64_t)(workers ? workers : 1) * 64;
    win = win < LZ_WINDOW_MIN ? LZ_WINDOW_MIN : win > LZ_WINDOW_MAX ? LZ_WINDOW_MAX : win;
    win = win < nb ? win : nb;
    const uint64_t wsym = win * C;
    lz_job J = {y, L, calloc(workers ? workers : 1, sizeof(gpulz_cpu_scratch *)),
                malloc(win * (C / 8) + 1), malloc(wsym * S + 1), malloc(wsym + 1), malloc(wsym + 1), 0,
                malloc((nb + 1) * sizeof(uint32_t)), malloc((nb + 1) * sizeof(uint32_t)),
                malloc((nb + 1) * sizeof(uint32_t))};
    /* the streams: in the slots, or, past one window, their own buffers,
     * whose pages are written only as far as the streams reach */
    const int apart = win < nb;
    uint8_t *flags = apart ? malloc(nb * (C / 8) + 1) : J.flags, *lits = apart ? malloc(m * S + 1) : J.lits;
    uint8_t *lens = apart ? malloc(m + 1) : J.lens, *offs = apart ? malloc(m + 1) : J.offs;
    if (!model || !J.scratch || !J.flags || !J.lits || !J.lens || !J.offs || !J.T || !J.nlit || !J.nmatch ||
        !flags || !lits || !lens || !offs)
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the token streams of %llu blocks", (unsigned long long)nb);
    if ((rc = gpulz_workers_alloc(&workers, lz_init, &J)) != GPULZ_OK)
        goto done;
    /* the streams, each block's part moved down to follow the one before */
    uint64_t nf = 0, nl = 0, nm = 0;
    for (J.base = 0; J.base < nb; J.base += win) {
        const uint64_t blocks = nb - J.base < win ? nb - J.base : win;
        if ((rc = gpulz_parallel_for(blocks, workers, GPULZ_BLOCK_GRAIN, NULL, lz_block, &J)) != GPULZ_OK)
            goto done;
        for (uint64_t i = 0; i < blocks; i++) {
            const uint64_t k = J.base + i, slot = i * C;
            const uint32_t fb = gpulz_flag_bytes(J.T[k]);
            memmove(flags + nf, J.flags + slot / 8, fb);
            memmove(lits + nl * S, J.lits + slot * S, (size_t)J.nlit[k] * S);
            memmove(lens + nm, J.lens + slot, J.nmatch[k]);
            memmove(offs + nm, J.offs + slot, J.nmatch[k]);
            nf += fb;
            nl += J.nlit[k];
            nm += J.nmatch[k];
            gpulz_put_u16(dst + GPULZ_V2_HEADER_SIZE + GPULZ_TOKEN_ENTRY_SIZE * k, J.T[k]);
        }
    }
    /* §19: SPLIT for the literals by their estimate (S = 2 has the choice) */
    int split = S >= 4;
    if (S == 2) {
        gpulz_fast_hists H;
        if ((rc = gpulz_fast_hists_init(&H, S)) != GPULZ_OK)
            goto done;
        fast_hists_count(&H, 0, lits, nl);
        rc = gpulz_ratio_split(&H, g, 0, &split);
        gpulz_fast_hists_free(&H);
        if (rc != GPULZ_OK)
            goto done;
    }
    L->flags |= split ? GPULZ_V2_FLAG_SPLIT : 0;
    /* the streams in the chunk's order (§12), each counted and modelled */
    const unsigned count = gpulz_stream_count(L->flags, S);
    units[0] = (gpulz_units){flags, 1, 1, nf};
    for (unsigned j = 0; j + 3 < count; j++)
        units[1 + j] = symbol_units(lits, nl, S, split, j);
    units[count - 2] = (gpulz_units){lens, 1, 1, nm};
    units[count - 1] = (gpulz_units){offs, 1, 1, nm};
    uint64_t least = L->table_end + L->tail;
    for (unsigned j = 0; j < count; j++) {
        if ((rc = gpulz_hist_init(&hist[j], units[j].u)) != GPULZ_OK)
            goto done;
        gpulz_hist_add(&hist[j], &units[j]);
        if (units[j].N && (rc = gpulz_model_build(&model[j], &hist[j])) != GPULZ_OK)
            goto done;
        if (beat)
            least += gpulz_stream_floor(&model[j], &hist[j], gpulz_stream_kind(units[j].N, units[j].u, &model[j], g),
                                        g);
    }
    if (beat && least >= beat) {
        rc = GPULZ_NOT_SHORTER;
        goto done;
    }
    for (unsigned j = 0; j < count && rc == GPULZ_OK; j++) {
        size_t len = 0;
        rc = gpulz_stream_encode_model(&units[j], &model[j], g, threads, *p, &len);
        *p += len;
    }
done:
    for (unsigned j = 0; j < GPULZ_STREAMS_MAX; j++) {
        gpulz_hist_free(&hist[j]);
        if (model)
            gpulz_model_free(&model[j]);
    }
    free(model);
    if (J.scratch)
        for (unsigned w = 0; w < workers; w++)
            gpulz_cpu_scratch_free(J.scratch[w]);
    free(J.scratch);
    if (flags != J.flags)
        free(flags);
    if (lits != J.lits)
        free(lits);
    if (lens != J.lens)
        free(lens);
    if (offs != J.offs)
        free(offs);
    free(J.flags);
    free(J.lits);
    free(J.lens);
    free(J.offs);
    free(J.T);
    free(J.nlit);
    free(J.nmatch);
    return rc;
}

int gpulz_v2_encode(const uint8_t *src, size_t n, unsigned S, gpulz_mode mode, const gpulz_params *p,
                    uint8_t *dst, size_t *len)
{
    return gpulz_v2_encode_beat(src, n, S, mode, p, 0, dst, len);
}

int gpulz_v2_encode_beat(const uint8_t *src, size_t n, unsigned S, gpulz_mode mode, const gpulz_params *p,
                         size_t beat, uint8_t *dst, size_t *len)
{
    const unsigned g = GPULZ_SEG_LOG2_DEFAULT;
    const int lz = mode == GPULZ_MODE_RATIO;
    gpulz_layout L;
    uint8_t *own = NULL;
    const uint8_t *y = src;
    int delta = 0, split = 0;
    gpulz_fast_hists H;
    int rc = gpulz_layout_make(&L, n, S, p->window, p->block_symbols);
    if (rc != GPULZ_OK || (rc = gpulz_fast_hists_init(&H, S)) != GPULZ_OK)
        return rc;
    if ((rc = choose_fast(src, &L, g, p->threads, &H, &delta, &split, &y, &own)) != GPULZ_OK)
        goto done;
    unsigned flags = GPULZ_V2_FLAG_ENTROPY | (delta ? GPULZ_V2_FLAG_DELTA : 0) |
                     (p->flags & GPULZ_FLAG_NO_CHECKSUM ? 0 : GPULZ_V2_FLAG_CHECKSUM);
    /* ratio decides SPLIT from its literals; give the layout a valid guess */
    unsigned guess = lz ? (S >= 4 ? GPULZ_V2_FLAG_SPLIT : 0) | GPULZ_V2_FLAG_LZSS
                        : (split ? GPULZ_V2_FLAG_SPLIT : 0);
    if ((rc = gpulz_layout_make_v2(&L, n, S, p->window, p->block_symbols, flags | guess, g)) != GPULZ_OK)
        goto done;
    uint8_t *q = dst + L.table_end;
    if (lz) {
        L.flags &= ~GPULZ_V2_FLAG_SPLIT;
        if ((rc = encode_ratio(y, &L, g, p->threads, beat, dst, &q)) != GPULZ_OK)
            goto done;
    } else {
        for (unsigned j = 0; j < gpulz_symbol_streams(L.flags, S); j++) {
            gpulz_units U = symbol_units(y, L.symbols, S, split, j);
            const gpulz_hist *h = split ? &H.plane[delta][j] : &H.whole[delta];
            if ((rc = units_encode(&U, h, g, p->threads, &q)) != GPULZ_OK)
                goto done;
        }
    }
    if (L.tail)
        memcpy(q, src + L.symbols * S, L.tail);
    q += L.tail;
    if (L.flags & GPULZ_V2_FLAG_CHECKSUM &&
        (rc = gpulz_checksum(src, n, S, L.block_symbols, p->threads, &L.checksum)) != GPULZ_OK)
        goto done;
    gpulz_header_write(dst, &L);
    *len = (size_t)(q - dst);
done:
    gpulz_fast_hists_free(&H);
    free(own);
    return rc;
}

/* ---- decoding (§20) ------------------------------------------------------ */

/*
 * Block k's c symbols, decoded at in (the transformed ones, in a worker's
 * scratch or already in place), put at out (in itself allowed) with the
 * inverse transform on the way, and its checksum term taken there while
 * the block is in cache: one pass per block rather than one over the chunk
 * per stage.  With planes, in is the block's first symbol in plane 0 and
 * the planes are pitch bytes apart.
 */
static void finish_block(const gpulz_layout *L, const uint8_t *in, size_t pitch, int planes, uint8_t *out,
                         uint64_t k, uint32_t *term)
{
    const unsigned S = L->symbol_size;
    const size_t c = gpulz_block_raw_size(L, k) / S;
    if (planes) {
        interleave(in, pitch, c, S, out);
        in = out;
    }
    if (L->flags & GPULZ_V2_FLAG_DELTA)
        undelta(in, out, c, S);
    else if (in != out)
        memcpy(out, in, c * S);
    if (term)
        term[k] = gpulz_ck_term(piece_hash(out, (uint64_t)c * S), k);
}

typedef struct finish_job {
    const gpulz_layout *L;
    uint8_t *dst;
    uint32_t *term;        /* NULL without CHECKSUM */
    const uint8_t *planes; /* SPLIT's planes, m bytes each, or NULL: the symbols are in dst */
} finish_job;

static int finish_one(void *ctx, unsigned worker, uint64_t k)
{
    (void)worker;
    const finish_job *J = ctx;
    const uint64_t first = k * J->L->block_symbols;
    uint8_t *b = J->dst + first * J->L->symbol_size;
    if (J->planes)
        finish_block(J->L, J->planes + first, J->L->symbols, 1, b, k, J->term);
    else
        finish_block(J->L, b, 0, 0, b, k, J->term);
    return GPULZ_OK;
}

typedef struct lzdec_job {
    const gpulz_layout *L;
    const uint8_t *flags, *lits, *lens, *offs;
    const uint32_t *T;
    const uint64_t *fpos, *lpos, *mpos; /* where each block's part of each stream starts */
    uint8_t *dst;
    uint32_t *term;
    uint8_t **scratch; /* per worker: a block and GPULZ_STREAMS_SLACK */
    int in_order;      /* one worker: blocks decode in increasing order */
} lzdec_job;

static int lzdec_init(void *ctx, unsigned worker)
{
    lzdec_job *J = ctx;
    const size_t size = (size_t)J->L->block_symbols * J->L->symbol_size + GPULZ_STREAMS_SLACK;
    if (!(J->scratch[worker] = malloc(size)))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate decoder scratch");
    return GPULZ_OK;
}

/* A block's tokens decoded where the copies may run past its end, then
 * finished into place.  Blocks decoded in order write their slack over bytes
 * of the chunk that are written after them, so they decode in place while
 * that many bytes follow; the others, and those of several workers (whose
 * neighbours may be done already), go through the worker's scratch. */
static int lzdec_block(void *ctx, unsigned worker, uint64_t k)
{
    const lzdec_job *J = ctx;
    const gpulz_layout *L = J->L;
    const unsigned S = L->symbol_size;
    const unsigned c = gpulz_block_raw_size(L, k) / S;
    uint8_t *out = J->dst + k * L->block_symbols * S;
    const uint64_t end = k * L->block_symbols * S + (uint64_t)c * S;
    uint8_t *b = J->in_order && L->n - end >= GPULZ_STREAMS_SLACK ? out : J->scratch[worker];
    int rc = gpulz_cpu_decode_block_streams(J->flags + J->fpos[k], J->T[k], J->lits + J->lpos[k] * S,
                                            J->lens + J->mpos[k], J->offs + J->mpos[k], b, c, S, L->window, k);
    if (rc == GPULZ_OK)
        finish_block(L, b, 0, 0, out, k, J->term);
    return rc;
}

static const char *const literal_names[] = {"literals 0", "literals 1", "literals 2", "literals 3",
                                            "literals 4", "literals 5", "literals 6", "literals 7"};
static const char *const symbol_names[] = {"symbols 0", "symbols 1", "symbols 2", "symbols 3",
                                           "symbols 4", "symbols 5", "symbols 6", "symbols 7"};

/* Set bits of n bytes, 8 at a time, without __builtin_popcount, which is a
 * library call where the target has no population count instruction (the
 * count does not depend on the bytes' order in the word). */
static inline uint32_t ones_of(const uint8_t *f, uint32_t n)
{
    uint32_t ones = 0, i = 0;
    for (; i < n; i += 8) {
        uint64_t v = 0;
        memcpy(&v, f + i, n - i < 8 ? n - i : 8);
        v = v - (v >> 1 & 0x5555555555555555u);
        v = (v & 0x3333333333333333u) + (v >> 2 & 0x3333333333333333u);
        v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
        ones += (uint32_t)(v * 0x0101010101010101u >> 56);
    }
    return ones;
}

/* The ratio shape's streams at *pos, then its blocks, each finished
 * (finish_block) with its term into term (NULL: no CHECKSUM). */
static int decode_ratio(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst,
                        unsigned threads, uint32_t *term, size_t *pos)
{
    const unsigned S = L->symbol_size, g = L->seg_log2;
    const uint64_t nb = L->blocks;
    const int split = (L->flags & GPULZ_V2_FLAG_SPLIT) != 0;
    int rc = GPULZ_OK;
    uint8_t *flags = NULL, *lits = NULL, *lens = NULL, *offs = NULL, *planes = NULL, **scratch = NULL;
    uint32_t *T = malloc((nb + 1) * sizeof *T);
    uint64_t *fpos = malloc((nb + 1) * sizeof *fpos), *lpos = malloc((nb + 1) * sizeof *lpos),
             *mpos = malloc((nb + 1) * sizeof *mpos);
    if (!T || !fpos || !lpos || !mpos)
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the token table of %llu blocks", (unsigned long long)nb);
    uint64_t nf = 0;
    for (uint64_t k = 0; k < nb; k++) {
        T[k] = gpulz_get_u16(src + GPULZ_V2_HEADER_SIZE + GPULZ_TOKEN_ENTRY_SIZE * k);
        unsigned c = gpulz_block_raw_size(L, k) / S;
        if (T[k] == 0 || T[k] > c)
            FAIL(GPULZ_ERR_CORRUPT, "block %llu: token count %u is out of 1..%u", (unsigned long long)k,
                 T[k], c);
        fpos[k] = nf;
        nf += gpulz_flag_bytes(T[k]);
    }
    size_t used;
    /* the flags: as many bytes as the token counts say, and the slack that
     * the block decoder's 8-byte loads read (zeros: never used as flags) */
    if (!(flags = malloc(nf + GPULZ_STREAMS_SLACK)))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the flags of %llu blocks", (unsigned long long)nb);
    memset(flags + nf, 0, GPULZ_STREAMS_SLACK);
    gpulz_units F = {flags, 1, 1, nf};
    if ((rc = gpulz_stream_decode(src + *pos, n - *pos, &F, g, threads, "flags", &used)) != GPULZ_OK)
        goto done;
    *pos += used;
    uint64_t nl = 0, nm = 0;
    for (uint64_t k = 0; k < nb; k++) {
        const uint8_t *f = flags + fpos[k];
        const uint32_t fb = gpulz_flag_bytes(T[k]);
        if (T[k] % 8 && f[fb - 1] >> (T[k] % 8))
            FAIL(GPULZ_ERR_CORRUPT, "block %llu: flag bits set past token %u", (unsigned long long)k, T[k]);
        const uint32_t ones = ones_of(f, fb);
        lpos[k] = nl;
        mpos[k] = nm;
        nl += T[k] - ones;
        nm += ones;
    }
    /* each literal takes S bytes and each match covers at least one symbol:
     * the counts are bounded by the symbols before anything is allocated */
    if (nl + nm > L->symbols)
        FAIL(GPULZ_ERR_CORRUPT, "%llu tokens for %llu symbols", (unsigned long long)(nl + nm),
             (unsigned long long)L->symbols);
    lits = malloc(nl * S + GPULZ_STREAMS_SLACK);
    lens = malloc(nm + 1);
    offs = malloc(nm + 1);
    if (!lits || !lens || !offs)
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the token streams");
    memset(lits + nl * S, 0, GPULZ_STREAMS_SLACK); /* copied past the last block, never kept */
    /* SPLIT's literal streams each into a plane, then put together in one
     * pass (as the fast shape's symbols); without the room, each straight
     * into its bytes */
    if (split && nl)
        planes = malloc(nl * S);
    for (unsigned j = 0; j < (split ? S : 1); j++) {
        gpulz_units U = symbol_units(lits, nl, S, split, j);
        if (planes)
            U = (gpulz_units){planes + j * nl, 1, 1, nl};
        if ((rc = gpulz_stream_decode(src + *pos, n - *pos, &U, g, threads, literal_names[j], &used)) != GPULZ_OK)
            goto done;
        *pos += used;
    }
    if (planes)
        interleave(planes, nl, nl, S, lits);
    gpulz_units Ln = {lens, 1, 1, nm}, Of = {offs, 1, 1, nm};
    if ((rc = gpulz_stream_decode(src + *pos, n - *pos, &Ln, g, threads, "lengths", &used)) != GPULZ_OK)
        goto done;
    *pos += used;
    if ((rc = gpulz_stream_decode(src + *pos, n - *pos, &Of, g, threads, "offsets", &used)) != GPULZ_OK)
        goto done;
    *pos += used;
    unsigned workers = gpulz_worker_count(threads, nb);
    if (!(scratch = calloc(workers ? workers : 1, sizeof *scratch)))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate decoder scratch");
    lzdec_job J = {L, flags, lits, lens, offs, T, fpos, lpos, mpos, dst, term, scratch, 0};
    if ((rc = gpulz_workers_alloc(&workers, lzdec_init, &J)) == GPULZ_OK) {
        J.in_order = workers == 1;
        rc = gpulz_parallel_for(nb, workers, GPULZ_BLOCK_GRAIN, NULL, lzdec_block, &J);
    }
    for (unsigned w = 0; w < workers; w++)
        free(scratch[w]);
done:
    free(scratch);
    free(planes);
    free(T);
    free(fpos);
    free(lpos);
    free(mpos);
    free(flags);
    free(lits);
    free(lens);
    free(offs);
    return rc;
}

int gpulz_v2_span_check(const uint8_t *src, size_t n, const gpulz_layout *L)
{
    const unsigned streams = gpulz_stream_count(L->flags, L->symbol_size);
    size_t pos = (size_t)L->table_end;
    for (unsigned j = 0; j < streams; j++) {
        uint64_t N = 0; /* set by gpulz_stream_peek; zeroed for -flto's -Wmaybe-uninitialized */
        int rc = gpulz_stream_peek(src + pos, n - pos, &N, "of the chunk");
        if (rc != GPULZ_OK)
            return rc;
        /* without LZSS every stream holds one unit a symbol (§12), checked
         * before its size as the decoders check it: a header's n is not
         * believed where its streams cannot make it */
        if (!(L->flags & GPULZ_V2_FLAG_LZSS) && N != L->symbols)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %u of the chunk: %llu units where the chunk has %llu", j,
                              (unsigned long long)N, (unsigned long long)L->symbols);
        const uint64_t size = gpulz_get_u64(src + pos + 9);
        if (size > n - pos - GPULZ_STREAM_HEADER_SIZE)
            return gpulz_fail(GPULZ_ERR_TRUNCATED, "stream %u of the chunk: %llu bytes, %zu left", j,
                              (unsigned long long)size, n - pos - GPULZ_STREAM_HEADER_SIZE);
        pos += GPULZ_STREAM_HEADER_SIZE + (size_t)size;
    }
    return gpulz_v2_tail_check(n, pos, L);
}

int gpulz_v2_tail_check(size_t n, size_t pos, const gpulz_layout *L)
{
    if (n - pos == L->tail)
        return GPULZ_OK;
    return gpulz_fail(n - pos < L->tail ? GPULZ_ERR_TRUNCATED : GPULZ_ERR_CORRUPT,
                      "chunk of %zu bytes: %zu bytes follow the streams, the tail is %llu", n, n - pos,
                      (unsigned long long)L->tail);
}

int gpulz_v2_decode(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst,
                    unsigned threads)
{
    const unsigned S = L->symbol_size;
    const int split = (L->flags & GPULZ_V2_FLAG_SPLIT) != 0;
    size_t pos = (size_t)L->table_end;
    uint32_t *term = NULL;
    uint8_t *planes = NULL;
    int rc = GPULZ_OK;
    if (L->flags & GPULZ_V2_FLAG_CHECKSUM && !(term = malloc((L->blocks + 1) * sizeof *term)))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the checksum's terms");
    if (L->flags & GPULZ_V2_FLAG_LZSS) {
        if ((rc = decode_ratio(src, n, L, dst, threads, term, &pos)) != GPULZ_OK)
            goto done;
    } else {
        /* SPLIT's streams each into a plane of their own, put together per
         * block below; without the room, each straight into its bytes */
        if (split && L->symbols)
            planes = malloc(L->symbols * S);
        for (unsigned j = 0; j < gpulz_symbol_streams(L->flags, S); j++) {
            gpulz_units U = symbol_units(dst, L->symbols, S, split, j);
            if (planes)
                U = (gpulz_units){planes + j * L->symbols, 1, 1, L->symbols};
            size_t used;
            if ((rc = gpulz_stream_decode(src + pos, n - pos, &U, L->seg_log2, threads, symbol_names[j],
                                          &used)) != GPULZ_OK)
                goto done;
            pos += used;
        }
    }
    if ((rc = gpulz_v2_tail_check(n, pos, L)) != GPULZ_OK)
        goto done;
    if (L->tail)
        memcpy(dst + L->symbols * S, src + pos, L->tail);
    if (!(L->flags & GPULZ_V2_FLAG_LZSS) && (L->flags & GPULZ_V2_FLAG_DELTA || term || planes)) {
        finish_job J = {L, dst, term, planes};
        if ((rc = gpulz_parallel_for(L->blocks, gpulz_worker_count(threads, L->blocks), GPULZ_BLOCK_GRAIN, NULL,
                                     finish_one, &J)) != GPULZ_OK)
            goto done;
    }
    if (term) {
        uint32_t sum = ck_finish(term, dst, L);
        if (sum != L->checksum)
            FAIL(GPULZ_ERR_CORRUPT, "checksum %08x of the decoded bytes is not the chunk's %08x", sum,
                 L->checksum);
    }
done:
    free(term);
    free(planes);
    return rc;
}
