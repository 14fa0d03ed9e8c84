/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2.h - format 2 on the GPU (docs/FORMAT.md §11-19): what the C side
 * of the backend (gpu_v2.c) and the nvcc unit of its kernels
 * (gpu_v2_launch.cu) share.  The transform, the rANS segments of the
 * symbol streams and the checksum run on the device; the models are built on
 * the host from the device's histograms, by the CPU codec's own functions,
 * so both write the same bytes.  Internal.
 */
#ifndef GPULZ_GPU_V2_H
#define GPULZ_GPU_V2_H

#include <cuda_runtime_api.h>

#include "gpu_context.h"
#include "gpulz_entropy.h"
#include "gpulz_format2.h"
#include "gpulz_v2.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPU_V2_STREAMS_MAX GPULZ_STREAMS_MAX
#define GPU_V2_SUMS_BYTES ((GPU_V2_STREAMS_MAX + 1) * sizeof(unsigned long long))
/* A stream's header and table at most: K values and K + E frequencies,
 * varints each (§15); a constant's value or a stored stream's header is less */
#define GPU_V2_META_MAX \
    (GPULZ_STREAM_HEADER_SIZE + GPULZ_TABLE_HEAD_SIZE + (size_t)GPULZ_VARINT_MAX * (2 * GPULZ_RANS_M))

/* The encoder's entry for a unit value (§16): its frequency's fields for
 * gpulz_rans_encode_prepared (thr, r, cfl) and its start c, with the escape
 * bit where the value is outside the table (the escape's f and c).  16
 * bytes, so that the kernel reads an entry in one load. */
#define GPU_V2_ENC_ESC 0x80000000u
typedef struct __align__(16) gpu_v2_enc {
    uint32_t thr, r, c, cfl;
} gpu_v2_enc;

/*
 * A rANS stream's model as the device builds its encoder's entries from it
 * (gpu_v2_enc_build), 16-bit words: the K kept values ascending, then
 * K + 1 frequencies and K + 1 starts, entry K the escape's (frequency 0
 * where the model has none).  A table of 2^16 entries filled on the host
 * and copied took a wide 16-bit range longer than its coding.
 */
#define GPU_V2_MODEL_BYTES ((size_t)3 * GPULZ_RANS_M * sizeof(uint16_t))
typedef struct gpu_v2_enc_model {
    const uint16_t *words; /* value[K], freq[K + 1], cum[K + 1], in device memory */
    gpu_v2_enc *enc;       /* its `width` entries: value v at (v - lo) mod 2^(8u) */
    uint32_t lo, width, K, u;
} gpu_v2_enc_model;
typedef struct gpu_v2_enc_models {
    gpu_v2_enc_model m[GPU_V2_STREAMS_MAX];
} gpu_v2_enc_models;

/* The entries of count models: entry (v - lo) mod 2^(8u) of model i is
 * value v's, the escape's for a value not kept (gpulz_rans_prepare's fields
 * of its f, zeros for f 0, and its c, with GPU_V2_ENC_ESC for the escape).
 * max_width: the widest model's width. */
int gpu_v2_enc_build(const gpu_v2_enc_models *M, unsigned count, uint32_t max_width, cudaStream_t st);

/* The words a segment of c units of u bytes has room for where the coder's
 * first pass puts them (its units' bytes in st.coded); a stream with a
 * segment of more is coded again, straight into the chunk (redo). */
GPULZ_HD uint32_t gpu_v2_room(uint32_t c, unsigned u)
{
    return c * u / GPULZ_RANS_WORD_BYTES;
}

/*
 * S = 2's statistics where the values lie close together: range[4t .. 4t+3]
 * for transform t (0 the symbols, 1 their deltas) hold the largest v,
 * 0xFFFF - v, v ^ 0x8000 and 0xFFFF - (v ^ 0x8000), so that one zeroed
 * array and atomicMax alone give both the plain and the signed (around the
 * end) extent.  The range area holds two such sets: first the window, the
 * extent of a sample of the values (gpu_v2_range2_kernel; every value where
 * there are at most GPU_V2_SAMPLE_GROUPS groups of 8), then the values' own
 * extent, found while they are counted (gpu_v2_count2_kernel).  A transform
 * whose window spans at most GPU_V2_SPAN_MAX values is counted in shared
 * memory over its window, the values outside it in global memory; one whose
 * own range spans at most GPU_V2_SPAN_MAX values goes to the host packed
 * (gpu_v2_pack2): the host reads that range from the same words, by the
 * same rule.
 */
#define GPU_V2_SPAN_MAX 8192u
#define GPU_V2_RANGE_WORDS 8
#define GPU_V2_RANGE_AREA (2 * GPU_V2_RANGE_WORDS)
#define GPU_V2_SAMPLE_GROUPS (1u << 18)

/* Fast's DELTA from the sample (gpulz_pick_sampled, gpu_v2_sample2_kernel):
 * the pick area holds the weighing blocks' ticket, the pick (0 or 1), the
 * transforms' weights (two 64-bit sums) and, from word GPU_V2_PICK_HEAD,
 * the sample's 64-bit counts of each transform's 2^16 values; zeroed before
 * the sample is counted. */
#define GPU_V2_PICK_TICKET 0
#define GPU_V2_PICK_WORD 1
#define GPU_V2_PICK_SUMS 2
#define GPU_V2_PICK_HEAD 64
#define GPU_V2_PICK_BYTES (GPU_V2_PICK_HEAD * 4u + 2 * 65536u * 8u)

/* Transform t's values as [lo, lo + span) modulo 2^16, the narrower of the
 * plain and the signed extent (the plain one on a tie, as the CPU's
 * span16_narrow); span 0 where it holds no value. */
GPULZ_HD void gpu_v2_range_of(const unsigned *range, unsigned t, unsigned *lo, unsigned *span)
{
    const unsigned *r = range + 4 * t;
    const unsigned plain_lo = 0xFFFFu - r[1], signed_lo = 0xFFFFu - r[3];
    const unsigned plain = r[0] >= plain_lo ? r[0] - plain_lo + 1 : 0;
    const unsigned wrapped = r[2] >= signed_lo ? r[2] - signed_lo + 1 : 0;
    if (wrapped < plain) {
        *lo = signed_lo ^ 0x8000u;
        *span = wrapped;
    } else {
        *lo = plain_lo;
        *span = plain;
    }
}

/* Transform t's counting window from the range area: a sampled extent
 * (sampled != 0) widened by half its span and 32 values, centred and within
 * GPU_V2_SPAN_MAX, so that the values the sample missed mostly still fall
 * in it; a full one as it is.  span > GPU_V2_SPAN_MAX: not counted in
 * shared memory (gpu_v2_hist2_kernel's). */
GPULZ_HD void gpu_v2_window_of(const unsigned *area, unsigned t, int sampled, unsigned *lo, unsigned *span)
{
    gpu_v2_range_of(area, t, lo, span);
    if (sampled && *span <= GPU_V2_SPAN_MAX) {
        unsigned w = *span + *span / 2 + 32;
        w = w < GPU_V2_SPAN_MAX ? w : GPU_V2_SPAN_MAX;
        *lo = (*lo - (w - *span) / 2) & 0xFFFFu;
        *span = w;
    }
}

/* The packed statistics' words (uint64_t) in the device scratch and on the
 * host: the range words, then per transform GPU_V2_SPAN_MAX counts, value
 * lo + j's at j. */
#define GPU_V2_PACK_HEAD ((GPU_V2_RANGE_WORDS * sizeof(unsigned) + 7) / 8)
#define GPU_V2_PACK_WORDS(ntrans) (GPU_V2_PACK_HEAD + (size_t)(ntrans)*GPU_V2_SPAN_MAX)
/* After them, per transform t too wide to pack, its byte planes' counts:
 * 256 of the low byte's values, then 256 of the high byte's. */
#define GPU_V2_PACK_PLANES_AT(ntrans, t) (GPU_V2_PACK_WORDS(ntrans) + (size_t)(t)*512)
#define GPU_V2_PACK_PLANES_WORDS(ntrans) GPU_V2_PACK_PLANES_AT(ntrans, ntrans)
/* After those, per such transform t its candidates (gpulz_hist_summary):
 * n, distinct and escaped, then M values (32-bit, two a word), then M
 * counts; n of each are set. */
#define GPU_V2_SUMMARY_WORDS (3 + (size_t)GPULZ_RANS_M / 2 + GPULZ_RANS_M)
#define GPU_V2_PACK_SUMMARY_AT(ntrans, t) (GPU_V2_PACK_PLANES_WORDS(ntrans) + (size_t)(t)*GPU_V2_SUMMARY_WORDS)
#define GPU_V2_PACK_ALL_WORDS(ntrans) GPU_V2_PACK_SUMMARY_AT(ntrans, ntrans)
/* A summary on the host: the context's, one per part of h_whole */
typedef struct gpu_v2_summary {
    gpulz_hist_summary s;
    uint32_t value[GPULZ_RANS_M];
    uint64_t count[GPULZ_RANS_M];
} gpu_v2_summary;

/* GPU_V2_SAMPLE_GROUPS, or what gpu_tune_sample_groups set. */
uint64_t gpu_v2_sample_groups(void);

/* Whether gpu_tune_ck_apart asked for the checksum's own pass. */
int gpu_v2_ck_apart(void);

/* Whether gpu_tune_unranged asked for S = 2's statistics unranged. */
int gpu_v2_unranged(void);

/* One stream of a chunk, as the kernels see it. */
typedef struct gpu_v2_stream {
    uint64_t N;      /* units */
    uint64_t nseg;   /* rANS segments coded by the kernels (0 for stored and constant) */
    uint64_t seg0;   /* its first segment among the chunk's, in the per-segment arrays */
    uint64_t dir_at; /* rANS: where its directory starts in the chunk */
    uint64_t seg_at; /* rANS: where its first segment starts; stored: its units */
    unsigned kind, u, plane; /* GPULZ_STREAM_*, unit bytes, byte of the symbol with SPLIT */
    /* Where its units are: a byte array (bytes = 1: ratio's flags, lengths
     * and offsets, unit i at x[i]), or the job's S-byte symbols, transformed
     * (DELTA) and split (SPLIT) as the job says, as they are read. */
    unsigned bytes;
    const uint8_t *x;                /* encoding: the units' source */
    uint8_t *out;                    /* decoding: where they go */
    const gpu_v2_enc *enc;           /* encoding: per unit value v of the stream, at (v - enc_lo) mod 2^(8u) */
    uint32_t enc_lo;
    uint8_t *coded;                  /* encoding: per segment s, at s * G * u, its words as coded */
    unsigned redo;                   /* encoding: a segment's words outgrew its slot: code it again in place */
    unsigned placed;                 /* encoding: its segments put already (the first stream, gpu_v2_code_streams) */
    const gpulz_dec_table *dec;      /* decoding: the table */
    uint32_t constant;               /* a constant stream's value */
} gpu_v2_stream;

/* The chunk's streams and what the kernels share. */
typedef struct gpu_v2_job {
    unsigned S, C, g, delta, split, count;
    gpu_v2_stream s[GPU_V2_STREAMS_MAX];
    uint32_t *words;        /* per segment of every stream: its words */
    uint64_t *seg_off;      /* per segment: its offset (scanned; encoding, the puts' sizes first) */
    uint32_t *states;       /* encoding: per segment its 32 final states */
    /* encoding, the first pass: per stream the sum of its segments' words,
     * then (at GPU_V2_STREAMS_MAX) one bit per stream with a segment whose
     * words outgrew its room (redo); zeroed by the host's copy of the
     * models before it */
    unsigned long long *sums;
    uint64_t dst_cap;       /* encoding: the output's bytes, which no segment put passes */
    unsigned put_look;      /* encoding: the puts find their places themselves (v2_look_back), else in seg_off */
    unsigned *err;          /* the device error word; decoding: the first of GPU_V2_DEC_ZEROED bytes (gpu_v2_ck_word) */
    /* decoding, where set (gpu_v2_dec_sums): the decoder adds §17's terms
     * of the blocks it decodes and of the tail (ck_tail bytes after the
     * symbols) here */
    uint32_t *ck;
    unsigned ck_tail;
    /* decoding with ck, where set: the decoder's last block copies the
     * verdict and the sum (err's first two words) to this pinned host
     * memory (the context's h_status, mapped), counting the blocks that
     * have ended in err's third word, so that no copy follows the decoder */
    uint32_t *verdict;
} gpu_v2_job;

/* The device scratch of a format 2 chunk's encoding: byte offsets into one
 * area.  Statistics and coding take every mode; ratio adds the tokens. */
typedef struct gpu_v2_plan {
    size_t hist, range, pack, status, enc, enc_model, dec, words, seg_off, states, temp, coded, total;
    size_t pick; /* the sample's area where fast picks DELTA from it (gpulz_pick_sampled), else 0 */
    size_t coded_bytes; /* the streams' words as coded: their units' bytes, each stream 256-aligned */
    size_t hist_bins;  /* per transform */
    size_t temp_bytes; /* the segments' scan (gpu_v2_place) */
    uint64_t segs;     /* segments of all streams, at most */
    /* ratio: per block its tokens where its symbols start (slots), the
     * counts of each block's flag bytes, literals and matches (scanned into
     * places), and the streams gathered in token order */
    size_t slot_flags, slot_lits, slot_lens, slot_offs, counts, flags, lits, lens, offs, table;
    size_t temp_tokens, temp_tokens_bytes; /* the tokens' scans: apart from temp, which fast uses */
} gpu_v2_plan;

/* The plan for n bytes of S-byte symbols in blocks of C, segments of 2^g
 * units, for mode fast (lzss 0) or ratio (lzss 1). */
int gpu_v2_plan_make(uint64_t n, unsigned S, unsigned C, unsigned g, int lzss, gpu_v2_plan *P);

/* ---- the chunk (gpu_v2.c, gpu_v2_ratio.c) ---------------------------------- */

/* The statistics of one input and symbol size, kept between the candidates
 * of mode auto (gpu_v2_candidates): both modes start from the same
 * histograms and checksum.  A memo belongs to the context that filled it:
 * its tokens are on c's side stream and its whole histograms in c's h_hists. */
typedef struct gpu_v2_memo {
    int valid;
    unsigned S, C, checksum;
    /* for S <= 2 the whole histograms are the context's: h_whole where
     * they came packed, else h_hists (gpu_v2_stats) */
    gpulz_fast_hists H;
    /* The checksum's sum: on its way to sum_at in h_hists on the context's
     * side stream (gpu_v2_stats), until gpu_v2_finish waits for it and
     * clears sum_at; nothing grows h_hists in between.  Up to
     * GPU_V2_CK_INLINE_MAX it comes back with the statistics, into sum. */
    uint32_t sum;
    const uint32_t *sum_at;
    /* fast's DELTA as the sample picked it (gpulz_pick_sampled), else -1:
     * then H holds only that transform's histograms */
    int pick;
    /* Set before a fast candidate that ratio follows: fast starts ratio's
     * tokens on the context's side stream, beside its own coding, and ratio
     * waits for them (tokens, their delta, the context's side_done); freeing
     * the memo waits for tokens that ratio did not take. */
    int ratio_next, tokens, tokens_delta;
    /* the shortest candidate so far (0: none), which ratio's coding must
     * beat (gpu_v2_coding's beat) */
    size_t beat;
    /* DELTA and SPLIT as gpulz_fast_choose() picks them from H, once for
     * every candidate of the input (chosen: 1 once picked); the host took
     * 10-22 us of a 1 MB chunk's auto to pick them again for ratio */
    int chosen, delta, split;
} gpu_v2_memo;

/*
 * A format 2 chunk of mode fast or ratio (p->mode) from the n bytes at d_src
 * into d_dst (p: symbol size, window, block size, flags), with scratch of
 * gpu_v2_plan's total, on context c's device; *dst_len is the chunk's size
 * also when GPULZ_ERR_DST_SIZE says it did not fit.  memo (or NULL) keeps
 * the statistics for the next candidate of the same input.  Returns when
 * the chunk is complete.
 */
int gpu_v2_compress(gpu_ctx *c, const uint8_t *d_src, size_t n, const gpulz_params *p, uint8_t *d_dst,
                    size_t dst_cap, uint8_t *scratch, size_t scratch_cap, cudaStream_t st, gpu_v2_memo *memo,
                    size_t *dst_len);

/*
 * The candidates of FORMAT.md §19 for the n bytes of one input: each mode
 * of list with p's other parameters, coded by run (as gpu_v2_compress codes
 * it) into the one of buf the best so far is not in, all sharing one memo.
 * *best: buf's index of the first of the shortest (set it to -1 before the
 * first call), *best_len its size; both kept over a further call for the
 * same input (the adaptive flag's S = 1), whose candidates must then be
 * shorter to win.
 */
typedef int (*gpu_v2_candidate_fn)(void *arg, size_t n, const gpulz_params *q, gpu_v2_memo *memo, uint8_t *out,
                                   size_t cap, size_t *len);
int gpu_v2_candidates(gpu_ctx *c, size_t n, const gpulz_params *p, const gpulz_mode *list, unsigned count,
                      gpu_v2_candidate_fn run, void *arg, uint8_t *const buf[2], size_t cap, int *best,
                      size_t *best_len);

/*
 * Decode the format 2 chunk at d_src (n bytes, header read into L) into
 * d_dst (L->n bytes).  h_src holds the chunk's first h_len bytes in host
 * memory (all n where the chunk is there; h_len 0: none): the streams'
 * headers, tables and directories are checked there where they lie in
 * them, else copied from the device to be checked.  Every check of the CPU
 * decoder is made.  A chunk with LZSS keeps its token streams in the
 * context's d_tokens.
 */
size_t gpu_v2_decompress_scratch(size_t n);
int gpu_v2_decompress(gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                      const gpulz_layout *L, uint8_t *d_dst, uint8_t *scratch, size_t scratch_cap, cudaStream_t st);

/* The first bytes of a chunk the device API reads with its header, in the
 * same copy: where a chunk's streams' headers, tables and directories lie
 * in them (a fast chunk of up to about 256 MB), no copy and no wait is
 * made for each stream. */
#define GPU_V2_HEAD_BYTES ((size_t)64 << 10)

/* ---- shared by the modes (gpu_v2.c) --------------------------------------- */

/* The streams' statistics in one place: per stream j its histogram h[j]. */
typedef struct gpu_v2_coding {
    gpu_ctx *c; /* its h_tables carries the coding tables */
    gpu_v2_job *J;
    const gpulz_hist *h[GPU_V2_STREAMS_MAX];
    const gpu_v2_plan *P;
    uint8_t *scratch;
    size_t beat; /* a chunk length to beat (0: none): GPULZ_NOT_SHORTER, nothing queued, where it cannot be */
    /* out: where the streams start right after the chunk's header, pinned
     * room for that header, followed by the first stream's header and table
     * (lead_len bytes in all), which gpu_v2_finish sends with it in one copy;
     * else NULL */
    uint8_t *lead;
    size_t lead_len;
} gpu_v2_coding;

/*
 * Code the streams of K->J (each with N, u, plane, bytes and x set; its
 * histogram in K->h) into d_dst from byte pos: the models and kinds on the
 * host, the segments coded once, placed and written on the device, the
 * streams' headers and tables from the host.  *end receives where the
 * streams end; GPULZ_ERR_DST_SIZE (with *end set) when end + tail passes
 * dst_cap, before anything is written.  Queues on st; the work after the
 * segments' sizes are known is left queued for gpu_v2_finish to wait for
 * (on a failure, waited for here).
 */
int gpu_v2_code_streams(gpu_v2_coding *K, uint8_t *d_dst, size_t dst_cap, uint64_t pos, uint64_t tail,
                        cudaStream_t st, uint64_t *end);

/* After the streams (ending at end) are in place: the header of L, with the
 * checksum of M's statistics where L has one (into K's lead and sent with
 * what follows it there, where K has one), the token table from d_table
 * (ratio; else NULL) and the tail, then wait. */
int gpu_v2_finish(gpu_ctx *c, gpulz_layout *L, gpu_v2_memo *M, const gpu_v2_coding *K, const uint8_t *d_src,
                  uint8_t *d_dst, uint64_t end, const uint8_t *d_table, cudaStream_t st);

/* Mode ratio after the statistics (gpu_v2_ratio.c): L from
 * gpulz_layout_make, delta fast's choice, M the statistics' memo. */
int gpu_v2_compress_ratio(gpu_ctx *c, const uint8_t *d_src, gpulz_layout *L, const gpulz_params *p, int delta,
                          int checksum, uint8_t *d_dst, size_t dst_cap, uint8_t *scratch, const gpu_v2_plan *P,
                          cudaStream_t st, gpu_v2_memo *M, size_t *dst_len);

/* Decoding ratio's streams after the header (gpu_v2_ratio.c). */
int gpu_v2_decompress_ratio(gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                            const gpulz_layout *L, uint8_t *d_dst, uint8_t *scratch, size_t scratch_cap,
                            cudaStream_t st);

/* The statistics shared by the modes: the histograms of both transforms
 * (of the one picked, with M->pick, where gpulz_pick_sampled) into M->H
 * (S: M->S) and, with checksum, the checksum, pending in M until
 * gpu_v2_finish.  They come back through c's h_hists, which also gets room
 * after them for ratio's token histograms (gpu_v2_ratio_hists()) and after
 * those for the sum and the pick (gpu_v2_sum_slot(), gpu_v2_pick_slot());
 * S = 2's narrow ones packed, and read from c's h_whole. */
int gpu_v2_stats(gpu_ctx *c, const uint8_t *d_src, size_t n, unsigned C, int checksum, uint8_t *scratch,
                 const gpu_v2_plan *P, cudaStream_t st, gpu_v2_memo *M);

/*
 * Whole histograms (S <= 2) on the host.  S = 2's live in c's h_whole,
 * GPU_V2_WHOLE_PARTS arrays of 2^16 counts (0, 1: the statistics'
 * transforms, which a memo holds; 2: ratio's literals), each 0 outside the
 * range of the histogram using it.
 *
 * gpu_v2_hists_fetch makes H->whole[t], of N units, for the ntrans
 * transforms the device counted at d_hist (bins apart; ranges at d_range).
 * Where S = 2 and the device counted ranges: a transform whose range is
 * narrow has its counts packed on the device (into d_pack, back into
 * h_pack) and scattered into part part0 + t; a wider one comes as its
 * summary (gpulz_hist_summary, kept in part part0 + t of the context's)
 * and its byte planes' counts (into H->plane[t], bit t of *planes_made),
 * without its counters (count NULL; its range all 2^16 values).  Else every
 * transform's bins are read where they arrive, h_bins + t * bins, and
 * narrowed on the host.
 * h_pack may be h_bins when ntrans is 1.  It waits for st, so that copies
 * the caller queued on st before it have arrived too; with h_pick (the
 * sample's pick, one of those copies) it makes only h[*h_pick].
 *
 * gpu_v2_hist_release zeroes h's range again where h is in part d, and
 * leaves h without counts.
 */
#define GPU_V2_WHOLE_PARTS 3
int gpu_v2_hists_fetch(gpu_ctx *c, unsigned S, uint64_t N, const unsigned *d_range, const uint64_t *d_hist,
                       size_t bins, unsigned ntrans, uint64_t *d_pack, unsigned part0, uint64_t *h_bins,
                       uint64_t *h_pack, const uint32_t *h_pick, cudaStream_t st, gpulz_fast_hists *H,
                       unsigned *planes_made);
void gpu_v2_hist_release(gpu_ctx *c, unsigned d, gpulz_hist *h);

/* Where ratio's token histograms (768 + bins counters) come back to in
 * h_hists: after the statistics, which stay in use. */
static inline uint64_t *gpu_v2_ratio_hists(gpu_ctx *c, size_t bins)
{
    return (uint64_t *)c->h_hists + 2 * bins;
}

/* Where the checksum's sum comes back to in h_hists: after ratio's; and
 * the sample's pick (gpu_v2_stats), beside it in the same 8 bytes. */
static inline uint32_t *gpu_v2_sum_slot(gpu_ctx *c, size_t bins)
{
    return (uint32_t *)((uint64_t *)c->h_hists + 3 * bins + 768);
}
static inline uint32_t *gpu_v2_pick_slot(gpu_ctx *c, size_t bins)
{
    return gpu_v2_sum_slot(c, bins) + 1;
}
/* The bytes of h_hists that the statistics, ratio's histograms, the sum and
 * the pick take. */
#define GPU_V2_HOST_HISTS_BYTES(bins) ((3 * (size_t)(bins) + 768 + 1) * sizeof(uint64_t))

/* The decoder's scratch for a chunk of n bytes (byte offsets): the tables
 * (table j in slot GPU_V2_STREAMS_MAX - 1 - j, so that the ones a send
 * takes end where the directories start), then per segment its offset and,
 * after a send's offsets, its words; the error words.  Every segment takes
 * its states and a directory entry in the chunk, which bounds their number. */
typedef struct gpu_v2_dec_plan {
    uint64_t seg_cap;
    size_t dirs, status, total;
} gpu_v2_dec_plan;
void gpu_v2_dec_plan_make(size_t n, gpu_v2_dec_plan *D);

/*
 * Decoding's walk through a chunk's streams in chunk order: each opened on
 * the host by the CPU decoder's checks (gpulz_stream_open_into) on the
 * host's copy of the chunk's first bytes (h_src, h_len) where its table and
 * directory lie in them, else on a mirror of what opening reads, copied
 * from the device; its table built and its segment directory gathered
 * where they are sent from, until they are sent to a job.
 */
typedef struct gpu_v2_reader {
    gpu_ctx *c;
    const uint8_t *d_src, *h_src;
    size_t h_len, n;
    uint64_t pos; /* where the next stream starts */
    unsigned g;
    uint8_t *mirror; /* pinned, the context's */
    size_t mirror_cap;
    /* what goes to the device, laid out as it lands there (gpu_v2_dec_plan):
     * in the context's pinned h_dirs, the tables, then the directories of
     * the streams not yet sent, their offsets and (gathered apart) words */
    uint8_t *staged, *dev;
    uint64_t *seg_off;
    uint32_t *words;
    uint64_t seg_cap;    /* their room */
    uint64_t chunk_segs; /* the most segments the chunk can hold */
    uint64_t segs, max_segs;
    unsigned ntables, sent;
    int dirs_sent; /* the directories were sent: a copy may still read them */
    unsigned *zeroed; /* GPU_V2_DEC_ZEROED bytes on the device the last send zeroed, or NULL */
    cudaStream_t st;
} gpu_v2_reader;
/* The decoder's scratch starts with a lead, so that below the lowest table
 * there is always room for the GPU_V2_DEC_ZEROED bytes a send zeroes (the
 * decoding's error words, gpu_v2_ck_word and gpu_v2_ended_word among them) */
#define GPU_V2_DEC_LEAD 256
#define GPU_V2_DEC_ZEROED 16

/* A reader of the chunk from pos (its first h_len bytes at h_src on the
 * host), for streams of at most N_max units, at most `streams` of them
 * between two sends, and at most D->seg_cap segments in all, into the
 * decoder's scratch planned by D; its mirror and staging are c's (the
 * context held). */
int gpu_v2_reader_init(gpu_v2_reader *R, gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                       uint64_t pos, uint64_t N_max, unsigned streams, unsigned g, const gpu_v2_dec_plan *D,
                       uint8_t *scratch, cudaStream_t st);
void gpu_v2_reader_free(gpu_v2_reader *R);

/* The next stream, of N_want units (s->u bytes each; name in messages),
 * into the job's stream s: GPULZ_ERR_CORRUPT or _TRUNCATED as the CPU says. */
int gpu_v2_reader_next(gpu_v2_reader *R, uint64_t N_want, const char *name, gpu_v2_stream *s);

/* The tables and directories gathered since the last call to the device,
 * in one copy, and J's directory arrays set to them; *max_segs: the most
 * segments of one of those streams. */
int gpu_v2_reader_send(gpu_v2_reader *R, gpu_v2_job *J, uint64_t *max_segs);

/* The least block size whose checksum the decoder sums as it decodes: a
 * block's terms take a fold of 32 steps, which smaller blocks repeat too
 * often for it to beat the checksum's own pass. */
#define GPU_V2_CK_FUSED_C_LEAST 1024

/* The largest chunk whose checksum the encoder's statistics take in line
 * (gpu_v2_stats): up to here the side stream's fork and join cost the host
 * more than the pass costs the device (4 us at 16 MB); above it the pass
 * runs beside the host's models and the coder. */
#define GPU_V2_CK_INLINE_MAX ((size_t)32 << 20)

/*
 * Before L's streams are decoded (J: opened, for context c's device): the
 * tail's bytes that the chunk at d_src holds after its streams (which end
 * at pos of its n bytes) queued on st after the m = L->symbols decoded
 * symbols at d_dst, all L->tail of them or none where the chunk ends short
 * of them (gpu_v2_dec_result refuses it then, and no checksum term reads
 * bytes no copy put down); *tail: how many.  *sums: which pass sums the
 * checksum's terms, its own over the decoded bytes or one of those that
 * put them down (J->ck and J->ck_tail set for the decoder's; the inverse
 * delta takes the tail too).
 */
typedef enum { GPU_V2_CK_APART, GPU_V2_CK_DECODER, GPU_V2_CK_UNDELTA } gpu_v2_ck_where;
int gpu_v2_dec_tail(const gpu_ctx *c, gpu_v2_job *J, const gpulz_layout *L, const uint8_t *d_src, size_t n,
                    size_t pos, uint8_t *d_dst, cudaStream_t st, size_t *tail, gpu_v2_ck_where *sums);

/* The word of a decoding's error words (err) where the checksum's terms are
 * summed: the second, zeroed with the verdict; the third counts the
 * decoder's ended blocks (gpu_v2_job.verdict). */
GPULZ_HD uint32_t *gpu_v2_ck_word(unsigned *err)
{
    return (uint32_t *)err + 1;
}
GPULZ_HD unsigned *gpu_v2_ended_word(unsigned *err)
{
    return err + 2;
}

/* With DELTA in L's flags, the inverse delta of the m decoded symbols at
 * d_dst, adding the checksum's terms (with the tail's, the tail bytes held
 * after the symbols) into err's where sums is GPU_V2_CK_UNDELTA; else nothing. */
int gpu_v2_dec_undelta(const gpulz_layout *L, gpu_v2_ck_where sums, uint8_t *d_dst, uint64_t m, size_t tail,
                       unsigned *err, cudaStream_t st);

/* The device's verdict (err: the error words), the tail (the streams end
 * at pos of the chunk's n bytes) and the checksum of the decoded chunk, in
 * that order, the CPU decoder's: the first fault found is the status.
 * summed: a pass that put the bytes down has summed the checksum's terms
 * into err[1] already (gpu_v2_dec_sums); else a pass of its own does.
 * written: the decoder writes err's first two words to c->h_status itself
 * (gpu_v2_job.verdict; the caller set the first to GPU_V2_NO_VERDICT before
 * it); else they are copied there. */
#define GPU_V2_NO_VERDICT 0xFFFFFFFFu
int gpu_v2_dec_result(gpu_ctx *c, const gpulz_layout *L, size_t n, size_t pos, uint8_t *d_dst, unsigned *err,
                      int summed, int written, cudaStream_t st);

/* A stream after `opened` others could not be opened (why, a fault of the
 * chunk): the opened ones decoded first, GPULZ_ERR_CORRUPT where one is
 * damaged (as the CPU, which decodes each before it opens the next, says),
 * else why. */
int gpu_v2_opened_verdict(gpu_v2_reader *R, gpu_v2_job *J, unsigned opened, const uint8_t *d_src, int why,
                          cudaStream_t st);

/* ---- launches (gpu_v2_launch.cu); all queue on st and return at once ---- */

/* The histograms of the symbols and, with delta_too, of their deltas (§19):
 * bins per transform as gpu_v2_plan says, 64-bit counts added to hist;
 * range: GPU_V2_RANGE_AREA words of device scratch (S = 2 uses them); the
 * caller zeroed both.  With pick (S = 2, delta_too, gpulz_pick_sampled;
 * GPU_V2_PICK_BYTES of device scratch, zeroed), fast's DELTA from the sample
 * first, into pick[GPU_V2_PICK_WORD], and the other transform's counts left
 * out where a pass is saved by it (its range words, and where counted its
 * counts, are then not to be read). */
int gpu_v2_hist(const gpu_ctx *c, const uint8_t *d_src, uint64_t m, unsigned S, unsigned C, int delta_too,
                uint64_t *hist, size_t bins, unsigned *range, unsigned *pick, cudaStream_t st);

/* Inputs of one histogram launch, one per grid row. */
#define GPU_V2_HIST_INPUTS 3
typedef struct gpu_v2_hist_inputs {
    const uint8_t *x[GPU_V2_HIST_INPUTS];
    uint64_t m[GPU_V2_HIST_INPUTS];
    uint64_t *hist[GPU_V2_HIST_INPUTS];
} gpu_v2_hist_inputs;

/* The 256 counts of each of count (at most GPU_V2_HIST_INPUTS) byte
 * streams, added to its hist (zeroed by the caller), in one launch. */
int gpu_v2_hist_bytes(const gpu_v2_hist_inputs *in, unsigned count, cudaStream_t st);

/* gpu_v2_hist fills range (S = 2 on a device with room for hist2's
 * shared counters, m > 0, unless gpu_tune_unranged says otherwise) */
int gpu_v2_hist_ranged(const gpu_ctx *c, uint64_t m, unsigned S);

/* After gpu_v2_hist with range (its area): the values' range words into
 * packed (GPU_V2_PACK_ALL_WORDS(ntrans) words), and for each of the ntrans
 * transforms of N units the counts of one whose range spans at most
 * GPU_V2_SPAN_MAX values, else its byte planes' counts and its summary */
int gpu_v2_pack2(const unsigned *range, const uint64_t *hist, size_t bins, unsigned ntrans, uint64_t N,
                 uint64_t *packed, cudaStream_t st);

/* §17: the sum of the pieces' terms of n bytes at d_data added to *sum,
 * which the caller zeroed (with the statistics' areas, or a decoder's
 * error words); the host finishes it with gpulz_ck_final. */
int gpu_v2_checksum(const uint8_t *d_data, uint64_t n, unsigned S, unsigned C, uint32_t *sum,
                    cudaStream_t st);

/* The rANS streams' segments.  write = 0: each segment coded once, its word
 * count into J->words and added to its stream's in J->sums, its final
 * states into J->states, and its words, in the order coded, into its place
 * in the stream's coded (those that fit its c * u bytes; more words than
 * that, which only a segment coded to more than its stored size has, set
 * its stream's redo bit in J->sums, and the host its redo).  write = 1:
 * the segments of the streams marked redo coded again, states, words and
 * directories into d_dst, where J->seg_off places them; and stored
 * streams' units.  max_segs: the most segments of a stream the launch
 * codes. */
int gpu_v2_encode(const gpu_v2_job *J, uint8_t *d_dst, int write, uint64_t max_segs, unsigned batch,
                  cudaStream_t st);

/* gpu_v2_encode's batch for segs segments in all on context c's device:
 * with at most GPU_V2_FEW_SEGS_PER_SM an SM, nothing beside a segment hides
 * its waits on memory, and larger batches wait fewer times (the bytes are
 * the same). */
#define GPU_V2_FEW_SEGS_PER_SM 8
unsigned gpu_v2_enc_batch(const gpu_ctx *c, uint64_t segs);

/* The segments of the first `streams` rANS streams, those not marked redo
 * or placed, from coded into d_dst, each after the sizes of those before
 * it (with J->put_look, which the blocks add up among themselves in
 * J->seg_off, left 0 by the coder; else J->seg_off scanned): states, words
 * (the reverse of the order coded, §16) and directories.  A segment whose
 * words outgrew its room, or that would pass J->dst_cap, is left out (its
 * stream is coded again in place, or stored, or the chunk refused). */
int gpu_v2_put_segments(const gpu_v2_job *J, uint8_t *d_dst, uint64_t max_segs, unsigned streams, cudaStream_t st);

/* Exclusive sums in place of count (at most GPU_V2_SCANS) arrays of len
 * 64-bit items each; temp: CUB's scan space for len items (gpu_v2_scan_temp). */
#define GPU_V2_SCANS 3
/* the longest arrays scanned in one launch, a block each; CUB's beyond */
#define GPU_V2_SCAN_BLOCK_MOST 16384
/* the most segments of a stream whose puts find their places themselves
 * (J->put_look): about what the device runs of them at once */
#define GPU_V2_LOOK_SEGS_MOST 1024
int gpu_v2_scans(uint64_t *const a[], unsigned count, uint64_t len, uint8_t *temp, size_t temp_bytes,
                 cudaStream_t st);

/* J->seg_off from J->words: sizes scanned over all segs segments (the
 * puts' without J->put_look, and the streams coded again in place). */
int gpu_v2_place(const gpu_v2_job *J, uint64_t segs, uint8_t *temp, size_t temp_bytes, cudaStream_t st);

/* Whether J's rANS segments are many for context c's device: more than
 * GPU_V2_FEW_SEGS_PER_SM an SM. */
int gpu_v2_dec_many(const gpu_ctx *c, const gpu_v2_job *J);

/* Decode the streams of the chunk at d_src, each into its out (seg_off:
 * each segment's offset from its stream's first, words: its words, from the
 * directory the host checked), on context c's device: GPU_V2_DEC_WARPS_MANY
 * segments to a block, or GPU_V2_WARPS where there are at most
 * GPU_V2_FEW_SEGS_PER_SM an SM.  Errors in *J->err. */
#define GPU_V2_DEC_WARPS_MANY 8
int gpu_v2_decode(const gpu_ctx *c, const gpu_v2_job *J, const uint8_t *d_src, uint64_t max_segs, cudaStream_t st);

/* §13 backwards on the m symbols of S bytes at y, in blocks of C; ck, where
 * set: each block's checksum term (§17) added there, and the tail's, the
 * `tail` bytes after the m symbols. */
int gpu_v2_undelta(uint8_t *y, uint64_t m, unsigned S, unsigned C, uint32_t *ck, unsigned tail, cudaStream_t st);

/* ---- ratio's tokens (gpu_v2_launch.cu) ------------------------------------ */

/*
 * Tokenise every block of the m symbols at d_src (DELTA applied as they are
 * loaded) as §18 step 2 says, into the plan's slots, with each block's flag
 * bytes, literal and match counts in the plan's counts (3 arrays of nb + 1),
 * and scan those into places; then gather the slots into the streams and
 * the token table into the plan's table.
 */
int gpu_v2_tokens(gpu_ctx *c, const uint8_t *d_src, uint64_t m, unsigned S, unsigned C, unsigned W, int delta,
                  uint8_t *scratch, const gpu_v2_plan *P, cudaStream_t st);

/*
 * Decoding: from the decoded flags (F, each block's at fpos[k]) and the
 * token table at d_table, each block's matches into mpos (nb + 1, then
 * scanned), flag bits past a block's T_k into *err.
 */
size_t gpu_v2_scan_temp(uint64_t items);

/*
 * Decoding: the token table at d_table (nb entries, blocks of C symbols of m)
 * checked and scanned on the device: fpos[k] the flag bytes and tpos[k] the
 * tokens before block k, entry nb the totals (both nb + 1); *bad the first
 * block whose T_k is out of 1..its symbols (set it to ~0 before), so the
 * host reports what the CPU decoder reports.
 */
int gpu_v2_token_places(const uint8_t *d_table, uint64_t nb, uint64_t m, unsigned C, uint64_t *fpos,
                        uint64_t *tpos, uint8_t *temp, size_t temp_bytes, unsigned long long *bad,
                        cudaStream_t st);
int gpu_v2_flag_counts(const uint8_t *d_table, const uint8_t *F, const uint64_t *fpos, uint64_t nb,
                       uint64_t *mpos, uint8_t *temp, size_t temp_bytes, unsigned *err, cudaStream_t st);

/* Every block's symbols from the token streams into y (T from d_table;
 * tpos: the tokens before each block; mpos: the matches before it). */
int gpu_v2_lz_decode(gpu_ctx *c, const uint8_t *d_table, const uint8_t *F, const uint8_t *lits,
                     const uint8_t *lens, const uint8_t *offs, const uint64_t *fpos, const uint64_t *tpos,
                     const uint64_t *mpos, uint64_t m, unsigned S, unsigned C, unsigned W, uint8_t *y,
                     unsigned *err, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_GPU_V2_H */
