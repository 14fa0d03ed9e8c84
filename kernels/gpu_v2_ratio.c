/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2_ratio.c - format 2 chunks of mode ratio on the GPU (docs/FORMAT.md
 * §12, §18-20): the blocks tokenised on the device into the flags, literal,
 * length and offset streams, coded as gpu_v2.c codes any stream; decoding
 * opens each stream with the CPU decoder's checks, in the CPU decoder's
 * order, and rebuilds the blocks from the streams on the device.  Plain C.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_tune.h"
#include "gpu_v2.h"

#define FAIL(st, ...)                                   \
    do {                                                \
        rc = gpulz_fail((st), __VA_ARGS__);             \
        goto done;                                      \
    } while (0)

static const char *const literal_names[] = {"literals 0", "literals 1", "literals 2", "literals 3",
                                            "literals 4", "literals 5", "literals 6", "literals 7"};

/* A byte stream's histogram from the device's 256 counts. */
static int byte_hist(gpulz_hist *h, const uint64_t *counts, uint64_t N)
{
    int rc = gpulz_hist_init(h, 1);
    if (rc == GPULZ_OK) {
        memcpy(h->count, counts, 256 * sizeof *counts);
        h->N = N;
    }
    return rc;
}

static void byte_stream(gpu_v2_stream *s, const uint8_t *x, uint8_t *out, uint64_t N)
{
    s->bytes = 1;
    s->u = 1;
    s->x = x;
    s->out = out;
    s->N = N;
}

int gpu_v2_compress_ratio(gpu_ctx *c, const uint8_t *d_src, gpulz_layout *L, const gpulz_params *p, int delta,
                          int checksum, uint8_t *d_dst, size_t dst_cap, uint8_t *scratch, const gpu_v2_plan *P,
                          cudaStream_t st, gpu_v2_memo *M, size_t *dst_len)
{
    const unsigned S = L->symbol_size, C = L->block_symbols, W = p->window, g = GPULZ_SEG_LOG2_DEFAULT;
    const uint64_t m = L->symbols, nb = L->blocks, bins = P->hist_bins;
    int rc = GPULZ_OK, split = 0, borrowed = 0;
    unsigned planes_made = 0; /* the literals' byte planes, summed on the device */
    uint64_t end = 0, *counts = NULL;
    gpulz_hist hF, hLn, hOf;
    gpulz_fast_hists HL;
    gpu_v2_job J;
    gpu_v2_coding K;
    memset(&hF, 0, sizeof hF);
    memset(&hLn, 0, sizeof hLn);
    memset(&hOf, 0, sizeof hOf);
    memset(&HL, 0, sizeof HL);
    memset(&J, 0, sizeof J);
    memset(&K, 0, sizeof K);
    unsigned flags = GPULZ_V2_FLAG_ENTROPY | GPULZ_V2_FLAG_LZSS | (delta ? GPULZ_V2_FLAG_DELTA : 0) |
                     (checksum ? GPULZ_V2_FLAG_CHECKSUM : 0) | (S >= 4 ? GPULZ_V2_FLAG_SPLIT : 0);
    if ((rc = gpulz_layout_make_v2(L, L->n, S, W, C, flags, g)) != GPULZ_OK)
        return rc;

    /* the tokens, and how many of each stream's units there are */
    uint64_t *cnt = (uint64_t *)(scratch + P->counts);
    const int beside = M && M->tokens; /* started by fast, auto's candidate before (gpu_v2.c) */
    if (beside) {
        GPULZ_CK(cudaStreamWaitEvent(st, c->side_done, 0));
        M->tokens = 0;
    }
    if ((!beside || M->tokens_delta != delta) &&
        (rc = gpu_v2_tokens(c, d_src, m, S, C, W, delta, scratch, P, st)) != GPULZ_OK)
        goto done;
    /* pinned: copies that do not wait for the stream to start */
    uint64_t *tot = c->h_status;
    for (int a = 0; a < 3; a++)
        GPULZ_CK(cudaMemcpyAsync(&tot[a], cnt + a * (nb + 1) + nb, sizeof tot[a], cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    const uint64_t nf = tot[0], nl = tot[1], nm = tot[2];

    /* their histograms: flags, literals (as fast counts symbols), lengths, offsets */
    uint64_t *dh = (uint64_t *)(scratch + P->hist);
    unsigned *rng = (unsigned *)(scratch + P->range);
    /* the byte streams' in one launch */
    const gpu_v2_hist_inputs bytes_in = {{scratch + P->flags, scratch + P->lens, scratch + P->offs},
                                         {nf, nm, nm},
                                         {dh, dh + 256 + bins, dh + 512 + bins}};
    GPULZ_CK(cudaMemsetAsync(dh, 0, P->range + GPU_V2_RANGE_AREA * sizeof *rng - P->hist, st)); /* and rng */
    if ((rc = gpu_v2_hist_bytes(&bytes_in, 3, st)) != GPULZ_OK ||
        (rc = gpu_v2_hist(c, scratch + P->lits, nl, S, 1, 0, dh + 256, bins, rng, NULL, st)) != GPULZ_OK)
        goto done;
    /* pinned, after the statistics (gpu_v2_stats made the room); S <= 2's
     * literals whole, as the statistics are (S = 2's packed words in the
     * literals' room: bins > 256 + GPU_V2_PACK_ALL_WORDS(1)) */
    counts = gpu_v2_ratio_hists(c, bins);
    if ((rc = gpulz_fast_hists_init_planes(&HL, S)) != GPULZ_OK)
        goto done;
    if (S <= 2) {
        GPULZ_CK(cudaMemcpyAsync(counts, dh, 256 * sizeof *counts, cudaMemcpyDeviceToHost, st));
        GPULZ_CK(cudaMemcpyAsync(counts + 256 + bins, dh + 256 + bins, 512 * sizeof *counts, cudaMemcpyDeviceToHost,
                                 st));
        borrowed = 1;
        if ((rc = gpu_v2_hists_fetch(c, S, nl, rng, dh + 256, bins, 1, (uint64_t *)(scratch + P->pack), 2,
                                     counts + 256, counts + 256, NULL, st, &HL, &planes_made)) != GPULZ_OK)
            goto done;
    } else {
        GPULZ_CK(cudaMemcpyAsync(counts, dh, (768 + bins) * sizeof *counts, cudaMemcpyDeviceToHost, st));
        GPULZ_CK(cudaStreamSynchronize(st));
    }
    if ((rc = byte_hist(&hF, counts, nf)) != GPULZ_OK || (rc = byte_hist(&hLn, counts + 256 + bins, nm)) != GPULZ_OK ||
        (rc = byte_hist(&hOf, counts + 512 + bins, nm)) != GPULZ_OK)
        goto done;
    if (S > 2) {
        for (unsigned j = 0; j < S; j++) {
            memcpy(HL.plane[0][j].count, counts + 256 + 256 * j, 256 * sizeof *counts);
            HL.plane[0][j].N = nl;
        }
    }
    /* §19: SPLIT for the literals, by the CPU's rule */
    if ((rc = gpulz_ratio_split(&HL, g, planes_made, &split)) != GPULZ_OK)
        goto done;
    L->flags = (flags & ~GPULZ_V2_FLAG_SPLIT) | (split ? GPULZ_V2_FLAG_SPLIT : 0);

    /* the streams in the chunk's order (§12) */
    const unsigned planes = split ? S : 1;
    J.S = S;
    J.C = C;
    J.g = g;
    J.split = (unsigned)split;
    J.count = gpulz_stream_count(L->flags, S);
    byte_stream(&J.s[0], scratch + P->flags, NULL, nf);
    K.h[0] = &hF;
    for (unsigned j = 0; j < planes; j++) {
        gpu_v2_stream *s = &J.s[1 + j];
        s->N = nl;
        s->u = gpulz_unit_bytes(L->flags, S);
        s->plane = j;
        s->x = scratch + P->lits;
        K.h[1 + j] = split ? &HL.plane[0][j] : &HL.whole[0];
    }
    byte_stream(&J.s[planes + 1], scratch + P->lens, NULL, nm);
    byte_stream(&J.s[planes + 2], scratch + P->offs, NULL, nm);
    K.h[planes + 1] = &hLn;
    K.h[planes + 2] = &hOf;
    K.c = c;
    K.J = &J;
    K.P = P;
    K.scratch = scratch;
    K.beat = M ? M->beat : 0;
    rc = gpu_v2_code_streams(&K, d_dst, dst_cap, L->table_end, L->tail, st, &end);
    *dst_len = (size_t)(end + L->tail);
    if (rc == GPULZ_OK)
        rc = gpu_v2_finish(c, L, M, &K, d_src, d_dst, end, scratch + P->table, st);
done:
    gpulz_hist_free(&hF);
    gpulz_hist_free(&hLn);
    gpulz_hist_free(&hOf);
    if (borrowed)
        gpu_v2_hist_release(c, 2, &HL.whole[0]);
    gpulz_fast_hists_free(&HL);
    return rc;
}

/* ---- decoding ------------------------------------------------------------- */

/* Where ratio's decoding keeps its token streams and block places on the
 * device (the context's d_tokens): byte offsets. */
typedef struct lz_dec_plan {
    size_t flags, lits, lens, offs, fpos, tpos, mpos, temp, temp_bytes, total;
} lz_dec_plan;

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static int lz_dec_plan_make(uint64_t nf, uint64_t m, unsigned S, uint64_t nb, lz_dec_plan *D)
{
    D->temp_bytes = gpu_v2_scan_temp(nb + 1);
    if (!D->temp_bytes)
        return gpulz_fail(GPULZ_ERR_CUDA, "cannot size the device scan of %llu items", (unsigned long long)(nb + 1));
    D->flags = 0;
    D->lits = align256(D->flags + nf + 1);
    D->lens = align256(D->lits + m * S + 1);
    D->offs = align256(D->lens + m + 1);
    D->fpos = align256(D->offs + m + 1);
    D->tpos = align256(D->fpos + (nb + 1) * sizeof(uint64_t));
    D->mpos = align256(D->tpos + (nb + 1) * sizeof(uint64_t));
    D->temp = align256(D->mpos + (nb + 1) * sizeof(uint64_t));
    D->total = align256(D->temp + D->temp_bytes);
    return GPULZ_OK;
}

static atomic_int tuned_careful;
static atomic_ullong redone;

int gpu_tune_ratio_careful(int careful)
{
    atomic_store(&tuned_careful, careful != 0);
    return GPULZ_OK;
}

unsigned long long gpu_tune_ratio_redone(void)
{
    return atomic_load(&redone);
}

/* One ratio chunk's decoding: the chunk, where its token streams and block
 * places go, and what the token table says of them. */
typedef struct ratio_dec {
    gpu_ctx *c;
    const uint8_t *d_src, *h_src, *d_table;
    size_t h_len, n;
    const gpulz_layout *L;
    uint8_t *d_dst, *scratch, *tok;
    cudaStream_t st;
    gpu_v2_dec_plan D;
    lz_dec_plan Z;
    uint64_t *fpos, *tpos, *mpos;
    unsigned *err, planes, u;
    int split;
    uint64_t nf, nt; /* the flags' bytes and the tokens, from the table */
} ratio_dec;

static void lit_stream(const ratio_dec *r, gpu_v2_stream *s, unsigned j)
{
    memset(s, 0, sizeof *s);
    s->u = r->u;
    s->plane = j;
    s->out = r->tok + r->Z.lits;
}

/*
 * The token table, checked as the CPU checks it, and each block's place in
 * the flags and among the tokens: on the device, where the table is (a host
 * loop over it and the places sent back cost more than the scans); the
 * flags' room from the most tokens the check allows.
 */
static int ratio_prelude(ratio_dec *r)
{
    const gpulz_layout *L = r->L;
    const unsigned C = L->block_symbols, S = L->symbol_size;
    const uint64_t m = L->symbols, nb = L->blocks;
    uint64_t *back = r->c->h_status; /* pinned: copies that do not wait for the stream to start */
    unsigned long long *d_bad = (unsigned long long *)(r->scratch + r->D.status + 64);
    int rc = GPULZ_OK;
    if (L->table_end > r->n)
        FAIL(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes ends in its token table", r->n);
    const uint64_t nf_max = nb ? (nb - 1) * gpulz_flag_bytes(C) + gpulz_flag_bytes(gpulz_block_raw_size(L, nb - 1) / S)
                               : 0;
    if ((rc = lz_dec_plan_make(nf_max, m, S, nb, &r->Z)) != GPULZ_OK ||
        (rc = gpu_grow_device(&r->c->d_tokens, &r->c->tokens_cap, r->Z.total)) != GPULZ_OK)
        goto done;
    r->tok = r->c->d_tokens;
    r->fpos = (uint64_t *)(r->tok + r->Z.fpos);
    r->tpos = (uint64_t *)(r->tok + r->Z.tpos);
    r->mpos = (uint64_t *)(r->tok + r->Z.mpos);
    GPULZ_CK(cudaMemsetAsync(d_bad, 0xFF, sizeof *d_bad, r->st));
    if ((rc = gpu_v2_token_places(r->d_table, nb, m, C, r->fpos, r->tpos, r->tok + r->Z.temp, r->Z.temp_bytes, d_bad,
                                  r->st)) != GPULZ_OK)
        goto done;
    GPULZ_CK(cudaMemcpyAsync(&back[0], d_bad, sizeof *d_bad, cudaMemcpyDeviceToHost, r->st));
    GPULZ_CK(cudaMemcpyAsync(&back[1], r->fpos + nb, sizeof back[1], cudaMemcpyDeviceToHost, r->st));
    GPULZ_CK(cudaMemcpyAsync(&back[2], r->tpos + nb, sizeof back[2], cudaMemcpyDeviceToHost, r->st));
    GPULZ_CK(cudaStreamSynchronize(r->st));
    const unsigned long long bad = back[0];
    r->nf = back[1];
    r->nt = back[2];
    if (bad != ~0ULL) {
        uint8_t e[GPULZ_TOKEN_ENTRY_SIZE];
        GPULZ_CK(cudaMemcpyAsync(e, r->d_table + GPULZ_TOKEN_ENTRY_SIZE * bad, sizeof e, cudaMemcpyDeviceToHost, r->st));
        GPULZ_CK(cudaStreamSynchronize(r->st));
        FAIL(GPULZ_ERR_CORRUPT, "block %llu: token count %u is out of 1..%u", bad, (unsigned)gpulz_get_u16(e),
             (unsigned)(gpulz_block_raw_size(L, bad) / S));
    }
done:
    return rc;
}

/* After the streams of J are sent (the reader at pos): the tail, the
 * streams decoded, with the flags among them each block's matches counted
 * first (count_flags), the blocks rebuilt and the delta undone; the
 * verdict is gpu_v2_dec_result's. */
static int ratio_rebuild(const ratio_dec *r, gpu_v2_job *J, uint64_t max_segs, uint64_t pos, int count_flags,
                         gpu_v2_ck_where *sums)
{
    const gpulz_layout *L = r->L;
    const uint64_t m = L->symbols, nb = L->blocks;
    int rc = GPULZ_OK;
    size_t tail;
    /* sums: the inverse delta's, or apart (the decoder's bytes are tokens) */
    if ((rc = gpu_v2_dec_tail(r->c, J, L, r->d_src, r->n, (size_t)pos, r->d_dst, r->st, &tail, sums)) != GPULZ_OK ||
        (rc = gpu_v2_decode(r->c, J, r->d_src, max_segs, r->st)) != GPULZ_OK ||
        (count_flags && (rc = gpu_v2_flag_counts(r->d_table, r->tok + r->Z.flags, r->fpos, nb, r->mpos,
                                                 r->tok + r->Z.temp, r->Z.temp_bytes, r->err, r->st)) != GPULZ_OK) ||
        (rc = gpu_v2_lz_decode(r->c, r->d_table, r->tok + r->Z.flags, r->tok + r->Z.lits, r->tok + r->Z.lens,
                               r->tok + r->Z.offs, r->fpos, r->tpos, r->mpos, m, L->symbol_size, L->block_symbols,
                               L->window, r->d_dst, r->err, r->st)) != GPULZ_OK ||
        (rc = gpu_v2_dec_undelta(L, *sums, r->d_dst, m, tail, r->err, r->st)) != GPULZ_OK)
        goto done;
done:
    return rc;
}

static const char *const lz_names[] = {"lengths", "offsets"};

/* A reader of the chunk's streams for a send of up to `streams` of them, J
 * for its job, and the flags opened first, in either order. */
static int ratio_open_flags(const ratio_dec *r, unsigned streams, gpu_v2_reader *R, gpu_v2_job *J)
{
    const gpulz_layout *L = r->L;
    int rc;
    memset(J, 0, sizeof *J);
    if ((rc = gpu_v2_reader_init(R, r->c, r->d_src, r->h_src, r->h_len, r->n, L->table_end, L->symbols + L->blocks,
                                 streams, L->seg_log2, &r->D, r->scratch, r->st)) != GPULZ_OK)
        return rc;
    J->S = L->symbol_size;
    J->C = L->block_symbols;
    J->g = L->seg_log2;
    J->split = (unsigned)r->split;
    J->err = r->err; /* the directories' arrays: gpu_v2_reader_send's */
    byte_stream(&J->s[0], NULL, r->tok + r->Z.flags, r->nf);
    return gpu_v2_reader_next(R, r->nf, "flags", &J->s[0]);
}

/*
 * Every stream opened at once, the literals', lengths' and offsets' with
 * the counts their own headers declare, and all decoded in one launch: the
 * flags' decoding no longer runs alone before the others (one segment's
 * rANS run, 60-85 us of a 1 MB chunk's 310 on an H200), nor the round trip
 * that brought their counts back.  What that order checked before is
 * checked here, before anything is decoded (the headers' counts against the
 * token table's tokens) and after (the matches the flags hold against
 * theirs); the kernels stay within their rooms either way.  Anything
 * amiss, the chunk's fault or not, and the careful order runs from the
 * start (ratio_careful): a damaged chunk gets the CPU decoder's status.
 * GPULZ_OK means the chunk decoded and passed every check.
 */
static int ratio_at_once(ratio_dec *r)
{
    const gpulz_layout *L = r->L;
    const uint64_t nb = L->blocks;
    uint64_t *back = r->c->h_status;
    uint64_t max_segs = 0, nl = 0, nm = 0;
    gpu_v2_ck_where sums = GPU_V2_CK_APART;
    gpu_v2_job J;
    gpu_v2_reader R;
    int rc = GPULZ_OK;
    memset(&R, 0, sizeof R);
    /* each order starts from clean error words: the careful one may follow */
    GPULZ_CK(cudaMemsetAsync(r->err, 0, 16, r->st));
    if ((rc = ratio_open_flags(r, r->planes + 3, &R, &J)) != GPULZ_OK)
        goto done;
    J.count = r->planes + 3;
    for (unsigned j = 0; j < r->planes + 2; j++) {
        gpu_v2_stream *s = &J.s[1 + j];
        const int lit = j < r->planes;
        if (lit)
            lit_stream(r, s, j);
        else
            byte_stream(s, NULL, r->tok + (j == r->planes ? r->Z.lens : r->Z.offs), 0);
        if ((rc = gpu_v2_reader_next(&R, UINT64_MAX, lit ? literal_names[j] : lz_names[j - r->planes], s)) !=
            GPULZ_OK)
            goto done;
        if (j == 0)
            nl = s->N;
        else if (j == r->planes)
            nm = s->N;
        if (lit ? s->N != nl : s->N != nm)
            FAIL(GPULZ_ERR_CORRUPT, "the streams' counts disagree");
    }
    if (nl > r->nt || nm != r->nt - nl)
        FAIL(GPULZ_ERR_CORRUPT, "%llu literals and %llu matches for %llu tokens", (unsigned long long)nl,
             (unsigned long long)nm, (unsigned long long)r->nt);
    if ((rc = gpu_v2_reader_send(&R, &J, &max_segs)) != GPULZ_OK ||
        (rc = ratio_rebuild(r, &J, max_segs, R.pos, 1, &sums)) != GPULZ_OK)
        goto done;
    /* past the four status words gpu_v2_dec_result reads back */
    GPULZ_CK(cudaMemcpyAsync(&back[2], r->mpos + nb, sizeof back[2], cudaMemcpyDeviceToHost, r->st));
    if ((rc = gpu_v2_dec_result(r->c, L, r->n, (size_t)R.pos, r->d_dst, r->err, sums != GPU_V2_CK_APART, 0, r->st)) !=
        GPULZ_OK)
        goto done;
    if (back[2] != nm)
        FAIL(GPULZ_ERR_CORRUPT, "the flags hold %llu matches where the streams have %llu",
             (unsigned long long)back[2], (unsigned long long)nm);
done:
    if (rc != GPULZ_OK)
        (void)cudaStreamSynchronize(r->st); /* what was queued reads the reader's staging */
    gpu_v2_reader_free(&R);
    return rc;
}

/* The CPU decoder's order: the flags decoded first, their counts read back,
 * then the literals, lengths and offsets opened with those counts. */
static int ratio_careful(ratio_dec *r)
{
    const gpulz_layout *L = r->L;
    const uint64_t m = L->symbols, nb = L->blocks;
    uint64_t *back = r->c->h_status;
    uint64_t max_segs = 0;
    gpu_v2_ck_where sums = GPU_V2_CK_APART;
    gpu_v2_job J;
    gpu_v2_reader R;
    int rc = GPULZ_OK;
    memset(&R, 0, sizeof R);
    GPULZ_CK(cudaMemsetAsync(r->err, 0, 16, r->st));
    /* the flags first: they say how many literals and matches follow */
    if ((rc = ratio_open_flags(r, r->planes + 2, &R, &J)) != GPULZ_OK)
        goto done;
    J.count = 1;
    if ((rc = gpu_v2_reader_send(&R, &J, &max_segs)) != GPULZ_OK ||
        (rc = gpu_v2_decode(r->c, &J, r->d_src, max_segs, r->st)) != GPULZ_OK ||
        (rc = gpu_v2_flag_counts(r->d_table, r->tok + r->Z.flags, r->fpos, nb, r->mpos, r->tok + r->Z.temp,
                                 r->Z.temp_bytes, r->err, r->st)) != GPULZ_OK)
        goto done;
    GPULZ_CK(cudaMemcpyAsync(&back[0], r->mpos + nb, sizeof back[0], cudaMemcpyDeviceToHost, r->st));
    unsigned *flags_err = (unsigned *)(back + 3); /* only ever read as unsigned */
    GPULZ_CK(cudaMemcpyAsync(flags_err, r->err, sizeof *r->err, cudaMemcpyDeviceToHost, r->st));
    GPULZ_CK(cudaStreamSynchronize(r->st));
    if (*flags_err)
        FAIL(GPULZ_ERR_CORRUPT, "the flags stream is damaged, or a block's flag bits run past its tokens");
    const uint64_t nm = back[0], nl = r->nt - nm;
    if (nl + nm > m)
        FAIL(GPULZ_ERR_CORRUPT, "%llu tokens for %llu symbols", (unsigned long long)(nl + nm), (unsigned long long)m);

    /* then the literals, lengths and offsets, each with the count the flags say */
    J.count = r->planes + 2;
    for (unsigned j = 0; j < r->planes + 2; j++) {
        gpu_v2_stream *s = &J.s[j];
        const int lit = j < r->planes;
        if (lit)
            lit_stream(r, s, j);
        else
            byte_stream(s, NULL, r->tok + (j == r->planes ? r->Z.lens : r->Z.offs), nm);
        if ((rc = gpu_v2_reader_next(&R, lit ? nl : nm, lit ? literal_names[j] : lz_names[j - r->planes], s)) !=
            GPULZ_OK) {
            rc = gpu_v2_opened_verdict(&R, &J, j, r->d_src, rc, r->st);
            goto done;
        }
    }
    if ((rc = gpu_v2_reader_send(&R, &J, &max_segs)) != GPULZ_OK ||
        (rc = ratio_rebuild(r, &J, max_segs, R.pos, 0, &sums)) != GPULZ_OK)
        goto done;
    rc = gpu_v2_dec_result(r->c, L, r->n, (size_t)R.pos, r->d_dst, r->err, sums != GPU_V2_CK_APART, 0, r->st);
done:
    gpu_v2_reader_free(&R);
    return rc;
}

int gpu_v2_decompress_ratio(gpu_ctx *c, const uint8_t *d_src, const uint8_t *h_src, size_t h_len, size_t n,
                            const gpulz_layout *L, uint8_t *d_dst, uint8_t *scratch, size_t scratch_cap,
                            cudaStream_t st)
{
    ratio_dec r;
    int rc = GPULZ_OK;
    (void)scratch_cap; /* checked by gpu_v2_decompress */
    memset(&r, 0, sizeof r);
    r.c = c;
    r.d_src = d_src;
    r.h_src = h_src;
    r.h_len = h_len;
    r.n = n;
    r.L = L;
    r.d_dst = d_dst;
    r.scratch = scratch;
    r.st = st;
    r.d_table = d_src + GPULZ_V2_HEADER_SIZE;
    r.split = (L->flags & GPULZ_V2_FLAG_SPLIT) != 0;
    r.planes = r.split ? L->symbol_size : 1;
    r.u = gpulz_unit_bytes(L->flags, L->symbol_size);
    gpu_v2_dec_plan_make(n, &r.D);
    r.err = (unsigned *)(scratch + r.D.status);
    if ((rc = ratio_prelude(&r)) != GPULZ_OK)
        goto done;
    if (!atomic_load(&tuned_careful)) {
        if (ratio_at_once(&r) == GPULZ_OK)
            goto done;
        atomic_fetch_add(&redone, 1);
    }
    rc = ratio_careful(&r);
done:
    return rc;
}
