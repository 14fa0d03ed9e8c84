/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_model_ref.c - the rANS table of FORMAT.md §18 step 4, written again
 * from that text alone (rank order by a comparator, the kept values, the
 * escape, the largest remainders with ties in rank order, no zero, the
 * decrements in rank order), against gpulz_model_build on random
 * histograms: ties everywhere, escapes whose floor is 0 (the decrements),
 * more candidates than a table holds, totals past 2^32, totals that are
 * powers of two (ties among remainders), ranges narrowed or not.  The library sorts from the table's order instead of rank order;
 * both must give the same table, and so must a summary of the candidates
 * (the GPU's) in place of the library's scan.
 */
#include "codec_testutil.h"
#include "gpulz_entropy.h"

#include <string.h>

typedef struct entry {
    uint64_t count, rem;
    uint32_t value;
    int escape;
    unsigned at; /* its place in the table: values ascending, the escape last */
} entry;

/* §18 step 4's rank order */
static int by_rank(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->escape != b->escape)
        return a->escape ? 1 : -1;
    return a->value < b->value ? -1 : a->value > b->value;
}

static int by_value(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    return a->value < b->value ? -1 : a->value > b->value;
}

/* remainder higher first, ties in rank order */
static int by_remainder(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->rem != b->rem)
        return a->rem > b->rem ? -1 : 1;
    return by_rank(pa, pb);
}

typedef struct ref_model {
    unsigned K, E;
    int overshot; /* the decrements ran */
    uint32_t value[GPULZ_RANS_M], freq[GPULZ_RANS_M];
} ref_model;

static void ref_build(const uint64_t *count, uint32_t V, uint64_t N, ref_model *m)
{
    entry *e = tu_xmalloc((size_t)(V + 1) * sizeof *e);
    unsigned n = 0, K = 0;
    for (uint32_t v = 0; v < V; v++)
        if (count[v])
            e[n++] = (entry){count[v], 0, v, 0, 0};
    qsort(e, n, sizeof *e, by_rank);
    /* the values in rank order: in the table while count * M >= N and
     * fewer than M - 1 entered before; the rest escaped */
    uint64_t escaped = 0;
    for (unsigned i = 0; i < n; i++) {
        if ((unsigned __int128)e[i].count * GPULZ_RANS_M >= N && K < GPULZ_RANS_M - 1)
            e[K++] = e[i];
        else
            escaped += e[i].count;
    }
    qsort(e, K, sizeof *e, by_value);
    for (unsigned i = 0; i < K; i++)
        e[i].at = i;
    m->K = K;
    m->E = escaped != 0;
    if (m->E)
        e[K] = (entry){escaped, 0, 0, 1, K};
    const unsigned t = K + m->E;
    uint64_t sum = 0;
    for (unsigned i = 0; i < t; i++) {
        const unsigned __int128 cm = (unsigned __int128)e[i].count * GPULZ_RANS_M;
        m->freq[i] = (uint32_t)(cm / N);
        e[i].rem = (uint64_t)(cm % N);
        sum += m->freq[i];
        if (i < K)
            m->value[i] = e[i].value;
    }
    entry *r = tu_xmalloc((size_t)(t + 1) * sizeof *r);
    memcpy(r, e, t * sizeof *r);
    qsort(r, t, sizeof *r, by_remainder);
    for (unsigned i = 0; sum < GPULZ_RANS_M; i++, sum++)
        m->freq[r[i].at]++;
    for (unsigned i = 0; i < t; i++)
        if (!m->freq[i]) {
            m->freq[i] = 1;
            sum++;
        }
    memcpy(r, e, t * sizeof *r);
    qsort(r, t, sizeof *r, by_rank);
    m->overshot = sum > GPULZ_RANS_M;
    while (sum > GPULZ_RANS_M)
        for (unsigned i = 0; i < t && sum > GPULZ_RANS_M; i++)
            if (m->freq[r[i].at] > 1) {
                m->freq[r[i].at]--;
                sum--;
            }
    free(r);
    free(e);
}

static unsigned decrements; /* trials whose frequencies overshot M: the last rule ran */

static void trial(uint64_t *s, unsigned t)
{
    const unsigned u = tu_below(s, 3) ? 2 : 1;
    const uint32_t V = (uint32_t)1 << (8 * u);
    gpulz_hist h;
    TU_CHECK(gpulz_hist_init(&h, u) == GPULZ_OK, "init");
    const unsigned kind = (unsigned)tu_below(s, 8);
    unsigned distinct = 1 + (unsigned)tu_below(s, u == 1 ? 256 : 3000);
    if (kind == 5)
        distinct = 2 + (unsigned)tu_below(s, 6);
    if (kind == 7)
        distinct = 2 + (unsigned)tu_below(s, 120);
    if (kind == 6 && u == 2)
        distinct = 4095 + (unsigned)tu_below(s, 4); /* about M - 1 values of one count */
    for (unsigned i = 0; i < distinct; i++) {
        uint64_t c;
        switch (kind) {
        case 0: c = 1 + tu_below(s, 1000); break;
        case 1: c = 1 + (1000ull << 10) / (1 + (uint64_t)i * i); break; /* ties in the tail */
        case 2: c = 1 + tu_below(s, 4); break;                           /* ties everywhere */
        case 3: c = tu_below(s, 3) ? 7 : 1 + tu_below(s, 100000); break;
        case 4: c = 1 + tu_below(s, 1ull << 36); break;                  /* N past 2^32 */
        case 5: /* a few large counts and escapes of 1 or 2: the escape's floor is 0 */
            c = i < 1 + tu_below(s, 3) ? (1ull << (20 + tu_below(s, 20))) + tu_below(s, 1000) : 1 + tu_below(s, 2);
            break;
        case 6: c = u == 2 ? 1000 : 1 + tu_below(s, 10); break;
        default: c = 1 + tu_below(s, 60); break;
        }
        const uint32_t v = (uint32_t)tu_below(s, V);
        h.N -= h.count[v];
        h.count[v] = c;
        h.N += c;
    }
    if (kind == 7) {
        /* N = 2M or 4M: the remainders c * M mod N take 2 or 4 values, and
         * their ties, between entries of different counts, decide which
         * entries get the last slots */
        const uint64_t target = (uint64_t)GPULZ_RANS_M << (1 + tu_below(s, 2));
        uint32_t v = (uint32_t)tu_below(s, V);
        while (h.count[v] + (target - h.N) == 0)
            v = (v + 1) % V;
        h.count[v] += target - h.N;
        h.N = target;
    }
    if (tu_below(s, 2))
        gpulz_hist_narrow(&h);

    ref_model want;
    ref_build(h.count, V, h.N, &want);
    uint64_t sum = 0;
    for (unsigned i = 0; i < want.K + want.E; i++)
        sum += want.freq[i];
    TU_CHECK(sum == GPULZ_RANS_M, "trial %u: the reference's frequencies add up to %llu", t, (unsigned long long)sum);
    gpulz_model got;
    memset(&got, 0, sizeof got);
    TU_CHECK(gpulz_model_build(&got, &h) == GPULZ_OK, "trial %u: build", t);
    TU_CHECK(got.K == want.K && got.E == want.E, "trial %u (kind %u, u=%u): K %u E %u, the text says K %u E %u", t,
             kind, u, got.K, got.E, want.K, want.E);
    if (got.K == want.K && got.E == want.E) {
        TU_CHECK(!memcmp(got.value, want.value, want.K * sizeof *want.value), "trial %u (kind %u): the values differ",
                 t, kind);
        TU_CHECK(!memcmp(got.freq, want.freq, (want.K + want.E) * sizeof *want.freq),
                 "trial %u (kind %u, u=%u, N %llu): the frequencies differ", t, kind, u, (unsigned long long)h.N);
        for (unsigned i = 0; i < want.K; i++)
            TU_CHECK(got.entry[want.value[i]] == i, "trial %u: value %u's entry", t, want.value[i]);
    }
    decrements += want.overshot;

    /* the same model from a summary of h's candidates, as the GPU finds
     * them (count * M >= N, ascending), without the library's scan */
    static uint32_t sv[GPULZ_RANS_M];
    static uint64_t sc[GPULZ_RANS_M];
    gpulz_hist_summary cands = {gpulz_rans_least(h.N), 0, 0, 0, sv, sc};
    for (uint32_t v = 0; v < V; v++) {
        const uint64_t c = h.count[v];
        cands.distinct += c != 0;
        if (c && c * GPULZ_RANS_M >= h.N && cands.n < GPULZ_RANS_M) {
            sv[cands.n] = v;
            sc[cands.n++] = c;
        } else {
            cands.escaped += c;
        }
    }
    /* and it is all the model reads: no counters */
    uint64_t *counters = h.count;
    h.summary = &cands;
    h.count = NULL;
    gpulz_model alt;
    memset(&alt, 0, sizeof alt);
    TU_CHECK(gpulz_model_build_no_entries(&alt, &h) == GPULZ_OK, "trial %u: build from the summary", t);
    h.count = counters;
    TU_CHECK(alt.K == got.K && alt.E == got.E && alt.distinct == got.distinct && alt.escaped == got.escaped &&
                 !memcmp(alt.value, got.value, got.K * sizeof *got.value) &&
                 !memcmp(alt.freq, got.freq, (got.K + got.E) * sizeof *got.freq) && !alt.entry,
             "trial %u (kind %u, u=%u): the model from the summary differs (K %u/%u, distinct %u/%u)", t, kind, u,
             alt.K, got.K, alt.distinct, got.distinct);
    /* a summary for another N, without counters, is refused, not read */
    cands.least++;
    h.count = NULL;
    gpulz_model bad;
    memset(&bad, 0, sizeof bad);
    TU_CHECK(gpulz_model_build_no_entries(&bad, &h) == GPULZ_ERR_PARAM, "trial %u: a stale summary was taken", t);
    gpulz_model_free(&bad);
    h.count = counters;
    h.summary = NULL;
    gpulz_model_free(&alt);
    gpulz_model_free(&got);
    gpulz_hist_free(&h);
}

int main(void)
{
    uint64_t s = 0xbb67ae8584caa73bull;
    for (unsigned t = 0; t < 3000; t++)
        trial(&s, t);
    printf("3000 histograms, %u of them with the decrements\n", decrements);
    TU_CHECK(decrements > 0, "no histogram reached the decrements");
    return tu_finish("codec_model_ref");
}
