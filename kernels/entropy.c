/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * entropy.c - the entropy stage of format v2 on the CPU: the model of a
 * stream, its estimate, and one stream coded and decoded with static rANS in
 * segments of 32 interleaved lanes (docs/FORMAT.md §14-16, §18-19).  The
 * CPU simulates the lanes in the order the format fixes, so a GPU that runs
 * them at once writes the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "gpulz_entropy.h"
#include "gpulz_parallel.h"

/* The vector decoder: x86-64 with GCC or clang, AVX2 checked at run time;
 * elsewhere (and with GPULZ_CPU_SIMD=0, for tests of the scalar path) the
 * scalar one, which decodes the same. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__has_include)
#if __has_include(<immintrin.h>)
#include <immintrin.h>
#define GPULZ_DEC_AVX2 1
#endif
#endif
#ifndef GPULZ_DEC_AVX2
#define GPULZ_DEC_AVX2 0
#endif

static int dec_simd_usable(void)
{
#if GPULZ_DEC_AVX2
    const char *env = getenv("GPULZ_CPU_SIMD");
    if (env && !strcmp(env, "0"))
        return 0;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

#define FAIL(st, ...)                                   \
    do {                                                \
        rc = gpulz_fail((st), __VA_ARGS__);             \
        goto done;                                      \
    } while (0)

/* ---- units and histograms ------------------------------------------------ */

/* A little-endian 16-bit load as one move where the host is little-endian
 * (gpulz_get_u16's two byte loads are not always merged by the compiler). */
static inline __attribute__((always_inline)) uint32_t load_le16(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return gpulz_get_u16(p);
#endif
}

static inline uint32_t unit_get(const gpulz_units *U, uint64_t i)
{
    const uint8_t *p = U->base + i * U->stride;
    return U->u == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline void unit_put(const gpulz_units *U, uint64_t i, uint32_t v)
{
    uint8_t *p = U->base + i * U->stride;
    p[0] = (uint8_t)v;
    if (U->u == 2)
        p[1] = (uint8_t)(v >> 8);
}

static inline __attribute__((always_inline)) void unit_put_u(const gpulz_units *U, uint64_t i, uint32_t v,
                                                              const unsigned u)
{
    uint8_t *p = U->base + i * U->stride;
    p[0] = (uint8_t)v;
    if (u == 2)
        p[1] = (uint8_t)(v >> 8);
}

int gpulz_hist_init(gpulz_hist *h, unsigned u)
{
    h->u = u;
    h->N = 0;
    h->lo = 0;
    h->span = (uint32_t)1 << (8 * u);
    h->summary = NULL;
    h->count = calloc((size_t)1 << (8 * u), sizeof *h->count);
    return h->count ? GPULZ_OK : gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate a histogram");
}

void gpulz_hist_narrow(gpulz_hist *h)
{
    const uint32_t V = (uint32_t)1 << (8 * h->u);
    uint32_t first = V, last = 0, gap = 0, gap_end = 0, prev = 0;
    /* eight counters at a time, skipped where all are 0 (most of 2^16 in a
     * sparse range); else which are not, as bits, and those in order by the
     * bits: a test per counter was mispredicted so often on a wide range
     * (12,000 to 29,000 of 2^16 values present) that this scan took longer
     * than the model built after it.  V is 256 or 2^16: whole groups. */
    for (uint32_t b = 0; b < V; b += 8) {
        const uint64_t *c = h->count + b;
        if (!(c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7]))
            continue;
        unsigned nz = 0;
        for (unsigned k = 0; k < 8; k++)
            nz |= (unsigned)(c[k] != 0) << k;
        do {
            const uint32_t v = b + (uint32_t)__builtin_ctz(nz);
            nz &= nz - 1;
            if (first == V)
                first = v;
            else if (v - prev - 1 > gap) {
                gap = v - prev - 1;
                gap_end = v;
            }
            prev = last = v;
        } while (nz);
    }
    if (first == V)
        return; /* nothing counted: the range stays */
    if (last - first + 1 <= V - gap) {
        h->lo = first;
        h->span = last - first + 1;
    } else { /* around the end: from after the widest gap to before it */
        h->lo = gap_end;
        h->span = V - gap;
    }
}

void gpulz_hist_free(gpulz_hist *h)
{
    free(h->count);
    h->count = NULL;
}

/* Bytes at p, p + stride, ... counted into four tables in turn, so that
 * runs of one value do not wait on their own increments; 32-bit counters,
 * at most 2^30 units per call. */
static inline __attribute__((always_inline)) void count_bytes(uint32_t (*c)[256], const uint8_t *p,
                                                              uint64_t n, const size_t stride)
{
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        c[0][p[i * stride]]++;
        c[1][p[(i + 1) * stride]]++;
        c[2][p[(i + 2) * stride]]++;
        c[3][p[(i + 3) * stride]]++;
    }
    for (; i < n; i++)
        c[0][p[i * stride]]++;
}

void gpulz_hist_add(gpulz_hist *h, const gpulz_units *U)
{
    if (U->u == 1) {
        uint32_t c[4][256];
        const size_t stride = U->stride;
        for (uint64_t done = 0; done < U->N;) {
            uint64_t n = U->N - done < ((uint64_t)1 << 30) ? U->N - done : (uint64_t)1 << 30;
            const uint8_t *p = U->base + done * stride;
            memset(c, 0, sizeof c);
            switch (stride) {
            case 1: count_bytes(c, p, n, 1); break;
            case 2: count_bytes(c, p, n, 2); break;
            case 4: count_bytes(c, p, n, 4); break;
            case 8: count_bytes(c, p, n, 8); break;
            default: count_bytes(c, p, n, stride); break;
            }
            for (unsigned v = 0; v < 256; v++)
                h->count[v] += (uint64_t)c[0][v] + c[1][v] + c[2][v] + c[3][v];
            done += n;
        }
    } else if (U->stride == 2) {
        const uint8_t *p = U->base;
        for (uint64_t i = 0; i < U->N; i++)
            h->count[load_le16(p + 2 * i)]++;
    } else {
        for (uint64_t i = 0; i < U->N; i++)
            h->count[unit_get(U, i)]++;
    }
    /* the units may lie outside a range narrowed before (gpulz_hist_narrow
     * narrows 1-byte histograms too) */
    h->lo = 0;
    h->span = (uint32_t)1 << (8 * h->u);
    h->N += U->N;
}

/* ---- the model (§18 step 4) --------------------------------------------- */

typedef struct ranked {
    uint64_t count;
    uint32_t value;
    unsigned entry; /* its index in the table */
    uint64_t rem;
} ranked;

/* The orders of §18 step 4, each the stable sort of an array in the
 * table's order (values ascending, the escape last) by: */
enum rank_order {
    BY_COUNT, /* count higher first: rank order (ties: value lower first, the escape after the values) */
    BY_REM,   /* remainder higher first, ties in rank order (entry: the table's order last) */
    BY_VALUE  /* value lower first (no two are equal) */
};

/* x goes before y in order o, by its keys alone */
static inline int before(const ranked *x, const ranked *y, enum rank_order o)
{
    switch (o) {
    case BY_COUNT: return x->count > y->count;
    case BY_REM:
        return x->rem != y->rem ? x->rem > y->rem : x->count != y->count ? x->count > y->count : x->entry < y->entry;
    default: return x->value < y->value;
    }
}

/*
 * a[0, n) in order o, stably, through tmp (room for n): ties keep the order
 * they had, which the callers make the table's, so that the keys above and
 * that order give the whole of each order.  Insertion sort of runs, then
 * merges; qsort, a comparison through a pointer each, took much of a small
 * chunk's time.
 */
static void sort_ranked(ranked *a, ranked *tmp, size_t n, enum rank_order o)
{
    const size_t run = 16;
    for (size_t s = 0; s < n; s += run) {
        const size_t e = n - s < run ? n : s + run;
        for (size_t i = s + 1; i < e; i++) {
            const ranked x = a[i];
            size_t j = i;
            for (; j > s && before(&x, &a[j - 1], o); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    ranked *from = a, *to = tmp;
    for (size_t w = run; w < n; w *= 2) {
        for (size_t s = 0; s < n; s += 2 * w) {
            const size_t mid = n - s < w ? n : s + w, e = n - s < 2 * w ? n : s + 2 * w;
            size_t i = s, j = mid, o2 = s;
            /* the left run's first on a tie: stable */
            while (i < mid && j < e)
                to[o2++] = before(&from[j], &from[i], o) ? from[j++] : from[i++];
            while (i < mid)
                to[o2++] = from[i++];
            while (j < e)
                to[o2++] = from[j++];
        }
        ranked *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        memcpy(a, from, n * sizeof *a);
}

/*
 * a[0, d) the first d of a[0, n) in BY_REM order, among themselves in no
 * order: the remainders' step adds a slot to each of the first d, so their
 * set is all it reads, and a selection costs a fraction of the sort it
 * replaces (the sort was a third of a chunk's model building).  BY_REM's
 * last tie-break, the entry, makes it a total order, which a selection
 * needs where a stable sort did not.  Quickselect on a median of three; a
 * range still wide after 2 log2 n + 4 rounds is sorted instead, so that no
 * histogram makes it quadratic.
 */
static void select_rem(ranked *a, ranked *tmp, size_t n, size_t d)
{
    const enum rank_order o = BY_REM;
    size_t lo = 0, hi = n; /* the boundary d lies in [lo, hi] */
    unsigned rounds = 4;
    for (size_t k = n; k > 1; k >>= 1)
        rounds += 2;
    while (hi - lo > 16 && d > lo && d < hi) {
        if (!rounds--) {
            sort_ranked(a + lo, tmp, hi - lo, o);
            return;
        }
        /* the median of the first, middle and last as the pivot, moved last */
        size_t i0 = lo, i1 = lo + (hi - lo) / 2, i2 = hi - 1, m;
        if (before(&a[i1], &a[i0], o))
            m = before(&a[i2], &a[i1], o) ? i1 : before(&a[i2], &a[i0], o) ? i2 : i0;
        else
            m = before(&a[i2], &a[i0], o) ? i0 : before(&a[i2], &a[i1], o) ? i2 : i1;
        ranked t = a[m];
        a[m] = a[hi - 1];
        a[hi - 1] = t;
        const ranked pivot = t;
        size_t at = lo;
        for (size_t i = lo; i < hi - 1; i++)
            if (before(&a[i], &pivot, o)) {
                t = a[i];
                a[i] = a[at];
                a[at++] = t;
            }
        a[hi - 1] = a[at];
        a[at] = pivot;
        /* a[lo, at) go before the pivot, a(at, hi) after it */
        if (d <= at)
            hi = at;
        else
            lo = at + 1;
    }
    if (hi - lo > 1 && d > lo && d < hi)
        sort_ranked(a + lo, tmp, hi - lo, o);
}

/*
 * The model of h: the model of §18 step 4, its entries in the table's
 * order (the kept values ascending, the escape last); with tables also the
 * entry of every value, which §19's estimate does not read.
 *
 * Rank order decides three things: which values are kept where more than
 * a table holds are candidates, the ties among remainders, and the order of
 * the decrements when the frequencies overshoot.  The values sit in table
 * order, and the keys of each sort break every tie but the values' own
 * order, so a stable sort from table order gives each order whole; rank
 * order itself is sorted for only the first and the last, which are rare
 * (two sorts per model took half of a small chunk's model building).
 */
static int model_make(gpulz_model *m, const gpulz_hist *h, int tables)
{
    int rc = GPULZ_OK;
    const size_t V = (size_t)1 << (8 * h->u);
    ranked *r = NULL, *tmp = NULL;
    unsigned distinct = 0;
    memset(m, 0, offsetof(gpulz_model, value));
    m->entry = NULL;
    m->u = h->u;
    m->N = h->N;
    /* Selection: a value's ideal share is at least one slot, and room is
     * left, in rank order.  A value under one slot is escaped whatever its
     * rank, so only the others (at most M of them: their counts add up to
     * N at most) are candidates; for u = 2 that is far fewer than the
     * values present.  Their array grows as they are found: most streams
     * keep a few dozen. */
    unsigned cand = 0, cap = 64;
    uint64_t escaped = 0;
    r = malloc((cap + 1) * sizeof *r);
    /* calloc: the entries outside h's range are never set, nor their
     * zeroed pages touched (values that h does not count, no unit's) */
    if (!r || (tables && !(m->entry = calloc(V, sizeof *m->entry))))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate a model");
    /* only h's range can hold counts; its pieces ascend, and so do the
     * candidates' values */
    uint32_t pa[2], pb[2];
    const unsigned pieces = gpulz_hist_pieces(h, pa, pb);
    const uint64_t kept_from = gpulz_rans_least(h->N);
    const gpulz_hist_summary *given = h->summary && h->summary->least == kept_from ? h->summary : NULL;
    if (!given && !h->count) /* a summary alone, for another N */
        FAIL(GPULZ_ERR_PARAM, "a histogram of %llu units has neither counters nor their summary",
             (unsigned long long)h->N);
    if (given) { /* the same candidates, in the same order: the range's values ascend */
        if (given->n > cap) {
            ranked *more = realloc(r, ((size_t)given->n + 1) * sizeof *r);
            if (!more)
                FAIL(GPULZ_ERR_NOMEM, "cannot allocate a model");
            r = more;
            cap = given->n;
        }
        for (uint32_t i = 0; i < given->n; i++)
            r[i] = (ranked){given->count[i], given->value[i], 0, 0};
        cand = given->n;
        distinct = given->distinct;
        escaped = given->escaped;
    }
    /* else a scan, testing each count without a branch on its zeroness,
     * which a wide 16-bit range (12,000 of 65,536 values present)
     * mispredicted so often that the scan took most of a model's time */
    for (unsigned p = 0; p < (given ? 0 : pieces); p++)
        for (size_t v = pa[p]; v < pb[p]; v++) {
            const uint64_t c = h->count[v];
            distinct += c != 0;
            escaped += c < kept_from ? c : 0;
            if (c >= kept_from) {
                if (cand == cap) {
                    ranked *more = realloc(r, (2 * (size_t)cap + 1) * sizeof *r);
                    if (!more)
                        FAIL(GPULZ_ERR_NOMEM, "cannot allocate a model");
                    r = more;
                    cap *= 2;
                }
                r[cand++] = (ranked){c, (uint32_t)v, 0, 0};
            }
        }
    m->distinct = distinct;
    /* for the sorts; the escape makes n <= cand + 1 */
    if (!(tmp = malloc((cand + 1) * sizeof *tmp)))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate a model");
    unsigned K = cand;
    if (cand > GPULZ_RANS_MAX_VALUES) {
        /* the first MAX_VALUES in rank order are kept, back in table order */
        sort_ranked(r, tmp, cand, BY_COUNT);
        K = GPULZ_RANS_MAX_VALUES;
        for (unsigned i = K; i < cand; i++)
            escaped += r[i].count;
        sort_ranked(r, tmp, K, BY_VALUE);
    }
    m->K = K;
    m->E = escaped != 0;
    m->escaped = escaped;
    const unsigned n = K + m->E;
    for (unsigned i = 0; i < K; i++) {
        m->value[i] = r[i].value;
        m->count[i] = r[i].count;
        r[i].entry = i;
    }
    m->count[K] = escaped;
    if (m->E) /* room: cand + 1 >= K + 1 */
        r[K] = (ranked){escaped, 0, K, 0};
    if (tables) {
        for (unsigned p = 0; p < pieces; p++)
            for (size_t v = pa[p]; v < pb[p]; v++)
                m->entry[v] = (uint16_t)K;
        for (unsigned i = 0; i < K; i++)
            m->entry[r[i].value] = (uint16_t)i;
    }
    /* normalisation: floors, then the largest remainders, then no zero */
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].count <= UINT64_MAX / GPULZ_RANS_M) { /* the common case, without a 128-bit division */
            const uint64_t cm = r[i].count * GPULZ_RANS_M;
            m->freq[i] = (uint32_t)(cm / h->N);
            r[i].rem = cm % h->N;
        } else {
            const unsigned __int128 cm = (unsigned __int128)r[i].count * GPULZ_RANS_M;
            m->freq[i] = (uint32_t)(cm / h->N);
            r[i].rem = (uint64_t)(cm % h->N);
        }
        sum += m->freq[i];
    }
    /* the largest remainders, a slot each while the total is short */
    const size_t deficit = sum < GPULZ_RANS_M ? (size_t)(GPULZ_RANS_M - sum) : 0, d = deficit < n ? deficit : n;
    select_rem(r, tmp, n, d);
    for (size_t i = 0; i < d; i++, sum++)
        m->freq[r[i].entry]++;
    for (unsigned i = 0; i < n; i++)
        if (m->freq[i] == 0) {
            m->freq[i] = 1;
            sum++;
        }
    if (sum > GPULZ_RANS_M) {
        /* the decrements in rank order: from table order, by count */
        for (unsigned i = 0; i < n; i++)
            r[i] = (ranked){m->count[i], i < K ? m->value[i] : 0, i, 0};
        sort_ranked(r, tmp, n, BY_COUNT);
        while (sum > GPULZ_RANS_M)
            for (unsigned i = 0; i < n && sum > GPULZ_RANS_M; i++)
                if (m->freq[r[i].entry] > 1) {
                    m->freq[r[i].entry]--;
                    sum--;
                }
    }
    m->cum[0] = 0;
    for (unsigned i = 0; i < n; i++)
        m->cum[i + 1] = m->cum[i] + m->freq[i];
done:
    free(r);
    free(tmp);
    if (rc != GPULZ_OK)
        gpulz_model_free(m);
    return rc;
}

int gpulz_model_build(gpulz_model *m, const gpulz_hist *h)
{
    return model_make(m, h, 1);
}

int gpulz_model_build_no_entries(gpulz_model *m, const gpulz_hist *h)
{
    return model_make(m, h, 0);
}

void gpulz_model_free(gpulz_model *m)
{
    free(m->entry);
    m->entry = NULL;
}

/* ---- the table's bytes (§15) --------------------------------------------- */

static unsigned varint_size(uint32_t v)
{
    return v < 0x80 ? 1 : v < 0x4000 ? 2 : 3;
}

static uint8_t *varint_put(uint8_t *p, uint32_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* A minimal varint of at most 3 bytes from p[0..avail); 0 on failure. */
static unsigned varint_get(const uint8_t *p, size_t avail, uint32_t *v)
{
    uint32_t x = 0;
    for (unsigned i = 0; i < GPULZ_VARINT_MAX && i < avail; i++) {
        x |= (uint32_t)(p[i] & 0x7F) << (7 * i);
        if (!(p[i] & 0x80)) {
            if (i > 0 && p[i] == 0)
                return 0; /* not minimal */
            *v = x;
            return i + 1;
        }
    }
    return 0;
}

size_t gpulz_table_size(const gpulz_model *m)
{
    size_t s = GPULZ_TABLE_HEAD_SIZE;
    for (unsigned i = 0; i < m->K; i++)
        s += varint_size(i ? m->value[i] - m->value[i - 1] - 1 : m->value[0]);
    for (unsigned i = 0; i < m->K + m->E; i++)
        s += varint_size(m->freq[i] - 1);
    return s;
}

uint8_t *gpulz_table_write(uint8_t *p, const gpulz_model *m)
{
    gpulz_put_u16(p, m->K);
    p[2] = (uint8_t)m->E;
    p += GPULZ_TABLE_HEAD_SIZE;
    for (unsigned i = 0; i < m->K; i++)
        p = varint_put(p, i ? m->value[i] - m->value[i - 1] - 1 : m->value[0]);
    for (unsigned i = 0; i < m->K + m->E; i++)
        p = varint_put(p, m->freq[i] - 1);
    return p;
}

/* ---- the estimate (§19) ------------------------------------------------- */

uint64_t gpulz_segments_of(uint64_t N, unsigned g)
{
    return (N >> g) + ((N & (((uint64_t)1 << g) - 1)) != 0);
}

int gpulz_stream_estimate(const gpulz_hist *h, unsigned g, uint64_t *cost)
{
    const uint64_t byte = 2048; /* 8 bits in 1/256 bits */
    if (h->N == 0) {
        *cost = byte * GPULZ_STREAM_HEADER_SIZE;
        return GPULZ_OK;
    }
    /* a model is 80 KiB: on the heap, as a caller's thread may have a
     * small stack (64 KiB overflowed here) */
    gpulz_model *m = malloc(sizeof *m);
    if (!m)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate a model");
    int rc = model_make(m, h, 0);
    if (rc != GPULZ_OK)
        goto done;
    if (m->distinct == 1) {
        *cost = byte * (GPULZ_STREAM_HEADER_SIZE + m->u);
    } else {
        uint64_t c = 0;
        /* the kept values only: the same sum without a pass over 2^(8u) */
        for (unsigned i = 0; i < m->K; i++)
            c += m->count[i] * gpulz_rans_cost[m->freq[i] - 1];
        if (m->E)
            c += m->escaped * gpulz_rans_cost[m->freq[m->K] - 1] + m->escaped * byte * m->u;
        c += byte * (GPULZ_STREAM_HEADER_SIZE + GPULZ_TABLE_HEAD_SIZE + 3 * (uint64_t)(m->K + m->E) +
                     (GPULZ_RANS_STATE_BYTES + GPULZ_DIR_ENTRY_BYTES) * gpulz_segments_of(h->N, g));
        *cost = c;
    }
    gpulz_model_free(m);
done:
    free(m);
    return rc;
}

/* ---- coding (§16) -------------------------------------------------------- */

unsigned gpulz_stream_kind(uint64_t N, unsigned u, const gpulz_model *m, unsigned g)
{
    if (N == 0)
        return GPULZ_STREAM_STORED;
    if (m->distinct == 1)
        return GPULZ_STREAM_CONSTANT;
    /* a body that cannot beat the stored units is not worth coding */
    if (!gpulz_rans_body_kept(gpulz_rans_body_size(m, gpulz_segments_of(N, g), 0), N, u))
        return GPULZ_STREAM_STORED;
    return GPULZ_STREAM_RANS;
}

uint64_t gpulz_rans_body_size(const gpulz_model *m, uint64_t nseg, uint64_t words)
{
    return gpulz_table_size(m) + (GPULZ_DIR_ENTRY_BYTES + GPULZ_RANS_STATE_BYTES) * nseg +
           GPULZ_RANS_WORD_BYTES * words;
}

int gpulz_rans_body_kept(uint64_t body, uint64_t N, unsigned u)
{
    return body < N * u;
}

/*
 * A rANS body's table, directory and states are exact; its W words are
 * bounded below by the units' costs.  Per lane take Phi = 16 (words so far)
 * + log2(x): the coder starts at x = 2^16 (Phi = 16) and ends with x < 2^32.
 * A symbol step with frequency f raises Phi by at least
 * log2(M / f) + log2(1 - (f - 1) / 2^16) where it emits no word (from
 * x >= 2^16, floor(x / f) M >= (x - f + 1) M / f): gpulz_rans_floor, in
 * 1/256 bits.  Where it emits one, x >= f 2^20 loses at most
 * log2(16 / 15) to the shift and, now x >= 16 f, at most as much to the
 * floor: 2 log2(16 / 15) < 47.7/256 bits a word.  A raw step of u bytes
 * raises Phi by 8u less at most 1 bit (u = 2: its word leaves x >= 1).  So
 * over the lanes, in 1/256 bits, 4144 W >= B - 4096 (32 nseg).
 */
uint64_t gpulz_stream_floor(const gpulz_model *m, const gpulz_hist *h, unsigned kind, unsigned g)
{
    const uint64_t N = h->N, units = N * h->u;
    if (kind == GPULZ_STREAM_CONSTANT)
        return GPULZ_STREAM_HEADER_SIZE + h->u;
    if (kind != GPULZ_STREAM_RANS)
        return GPULZ_STREAM_HEADER_SIZE + units;
    uint64_t B = 0;
    for (unsigned i = 0; i < m->K; i++)
        B += m->count[i] * gpulz_rans_floor[m->freq[i] - 1];
    if (m->E)
        B += m->escaped * (gpulz_rans_floor[m->freq[m->K] - 1] + 256 * (8 * (uint64_t)h->u - 1));
    const uint64_t nseg = gpulz_segments_of(N, g), start = 4096 * (uint64_t)GPULZ_RANS_LANES * nseg;
    const uint64_t W = B > start ? (B - start) / 4144 : 0;
    const uint64_t body = gpulz_rans_body_size(m, nseg, W);
    return GPULZ_STREAM_HEADER_SIZE + (body < units ? body : units);
}


/*
 * A segment's words are emitted last first, so the coder writes them
 * backwards into its worker's scratch (2 words per unit at most: a symbol
 * step and a raw step, and one spare word below them), then puts the
 * segment in place: with one worker straight into the output after the
 * table and the directory, where its offset is known; with several into a
 * slot of its own, copied into place once every size is known.  The slots,
 * like the workers' scratch, are the calling thread's allocations
 * (gpulz_workers_alloc says why); a slot holds a segment no longer than
 * its units, and one that is longer is coded again by the calling thread
 * into a buffer of its own.
 */
typedef struct enc_job {
    const gpulz_units *U;
    const gpulz_model *m;
    unsigned g;
    uint32_t *words;   /* per segment: its word count */
    uint16_t **tmp;    /* per worker: 2 * G + 1 words */
    const struct enc_entry *tab; /* per table entry, the escape's included */
    uint8_t *slots;    /* several workers: per segment a slot of slot bytes, */
    size_t slot;
    uint8_t **seg;     /* and the bytes of those that outgrew it, */
    int late;          /* coded after the workers, by the calling thread */
    uint8_t *direct;   /* one worker: where the segments go, */
    size_t pos, room;  /* how far they reach, and the most that can be kept */
    int over;          /* set when the segments outgrow room: stored instead */
} enc_job;

/* The several workers' slots and long segments, freed and cleared. */
static void enc_slots_free(enc_job *J, uint64_t nseg)
{
    if (J->seg)
        for (uint64_t s = 0; s < nseg; s++)
            free(J->seg[s]);
    free(J->seg);
    free(J->slots);
    J->seg = NULL;
    J->slots = NULL;
}

static int enc_init(void *ctx, unsigned worker)
{
    enc_job *J = ctx;
    if (!(J->tmp[worker] = malloc((sizeof(uint16_t) * 2 << J->g) + sizeof(uint16_t))))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate coder scratch");
    return GPULZ_OK;
}

/*
 * Per table entry what the symbol step needs: f, c, 2^12 - f, and
 * m = ceil(2^44 / f), so that x / f = (x m) >> 44 for every state the step
 * divides.  That state is below f 2^20 (the step emits a word first when it
 * is not), so (i) with e = m f - 2^44 < f, x m / 2^44 = x / f + x e / (f 2^44)
 * and the error term stays below 1 / f, the least distance from x / f up to
 * the next integer, because x e < f 2^20 f <= 2^44; and (ii) x m < 2^64:
 * m is exact for a power of two, and otherwise f < 2^12 gives
 * f 2^20 < 2^44 / f, so x m < (f 2^20)(2^44 / f + 1) <= 2^64.  One 64-bit
 * multiply, no division per unit; then x mod f follows, and
 * (q << 12) + (x - q f) + c = x + c + q (2^12 - f).  The GPU's coder takes
 * a 32-bit multiplier instead (gpulz_rans_encode_prepared); here that form
 * (then with f, l and c packed in one word) encoded 9 % slower (585-598
 * against 639-656 MB/s, fast, one core, 64 MB of quantization codes).
 */
typedef struct enc_entry {
    uint64_t m;
    uint32_t c;
    uint16_t f, g; /* g = 2^12 - f */
} enc_entry;

static inline __attribute__((always_inline)) uint32_t enc_step(uint32_t x, const enc_entry *E, uint16_t *tmp,
                                                               uint32_t *top)
{
    /* the word is stored either way (below the words so far, where the
     * spare word makes room) and kept only when emitted: no branch on a
     * condition the data make unpredictable */
    /* x >= f 2^20 as x's top 12 bits against f (f <= 2^12: no overflow),
     * and the word taken off by a shift of 0 or 16 */
    uint32_t emit = x >> (32 - GPULZ_RANS_LOG2_M) >= E->f;
    tmp[*top - 1] = (uint16_t)x;
    *top -= emit;
    x >>= emit << 4;
    uint32_t q = (uint32_t)((uint64_t)x * E->m >> 44);
    return x + E->c + q * E->g;
}

static inline __attribute__((always_inline)) uint32_t unit_load(const uint8_t *p, const unsigned u)
{
    return u == 1 ? p[0] : load_le16(p);
}

/* The coder of one segment (§16), rounds last to first and in each round
 * the escaped lanes' raw steps, then every lane's symbol step, lanes last
 * to first; u and the stride constants for the usual shapes. */
static inline __attribute__((always_inline)) int enc_segment_u(enc_job *J, unsigned worker, uint64_t s,
                                                               const unsigned u, const size_t stride)
{
    const gpulz_units *U = J->U;
    const gpulz_model *m = J->m;
    const enc_entry *T = J->tab;
    const uint64_t first = s << J->g;
    const unsigned c = gpulz_segment_units(U->N, J->g, first);
    const unsigned K = m->K;
    uint16_t *tmp = J->tmp[worker];
    const uint32_t end = (2u << J->g) + 1;
    uint32_t x[GPULZ_RANS_LANES];
    uint32_t top = end;
    if (J->over)
        return GPULZ_OK;
    for (unsigned l = 0; l < GPULZ_RANS_LANES; l++)
        x[l] = GPULZ_RANS_L;
    const unsigned R = (c + GPULZ_RANS_LANES - 1) / GPULZ_RANS_LANES;
    for (unsigned r = R; r-- > 0;) {
        uint32_t v[GPULZ_RANS_LANES], e[GPULZ_RANS_LANES], esc = 0;
        unsigned lanes = c - r * GPULZ_RANS_LANES;
        if (lanes > GPULZ_RANS_LANES)
            lanes = GPULZ_RANS_LANES;
        const uint8_t *in = U->base + (first + (uint64_t)r * GPULZ_RANS_LANES) * stride;
        /* entries are at most K < 2^12, so e + 2^12 - K has bit 12 set for
         * the escape alone: whether any lane escapes, in an add and an or
         * per lane (and the full rounds' loop unrolled) */
        const uint32_t esc_add = GPULZ_RANS_M - K;
        for (unsigned l = 0; l < lanes; l++) {
            v[l] = unit_load(in + l * stride, u);
            e[l] = m->entry[v[l]];
            esc |= e[l] + esc_add;
        }
        if (esc & GPULZ_RANS_M) {
            int emit;
            uint32_t w;
            for (unsigned l = lanes; l-- > 0;)
                if (e[l] == K) {
                    x[l] = gpulz_rans_encode_raw(x[l], v[l], u, &emit, &w);
                    if (emit)
                        tmp[--top] = (uint16_t)w;
                }
        }
        if (lanes == GPULZ_RANS_LANES) {
#pragma GCC unroll 32
            for (unsigned l = GPULZ_RANS_LANES; l-- > 0;)
                x[l] = enc_step(x[l], &T[e[l]], tmp, &top);
        } else {
            for (unsigned l = lanes; l-- > 0;)
                x[l] = enc_step(x[l], &T[e[l]], tmp, &top);
        }
    }
    const uint32_t nw = end - top;
    const size_t size = (size_t)gpulz_segment_bytes(nw);
    uint8_t *out;
    if (J->direct) {
        if (size > J->room - J->pos) {
            J->over = 1;
            return GPULZ_OK;
        }
        out = J->direct + J->pos;
        J->pos += size;
    } else if (size <= J->slot) {
        out = J->slots + s * J->slot;
    } else if (!J->late) {
        J->words[s] = nw; /* coded again later: its size says so */
        return GPULZ_OK;
    } else if (!(out = J->seg[s] = malloc(size))) {
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate a coded segment");
    }
    for (unsigned l = 0; l < GPULZ_RANS_LANES; l++)
        gpulz_put_u32(out + 4 * l, x[l]);
    out += GPULZ_RANS_STATE_BYTES;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, tmp + top, (size_t)GPULZ_RANS_WORD_BYTES * nw);
#else
    for (uint32_t i = 0; i < nw; i++)
        gpulz_put_u16(out + GPULZ_RANS_WORD_BYTES * i, tmp[top + i]);
#endif
    J->words[s] = nw;
    return GPULZ_OK;
}

static int enc_segment(void *ctx, unsigned worker, uint64_t s)
{
    enc_job *J = ctx;
    const size_t stride = J->U->stride;
    if (J->U->u == 1)
        switch (stride) {
        case 1: return enc_segment_u(J, worker, s, 1, 1);
        case 2: return enc_segment_u(J, worker, s, 1, 2);
        case 4: return enc_segment_u(J, worker, s, 1, 4);
        case 8: return enc_segment_u(J, worker, s, 1, 8);
        default: return enc_segment_u(J, worker, s, 1, stride);
        }
    return stride == 2 ? enc_segment_u(J, worker, s, 2, 2) : enc_segment_u(J, worker, s, 2, stride);
}

void gpulz_stream_header_write(uint8_t *p, unsigned kind, uint64_t N, uint64_t size)
{
    p[0] = (uint8_t)kind;
    gpulz_put_u64(p + 1, N);
    gpulz_put_u64(p + 9, size);
}

static void write_stored(const gpulz_units *U, uint8_t *out, size_t *len)
{
    gpulz_stream_header_write(out, GPULZ_STREAM_STORED, U->N, U->N * U->u);
    uint8_t *p = out + GPULZ_STREAM_HEADER_SIZE;
    const size_t stride = U->stride;
    if (stride == U->u) {
        if (U->N) /* an empty stream's base may be NULL */
            memcpy(p, U->base, U->N * U->u);
    }
    else if (U->u == 1) /* a byte plane: no call per unit */
        for (uint64_t i = 0; i < U->N; i++)
            p[i] = U->base[i * stride];
    else
        for (uint64_t i = 0; i < U->N; i++) {
            p[2 * i] = U->base[i * stride];
            p[2 * i + 1] = U->base[i * stride + 1];
        }
    *len = GPULZ_STREAM_HEADER_SIZE + U->N * U->u;
}

int gpulz_stream_encode(const gpulz_units *U, const gpulz_hist *h, unsigned g, unsigned threads,
                        uint8_t *out, size_t *len)
{
    /* on the heap, as in gpulz_stream_estimate */
    gpulz_model *m = calloc(1, sizeof *m);
    if (!m)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate a model");
    int rc = U->N ? gpulz_model_build(m, h) : GPULZ_OK;
    if (rc == GPULZ_OK)
        rc = gpulz_stream_encode_model(U, m, g, threads, out, len);
    gpulz_model_free(m);
    free(m);
    return rc;
}

int gpulz_stream_encode_model(const gpulz_units *U, const gpulz_model *m, unsigned g, unsigned threads,
                              uint8_t *out, size_t *len)
{
    int rc = GPULZ_OK;
    enc_job J = {0};
    /* tmp_count: the workers' scratch slots, freed whatever workers ends as */
    unsigned workers = 0, tmp_count = 0;
    if (U->N == 0) {
        write_stored(U, out, len);
        return GPULZ_OK;
    }
    const unsigned kind = gpulz_stream_kind(U->N, U->u, m, g);
    if (kind == GPULZ_STREAM_CONSTANT) {
        gpulz_stream_header_write(out, GPULZ_STREAM_CONSTANT, U->N, U->u);
        memcpy(out + GPULZ_STREAM_HEADER_SIZE, U->base, U->u);
        *len = GPULZ_STREAM_HEADER_SIZE + U->u;
        goto done;
    }
    if (kind == GPULZ_STREAM_STORED) {
        write_stored(U, out, len);
        goto done;
    }
    const uint64_t nseg = gpulz_segments_of(U->N, g);
    const size_t tsize = gpulz_table_size(m);
    enc_entry *tab = malloc((m->K + m->E) * sizeof *tab);
    if (!tab)
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate the coder's table");
    for (unsigned i = 0; i < m->K + m->E; i++)
        tab[i] = (enc_entry){(((uint64_t)1 << 44) + m->freq[i] - 1) / m->freq[i], m->cum[i], (uint16_t)m->freq[i],
                             (uint16_t)(GPULZ_RANS_M - m->freq[i])};
    J.U = U;
    J.m = m;
    J.g = g;
    J.tab = tab;
    workers = gpulz_worker_count(threads, nseg);
    /* the segments start after the table and the directory; a body of
     * N u bytes or more is not kept (kind RANS: the states fit) */
    const size_t seg0 = (size_t)gpulz_rans_segments_at(tsize, nseg);
    J.words = malloc(nseg * sizeof *J.words);
    J.tmp = calloc(workers, sizeof *J.tmp);
    tmp_count = workers;
    if (!J.words || !J.tmp)
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate coder scratch for %llu segments", (unsigned long long)nseg);
    if ((rc = gpulz_workers_alloc(&workers, enc_init, &J)) != GPULZ_OK)
        goto done;
    if (workers > 1) {
        J.slot = GPULZ_RANS_STATE_BYTES + ((size_t)U->u << g);
        J.slots = nseg <= SIZE_MAX / J.slot ? malloc(nseg * J.slot) : NULL;
        J.seg = calloc(nseg, sizeof *J.seg);
        if ((rc = J.slots && J.seg ? gpulz_parallel_for(nseg, workers, 1, NULL, enc_segment, &J) : GPULZ_ERR_NOMEM) ==
            GPULZ_OK) {
            J.late = 1;
            for (uint64_t s = 0; s < nseg && rc == GPULZ_OK; s++)
                if (gpulz_segment_bytes(J.words[s]) > J.slot)
                    rc = enc_segment(&J, 0, s);
        }
        if (rc == GPULZ_ERR_NOMEM) {
            /* the slots or a long segment's buffer could not be had: code
             * the segments in place on one thread, as one worker does
             * (threads are a ceiling) */
            enc_slots_free(&J, nseg);
            workers = 1;
        } else if (rc != GPULZ_OK) {
            goto done;
        }
    }
    if (workers == 1) {
        J.direct = out + seg0;
        J.room = U->N * U->u - tsize - GPULZ_DIR_ENTRY_BYTES * nseg;
        J.pos = 0;
        J.over = 0;
        if ((rc = gpulz_parallel_for(nseg, 1, 1, NULL, enc_segment, &J)) != GPULZ_OK)
            goto done;
    }
    uint64_t words = 0;
    if (!J.over)
        for (uint64_t s = 0; s < nseg; s++)
            words += J.words[s];
    const uint64_t body = gpulz_rans_body_size(m, nseg, words);
    if (J.over || !gpulz_rans_body_kept(body, U->N, U->u)) {
        write_stored(U, out, len);
        goto done;
    }
    gpulz_stream_header_write(out, GPULZ_STREAM_RANS, U->N, body);
    uint8_t *p = gpulz_table_write(out + GPULZ_STREAM_HEADER_SIZE, m);
    for (uint64_t s = 0; s < nseg; s++, p += GPULZ_DIR_ENTRY_BYTES)
        gpulz_put_u32(p, J.words[s]);
    if (!J.direct)
        for (uint64_t s = 0; s < nseg; s++) {
            const size_t seg = (size_t)gpulz_segment_bytes(J.words[s]);
            memcpy(p, J.seg[s] ? J.seg[s] : J.slots + s * J.slot, seg);
            p += seg;
        }
    *len = GPULZ_STREAM_HEADER_SIZE + body;
done:
    free((void *)J.tab);
    if (J.tmp)
        for (unsigned w = 0; w < tmp_count; w++)
            free(J.tmp[w]);
    free(J.tmp);
    enc_slots_free(&J, gpulz_segments_of(U->N, g));
    free(J.words);
    return rc;
}

/* ---- decoding (§16, §20) ------------------------------------------------- */

/* The table at p, in a body of avail bytes of which the first lim are at
 * hand: GPULZ_STREAM_SHORT where a read runs past lim < avail. */
static int table_read(const uint8_t *p, size_t avail, size_t lim, unsigned u, gpulz_dec_table *t, size_t *used,
                      const char *name)
{
#define SHORT_AT(pos, want) ((size_t)(pos) + (want) > lim && lim < avail)
    if (SHORT_AT(0, GPULZ_TABLE_HEAD_SIZE))
        return GPULZ_STREAM_SHORT;
    if (avail < GPULZ_TABLE_HEAD_SIZE)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: its size ends inside its table", name);
    unsigned K = gpulz_get_u16(p), E = p[2];
    if (K > GPULZ_RANS_MAX_VALUES || E > 1 || K + E == 0)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: a table of %u values and escape %u", name, K, E);
    size_t pos = GPULZ_TABLE_HEAD_SIZE;
    uint32_t values[GPULZ_RANS_M];
    uint32_t v = 0;
    for (unsigned i = 0; i < K; i++) {
        uint32_t d;
        unsigned n = varint_get(p + pos, lim - pos, &d);
        if (!n && SHORT_AT(pos, GPULZ_VARINT_MAX))
            return GPULZ_STREAM_SHORT;
        if (!n)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: value %u of the table is not a valid varint",
                              name, i);
        pos += n;
        v = i ? v + d + 1 : d;
        if (v >= 1u << (8 * u))
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: table value %u is out of range", name, v);
        values[i] = v;
    }
    uint32_t c = 0;
    for (unsigned i = 0; i < K + E; i++) {
        uint32_t f;
        unsigned n = varint_get(p + pos, lim - pos, &f);
        if (!n && SHORT_AT(pos, GPULZ_VARINT_MAX))
            return GPULZ_STREAM_SHORT;
        if (!n)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: frequency %u of the table is not a valid varint",
                              name, i);
        pos += n;
        f += 1;
        if (f > GPULZ_RANS_M - c)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: the table's frequencies exceed %u", name,
                              GPULZ_RANS_M);
        for (uint32_t s = c; s < c + f; s++) {
            t->slot[s] = (i == K ? GPULZ_SLOT_ESCAPE : 0) | f << GPULZ_RANS_LOG2_M | (s - c);
            t->value[s] = (uint16_t)(i < K ? values[i] : 0);
        }
        c += f;
    }
    if (c != GPULZ_RANS_M)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: the table's frequencies add up to %u, not %u",
                          name, c, GPULZ_RANS_M);
    *used = pos;
    return GPULZ_OK;
#undef SHORT_AT
}

typedef struct fast_table fast_table;
typedef struct dec_job {
    gpulz_units *U;
    const gpulz_stream_view *V;
    unsigned g;
    const char *name;
    const fast_table *F; /* NULL: every segment through the checked path */
} dec_job;

/* §16: renormalise a state with the segment's next word; 0 past its words. */
static inline int next_word(uint32_t *x, const uint8_t *w, uint32_t *k, uint32_t nw)
{
    if (*k >= nw)
        return 0;
    *x = gpulz_rans_take_word(*x, gpulz_get_u16(w + GPULZ_RANS_WORD_BYTES * (*k)++));
    return 1;
}

/* Rounds r0.. of segment s from states x and k words read, every word
 * checked, then the segment's end checked (§20). */
static inline __attribute__((always_inline)) int dec_segment_rounds(dec_job *J, uint64_t s, uint32_t *x,
                                                                    uint32_t k, unsigned r0,
                                                                    const unsigned u)
{
    gpulz_units *U = J->U;
    const gpulz_dec_table *t = J->V->t;
    const uint64_t first = s << J->g;
    const unsigned c = gpulz_segment_units(U->N, J->g, first);
    const uint8_t *w = J->V->seg + J->V->start[s] + GPULZ_RANS_STATE_BYTES;
    const uint32_t nw = J->V->words[s];
    const uint32_t umask = (1u << (8 * u)) - 1;
    const unsigned R = (c + GPULZ_RANS_LANES - 1) / GPULZ_RANS_LANES;
    for (unsigned r = r0; r < R; r++) {
        unsigned lanes = c - r * GPULZ_RANS_LANES;
        if (lanes > GPULZ_RANS_LANES)
            lanes = GPULZ_RANS_LANES;
        uint64_t base = first + (uint64_t)r * GPULZ_RANS_LANES;
        uint32_t esc = 0;
        for (unsigned l = 0; l < lanes; l++) {
            uint32_t slot = x[l] & (GPULZ_RANS_M - 1), e = t->slot[slot];
            x[l] = gpulz_rans_advance(x[l], e >> GPULZ_RANS_LOG2_M & 0x1FFFu, slot - (e & 0xFFFu));
            if (gpulz_rans_needs_word(x[l]) && !next_word(&x[l], w, &k, nw))
                goto overrun;
            if (e & GPULZ_SLOT_ESCAPE)
                esc |= 1u << l;
            else
                unit_put_u(U, base + l, t->value[slot], u);
        }
        for (; esc; esc &= esc - 1) {
            unsigned l = (unsigned)__builtin_ctz(esc);
            unit_put_u(U, base + l, x[l] & umask, u);
            x[l] >>= 8 * u;
            if (gpulz_rans_needs_word(x[l]) && !next_word(&x[l], w, &k, nw))
                goto overrun;
        }
    }
    for (unsigned l = 0; l < GPULZ_RANS_LANES; l++)
        if (x[l] != GPULZ_RANS_L)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: lane %u ends in state %u, not 2^16",
                              J->name, (unsigned long long)s, l, x[l]);
    if (k != nw)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: %u of its %u words read", J->name,
                          (unsigned long long)s, k, nw);
    return GPULZ_OK;
overrun:
    return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: reads past its %u words", J->name,
                      (unsigned long long)s, nw);
}

/* §16, §20: segment s's lane states into x, each at least 2^16. */
static inline int seg_states(const dec_job *J, uint64_t s, uint32_t *x)
{
    const uint8_t *p = J->V->seg + J->V->start[s];
    for (unsigned l = 0; l < GPULZ_RANS_LANES; l++)
        if ((x[l] = gpulz_get_u32(p + 4 * l)) < GPULZ_RANS_L)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: lane %u starts below 2^16",
                              J->name, (unsigned long long)s, l);
    return GPULZ_OK;
}

static inline __attribute__((always_inline)) int dec_segment_u(dec_job *J, uint64_t s, const unsigned u)
{
    uint32_t x[GPULZ_RANS_LANES];
    int rc = seg_states(J, s, x);
    return rc != GPULZ_OK ? rc : dec_segment_rounds(J, s, x, 0, 0, u);
}

/*
 * The fast decoder.  Each round of 32 lanes takes at most 64 words (one per
 * symbol step, one per raw step: a state after either is at least 2^4, and
 * one word brings it to 2^16 or more), so a round that starts with 64 words
 * left cannot run past the segment's words and needs no check per word:
 * the word is read whether it is taken or not, and taken without a branch.
 * The rounds nearer the end read a padded copy of the last words and are
 * checked once each (words_near_end); a partial last round goes through the
 * checked path above, which sees the same states.
 *
 * Per slot one 32-bit entry: f (1..4095), the slot's offset in its run
 * (slot - c) and the value's low byte; for two-byte values the entry is 64
 * bits wide with the whole value in its high half, so that a vector of 8
 * lanes takes its entries in two gathers of 4 where a second gather of 8
 * for the high bytes cost as much again (a gather's cost goes by its
 * elements on the x86 cores measured, not by their width).  The escape is
 * the last entry of the table (§15), so a slot is escaped exactly when it
 * is at or past the escape's start: no bit needed.  A table with f = 4096
 * (one entry) has no room for that field and decodes through the checked
 * path.
 */
struct fast_table {
    uint32_t e[GPULZ_RANS_M];  /* u = 1 */
    uint32_t esc_start; /* M when there is no escape */
    int ok;
    int simd; /* the vector rounds below may run */
    /* per mask of 8 lanes: for each lane that takes a word, which of the
     * next words (the lanes before it that take one) */
    uint8_t expand[256][8];
    uint64_t e2[]; /* u = 2 (M of them, allocated only then): e, and the value << 32 */
};

static void fast_table_build(fast_table *F, const gpulz_dec_table *t, unsigned u)
{
    F->ok = 1;
    F->esc_start = GPULZ_RANS_M;
    for (uint32_t s = 0; s < GPULZ_RANS_M; s++) {
        uint32_t e = t->slot[s], f = e >> GPULZ_RANS_LOG2_M & 0x1FFFu;
        if (f >= GPULZ_RANS_M) {
            F->ok = 0;
            return;
        }
        if (e & GPULZ_SLOT_ESCAPE && F->esc_start == GPULZ_RANS_M)
            F->esc_start = s;
        uint32_t lo = f | (e & 0xFFFu) << 12 | (uint32_t)(t->value[s] & 0xFF) << 24;
        if (u == 2)
            F->e2[s] = lo | (uint64_t)t->value[s] << 32;
        else
            F->e[s] = lo;
    }
    F->simd = dec_simd_usable();
    if (F->simd)
        for (unsigned mask = 0; mask < 256; mask++) {
            unsigned rank = 0;
            for (unsigned l = 0; l < 8; l++) {
                F->expand[mask][l] = (uint8_t)(mask >> l & 1 ? rank : 0);
                rank += mask >> l & 1;
            }
        }
}

/* One full round of 32 lanes with at least 64 words left; u and the stride
 * constants.  Returns the escaped lanes, their raw steps still to do. */
static inline __attribute__((always_inline)) uint32_t fast_round(const fast_table *F, uint32_t *x,
                                                                  const uint8_t *w, uint32_t *kp,
                                                                  uint8_t *out, const unsigned u,
                                                                  const size_t stride)
{
    uint32_t k = *kp, esc = 0;
    const uint32_t esc_start = F->esc_start;
#pragma GCC unroll 32
    for (unsigned l = 0; l < GPULZ_RANS_LANES; l++) {
        uint32_t xl = x[l], slot = xl & (GPULZ_RANS_M - 1);
        uint64_t e2 = u == 2 ? F->e2[slot] : 0;
        uint32_t e = u == 2 ? (uint32_t)e2 : F->e[slot];
        uint32_t y = (e & 0xFFFu) * (xl >> GPULZ_RANS_LOG2_M) + (e >> 12 & 0xFFFu);
        uint32_t need = y < GPULZ_RANS_L, wd = load_le16(w + GPULZ_RANS_WORD_BYTES * k);
        /* a mask, not ?:, which compilers turn back into a branch that the
         * data (half the steps take a word) mispredicts */
        uint32_t take = 0u - need;
        x[l] = (y & ~take) | ((y << 16 | wd) & take);
        k += need;
        esc |= (uint32_t)(slot >= esc_start) << l;
        if (u == 2) {
            out[l * stride] = (uint8_t)(e2 >> 32);
            out[l * stride + 1] = (uint8_t)(e2 >> 40);
        } else {
            out[l * stride] = (uint8_t)(e >> 24);
        }
    }
    *kp = k;
    return esc;
}

/* The raw steps of a round's escaped lanes (§16), with the words checked. */
static inline __attribute__((always_inline)) int raw_steps(uint32_t esc, uint32_t *x, const uint8_t *w,
                                                           uint32_t *k, uint32_t nw, uint8_t *out,
                                                           const unsigned u, const size_t stride)
{
    const uint32_t umask = (1u << (8 * u)) - 1;
    for (; esc; esc &= esc - 1) {
        unsigned l = (unsigned)__builtin_ctz(esc);
        uint32_t v = x[l] & umask;
        out[l * stride] = (uint8_t)v;
        if (u == 2)
            out[l * stride + 1] = (uint8_t)(v >> 8);
        x[l] >>= 8 * u;
        if (gpulz_rans_needs_word(x[l]) && !next_word(&x[l], w, k, nw))
            return 0;
    }
    return 1;
}

/*
 * Where the unchecked rounds read their words.  While a round's most (64)
 * are left they read the segment's own; with fewer, a copy of the rest
 * followed by zeros takes their place (*w, and *k and *nw count from its
 * start, *base words before it), so that the rounds run to the segment's
 * last full one: a round then may read past the words, which is found
 * after it (the caller's k > nw) and refused as a read past them, as the
 * checked path refuses it at the word; nothing of such a round is kept.
 * tail holds 128 words: a round starting below 64 reads below 64 + 64 (its
 * eight loads of 8 words, each at most 8 past the one before).
 */
#define TAIL_WORDS (4 * GPULZ_RANS_LANES)
static inline __attribute__((always_inline)) void words_near_end(const uint8_t **w, uint32_t *k, uint32_t *nw,
                                                                 uint32_t *base, uint8_t *tail)
{
    if (*nw - *k >= 2 * GPULZ_RANS_LANES || *w == tail)
        return;
    const uint32_t left = *nw - *k;
    memcpy(tail, *w + GPULZ_RANS_WORD_BYTES * *k, GPULZ_RANS_WORD_BYTES * left);
    memset(tail + GPULZ_RANS_WORD_BYTES * left, 0, GPULZ_RANS_WORD_BYTES * (TAIL_WORDS - left));
    *base = *k;
    *w = tail;
    *k = 0;
    *nw = left;
}

static inline __attribute__((always_inline)) int dec_segment_fast(dec_job *J, uint64_t s, const unsigned u,
                                                                  const size_t stride)
{
    gpulz_units *U = J->U;
    const fast_table *F = J->F;
    const uint64_t first = s << J->g;
    const unsigned c = gpulz_segment_units(U->N, J->g, first);
    const uint8_t *p = J->V->seg + J->V->start[s];
    const uint8_t *w = p + GPULZ_RANS_STATE_BYTES;
    const uint32_t nw = J->V->words[s];
    uint32_t x[GPULZ_RANS_LANES], k = 0;
    int rc = seg_states(J, s, x);
    if (rc != GPULZ_OK)
        return rc;
    const unsigned full = c / GPULZ_RANS_LANES;
    unsigned r = 0;
    uint8_t tail[GPULZ_RANS_WORD_BYTES * TAIL_WORDS];
    uint32_t lim = nw, base = 0;
    for (; r < full; r++) {
        uint8_t *out = U->base + (first + (uint64_t)r * GPULZ_RANS_LANES) * stride;
        words_near_end(&w, &k, &lim, &base, tail);
        uint32_t esc = fast_round(F, x, w, &k, out, u, stride);
        if ((esc && !raw_steps(esc, x, w, &k, lim, out, u, stride)) || k > lim)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: reads past its %u words", J->name,
                              (unsigned long long)s, nw);
    }
    return dec_segment_rounds(J, s, x, base + k, r, u);
}

#if GPULZ_DEC_AVX2
/*
 * Gathers into a zeroed destination.  A gather merges into its destination
 * register where the mask is clear, so that register is one of its inputs;
 * with a mask it can see is all ones the compiler drops the zeroing, and the
 * gather then waits on whatever last wrote the register (in the round
 * below, the previous vector's arithmetic), which chains the round's
 * vectors one after the other.  Both the zero and the mask come from asm,
 * which the compiler can neither see through nor drop, as idioms the core
 * resolves without waiting on the registers' old values.
 */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i zero256(void)
{
    __m256i z;
    __asm__ volatile("vpxor %x0, %x0, %x0" : "=x"(z));
    return z;
}
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i ones256(void)
{
    __m256i o;
    __asm__ volatile("vpcmpeqd %0, %0, %0" : "=x"(o));
    return o;
}
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
gather_u32(const uint32_t *base, __m256i idx)
{
    return _mm256_mask_i32gather_epi32(zero256(), (const int *)base, idx, ones256(), 4);
}
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
gather_u64(const uint64_t *base, __m128i idx)
{
    return _mm256_mask_i32gather_epi64(zero256(), (const long long *)base, idx, ones256(), 8);
}

/*
 * The same full rounds with 8 lanes to a vector (x86 with AVX2, chosen at
 * run time).  Per vector: the slots' entries gathered, the symbol steps,
 * and the lanes that take a word get the next words in lane order: the
 * 8 words after k loaded, and each such lane's word picked by its rank
 * among them (expand[mask]); k advances by their count.  Then the escaped
 * lanes' raw steps the same way.  The values are packed and stored, or
 * stored one by one at a stride.
 */
__attribute__((target("avx2,popcnt"))) static inline __attribute__((always_inline)) void
avx2_round(const fast_table *F, __m256i *xs, const uint8_t *w, uint32_t *kp, uint8_t *out, const unsigned u,
           const size_t stride)
{
    const __m256i m12 = _mm256_set1_epi32(0xFFF), lim = _mm256_set1_epi32(0xFFFF),
                  esc_last = _mm256_set1_epi32((int)F->esc_start - 1);
    uint32_t k = *kp, esc = 0;
    __m256i val[4];
    /* unrolled, so that the states, the caller's xs, stay in registers */
#pragma GCC unroll 4
    for (unsigned g = 0; g < 4; g++) {
        __m256i slot = _mm256_and_si256(xs[g], m12), e;
        if (u == 2) {
            /* lanes 0-3 and 4-7 as 64-bit entries; the low halves to e and
             * the high ones to the values, each back in lane order by the
             * permute */
            __m256i a = gather_u64(F->e2, _mm256_castsi256_si128(slot));
            __m256i b = gather_u64(F->e2, _mm256_extracti128_si256(slot, 1));
            __m256 af = _mm256_castsi256_ps(a), bf = _mm256_castsi256_ps(b);
            e = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(af, bf, 0x88)), 0xD8);
            val[g] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(af, bf, 0xDD)), 0xD8);
        } else {
            e = gather_u32(F->e, slot);
            val[g] = _mm256_srli_epi32(e, 24);
        }
        __m256i y = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(e, m12), _mm256_srli_epi32(xs[g], 12)),
                                     _mm256_and_si256(_mm256_srli_epi32(e, 12), m12));
        __m256i need = _mm256_cmpeq_epi32(_mm256_min_epu32(y, lim), y);
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(need));
        __m256i words = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(w + GPULZ_RANS_WORD_BYTES * k)));
        __m256i idx = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)F->expand[mask]));
        words = _mm256_permutevar8x32_epi32(words, idx);
        xs[g] = _mm256_blendv_epi8(y, _mm256_or_si256(_mm256_slli_epi32(y, 16), words), need);
        k += (uint32_t)__builtin_popcount(mask);
        esc |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(slot, esc_last))) << 8 * g;
    }
    if (esc) {
        /* the escaped lanes' raw steps (§16), after the round's symbol
         * steps and in lane order as their words are laid out: the value
         * is the state's low 8u bits, the state shifts them out and takes
         * a word when under 2^16.  Every vector, escapes or not, so that
         * which have some is no branch; a lane without keeps its state. */
        const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128),
                      umask = _mm256_set1_epi32((int)((1u << 8 * u) - 1));
#pragma GCC unroll 4
        for (unsigned g = 0; g < 4; g++) {
            __m256i em = _mm256_set1_epi32((int)(esc >> 8 * g & 0xFF));
            em = _mm256_cmpeq_epi32(_mm256_and_si256(em, bit), bit);
            val[g] = _mm256_blendv_epi8(val[g], _mm256_and_si256(xs[g], umask), em);
            __m256i y = _mm256_blendv_epi8(xs[g], _mm256_srli_epi32(xs[g], 8 * u), em);
            __m256i need = _mm256_and_si256(em, _mm256_cmpeq_epi32(_mm256_min_epu32(y, lim), y));
            unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(need));
            __m256i words =
                _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(w + GPULZ_RANS_WORD_BYTES * k)));
            __m256i idx = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)F->expand[mask]));
            words = _mm256_permutevar8x32_epi32(words, idx);
            xs[g] = _mm256_blendv_epi8(y, _mm256_or_si256(_mm256_slli_epi32(y, 16), words), need);
            k += (uint32_t)__builtin_popcount(mask);
        }
    }
    *kp = k;
    /* lanes 0..31 in order: packs work per 128-bit half, the permute
     * puts the halves back in order */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i p01 = _mm256_packus_epi32(val[0], val[1]), p23 = _mm256_packus_epi32(val[2], val[3]);
    if (u == 1) {
        __m256i b = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p01, p23), order);
        if (stride == 1) {
            _mm256_storeu_si256((__m256i *)out, b);
        } else {
            uint8_t t[32];
            _mm256_storeu_si256((__m256i *)t, b);
            for (unsigned l = 0; l < 32; l++)
                out[l * stride] = t[l];
        }
    } else {
        /* p01: lanes 0-3, 8-11, 4-7, 12-15 as 16-bit values */
        __m256i lo = _mm256_permute4x64_epi64(p01, 0xD8), hi = _mm256_permute4x64_epi64(p23, 0xD8);
        _mm256_storeu_si256((__m256i *)out, lo);
        _mm256_storeu_si256((__m256i *)(out + 32), hi);
    }
}

__attribute__((target("avx2,popcnt"))) static inline __attribute__((always_inline)) int
dec_segment_avx2_u(dec_job *J, uint64_t s, const unsigned u, const size_t stride)
{
    gpulz_units *U = J->U;
    const fast_table *F = J->F;
    const uint64_t first = s << J->g;
    const unsigned c = gpulz_segment_units(U->N, J->g, first);
    const uint8_t *p = J->V->seg + J->V->start[s];
    const uint8_t *w = p + GPULZ_RANS_STATE_BYTES;
    const uint32_t nw = J->V->words[s];
    uint32_t x[GPULZ_RANS_LANES], k = 0;
    int rc = seg_states(J, s, x);
    if (rc != GPULZ_OK)
        return rc;
    const unsigned full = c / GPULZ_RANS_LANES;
    unsigned r = 0;
    uint8_t tail[GPULZ_RANS_WORD_BYTES * TAIL_WORDS];
    uint32_t lim = nw, base = 0;
    /* the states stay in registers from round to round */
    __m256i xs[4];
    for (unsigned g = 0; g < 4; g++)
        xs[g] = _mm256_loadu_si256((const __m256i *)(x + 8 * g));
    for (; r < full; r++) {
        uint8_t *out = U->base + (first + (uint64_t)r * GPULZ_RANS_LANES) * stride;
        words_near_end(&w, &k, &lim, &base, tail);
        avx2_round(F, xs, w, &k, out, u, stride);
        if (k > lim)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: segment %llu: reads past its %u words", J->name,
                              (unsigned long long)s, nw);
    }
    for (unsigned g = 0; g < 4; g++)
        _mm256_storeu_si256((__m256i *)(x + 8 * g), xs[g]);
    return dec_segment_rounds(J, s, x, base + k, r, u);
}

__attribute__((target("avx2,popcnt"))) static int dec_segment_avx2(dec_job *J, uint64_t s)
{
    if (J->U->u == 1)
        switch (J->U->stride) {
        case 1: return dec_segment_avx2_u(J, s, 1, 1);
        case 2: return dec_segment_avx2_u(J, s, 1, 2);
        case 4: return dec_segment_avx2_u(J, s, 1, 4);
        default: return dec_segment_avx2_u(J, s, 1, 8);
        }
    return dec_segment_avx2_u(J, s, 2, 2);
}
#endif

/* The segment decoder with the unit size a constant, and for the usual
 * shapes the stride too. */
static int dec_segment(void *ctx, unsigned worker, uint64_t s)
{
    (void)worker;
    dec_job *J = ctx;
    const size_t stride = J->U->stride;
#if GPULZ_DEC_AVX2
    if (J->F && J->F->simd &&
        (J->U->u == 1 ? stride == 1 || stride == 2 || stride == 4 || stride == 8 : stride == 2))
        return dec_segment_avx2(J, s);
#endif
    if (J->F) {
        if (J->U->u == 1)
            switch (stride) {
            case 1: return dec_segment_fast(J, s, 1, 1);
            case 2: return dec_segment_fast(J, s, 1, 2);
            case 4: return dec_segment_fast(J, s, 1, 4);
            case 8: return dec_segment_fast(J, s, 1, 8);
            default: break;
            }
        else if (stride == 2)
            return dec_segment_fast(J, s, 2, 2);
    }
    return J->U->u == 1 ? dec_segment_u(J, s, 1) : dec_segment_u(J, s, 2);
}

int gpulz_stream_peek(const uint8_t *src, size_t avail, uint64_t *N, const char *name)
{
    if (avail < GPULZ_STREAM_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "stream %s: its header ends early", name);
    *N = gpulz_get_u64(src + 1);
    return GPULZ_OK;
}

void gpulz_stream_close(gpulz_stream_view *V)
{
    if (V->own & GPULZ_VIEW_OWNS_TABLE)
        free(V->t);
    if (V->own & GPULZ_VIEW_OWNS_DIR) {
        free(V->start);
        free(V->words);
    }
    V->own = 0;
    V->t = NULL;
    V->start = NULL;
    V->words = NULL;
}

int gpulz_stream_open(const uint8_t *src, size_t avail, uint64_t N_want, unsigned u, unsigned g,
                      const char *name, gpulz_stream_view *V)
{
    return gpulz_stream_open_into(src, avail, avail, N_want, u, g, name, NULL, V);
}

int gpulz_stream_open_into(const uint8_t *src, size_t have, size_t avail, uint64_t N_want, unsigned u, unsigned g,
                           const char *name, const gpulz_stream_room *into, gpulz_stream_view *V)
{
    int rc = GPULZ_OK;
    uint64_t N = 0; /* set by gpulz_stream_peek; zeroed for -flto's -Wmaybe-uninitialized */
    memset(V, 0, sizeof *V);
    if (have > avail)
        return gpulz_fail(GPULZ_ERR_PARAM, "stream %s: %zu bytes at hand of %zu", name, have, avail);
    if (have < GPULZ_STREAM_HEADER_SIZE && have < avail)
        return GPULZ_STREAM_SHORT;
    if ((rc = gpulz_stream_peek(src, avail, &N, name)) != GPULZ_OK)
        return rc;
    const unsigned kind = src[0];
    const uint64_t size = gpulz_get_u64(src + 9);
    if (N_want != UINT64_MAX && N != N_want)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: %llu units where the chunk has %llu", name,
                          (unsigned long long)N, (unsigned long long)N_want);
    if (size > avail - GPULZ_STREAM_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "stream %s: %llu bytes where %zu are left", name,
                          (unsigned long long)size, avail - GPULZ_STREAM_HEADER_SIZE);
    V->kind = kind;
    V->N = N;
    V->size = size;
    V->body = src + GPULZ_STREAM_HEADER_SIZE;
    V->used = GPULZ_STREAM_HEADER_SIZE + (size_t)size;
    switch (kind) {
    case GPULZ_STREAM_STORED:
        if (N > size / u || N * u != size)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: stored %llu units in %llu bytes", name,
                              (unsigned long long)N, (unsigned long long)size);
        return GPULZ_OK;
    case GPULZ_STREAM_CONSTANT:
        if (N == 0 || size != u)
            return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: a constant of %llu bytes for %llu units", name,
                              (unsigned long long)size, (unsigned long long)N);
        return have < GPULZ_STREAM_HEADER_SIZE + u ? GPULZ_STREAM_SHORT : GPULZ_OK;
    case GPULZ_STREAM_RANS:
        break;
    default:
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stream %s: unknown kind %u", name, kind);
    }
    const uint8_t *b = V->body;
    /* what is at hand of the body: the table and directory must lie in it */
    const size_t lim = have - GPULZ_STREAM_HEADER_SIZE < size ? have - GPULZ_STREAM_HEADER_SIZE : (size_t)size;
    size_t tsize;
    V->own = into ? 0 : GPULZ_VIEW_OWNS_TABLE;
    if (!(V->t = into ? into->t : malloc(sizeof *V->t)))
        FAIL(GPULZ_ERR_NOMEM, "cannot allocate a decoding table");
    if ((rc = table_read(b, (size_t)size, lim, u, V->t, &tsize, name)) != GPULZ_OK)
        goto done;
    const uint64_t nseg = gpulz_segments_of(N, g);
    /* each segment takes at least its states: bound nseg before allocating */
    if (nseg > (size - tsize) / (GPULZ_DIR_ENTRY_BYTES + GPULZ_RANS_STATE_BYTES))
        FAIL(GPULZ_ERR_CORRUPT, "stream %s: %llu segments cannot fit its %llu bytes", name,
             (unsigned long long)nseg, (unsigned long long)size);
    /* N = 0 is a table and no segment (§16): valid, if never written */
    V->nseg = nseg;
    if (tsize + GPULZ_DIR_ENTRY_BYTES * nseg > lim) {
        rc = GPULZ_STREAM_SHORT; /* the directory runs past what is at hand (not past size: bounded above) */
        goto done;
    }
    if (into && nseg <= into->cap) {
        V->start = into->start;
        V->words = into->words;
    } else {
        /* no room of the caller's, or too little for it (which it refuses) */
        V->own |= GPULZ_VIEW_OWNS_DIR;
        V->start = malloc((nseg ? nseg : 1) * sizeof *V->start);
        V->words = malloc((nseg ? nseg : 1) * sizeof *V->words);
        if (!V->start || !V->words)
            FAIL(GPULZ_ERR_NOMEM, "cannot allocate a segment directory");
    }
    const uint8_t *dir = b + tsize;
    uint64_t pos = 0, room = size - tsize - GPULZ_DIR_ENTRY_BYTES * nseg;
    for (uint64_t s = 0; s < nseg; s++) {
        V->words[s] = gpulz_get_u32(dir + GPULZ_DIR_ENTRY_BYTES * s);
        V->start[s] = pos;
        const uint64_t seg = gpulz_segment_bytes(V->words[s]);
        if (seg > room - pos)
            FAIL(GPULZ_ERR_CORRUPT, "stream %s: segment %llu overruns the stream", name, (unsigned long long)s);
        pos += seg;
    }
    if (pos != room)
        FAIL(GPULZ_ERR_CORRUPT, "stream %s: its segments take %llu of %llu bytes", name,
             (unsigned long long)pos, (unsigned long long)room);
    V->seg_offset = (size_t)gpulz_rans_segments_at(tsize, nseg);
    V->seg = src + V->seg_offset;
done:
    if (rc != GPULZ_OK)
        gpulz_stream_close(V);
    return rc;
}

int gpulz_stream_decode(const uint8_t *src, size_t avail, gpulz_units *U, unsigned g,
                        unsigned threads, const char *name, size_t *used)
{
    gpulz_stream_view V;
    const unsigned u = U->u;
    int rc = gpulz_stream_open(src, avail, U->N, u, g, name, &V);
    if (rc != GPULZ_OK)
        return rc;
    const uint8_t *b = V.body;
    U->N = V.N;
    *used = V.used;
    switch (V.kind) {
    case GPULZ_STREAM_STORED:
        if (V.N == 0)
            break; /* U->base may be NULL */
        if (U->stride == u)
            memcpy(U->base, b, V.N * u); /* units are little-endian bytes as stored */
        else if (u == 1)
            for (uint64_t i = 0; i < V.N; i++)
                U->base[i * U->stride] = b[i];
        else
            for (uint64_t i = 0; i < V.N; i++)
                unit_put(U, i, gpulz_get_u16(b + 2 * i));
        break;
    case GPULZ_STREAM_CONSTANT: {
        uint32_t v = u == 1 ? b[0] : gpulz_get_u16(b);
        if (u == 1 && U->stride == 1)
            memset(U->base, (int)v, V.N); /* a byte plane of one value */
        else
            for (uint64_t i = 0; i < V.N; i++)
                unit_put(U, i, v);
        break;
    }
    default: {
        fast_table *F = malloc(sizeof *F + (u == 2 ? GPULZ_RANS_M * sizeof *F->e2 : 0));
        if (F)
            fast_table_build(F, V.t, u);
        dec_job J = {U, &V, g, name, F && F->ok ? F : NULL};
        rc = gpulz_parallel_for(V.nseg, gpulz_worker_count(threads, V.nseg), 1, NULL, dec_segment, &J);
        free(F);
    }
    }
    gpulz_stream_close(&V);
    return rc;
}
