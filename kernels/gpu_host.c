/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_host.c - the GPU backend's host-buffer path that codec.c calls: the
 * chunk goes through the pinned staging buffer in pieces, each piece encoded
 * (or decoded and brought back) while the next moves.  Plain C.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpu_v2.h"

int gpulz_gpu_compress_host(const uint8_t *src, const gpulz_layout *L, uint8_t *dst, size_t *dst_len)
{
    gpu_ctx *c = NULL;
    int prev = 0, rc = gpu_stages_check(L);
    if (rc != GPULZ_OK || (rc = gpu_ctx_acquire(&c, &prev, -1)) != GPULZ_OK)
        return rc;
    const size_t n = (size_t)L->n, bound = (size_t)L->table_end + n;
    const size_t pieces = (n + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE;
    const unsigned streams = pieces < c->pol.work_streams ? (unsigned)pieces : c->pol.work_streams;
    gpu_scratch_plan P;
    gpu_enc_feed feed = {L, &P};
    size_t len = 0;
    if ((rc = gpu_plan_make(L->blocks, L->symbols * L->symbol_size, &P)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_in, &c->in_cap, n ? n : 1)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_out, &c->out_cap, bound)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_scratch, &c->scratch_cap, P.total)) != GPULZ_OK ||
        (rc = gpu_grow_pinned(c, bound > n ? bound : n)) != GPULZ_OK ||
        (rc = gpu_grow_events(c, pieces)) != GPULZ_OK ||
        (rc = gpu_copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->copy_stream, &feed)) != GPULZ_OK)
        goto done;
    for (unsigned w = 0; w < streams; w++) {
        GPULZ_CK(cudaEventRecord(c->work_done[w], c->work[w]));
        GPULZ_CK(cudaStreamWaitEvent(c->stream, c->work_done[w], 0));
    }
    /* and the transfers themselves: a last piece of only the tail (fewer
     * than S bytes, or a chunk shorter than one symbol) has no encoder that
     * waits for it, yet the finish reads the tail from d_in and the output
     * comes back through the pinned buffer that piece is sent from */
    GPULZ_CK(cudaEventRecord(c->copied, c->copy_stream));
    GPULZ_CK(cudaStreamWaitEvent(c->stream, c->copied, 0));
    if ((rc = gpu_enc_finish(c, L, c->d_in, c->d_out, bound, c->d_scratch, &P, c->stream, &len)) !=
        GPULZ_OK)
        goto done;
    if ((rc = gpu_d2h_enqueue(c, c->d_out, 0, len)) != GPULZ_OK ||
        (rc = gpu_copy_pieces(c, dst, c->d_out, 0, len, 0, c->stream, NULL)) != GPULZ_OK)
        goto done;
    *dst_len = len;
done:
    if (rc != GPULZ_OK)
        gpu_ctx_quiesce(c, NULL);
    gpu_ctx_release(c, prev);
    return rc;
}

/* The most scratch the modes of list take for n bytes of p's symbols. */
static int v2_plan_total(size_t n, const gpulz_params *p, const gpulz_mode *list, unsigned count, size_t *total)
{
    gpu_v2_plan P;
    int rc = GPULZ_OK;
    *total = 0;
    for (unsigned i = 0; i < count && rc == GPULZ_OK; i++)
        if ((rc = gpu_v2_plan_make(n, p->symbol_size, p->block_symbols, GPULZ_SEG_LOG2_DEFAULT,
                                   list[i] == GPULZ_MODE_RATIO, &P)) == GPULZ_OK && P.total > *total)
            *total = P.total;
    return rc;
}

/* A candidate from the context's input, into out, with its scratch and stream. */
static int host_candidate(void *arg, size_t n, const gpulz_params *q, gpu_v2_memo *memo, uint8_t *out, size_t cap,
                          size_t *len)
{
    gpu_ctx *c = arg;
    return gpu_v2_compress(c, c->d_in, n, q, out, cap, c->d_scratch, c->scratch_cap, c->stream, memo, len);
}

int gpulz_gpu_compress_v2_host(const uint8_t *src, size_t n, const gpulz_params *p, const gpulz_mode *list,
                               unsigned count, uint8_t *dst, size_t cap, size_t *dst_len)
{
    gpu_ctx *c = NULL;
    size_t need = 0, best_len = 0;
    uint8_t *buf[2] = {NULL, NULL};
    int best = -1;
    /* the context first: without a usable GPU that is what the caller hears */
    int prev = 0, rc = gpu_ctx_acquire(&c, &prev, -1);
    if (rc != GPULZ_OK)
        return rc;
    if ((rc = v2_plan_total(n, p, list, count, &need)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_in, &c->in_cap, n ? n : 1)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_out, &c->out_cap, cap)) != GPULZ_OK ||
        (count > 1 && (rc = gpu_grow_device(&c->d_alt, &c->alt_cap, cap)) != GPULZ_OK) ||
        (rc = gpu_grow_device(&c->d_scratch, &c->scratch_cap, need)) != GPULZ_OK ||
        (rc = gpu_grow_pinned(c, cap > n ? cap : n)) != GPULZ_OK ||
        (rc = gpu_copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->stream, NULL)) != GPULZ_OK)
        goto done;
    buf[0] = c->d_out;
    buf[1] = c->d_alt;
    if ((rc = gpu_v2_candidates(c, n, p, list, count, host_candidate, c, buf, cap, &best, &best_len)) != GPULZ_OK ||
        (rc = gpu_d2h_enqueue(c, buf[best], 0, best_len)) != GPULZ_OK ||
        (rc = gpu_copy_pieces(c, dst, buf[best], 0, best_len, 0, c->stream, NULL)) != GPULZ_OK)
        goto done;
    *dst_len = best_len;
done:
    if (rc != GPULZ_OK)
        gpu_ctx_quiesce(c, NULL);
    gpu_ctx_release(c, prev);
    return rc;
}

/* A format 2 chunk: the chunk to the device, the streams opened from the
 * host's copy, decoded, and brought back once its checks passed. */
static int decompress_v2_host(gpu_ctx *c, const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst)
{
    const size_t out_n = (size_t)L->n, need = gpu_v2_decompress_scratch(n);
    int rc;
    if ((rc = gpu_grow_device(&c->d_in, &c->in_cap, n)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_out, &c->out_cap, out_n ? out_n : 1)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_scratch, &c->scratch_cap, need)) != GPULZ_OK ||
        (rc = gpu_grow_pinned(c, n > out_n ? n : out_n)) != GPULZ_OK ||
        (rc = gpu_copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->stream, NULL)) != GPULZ_OK ||
        (rc = gpu_v2_decompress(c, c->d_in, src, n, n, L, c->d_out, c->d_scratch, c->scratch_cap, c->stream)) !=
            GPULZ_OK)
        return rc;
    if ((rc = gpu_d2h_enqueue(c, c->d_out, 0, out_n)) != GPULZ_OK)
        return rc;
    return gpu_copy_pieces(c, dst, c->d_out, 0, out_n, 0, c->stream, NULL);
}

int gpulz_gpu_decompress_host(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst)
{
    gpu_ctx *c = NULL;
    int prev = 0, rc = gpu_ctx_acquire(&c, &prev, -1);
    if (rc != GPULZ_OK)
        return rc;
    if (L->version == 2) {
        rc = decompress_v2_host(c, src, n, L, dst);
        if (rc != GPULZ_OK)
            gpu_ctx_quiesce(c, NULL);
        gpu_ctx_release(c, prev);
        return rc;
    }
    const size_t out_n = (size_t)L->n;
    const size_t block_bytes = (size_t)L->block_symbols * L->symbol_size;
    gpu_scratch_plan P;
    if ((rc = gpu_plan_make(L->blocks, 0, &P)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_in, &c->in_cap, n)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_out, &c->out_cap, out_n ? out_n : 1)) != GPULZ_OK ||
        (rc = gpu_grow_device(&c->d_scratch, &c->scratch_cap, P.total)) != GPULZ_OK ||
        (rc = gpu_grow_pinned(c, n > out_n ? n : out_n)) != GPULZ_OK)
        goto done;
    if ((rc = gpu_copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->stream, NULL)) != GPULZ_OK)
        goto done;
    if ((rc = gpu_dec_prepare(c, L, c->d_in, n, c->d_out, c->d_scratch, &P, c->stream)) != GPULZ_OK)
        goto done;
    /* decode and bring back a few megabytes at a time */
    for (size_t off = 0; off < out_n;) {
        size_t piece = c->pol.dec_piece;
        size_t len_out = out_n - off < piece ? out_n - off : piece;
        uint64_t k0 = off / block_bytes;
        uint64_t k1 = off + len_out == out_n ? L->blocks : (off + len_out) / block_bytes;
        if ((rc = gpu_dec_launch(c, L, c->d_in, n, c->d_out, c->d_scratch, &P, k0, k1, c->stream)) !=
                GPULZ_OK ||
            (rc = gpu_d2h_enqueue(c, c->d_out, off, len_out)) != GPULZ_OK)
            goto done;
        off += len_out;
    }
    if ((rc = gpu_copy_pieces(c, dst, c->d_out, 0, out_n, 0, c->stream, NULL)) != GPULZ_OK)
        goto done;
    /* the pieces went out while the blocks decoded; on a damaged chunk the
     * undecoded parts held what an earlier call left in the device buffer */
    if ((rc = gpu_dec_result(c, c->d_scratch, &P, c->stream)) != GPULZ_OK)
        memset(dst, 0, out_n);
done:
    if (rc != GPULZ_OK)
        gpu_ctx_quiesce(c, NULL);
    gpu_ctx_release(c, prev);
    return rc;
}

