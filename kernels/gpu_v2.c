/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2.c - format 2 chunks on the GPU, from device buffers, and mode
 * fast: statistics on the device, the choice and the models on the host
 * with the CPU codec's functions (so the bytes are the CPU's), the segments
 * coded once, placed and written on the device; and decoding, the streams opened
 * on the host by the CPU codec's checks and decoded on the device.  Mode
 * ratio's tokens are gpu_v2_ratio.c's.  Plain C.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_v2.h"
#include "gpulz_v2.h"

#define FAIL(st, ...)                                   \
    do {                                                \
        rc = gpulz_fail((st), __VA_ARGS__);             \
        goto done;                                      \
    } while (0)

static const char *const stream_names[] = {"symbols 0", "symbols 1", "symbols 2", "symbols 3",
                                           "symbols 4", "symbols 5", "symbols 6", "symbols 7"};

/* ---- encoding ------------------------------------------------------------- */

/* The encoder's table of a stream with histogram h: its range, the only
 * values a unit of the stream takes; returns its width, its first value in
 * *lo (a range around the end is one run too). */
static uint32_t enc_window(const gpulz_hist *h, uint32_t *lo)
{
    const uint32_t V = (uint32_t)1 << (8 * h->u);
    *lo = h->span < V ? h->lo : 0;
    return h->span < V ? h->span : V;
}

/* m's words as gpu_v2_enc_build reads them (gpu_v2_enc_model) at w; returns
 * their count.  Every f and c is at most M, so 16 bits hold them. */
_Static_assert(((3 * (size_t)GPULZ_RANS_MAX_VALUES + 2) * sizeof(uint16_t) + 15) / 16 * 16 <= GPU_V2_MODEL_BYTES,
               "a model's words, 16-byte aligned, fit its area of the plan");
static size_t model_words(const gpulz_model *m, uint16_t *w)
{
    const unsigned K = m->K;
    for (unsigned i = 0; i < K; i++)
        w[i] = (uint16_t)m->value[i];
    for (unsigned i = 0; i <= K; i++) {
        w[K + i] = (uint16_t)(i < K || m->E ? m->freq[i] : 0);
        w[2 * K + 1 + i] = (uint16_t)m->cum[i];
    }
    return 3 * (size_t)K + 2;
}

/* The one value of a constant stream's histogram (a candidate, with all
 * N units, where only a summary came). */
static uint32_t only_value(const gpulz_hist *h)
{
    if (!h->count)
        return h->summary && h->summary->n ? h->summary->value[0] : 0;
    uint32_t pa[2], pb[2];
    const unsigned pieces = gpulz_hist_pieces(h, pa, pb);
    for (unsigned p = 0; p < pieces; p++)
        for (uint32_t v = pa[p]; v < pb[p]; v++)
            if (h->count[v])
                return v;
    return 0;
}

/* Part d of h_whole; the parts are allocated at first use (NULL: out of
 * memory, on the error stack). */
static uint64_t *whole_part(gpu_ctx *c, unsigned d)
{
    if (!c->h_whole && !(c->h_whole = calloc((size_t)GPU_V2_WHOLE_PARTS << 16, sizeof *c->h_whole))) {
        gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the histograms");
        return NULL;
    }
    return c->h_whole + ((size_t)d << 16);
}

/* The summary of wide transform t from the words gpu_v2_pack2 packed,
 * copied into the context's for part d (allocated at first use; NULL: out
 * of memory, on the error stack). */
static const gpulz_hist_summary *summary_unpack(gpu_ctx *c, unsigned d, const uint64_t *packed, unsigned ntrans,
                                                unsigned t, uint64_t N)
{
    if (!c->h_summary && !(c->h_summary = malloc(GPU_V2_WHOLE_PARTS * sizeof *c->h_summary))) {
        gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the histograms' summaries");
        return NULL;
    }
    gpu_v2_summary *to = &c->h_summary[d];
    const uint64_t *from = packed + GPU_V2_PACK_SUMMARY_AT(ntrans, t);
    to->s.least = gpulz_rans_least(N);
    to->s.n = (uint32_t)(from[0] < GPULZ_RANS_M ? from[0] : GPULZ_RANS_M);
    to->s.distinct = (uint32_t)from[1];
    to->s.escaped = from[2];
    memcpy(to->value, from + 3, to->s.n * sizeof *to->value);
    memcpy(to->count, from + 3 + GPULZ_RANS_M / 2, to->s.n * sizeof *to->count);
    to->s.value = to->value;
    to->s.count = to->count;
    return &to->s;
}

/* h, of N units, transform t of the words gpu_v2_pack2 packed, in `part`:
 * 1; 0, h untouched, where t's range is wider than GPU_V2_SPAN_MAX. */
static int hist_unpack(uint64_t *part, const uint64_t *packed, unsigned t, uint64_t N, gpulz_hist *h)
{
    unsigned lo, span;
    gpu_v2_range_of((const unsigned *)packed, t, &lo, &span);
    if (span > GPU_V2_SPAN_MAX)
        return 0;
    const uint64_t *from = packed + GPU_V2_PACK_HEAD + (size_t)t * GPU_V2_SPAN_MAX;
    h->count = part;
    h->N = N;
    h->lo = lo;
    h->span = span;
    h->summary = NULL;
    for (unsigned j = 0; j < span; j++)
        h->count[(lo + j) & 0xFFFFu] = from[j];
    return 1;
}

void gpu_v2_hist_release(gpu_ctx *c, unsigned d, gpulz_hist *h)
{
    uint32_t pa[2], pb[2];
    const unsigned pieces =
        h->count && c->h_whole && h->count == c->h_whole + ((size_t)d << 16) ? gpulz_hist_pieces(h, pa, pb) : 0;
    for (unsigned p = 0; p < pieces; p++)
        memset(h->count + pa[p], 0, (pb[p] - pa[p]) * sizeof *h->count);
    h->count = NULL;
    h->summary = NULL;
}

/* Packed, 1 MB of S = 2's bins and their scan on the host (30-40 us of a
 * chunk's statistics) become about 250 KB (a narrow transform's counts, a
 * wide one's summary and planes) and a scatter over the range. */
int gpu_v2_hists_fetch(gpu_ctx *c, unsigned S, uint64_t N, const unsigned *d_range, const uint64_t *d_hist,
                       size_t bins, unsigned ntrans, uint64_t *d_pack, unsigned part0, uint64_t *h_bins,
                       uint64_t *h_pack, const uint32_t *h_pick, cudaStream_t st, gpulz_fast_hists *H,
                       unsigned *planes_made)
{
    int rc = GPULZ_OK;
    gpulz_hist *const h = H->whole;
    unsigned wide = 0; /* the transforms read whole, one bit each */
    *planes_made = 0;
    if (S == 2 && gpu_v2_hist_ranged(c, N, S)) {
        if (!whole_part(c, 0))
            return GPULZ_ERR_NOMEM;
        if ((rc = gpu_v2_pack2(d_range, d_hist, bins, ntrans, N, d_pack, st)) != GPULZ_OK)
            goto done;
        GPULZ_CK(cudaMemcpyAsync(h_pack, d_pack, GPU_V2_PACK_ALL_WORDS(ntrans) * sizeof *h_pack,
                                 cudaMemcpyDeviceToHost, st));
        GPULZ_CK(cudaStreamSynchronize(st));
        for (unsigned t = 0; t < ntrans; t++)
            if ((!h_pick || *h_pick == t) && !hist_unpack(whole_part(c, part0 + t), h_pack, t, N, &h[t])) {
                /* too wide to pack: its summary and byte planes, which
                 * the device found, are all the host reads of it
                 * (a pass over its 2^16 counters was most of the host's
                 * time on such a chunk), and its counters stay there */
                if (!(h[t].summary = summary_unpack(c, part0 + t, h_pack, ntrans, t, N)))
                    return GPULZ_ERR_NOMEM;
                /* all values its range: the device finds a wide one's
                 * extent no closer than "over GPU_V2_SPAN_MAX" */
                h[t].count = NULL;
                h[t].N = N;
                h[t].lo = 0;
                h[t].span = 65536;
                const uint64_t *planes = h_pack + GPU_V2_PACK_PLANES_AT(ntrans, t);
                for (unsigned b = 0; b < 2; b++) {
                    memcpy(H->plane[t][b].count, planes + 256 * b, 256 * sizeof *planes);
                    H->plane[t][b].N = N;
                }
                *planes_made |= 1u << t;
            }
    } else {
        /* all counted: the pick, which arrived with them, only says which to read */
        wide = (1u << ntrans) - 1;
    }
    if (!wide)
        goto done;
    /* one copy of the bins from the first wide transform's to the last's */
    unsigned t0 = 0, t1 = ntrans;
    while (!(wide >> t0 & 1))
        t0++;
    while (!(wide >> (t1 - 1) & 1))
        t1--;
    GPULZ_CK(cudaMemcpyAsync(h_bins + t0 * bins, d_hist + t0 * bins, (t1 - t0) * bins * sizeof *h_bins,
                             cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    for (unsigned t = t0; t < t1; t++)
        if (wide >> t & 1 && (!h_pick || *h_pick == t)) {
            h[t].count = h_bins + t * bins;
            h[t].N = N;
            h[t].lo = 0;
            h[t].span = (uint32_t)1 << (8 * S);
            h[t].summary = NULL;
            gpulz_hist_narrow(&h[t]);
        }
done:
    return rc;
}

int gpu_v2_stats(gpu_ctx *c, const uint8_t *d_src, size_t n, unsigned C, int checksum, uint8_t *scratch,
                 const gpu_v2_plan *P, cudaStream_t st, gpu_v2_memo *M)
{
    int rc = GPULZ_OK;
    const unsigned S = M->S;
    const uint64_t m = n / S;
    gpulz_fast_hists *H = &M->H;
    /* pinned, so that the copy is one DMA and no page is faulted in */
    if ((rc = gpu_grow_host(&c->h_hists, &c->hists_cap, GPU_V2_HOST_HISTS_BYTES(P->hist_bins))) != GPULZ_OK)
        return rc;
    uint64_t *counts = (uint64_t *)c->h_hists;
    uint32_t *const slot = gpu_v2_sum_slot(c, P->hist_bins), *const pick_slot = gpu_v2_pick_slot(c, P->hist_bins);
    unsigned *const d_pick = P->pick ? (unsigned *)(scratch + P->pick) : NULL;
    const int ck_inline = checksum && n <= GPU_V2_CK_INLINE_MAX;
    unsigned planes_made = 0;
    /* the histograms, their ranges and the checksum's sum zeroed in one
     * call: on chunks of a few MB the host's calls are what the statistics
     * wait for, at about 5 us each */
    GPULZ_CK(cudaMemsetAsync(scratch + P->hist, 0, P->status + sizeof(uint32_t) - P->hist, st));
    if ((rc = gpu_v2_hist(c, d_src, m, S, C, 1, (uint64_t *)(scratch + P->hist), P->hist_bins,
                           (unsigned *)(scratch + P->range), d_pick, st)) != GPULZ_OK)
        goto done;
    if (d_pick)
        GPULZ_CK(cudaMemcpyAsync(pick_slot, d_pick + GPU_V2_PICK_WORD, sizeof *pick_slot, cudaMemcpyDeviceToHost, st));
    if (ck_inline) {
        /* in line, its sum back with the statistics: the side stream's
         * events cost the host more calls than the pass costs the device */
        if ((rc = gpu_v2_checksum(d_src, n, S, C, (uint32_t *)(scratch + P->status), st)) != GPULZ_OK)
            goto done;
        GPULZ_CK(cudaMemcpyAsync(slot, scratch + P->status, sizeof *slot, cudaMemcpyDeviceToHost, st));
    } else if (checksum) {
        /* on the side stream, after the histograms: it runs while the host
         * builds the models, where the device would wait (its 117 us of
         * fast's 1.1 ms at 256 MB were in line); beside the histograms'
         * kernels it only shared their multiprocessors */
        GPULZ_CK(cudaEventRecord(c->side_fork, st));
        GPULZ_CK(cudaStreamWaitEvent(c->side, c->side_fork, 0));
        if ((rc = gpu_v2_checksum(d_src, n, S, C, (uint32_t *)(scratch + P->status), c->side)) != GPULZ_OK)
            goto done;
        GPULZ_CK(cudaMemcpyAsync(slot, scratch + P->status, sizeof *slot, cudaMemcpyDeviceToHost, c->side));
        GPULZ_CK(cudaEventRecord(c->side_sum, c->side));
        M->sum_at = slot;
    }
    if (S <= 2) {
        /* S = 2's packed words in ratio's room, free until then */
        if ((rc = gpu_v2_hists_fetch(c, S, m, (unsigned *)(scratch + P->range), (uint64_t *)(scratch + P->hist),
                                     P->hist_bins, 2, (uint64_t *)(scratch + P->pack), 0, counts,
                                     gpu_v2_ratio_hists(c, P->hist_bins), d_pick ? pick_slot : NULL, st, H,
                                     &planes_made)) != GPULZ_OK)
            goto done;
    } else {
        GPULZ_CK(cudaMemcpyAsync(counts, scratch + P->hist, 2 * P->hist_bins * sizeof *counts,
                                 cudaMemcpyDeviceToHost, st));
        GPULZ_CK(cudaStreamSynchronize(st));
        for (int d = 0; d < 2; d++)
            for (unsigned j = 0; j < S; j++) {
                memcpy(H->plane[d][j].count, counts + d * P->hist_bins + 256 * j, 256 * sizeof *counts);
                H->plane[d][j].N = m;
            }
    }
    if (S == 2)
        gpulz_fast_hists_planes_from_whole(H, planes_made);
    M->pick = d_pick ? (int)*pick_slot : -1; /* every fetch above waited for the stream */
    if (ck_inline)
        M->sum = *slot;
done:
    return rc;
}

/* Where rANS stream s, coded with model, lies in the chunk from byte pos:
 * its directory after its header and table, its segments after that. */
static void rans_places(gpu_v2_stream *s, const gpulz_model *model, uint64_t pos)
{
    const uint64_t tsize = gpulz_table_size(model);
    s->dir_at = pos + GPULZ_STREAM_HEADER_SIZE + tsize;
    s->seg_at = pos + gpulz_rans_segments_at(tsize, s->nseg);
}

int gpu_v2_code_streams(gpu_v2_coding *K, uint8_t *d_dst, size_t dst_cap, uint64_t pos, uint64_t tail,
                        cudaStream_t st, uint64_t *end)
{
    gpu_v2_job *J = K->J;
    const gpu_v2_plan *P = K->P;
    const unsigned g = J->g;
    int rc = GPULZ_OK;
    gpulz_model *model = K->c->h_models;
    uint64_t pos_of[GPU_V2_STREAMS_MAX], body_of[GPU_V2_STREAMS_MAX];
    unsigned long long *sums = NULL;
    gpu_ctx *c = K->c;
    if (!model && !(model = c->h_models = calloc(GPU_V2_STREAMS_MAX, sizeof *model)))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the streams' models");
    for (unsigned j = 0; j < GPU_V2_STREAMS_MAX; j++)
        model[j].entry = NULL; /* what gpulz_model_free reads (none is built): not the 80 KB of each */
    J->words = (uint32_t *)(K->scratch + P->words);
    J->seg_off = (uint64_t *)(K->scratch + P->seg_off);
    J->states = (uint32_t *)(K->scratch + P->states);

    /* pinned: the models' copy is one DMA, and the streams' headers and
     * tables after them are copied without a wait for the stream (from
     * pageable memory each copy waited); gpu_v2_finish waits for them.
     * The coder's sums go first, zeroed by the same copy, and come back
     * there; the device builds the entries from the models. */
    if ((rc = gpu_grow_host(&c->h_tables, &c->tables_cap,
                            GPU_V2_SUMS_BYTES + J->count * (GPU_V2_MODEL_BYTES + GPU_V2_META_MAX) +
                                GPULZ_V2_HEADER_SIZE)) != GPULZ_OK)
        goto done;
    K->lead = NULL;
    K->lead_len = 0;
    sums = (unsigned long long *)c->h_tables;
    memset(sums, 0, GPU_V2_SUMS_BYTES);
    J->sums = (unsigned long long *)(K->scratch + P->enc_model);
    size_t meta_at = GPU_V2_SUMS_BYTES; /* the models' words end here */
    gpu_v2_enc_models EM;
    unsigned models = 0;
    uint32_t max_width = 0;
    uint64_t segs = 0, max_segs = 0, redo_segs = 0;
    size_t coded_at = 0, enc_at = 0;
    /* the models, and the kind each stream takes before coding */
    for (unsigned j = 0; j < J->count; j++) {
        const gpulz_hist *h = K->h[j];
        gpu_v2_stream *s = &J->s[j];
        s->kind = GPULZ_STREAM_STORED;
        s->nseg = 0;
        s->redo = 0;
        s->placed = 0;
        if (s->N) {
            if ((rc = gpulz_model_build_no_entries(&model[j], h)) != GPULZ_OK)
                goto done;
            s->kind = gpulz_stream_kind(s->N, s->u, &model[j], g);
        }
        if (s->kind == GPULZ_STREAM_CONSTANT)
            s->constant = only_value(h);
        if (s->kind == GPULZ_STREAM_RANS) {
            const uint32_t width = enc_window(h, &s->enc_lo);
            gpu_v2_enc_model *e = &EM.m[models++];
            s->enc = (const gpu_v2_enc *)(K->scratch + P->enc) + enc_at;
            enc_at += width;
            e->words = (const uint16_t *)(K->scratch + P->enc_model + meta_at);
            e->enc = (gpu_v2_enc *)s->enc;
            e->lo = s->enc_lo;
            e->width = width;
            e->K = model[j].K;
            e->u = s->u;
            max_width = width > max_width ? width : max_width;
            meta_at += (model_words(&model[j], (uint16_t *)(c->h_tables + meta_at)) * sizeof(uint16_t) + 15) &
                       ~(size_t)15;
            s->nseg = gpulz_segments_of(s->N, g);
            s->seg0 = segs;
            s->coded = K->scratch + P->coded + coded_at;
            coded_at += (s->N * s->u + 255) & ~(uint64_t)255;
            if (coded_at > P->coded_bytes)
                FAIL(GPULZ_ERR_PARAM, "the streams' coded words exceed the plan's %zu bytes", P->coded_bytes);
            segs += s->nseg;
            max_segs = s->nseg > max_segs ? s->nseg : max_segs;
        }
    }
    if (K->beat) {
        /* a candidate that cannot be the shorter is not coded (§19) */
        uint64_t least = pos + tail;
        for (unsigned j = 0; j < J->count; j++)
            least += gpulz_stream_floor(&model[j], K->h[j], J->s[j].kind, g);
        if (least >= K->beat) {
            rc = GPULZ_NOT_SHORTER;
            goto done;
        }
    }
    const unsigned batch = gpu_v2_enc_batch(c, segs);
    GPULZ_CK(cudaMemcpyAsync(K->scratch + P->enc_model, c->h_tables, meta_at, cudaMemcpyHostToDevice, st));
    if ((rc = gpu_v2_enc_build(&EM, models, max_width, st)) != GPULZ_OK)
        goto done;
    /* the first stream's place is known before its coding (where it stays
     * rANS; the loop below gives the same), so its segments are put right
     * after the coder (and the scan, for many), while the host waits for
     * the sums */
    J->dst_cap = dst_cap;
    gpu_v2_stream *const first = &J->s[0];
    const int put_first = J->count && first->kind == GPULZ_STREAM_RANS;
    if (put_first)
        rans_places(first, &model[0], pos);

    /* code every segment and learn each body's size, while the device
     * places the segments; the sums come back beside the placement, on the
     * copy stream, so that it does not wait for their copy */
    J->put_look = max_segs <= GPU_V2_LOOK_SEGS_MOST;
    if (segs) {
        if ((rc = gpu_v2_encode(J, d_dst, 0, max_segs, batch, st)) != GPULZ_OK)
            goto done;
        GPULZ_CK(cudaEventRecord(c->coder_end, st));
        GPULZ_CK(cudaStreamWaitEvent(c->copy_stream, c->coder_end, 0));
        GPULZ_CK(cudaMemcpyAsync(sums, J->sums, GPU_V2_SUMS_BYTES, cudaMemcpyDeviceToHost, c->copy_stream));
        GPULZ_CK(cudaEventRecord(c->coded, c->copy_stream));
        if ((!J->put_look && (rc = gpu_v2_place(J, segs, K->scratch + P->temp, P->temp_bytes, st)) != GPULZ_OK) ||
            (put_first && (rc = gpu_v2_put_segments(J, d_dst, first->nseg, 1, st)) != GPULZ_OK))
            goto done;
        first->placed = (unsigned)put_first;
        GPULZ_CK(cudaEventSynchronize(c->coded));
    }

    /* the streams' places: a body that does not beat the stored units is stored */
    for (unsigned j = 0; j < J->count; j++) {
        gpu_v2_stream *s = &J->s[j];
        if (s->kind == GPULZ_STREAM_RANS) {
            body_of[j] = gpulz_rans_body_size(&model[j], s->nseg, sums[j]);
            if (!gpulz_rans_body_kept(body_of[j], s->N, s->u)) {
                s->kind = GPULZ_STREAM_STORED;
                s->nseg = 0;
            }
            /* a segment with more words than its c * u bytes of coded hold */
            s->redo = s->nseg && (sums[GPU_V2_STREAMS_MAX] >> j & 1);
            if (s->redo && s->nseg > redo_segs)
                redo_segs = s->nseg;
        }
        pos_of[j] = pos;
        if (s->kind == GPULZ_STREAM_RANS) {
            rans_places(s, &model[j], pos);
        } else {
            body_of[j] = s->kind == GPULZ_STREAM_STORED ? s->N * s->u : s->u;
            s->seg_at = pos + GPULZ_STREAM_HEADER_SIZE;
        }
        pos += GPULZ_STREAM_HEADER_SIZE + body_of[j];
    }
    *end = pos;
    if (pos + tail > dst_cap)
        FAIL(GPULZ_ERR_DST_SIZE, "compressed size %llu exceeds the output capacity %zu",
             (unsigned long long)(pos + tail), dst_cap);

    /* the streams' headers and tables from the host; the rest on the device.
     * Streams right after the chunk's header (fast) leave room for it before
     * the first's, and that goes with the header (gpu_v2_finish): one copy,
     * where each costs the device a few us after the coder */
    uint8_t *q = c->h_tables + meta_at;
    const int lead = J->count && pos_of[0] == GPULZ_V2_HEADER_SIZE;
    if (lead) {
        K->lead = q;
        q += GPULZ_V2_HEADER_SIZE;
    }
    int put = 0; /* a stream's segments to put still */
    for (unsigned j = 0; j < J->count; j++) {
        const gpu_v2_stream *s = &J->s[j];
        uint8_t *start = q;
        gpulz_stream_header_write(q, s->kind, s->N, body_of[j]);
        q += GPULZ_STREAM_HEADER_SIZE;
        if (s->kind == GPULZ_STREAM_RANS)
            q = gpulz_table_write(q, &model[j]);
        else if (s->kind == GPULZ_STREAM_CONSTANT)
            for (unsigned b = 0; b < s->u; b++)
                *q++ = (uint8_t)(s->constant >> (8 * b));
        put |= s->kind == GPULZ_STREAM_RANS && !s->redo && !s->placed;
        if (lead && j == 0)
            K->lead_len = (size_t)(q - K->lead);
        else
            GPULZ_CK(cudaMemcpyAsync(d_dst + pos_of[j], start, (size_t)(q - start), cudaMemcpyHostToDevice, st));
    }
    /* the segments' offsets for a stream coded again in place, after the
     * puts, where they used their words to find their own */
    if ((put && (rc = gpu_v2_put_segments(J, d_dst, max_segs, J->count, st)) != GPULZ_OK) ||
        (redo_segs && J->put_look &&
         (rc = gpu_v2_place(J, segs, K->scratch + P->temp, P->temp_bytes, st)) != GPULZ_OK) ||
        (rc = gpu_v2_encode(J, d_dst, 1, redo_segs, batch, st)) != GPULZ_OK)
        goto done;
done:
    /* a failure leaves nothing queued that reads or writes the pinned tables */
    if (rc != GPULZ_OK) {
        (void)cudaStreamSynchronize(st);
        (void)cudaStreamSynchronize(c->copy_stream);
    }
    for (unsigned j = 0; j < GPU_V2_STREAMS_MAX; j++)
        gpulz_model_free(&model[j]);
    return rc;
}

/* The checksum's sum of M's statistics, waited for where it is on its way. */
static int memo_sum(gpu_ctx *c, gpu_v2_memo *M)
{
    int rc = GPULZ_OK;
    if (M->sum_at) {
        GPULZ_CK(cudaEventSynchronize(c->side_sum));
        M->sum = *M->sum_at;
        M->sum_at = NULL;
    }
done:
    return rc;
}

int gpu_v2_finish(gpu_ctx *c, gpulz_layout *L, gpu_v2_memo *M, const gpu_v2_coding *K, const uint8_t *d_src,
                  uint8_t *d_dst, uint64_t end, const uint8_t *d_table, cudaStream_t st)
{
    int rc = GPULZ_OK;
    /* pinned, as the streams' headers */
    uint8_t *header = K->lead ? K->lead : (uint8_t *)c->h_status;
    if (L->flags & GPULZ_V2_FLAG_CHECKSUM) {
        if ((rc = memo_sum(c, M)) != GPULZ_OK)
            goto done;
        L->checksum = gpulz_ck_final(M->sum, L->n);
    }
    gpulz_header_write(header, L);
    GPULZ_CK(cudaMemcpyAsync(d_dst, header, K->lead ? K->lead_len : GPULZ_V2_HEADER_SIZE, cudaMemcpyHostToDevice, st));
    if (d_table)
        GPULZ_CK(cudaMemcpyAsync(d_dst + GPULZ_V2_HEADER_SIZE, d_table, (size_t)(L->table_end - GPULZ_V2_HEADER_SIZE),
                                 cudaMemcpyDeviceToDevice, st));
    if (L->tail)
        GPULZ_CK(cudaMemcpyAsync(d_dst + end, d_src + L->symbols * L->symbol_size, (size_t)L->tail,
                                 cudaMemcpyDeviceToDevice, st));
    GPULZ_CK(cudaStreamSynchronize(st));
done:
    if (rc != GPULZ_OK) /* what code_streams queued reads pinned memory */
        (void)cudaStreamSynchronize(st);
    return rc;
}

static void memo_init(gpu_v2_memo *M)
{
    memset(M, 0, sizeof *M);
}

static void memo_free(gpu_ctx *c, gpu_v2_memo *M)
{
    /* tokens that ratio did not take, or a checksum no header took, still
     * write the scratch */
    if (M->tokens)
        (void)cudaEventSynchronize(c->side_done);
    if (M->sum_at)
        (void)cudaEventSynchronize(c->side_sum);
    /* whole histograms are the context's (gpu_v2_stats); h_whole's ranges
     * zeroed again for the next statistics */
    for (unsigned d = 0; d < 2 && M->S <= 2; d++)
        gpu_v2_hist_release(c, d, &M->H.whole[d]);
    if (M->S)
        gpulz_fast_hists_free(&M->H);
    memset(M, 0, sizeof *M);
}

/*
 * Auto's ratio candidate tokenises with fast's choice of DELTA, which fast
 * has made: its tokens start here on the context's side stream, after the
 * input (side_fork), and run beside fast's coding.  On a chunk of a few MB
 * either leaves most of the GPU idle, and the tokens took a quarter of
 * auto's time.  Only where the scratch holds ratio's token areas past every
 * area of fast's (Pf); else ratio tokenises in its turn.
 */
static int tokens_beside(gpu_ctx *c, const uint8_t *d_src, size_t n, const gpulz_params *p, int delta,
                         uint8_t *scratch, size_t scratch_cap, const gpu_v2_plan *Pf, cudaStream_t st, gpu_v2_memo *M)
{
    const unsigned S = p->symbol_size, C = p->block_symbols;
    gpu_v2_plan Pr;
    int rc = gpu_v2_plan_make(n, S, C, GPULZ_SEG_LOG2_DEFAULT, 1, &Pr);
    if (rc != GPULZ_OK || Pr.total > scratch_cap || Pr.slot_flags < Pf->total)
        return rc;
    GPULZ_CK(cudaEventRecord(c->side_fork, st));
    GPULZ_CK(cudaStreamWaitEvent(c->side, c->side_fork, 0));
    if ((rc = gpu_v2_tokens(c, d_src, n / S, S, C, p->window, delta, scratch, &Pr, c->side)) != GPULZ_OK)
        goto done;
    GPULZ_CK(cudaEventRecord(c->side_done, c->side));
    M->tokens = 1;
    M->tokens_delta = delta;
done:
    if (rc != GPULZ_OK)
        (void)cudaStreamSynchronize(c->side);
    return rc;
}

int gpu_v2_compress(gpu_ctx *c, const uint8_t *d_src, size_t n, const gpulz_params *p, uint8_t *d_dst,
                    size_t dst_cap, uint8_t *scratch, size_t scratch_cap, cudaStream_t st, gpu_v2_memo *memo,
                    size_t *dst_len)
{
    const unsigned S = p->symbol_size, C = p->block_symbols, g = GPULZ_SEG_LOG2_DEFAULT;
    const int checksum = !(p->flags & GPULZ_FLAG_NO_CHECKSUM), lzss = p->mode == GPULZ_MODE_RATIO;
    int rc = GPULZ_OK, delta = 0, split = 0;
    uint64_t end = 0;
    gpulz_layout L;
    gpu_v2_plan P;
    gpu_v2_memo own;
    gpu_v2_job J;
    gpu_v2_coding K;
    memset(&J, 0, sizeof J);
    memset(&K, 0, sizeof K);
    memo_init(&own);
    if (p->mode != GPULZ_MODE_FAST && p->mode != GPULZ_MODE_RATIO)
        return gpulz_fail(GPULZ_ERR_PARAM, "mode %s is not one encoding", gpulz_mode_name(p->mode));
    if ((rc = gpulz_layout_make(&L, n, S, p->window, C)) != GPULZ_OK ||
        (rc = gpu_v2_plan_make(n, S, C, g, lzss, &P)) != GPULZ_OK)
        return rc;
    if (scratch_cap < P.total)
        return gpulz_fail(GPULZ_ERR_PARAM, "scratch of %zu bytes is below the %zu needed", scratch_cap, P.total);
    /* the statistics: kept from the last candidate of this input, or made */
    gpu_v2_memo *M = memo ? memo : &own;
    const int ratio_next = M->ratio_next && !lzss;
    if (!M->valid || M->S != S || M->C != C || M->checksum != (unsigned)checksum) {
        memo_free(c, M);
        if ((rc = gpulz_fast_hists_init_planes(&M->H, S)) != GPULZ_OK)
            return rc;
        M->S = S;
        M->C = C;
        M->checksum = (unsigned)checksum;
        if ((rc = gpu_v2_stats(c, d_src, n, C, checksum, scratch, &P, st, M)) != GPULZ_OK)
            goto done;
        M->valid = 1;
    }
    gpulz_fast_hists *const H = &M->H;
    if (!M->chosen) {
        if ((rc = gpulz_fast_choose(H, g, M->pick, &M->delta, &M->split)) != GPULZ_OK)
            goto done;
        M->chosen = 1;
    }
    delta = M->delta;
    split = M->split;
    if (lzss) {
        rc = gpu_v2_compress_ratio(c, d_src, &L, p, delta, checksum, d_dst, dst_cap, scratch, &P, st, M, dst_len);
        goto done;
    }
    if (ratio_next && !M->tokens &&
        (rc = tokens_beside(c, d_src, n, p, delta, scratch, scratch_cap, &P, st, M)) != GPULZ_OK)
        goto done;
    const unsigned flags = GPULZ_V2_FLAG_ENTROPY | (delta ? GPULZ_V2_FLAG_DELTA : 0) |
                           (split ? GPULZ_V2_FLAG_SPLIT : 0) | (checksum ? GPULZ_V2_FLAG_CHECKSUM : 0);
    if ((rc = gpulz_layout_make_v2(&L, n, S, p->window, C, flags, g)) != GPULZ_OK)
        goto done;

    J.S = S;
    J.C = C;
    J.g = g;
    J.delta = (unsigned)delta;
    J.split = (unsigned)split;
    J.count = gpulz_symbol_streams(flags, S);
    for (unsigned j = 0; j < J.count; j++) {
        J.s[j].N = L.symbols;
        J.s[j].u = gpulz_unit_bytes(flags, S);
        J.s[j].plane = j;
        J.s[j].x = d_src;
        K.h[j] = split ? &H->plane[delta][j] : &H->whole[delta];
    }
    K.c = c;
    K.J = &J;
    K.P = &P;
    K.scratch = scratch;
    rc = gpu_v2_code_streams(&K, d_dst, dst_cap, L.table_end, L.tail, st, &end);
    *dst_len = (size_t)(end + L.tail);
    if (rc == GPULZ_OK)
        rc = gpu_v2_finish(c, &L, M, &K, d_src, d_dst, end, NULL, st);
done:
    memo_free(c, &own);
    return rc;
}

int gpu_v2_candidates(gpu_ctx *c, size_t n, const gpulz_params *p, const gpulz_mode *list, unsigned count,
                      gpu_v2_candidate_fn run, void *arg, uint8_t *const buf[2], size_t cap, int *best,
                      size_t *best_len)
{
    gpulz_params q = *p;
    gpu_v2_memo memo;
    size_t len = 0;
    int rc = GPULZ_OK;
    memo_init(&memo);
    for (unsigned i = 0; i < count && rc == GPULZ_OK; i++) {
        const int slot = *best == 0;
        q.mode = list[i];
        memo.ratio_next = i + 1 < count && list[i + 1] == GPULZ_MODE_RATIO;
        memo.beat = *best < 0 ? 0 : *best_len;
        if ((rc = run(arg, n, &q, &memo, buf[slot], cap, &len)) == GPULZ_OK && (*best < 0 || len < *best_len)) {
            *best = slot;
            *best_len = len;
        }
        if (rc == GPULZ_NOT_SHORTER)
            rc = GPULZ_OK;
    }
    memo_free(c, &memo);
    return rc;
}

/* ---- decoding ------------------------------------------------------------- */

/* The bytes of a stream the opening reads at most: its header, a table, a
 * directory of the segments of N units. */
static size_t open_bytes(uint64_t N, unsigned g)
{
    return GPU_V2_META_MAX + GPULZ_DIR_ENTRY_BYTES * (size_t)gpulz_segments_of(N, g);
}

int gpu_v2_reader_init(gpu_v2_reader *R, gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                       uint64_t pos, uint64_t N_max, unsigned streams, unsigned g, const gpu_v2_dec_plan *D,
                       uint8_t *scratch, cudaStream_t st)
{
    int rc = GPULZ_OK;
    memset(R, 0, sizeof *R);
    R->c = c;
    R->d_src = d_src;
    R->h_src = h_src;
    R->h_len = h_src ? h_len : 0;
    R->n = n;
    R->pos = pos;
    R->g = g;
    R->st = st;
    R->mirror_cap = open_bytes(N_max, g);
    /* the mirror: the statistics' pinned buffer, which decoding leaves free
     * (one call at a time holds the context) */
    if (R->h_len < n && (rc = gpu_grow_host(&c->h_hists, &c->hists_cap, R->mirror_cap)) != GPULZ_OK)
        return rc;
    R->mirror = R->h_len < n ? c->h_hists : NULL;
    /* the tables and directories wait in pinned memory as the scratch will
     * hold them, and go in one copy that does not wait for the stream: from
     * pageable memory each copy waited, and was staged, and each copy's
     * call took 5 us of the host; room for the most segments the streams
     * between two sends can have (the chunk's bound stays the check) */
    const uint64_t most = (uint64_t)streams * gpulz_segments_of(N_max, g);
    R->seg_cap = most < D->seg_cap ? most : D->seg_cap;
    const size_t staged = D->dirs + R->seg_cap * (sizeof *R->seg_off + sizeof *R->words);
    if ((rc = gpu_grow_host(&c->h_dirs, &c->dirs_cap, staged)) != GPULZ_OK)
        return rc;
    R->staged = c->h_dirs;
    R->dev = scratch;
    R->seg_off = (uint64_t *)(R->staged + D->dirs);
    R->words = (uint32_t *)(R->seg_off + R->seg_cap);
    R->chunk_segs = D->seg_cap;
    return GPULZ_OK;
}

void gpu_v2_reader_free(gpu_v2_reader *R)
{
    memset(R, 0, sizeof *R);
}

/* Table j's place in the staging and the scratch alike (gpu_v2_dec_plan),
 * after a lead of GPU_V2_DEC_LEAD bytes, and the directories' after the
 * tables. */
static size_t table_at(unsigned j)
{
    return GPU_V2_DEC_LEAD + (size_t)(GPU_V2_STREAMS_MAX - 1 - j) * sizeof(gpulz_dec_table);
}

static size_t dirs_at(void)
{
    return GPU_V2_DEC_LEAD + (size_t)GPU_V2_STREAMS_MAX * sizeof(gpulz_dec_table);
}

/* Open the stream at R->pos of N_want units into its table's slot and the
 * directories' next entries: on the host's bytes where they hold what
 * opening reads, else on the mirror, what opening can read at most copied
 * into it in one copy (one synchronisation, not one for the header and one
 * for the rest). */
static int stream_open(gpu_v2_reader *R, uint64_t N_want, unsigned u, const char *name, gpulz_stream_view *V)
{
    int rc = GPULZ_OK;
    const size_t avail = R->n - R->pos;
    if (R->ntables >= GPU_V2_STREAMS_MAX)
        return gpulz_fail(GPULZ_ERR_PARAM, "%s: more than %d streams", name, GPU_V2_STREAMS_MAX);
    const gpulz_stream_room into = {(gpulz_dec_table *)(R->staged + table_at(R->ntables)), R->seg_off + R->segs,
                                    R->words + R->segs, R->seg_cap - R->segs};
    if (R->pos < R->h_len) {
        const size_t have = R->h_len - R->pos < avail ? R->h_len - R->pos : avail;
        if ((rc = gpulz_stream_open_into(R->h_src + R->pos, have, avail, N_want, u, R->g, name, &into, V)) !=
            GPULZ_STREAM_SHORT)
            return rc;
    }
    size_t have = open_bytes(N_want, R->g);
    have = have < avail ? have : avail;
    have = have < R->mirror_cap ? have : R->mirror_cap;
    GPULZ_CK(cudaMemcpyAsync(R->mirror, R->d_src + R->pos, have, cudaMemcpyDeviceToHost, R->st));
    GPULZ_CK(cudaStreamSynchronize(R->st));
    rc = gpulz_stream_open_into(R->mirror, have, avail, N_want, u, R->g, name, &into, V);
    if (rc == GPULZ_STREAM_SHORT)
        rc = gpulz_fail(GPULZ_ERR_PARAM, "%s: its table and directory exceed the %zu bytes read", name, have);
done:
    return rc;
}

int gpu_v2_reader_next(gpu_v2_reader *R, uint64_t N_want, const char *name, gpu_v2_stream *s)
{
    int rc = GPULZ_OK;
    gpulz_stream_view V;
    memset(&V, 0, sizeof V);
    if (R->dirs_sent) {
        /* the last send's copy reads the directories still */
        GPULZ_CK(cudaStreamSynchronize(R->st));
        R->dirs_sent = 0;
    }
    if ((rc = stream_open(R, N_want, s->u, name, &V)) != GPULZ_OK)
        goto done;
    s->kind = V.kind;
    s->N = V.N;
    s->seg_at = R->pos + GPULZ_STREAM_HEADER_SIZE;
    s->nseg = 0;
    if (V.kind == GPULZ_STREAM_CONSTANT)
        s->constant = s->u == 1 ? V.body[0] : gpulz_get_u16(V.body);
    if (V.kind == GPULZ_STREAM_RANS) {
        if (R->segs + V.nseg > R->chunk_segs)
            FAIL(GPULZ_ERR_CORRUPT, "%s: more segments than the chunk holds", name);
        if (R->segs + V.nseg > R->seg_cap)
            FAIL(GPULZ_ERR_PARAM, "%s: more segments than its reader was sized for", name);
        s->nseg = V.nseg;
        s->seg0 = R->segs;
        s->seg_at = R->pos + V.seg_offset;
        s->dec = (const gpulz_dec_table *)(R->dev + table_at(R->ntables));
        R->segs += V.nseg;
        R->max_segs = V.nseg > R->max_segs ? V.nseg : R->max_segs;
    }
    R->ntables++;
    R->pos += V.used;
done:
    gpulz_stream_close(&V);
    return rc;
}

int gpu_v2_reader_send(gpu_v2_reader *R, gpu_v2_job *J, uint64_t *max_segs)
{
    int rc = GPULZ_OK;
    /* from the last table gathered (the lowest slot; the tables sent before
     * it go again, unchanged) to the last word, the words moved up to
     * follow the offsets */
    const size_t dirs = dirs_at();
    const int tables = R->ntables > R->sent;
    /* below the last table gathered, the slots of tables not opened (or
     * the lead): its last GPU_V2_DEC_ZEROED bytes go zeroed with the copy,
     * the decoder's error words without a call of their own */
    const size_t from = tables ? table_at(R->ntables - 1) - GPU_V2_DEC_ZEROED : dirs;
    const size_t to = dirs + R->segs * (sizeof *R->seg_off + sizeof *R->words);
    R->zeroed = NULL;
    if (R->segs)
        memmove(R->seg_off + R->segs, R->words, R->segs * sizeof *R->words);
    if (tables)
        memset(R->staged + from, 0, GPU_V2_DEC_ZEROED);
    if (to > from) {
        GPULZ_CK(cudaMemcpyAsync(R->dev + from, R->staged + from, to - from, cudaMemcpyHostToDevice, R->st));
        R->dirs_sent = 1;
        R->zeroed = tables ? (unsigned *)(R->dev + from) : NULL;
    }
    R->sent = R->ntables;
    J->seg_off = (uint64_t *)(R->dev + dirs);
    J->words = (uint32_t *)(J->seg_off + R->segs);
    *max_segs = R->max_segs;
    R->segs = R->max_segs = 0;
done:
    return rc;
}

/* The decoder's scratch for a chunk of n bytes: the tables, and per
 * segment its words and offset; every segment takes its states and a
 * directory entry in the chunk, which bounds their number. */
void gpu_v2_dec_plan_make(size_t n, gpu_v2_dec_plan *D)
{
    D->seg_cap = n / (GPULZ_RANS_STATE_BYTES + GPULZ_DIR_ENTRY_BYTES) + 1;
    D->dirs = dirs_at(); /* right after the tables: one copy takes both */
    D->status = (D->dirs + D->seg_cap * (sizeof(uint64_t) + sizeof(uint32_t)) + 255) & ~(size_t)255;
    D->total = D->status + 256;
}

size_t gpu_v2_decompress_scratch(size_t n)
{
    gpu_v2_dec_plan D;
    gpu_v2_dec_plan_make(n, &D);
    return D.total;
}

/* The tail's bytes that L's chunk of n bytes holds after its streams, which
 * end at pos: all of them, or none where it ends short of them. */
static size_t tail_held(size_t n, size_t pos, const gpulz_layout *L)
{
    return n - pos >= L->tail ? (size_t)L->tail : 0;
}

/* After the streams are decoded: the device's verdict read back, then the
 * tail, then the checksum of the decoded chunk.  §20 names no order among
 * several faults of one chunk; this is the CPU decoder's, which decodes
 * every stream before it looks at the tail, so that both give a chunk the
 * same status. */
int gpu_v2_dec_result(gpu_ctx *c, const gpulz_layout *L, size_t n, size_t pos, uint8_t *d_dst, unsigned *err,
                      int summed, int written, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint32_t *status = (const uint32_t *)c->h_status; /* pinned: a copy that does not wait to start */
    const int sum = (L->flags & GPULZ_V2_FLAG_CHECKSUM) != 0;
    /* not over a tail the chunk lacks, whose bytes no copy put down: the
     * chunk is refused before its checksum is compared */
    if (sum && !summed && tail_held(n, pos, L) == L->tail &&
        (rc = gpu_v2_checksum(d_dst, L->n, L->symbol_size, L->block_symbols, gpu_v2_ck_word(err), st)) != GPULZ_OK)
        goto done;
    if (!written)
        GPULZ_CK(cudaMemcpyAsync(c->h_status, err, 4 * sizeof *status, cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    if (written && status[0] == GPU_V2_NO_VERDICT)
        FAIL(GPULZ_ERR_CUDA, "the GPU decoder ended without its verdict");
    if (status[0])
        FAIL(GPULZ_ERR_CORRUPT, "the GPU decoder found a damaged rANS segment or token");
    if ((rc = gpulz_v2_tail_check(n, pos, L)) != GPULZ_OK)
        goto done;
    if (sum && gpulz_ck_final(status[1], L->n) != L->checksum)
        FAIL(GPULZ_ERR_CORRUPT, "checksum %08x of the decoded bytes is not the chunk's %08x",
             gpulz_ck_final(status[1], L->n), L->checksum);
done:
    return rc;
}

/* A stream could not be opened (why): the CPU decoder decodes each stream
 * before it opens the next, so a damaged content in the `opened` streams
 * before it is what it refuses first.  Those are decoded, and a damage in
 * them is the chunk's status; else why. */
int gpu_v2_opened_verdict(gpu_v2_reader *R, gpu_v2_job *J, unsigned opened, const uint8_t *d_src, int why,
                          cudaStream_t st)
{
    uint64_t max_segs = 0;
    unsigned *bad = (unsigned *)R->c->h_status; /* pinned: a copy that does not wait to start */
    int rc = GPULZ_OK;
    if (!opened || (why != GPULZ_ERR_CORRUPT && why != GPULZ_ERR_TRUNCATED))
        return why; /* out of memory or CUDA: no fault of the chunk's to weigh */
    J->count = opened;
    if ((rc = gpu_v2_reader_send(R, J, &max_segs)) != GPULZ_OK)
        goto done;
    GPULZ_CK(cudaMemsetAsync(J->err, 0, sizeof *bad, st));
    if ((rc = gpu_v2_decode(R->c, J, d_src, max_segs, st)) != GPULZ_OK)
        goto done;
    GPULZ_CK(cudaMemcpyAsync(bad, J->err, sizeof *bad, cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    rc = *bad ? gpulz_fail(GPULZ_ERR_CORRUPT, "the GPU decoder found a damaged rANS segment in a stream before") : why;
done:
    return rc;
}

/*
 * The checksum's terms from the passes that put the decoded bytes down, so
 * that no pass of its own reads them back: with DELTA the inverse delta's, a
 * thread block a block; else the decoder's, where its one stream is the
 * 16-bit symbols as they are (with 1-byte units the hashing cost the
 * decoder what it saved), a segment whole blocks and the segments all rANS,
 * and they are many: with few, each warp's run of rows is what the chunk
 * waits for, and the hashing would lengthen it by more than the own pass
 * takes.  The terms go to err[1], zeroed with it.
 */
static gpu_v2_ck_where dec_sums(const gpu_ctx *c, gpu_v2_job *J, const gpulz_layout *L, size_t tail)
{
    const gpu_v2_stream *s = &J->s[0];
    J->ck = NULL;
    J->verdict = NULL;
    J->ck_tail = (unsigned)tail;
    if (!(L->flags & GPULZ_V2_FLAG_CHECKSUM) || !L->symbols || gpu_v2_ck_apart())
        return GPU_V2_CK_APART;
    if (L->flags & GPULZ_V2_FLAG_DELTA)
        return GPU_V2_CK_UNDELTA;
    if ((L->flags & GPULZ_V2_FLAG_LZSS) || J->count != 1 || s->kind != GPULZ_STREAM_RANS || s->u != 2 || J->S != 2 ||
        J->C > (1u << J->g) || J->C < GPU_V2_CK_FUSED_C_LEAST || !gpu_v2_dec_many(c, J))
        return GPU_V2_CK_APART;
    J->ck = gpu_v2_ck_word(J->err);
    J->verdict = c->d_status;
    return GPU_V2_CK_DECODER;
}

int gpu_v2_dec_tail(const gpu_ctx *c, gpu_v2_job *J, const gpulz_layout *L, const uint8_t *d_src, size_t n,
                    size_t pos, uint8_t *d_dst, cudaStream_t st, size_t *tail, gpu_v2_ck_where *sums)
{
    int rc = GPULZ_OK;
    *tail = tail_held(n, pos, L);
    if (*tail)
        GPULZ_CK(cudaMemcpyAsync(d_dst + L->symbols * L->symbol_size, d_src + pos, *tail, cudaMemcpyDeviceToDevice,
                                 st));
    *sums = dec_sums(c, J, L, *tail);
done:
    return rc;
}

int gpu_v2_dec_undelta(const gpulz_layout *L, gpu_v2_ck_where sums, uint8_t *d_dst, uint64_t m, size_t tail,
                       unsigned *err, cudaStream_t st)
{
    if (!(L->flags & GPULZ_V2_FLAG_DELTA))
        return GPULZ_OK;
    return gpu_v2_undelta(d_dst, m, L->symbol_size, L->block_symbols,
                          sums == GPU_V2_CK_UNDELTA ? gpu_v2_ck_word(err) : NULL, (unsigned)tail, st);
}

int gpu_v2_decompress(gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                      const gpulz_layout *L, uint8_t *d_dst, uint8_t *scratch, size_t scratch_cap, cudaStream_t st)
{
    const unsigned S = L->symbol_size, g = L->seg_log2;
    const unsigned u = gpulz_unit_bytes(L->flags, S);
    int rc = GPULZ_OK;
    gpu_v2_job J;
    gpu_v2_dec_plan D;
    gpu_v2_reader R;
    uint64_t max_segs = 0;
    gpu_v2_ck_where sums = GPU_V2_CK_APART;
    size_t tail = 0;
    memset(&J, 0, sizeof J);
    memset(&R, 0, sizeof R);
    gpu_v2_dec_plan_make(n, &D);
    if (scratch_cap < D.total)
        return gpulz_fail(GPULZ_ERR_PARAM, "scratch of %zu bytes is below the %zu needed", scratch_cap, D.total);
    if (L->flags & GPULZ_V2_FLAG_LZSS)
        return gpu_v2_decompress_ratio(c, d_src, h_src, h_len, n, L, d_dst, scratch, scratch_cap, st);
    J.S = S;
    J.C = L->block_symbols;
    J.g = g;
    J.split = (L->flags & GPULZ_V2_FLAG_SPLIT) != 0;
    J.count = gpulz_symbol_streams(L->flags, S);
    J.err = (unsigned *)(scratch + D.status);
    const uint64_t m = L->symbols;
    if ((rc = gpu_v2_reader_init(&R, c, d_src, h_src, h_len, n, L->table_end, m, J.count, g, &D, scratch, st)) !=
        GPULZ_OK)
        goto done;
    for (unsigned j = 0; j < J.count; j++) {
        gpu_v2_stream *s = &J.s[j];
        s->u = u;
        s->plane = j;
        s->out = d_dst;
        if ((rc = gpu_v2_reader_next(&R, m, stream_names[j], s)) != GPULZ_OK) {
            rc = gpu_v2_opened_verdict(&R, &J, j, d_src, rc, st);
            goto done;
        }
    }
    if ((rc = gpu_v2_reader_send(&R, &J, &max_segs)) != GPULZ_OK)
        goto done;
    if (R.zeroed) /* the error words, zeroed by the send */
        J.err = R.zeroed;
    else
        GPULZ_CK(cudaMemsetAsync(J.err, 0, GPU_V2_DEC_ZEROED, st));
    if ((rc = gpu_v2_dec_tail(c, &J, L, d_src, n, (size_t)R.pos, d_dst, st, &tail, &sums)) != GPULZ_OK)
        goto done;
    if (J.verdict) /* what the decoder overwrites: left, it says no verdict came */
        ((uint32_t *)c->h_status)[0] = GPU_V2_NO_VERDICT;
    if ((rc = gpu_v2_decode(c, &J, d_src, max_segs, st)) != GPULZ_OK ||
        (rc = gpu_v2_dec_undelta(L, sums, d_dst, m, tail, J.err, st)) != GPULZ_OK)
        goto done;
    rc = gpu_v2_dec_result(c, L, n, (size_t)R.pos, d_dst, J.err, sums != GPU_V2_CK_APART, J.verdict != NULL, st);
done:
    gpu_v2_reader_free(&R);
    return rc;
}
