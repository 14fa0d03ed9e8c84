/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_entropy.h - the entropy stage of format v2 on the CPU (entropy.c):
 * the model of a stream (docs/FORMAT.md §15, §18 step 4), its cost estimate
 * (§19), and a stream coded and decoded (§14, §16).  Internal.
 */
#ifndef GPULZ_ENTROPY_H
#define GPULZ_ENTROPY_H

#include "gpulz_format2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bits(f) of §19 in 1/256 bits, at index f - 1 (rans_cost.c, generated). */
extern const uint16_t gpulz_rans_cost[GPULZ_RANS_M];
/* per f, the least a symbol step adds to a coder's output (gpulz_stream_floor) */
extern const uint16_t gpulz_rans_floor[GPULZ_RANS_M];

/* N units of u (1 or 2) bytes, unit i at base + i * stride, little-endian. */
typedef struct gpulz_units {
    uint8_t *base; /* const for encoding; written by decoding */
    size_t stride;
    unsigned u;
    uint64_t N;
} gpulz_units;

/* What a model's selection reads of a histogram (§18 step 4), found by
 * whoever counted it (the GPU's, gpu_v2_hists_fetch): the values counted at
 * least gpulz_rans_least(N) times, ascending, with their counts; how many
 * values are counted at all, and the units of the others.  A model is then
 * built without a pass over 2^16 counters. */
typedef struct gpulz_hist_summary {
    uint64_t least;        /* gpulz_rans_least(N) of the N it was found for */
    uint32_t n;            /* candidates, at most M */
    uint32_t distinct;     /* values counted at all */
    uint64_t escaped;      /* units of the values that are no candidates */
    const uint32_t *value; /* n, ascending */
    const uint64_t *count; /* theirs */
} gpulz_hist_summary;

/* The count of every unit value (2^(8u) counters).  Every count outside
 * the values lo, lo + 1, ..., lo + span - 1 (modulo 2^(8u)) is 0, so that
 * the scans of a sparse histogram of 2^16 counters read only those:
 * gpulz_hist_init sets the whole range, which stays right whoever fills
 * count; a counter that knows where its values lie may narrow it. */
typedef struct gpulz_hist {
    unsigned u;
    uint64_t N;
    uint64_t *count;
    uint32_t lo, span;
    /* NULL, or count's summary (for this N); with one, count may be NULL */
    const gpulz_hist_summary *summary;
} gpulz_hist;

int gpulz_hist_init(gpulz_hist *h, unsigned u);
void gpulz_hist_free(gpulz_hist *h);
void gpulz_hist_add(gpulz_hist *h, const gpulz_units *U);
/* h's range narrowed to the shortest (around the end or not) that holds
 * every non-zero count, by one scan of them: for counts filled elsewhere
 * (the GPU's), before the scans that read only the range. */
void gpulz_hist_narrow(gpulz_hist *h);

/* h's range as at most two pieces [a[i], b[i]) of values, ascending and
 * apart; returns how many. */
static inline unsigned gpulz_hist_pieces(const gpulz_hist *h, uint32_t a[2], uint32_t b[2])
{
    const uint32_t V = (uint32_t)1 << (8 * h->u);
    if (h->span == 0)
        return 0;
    if (h->span >= V || h->lo + h->span <= V) {
        a[0] = h->span >= V ? 0 : h->lo;
        b[0] = h->span >= V ? V : h->lo + h->span;
        return 1;
    }
    a[0] = 0;
    b[0] = h->lo + h->span - V;
    a[1] = h->lo;
    b[1] = V;
    return 2;
}

/* A stream's model (§15): K values ascending, then the escape when E. */
typedef struct gpulz_model {
    unsigned u, K, E;
    uint64_t N, escaped; /* units, and how many of them are escaped */
    unsigned distinct;   /* distinct values among the units */
    uint32_t value[GPULZ_RANS_M];
    uint32_t freq[GPULZ_RANS_M];
    uint32_t cum[GPULZ_RANS_M + 1];
    uint64_t count[GPULZ_RANS_M]; /* each entry's units: the kept values' counts, the escape's */
    uint16_t *entry; /* per value: its entry, K for an escaped one (2^(8u)); 0
                      * outside the histogram's range, for values it has not */
} gpulz_model;

/* The model of §18 step 4 from a histogram; GPULZ_ERR_NOMEM, or
 * GPULZ_ERR_PARAM for a histogram with neither counters nor a summary for
 * its N. */
int gpulz_model_build(gpulz_model *m, const gpulz_hist *h);
/* The same model without the entry of every value (m->entry NULL), for a
 * coder that finds its entries itself (the GPU's, gpu_v2_enc_build). */
int gpulz_model_build_no_entries(gpulz_model *m, const gpulz_hist *h);
void gpulz_model_free(gpulz_model *m);

/* §19's estimate of a stream with this histogram and segment size 2^g, in
 * 1/256 bits (the model is built and freed inside). */
int gpulz_stream_estimate(const gpulz_hist *h, unsigned g, uint64_t *cost);

/* The most bytes gpulz_stream_encode() writes for N units of u bytes: the
 * stream header and the units stored. */
static inline uint64_t gpulz_stream_bound(uint64_t N, unsigned u)
{
    return GPULZ_STREAM_HEADER_SIZE + N * u;
}

/*
 * Code the units (whose histogram h is) as one stream (§14, §18 step 3) into
 * out, which holds gpulz_stream_bound() bytes; *len receives its size.
 * Segments are coded by up to `threads` workers.
 */
int gpulz_stream_encode(const gpulz_units *U, const gpulz_hist *h, unsigned g, unsigned threads,
                        uint8_t *out, size_t *len);
/* The same with h's model m already built (gpulz_model_build; not read
 * where U->N is 0), which the caller keeps and frees: a caller that bounds
 * the stream first (gpulz_stream_floor) builds it once. */
int gpulz_stream_encode_model(const gpulz_units *U, const gpulz_model *m, unsigned g, unsigned threads,
                              uint8_t *out, size_t *len);

/*
 * Decode the stream at src (avail bytes left in the chunk) into U (U->N:
 * the units the chunk's shape requires, or UINT64_MAX to take the stream's
 * own N, returned in U->N; U->base holds them).  *used receives the stream's
 * bytes.  name says which stream in messages.  Every field is checked
 * (§20): GPULZ_ERR_CORRUPT or GPULZ_ERR_TRUNCATED.
 */
int gpulz_stream_decode(const uint8_t *src, size_t avail, gpulz_units *U, unsigned g,
                        unsigned threads, const char *name, size_t *used);

/* §15: the table's size and bytes (written at p; returns its end), and
 * §14: a stream's header. */
size_t gpulz_table_size(const gpulz_model *m);
uint8_t *gpulz_table_write(uint8_t *p, const gpulz_model *m);
void gpulz_stream_header_write(uint8_t *p, unsigned kind, uint64_t N, uint64_t size);

/* §16: segments of 2^g units for N units. */
uint64_t gpulz_segments_of(uint64_t N, unsigned g);

/* §18 step 3: the kind a stream of N units of u bytes with model m takes
 * before its segments are coded (STORED, CONSTANT, or RANS to be tried),
 * and whether a coded body of `body` bytes is kept (else it is stored). */
unsigned gpulz_stream_kind(uint64_t N, unsigned u, const gpulz_model *m, unsigned g);
/*
 * The fewest bytes the stream of h's units can take (§14-16), in any order,
 * with model m (from h; unread for kinds other than rANS) and kind
 * (gpulz_stream_kind): a bound below its coded size, so that a candidate
 * that cannot be the shorter is not coded (§19's choice unchanged).
 */
uint64_t gpulz_stream_floor(const gpulz_model *m, const gpulz_hist *h, unsigned kind, unsigned g);
/* A rANS body's bytes (§16): its table, each of its nseg segments'
 * directory entry and states, and its words. */
uint64_t gpulz_rans_body_size(const gpulz_model *m, uint64_t nseg, uint64_t words);
int gpulz_rans_body_kept(uint64_t body, uint64_t N, unsigned u);

/* The decoder's view of a table: per slot f << 12 | (slot - c), with
 * GPULZ_SLOT_ESCAPE for the escape, and its value. */
#define GPULZ_SLOT_ESCAPE 0x80000000u
typedef struct gpulz_dec_table {
    uint32_t slot[GPULZ_RANS_M];
    uint16_t value[GPULZ_RANS_M];
} gpulz_dec_table;

/* A stream with every field but its segments' contents checked (§20). */
typedef struct gpulz_stream_view {
    unsigned kind;
    uint64_t N, size;     /* units, and bytes after the stream header */
    size_t used;          /* the stream's bytes, header included */
    const uint8_t *body;  /* after the header: stored units, the constant, or the table */
    gpulz_dec_table *t;   /* rANS: the table, */
    uint64_t nseg;        /* the segments, */
    size_t seg_offset;    /* where the first starts, from the stream's start, */
    const uint8_t *seg;   /* and there */
    uint64_t *start;      /* each segment's offset from seg */
    uint32_t *words;      /* each segment's words */
    unsigned own;         /* what close frees: GPULZ_VIEW_OWNS_* */
} gpulz_stream_view;
#define GPULZ_VIEW_OWNS_TABLE 1u
#define GPULZ_VIEW_OWNS_DIR 2u

/* Where gpulz_stream_open_into puts a rANS stream's table, and its
 * directory where it has at most cap segments (else the view allocates it). */
typedef struct gpulz_stream_room {
    gpulz_dec_table *t;
    uint64_t *start;
    uint32_t *words;
    uint64_t cap;
} gpulz_stream_room;

/* gpulz_stream_open_into: the header, table or directory reach past the
 * bytes at hand (not past the stream); nothing is recorded as an error. */
#define GPULZ_STREAM_SHORT 2

/*
 * Open the stream at src (avail bytes left in the chunk) of units of u bytes
 * (N_want: the units the chunk's shape requires, or UINT64_MAX).  Reads the
 * header, and for rANS the table and the segment directory, nothing after.
 * GPULZ_ERR_CORRUPT or GPULZ_ERR_TRUNCATED; close what opened.
 */
int gpulz_stream_open(const uint8_t *src, size_t avail, uint64_t N_want, unsigned u, unsigned g,
                      const char *name, gpulz_stream_view *V);
void gpulz_stream_close(gpulz_stream_view *V);
/*
 * gpulz_stream_open from the first `have` of the avail bytes (a prefix a GPU
 * decoder copied to the host), its table and directory put in `into` where
 * not NULL: the same checks and statuses as gpulz_stream_open, or
 * GPULZ_STREAM_SHORT where what it reads lies past `have`.
 */
int gpulz_stream_open_into(const uint8_t *src, size_t have, size_t avail, uint64_t N_want, unsigned u, unsigned g,
                           const char *name, const gpulz_stream_room *into, gpulz_stream_view *V);

/* The N the stream at src declares (after checking that its header fits). */
int gpulz_stream_peek(const uint8_t *src, size_t avail, uint64_t *N, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_ENTROPY_H */
