/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_api.c - the device-buffer API of gpulz.h: buffers already on one
 * device, the work queued on the caller's stream, no data across PCIe but a
 * few status words.  Plain C.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpu_v2.h"
#include "gpulz_chunk.h"
#include "gpulz_v2.h"

/* ---- the device-buffer API ------------------------------------------------ */

/* Format 2's scratch: the largest plan of its candidates, for S and, with
 * the adaptive flag, S = 1 (and format 1's, where auto tries lz). */
static size_t v2_scratch_size(size_t n, const gpulz_params *p)
{
    gpulz_mode list[GPULZ_V2_CANDIDATES_MAX];
    const unsigned count = gpulz_v2_candidates(p, list);
    const int adaptive = (p->flags & GPULZ_FLAG_ADAPTIVE) && p->symbol_size > 1;
    size_t total = 0;
    for (int r = 0; r < 1 + adaptive; r++) {
        const unsigned S = r ? 1 : p->symbol_size;
        for (unsigned i = 0; i < count; i++) {
            gpu_v2_plan P;
            gpu_scratch_plan P1;
            gpulz_layout L;
            size_t t;
            if (list[i] == GPULZ_MODE_LZ) {
                if (gpulz_layout_make(&L, n, S, p->window, p->block_symbols) != GPULZ_OK ||
                    gpu_plan_make(L.blocks, L.symbols * L.symbol_size, &P1) != GPULZ_OK)
                    return 0;
                t = P1.total;
            } else {
                if (gpu_v2_plan_make(n, S, p->block_symbols, GPULZ_SEG_LOG2_DEFAULT, list[i] == GPULZ_MODE_RATIO,
                                     &P) != GPULZ_OK)
                    return 0;
                t = P.total;
            }
            total = t > total ? t : total;
        }
    }
    return total;
}

size_t gpulz_compress_device_scratch_size(size_t n, const gpulz_params *p)
{
    gpulz_layout L;
    gpu_scratch_plan P, P1;
    if (gpulz_params_check(p) == GPULZ_OK && p->mode != GPULZ_MODE_LZ)
        return v2_scratch_size(n, p);
    if (gpulz_params_check(p) != GPULZ_OK ||
        gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols) != GPULZ_OK ||
        gpu_plan_make(L.blocks, L.symbols * L.symbol_size, &P) != GPULZ_OK)
        return 0;
    if (!(p->flags & GPULZ_FLAG_ADAPTIVE) || p->symbol_size == 1)
        return P.total;
    /* adaptive may also encode with S = 1, whose plan has the most blocks */
    if (gpulz_layout_make(&L, n, 1, p->window, p->block_symbols) != GPULZ_OK ||
        gpu_plan_make(L.blocks, L.symbols, &P1) != GPULZ_OK)
        return 0;
    return P.total > P1.total ? P.total : P1.total;
}

size_t gpulz_decompress_device_scratch_size(size_t src_len)
{
    gpu_scratch_plan P;
    /* the table must fit in the chunk: nb <= (src_len - 28) / 4 */
    uint64_t nb = src_len > GPULZ_HEADER_SIZE ? (src_len - GPULZ_HEADER_SIZE) / GPULZ_TABLE_ENTRY_SIZE : 0;
    if (gpu_plan_make(nb, 0, &P) != GPULZ_OK)
        return 0;
    /* the format is known once the chunk is read: room for either */
    size_t v2 = gpu_v2_decompress_scratch(src_len);
    return P.total > v2 ? P.total : v2;
}

/*
 * The stream a call runs on.  NULL is CUDA's default stream, as for a kernel
 * launch: the caller's earlier work there (a cudaMemcpy from pageable memory
 * whose DMA may still be in flight when it returns) comes first.  The
 * library's own stream is non-blocking and would not wait for it.
 */
static cudaStream_t caller_stream(void *cuda_stream)
{
    return cuda_stream ? (cudaStream_t)cuda_stream : cudaStreamLegacy;
}

/* Use the caller's scratch, or the context's own when none is given. */
static int scratch_for(gpu_ctx *c, void *d_scratch, size_t scratch_size, size_t need, uint8_t **out)
{
    if (d_scratch) {
        if (scratch_size < need)
            return gpulz_fail(GPULZ_ERR_PARAM, "scratch of %zu bytes is below the %zu needed", scratch_size,
                              need);
        *out = (uint8_t *)d_scratch;
        return GPULZ_OK;
    }
    int rc = gpu_grow_device(&c->d_scratch, &c->scratch_cap, need);
    *out = c->d_scratch;
    return rc;
}

/* One encoding of d_src with layout L into d_dst, scratch planned for at least L. */
static int enc_all(gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst, size_t dst_cap,
                   uint8_t *scratch, cudaStream_t st, size_t *len)
{
    gpu_scratch_plan P;
    int rc = gpu_stages_check(L);
    if (rc == GPULZ_OK)
        rc = gpu_plan_make(L->blocks, L->symbols * L->symbol_size, &P);
    if (rc == GPULZ_OK)
        rc = gpu_enc_launch(c, L, d_src, scratch, &P, 0, L->blocks, gpu_enc_segment(c, gpu_enc_few(c, L->blocks)), st);
    if (rc == GPULZ_OK)
        rc = gpu_enc_finish(c, L, d_src, d_dst, dst_cap, scratch, &P, st, len);
    return rc;
}

/* The device API's side of the chunk driver: the first encoding straight into
 * the caller's buffer, the adaptive one into the context's. */
typedef struct device_job {
    gpu_ctx *c;
    const uint8_t *src;
    uint8_t *dst, *scratch;
    size_t dst_cap;
    cudaStream_t st;
    size_t scratch_size; /* format 2: what its candidates plan for */
} device_job;

static int device_buffer(void *ctx, int i, size_t need, uint8_t **out, size_t *cap)
{
    device_job *J = ctx;
    if (i == 0) {
        *out = J->dst;
        *cap = J->dst_cap;
        return GPULZ_OK;
    }
    int rc = gpu_grow_device(&J->c->d_out, &J->c->out_cap, need);
    *out = J->c->d_out;
    *cap = need;
    return rc;
}

static int device_encode(void *ctx, const gpulz_layout *L, uint8_t *out, size_t cap, size_t *len)
{
    device_job *J = ctx;
    return enc_all(J->c, L, J->src, out, cap, J->scratch, J->st, len);
}

static int device_move(void *ctx, uint8_t *dst, const uint8_t *src, size_t len)
{
    device_job *J = ctx;
    int rc = GPULZ_OK;
    GPULZ_CK(cudaMemcpyAsync(dst, src, len, cudaMemcpyDeviceToDevice, J->st));
    GPULZ_CK(cudaStreamSynchronize(J->st));
done:
    return rc;
}

static void device_release(void *ctx)
{
    (void)ctx; /* the context keeps its buffers */
}

static const gpulz_chunk_ops device_ops = {device_buffer, device_encode, device_move, device_release};

/* One format 2 candidate (FORMAT.md §19), of q's mode and symbol size, into out. */
static int device_candidate(void *arg, size_t n, const gpulz_params *q, gpu_v2_memo *memo, uint8_t *out, size_t cap,
                            size_t *len)
{
    device_job *J = arg;
    if (q->mode != GPULZ_MODE_LZ)
        return gpu_v2_compress(J->c, J->src, n, q, out, cap, J->scratch, J->scratch_size, J->st, memo, len);
    device_job K = *J;
    K.dst = out;
    K.dst_cap = cap;
    return gpulz_chunk_compress(&device_ops, &K, n, q, out, cap, len);
}

/* Modes fast, ratio and auto: the host API's candidates, for S and with the
 * adaptive flag S = 1, in two buffers: the caller's, where it holds any
 * candidate (a lone or winning first candidate is then not copied), else
 * the context's, and the context's other; the best ends in dst. */
static int device_compress_v2(device_job *J, size_t n, const gpulz_params *p, size_t *dst_len)
{
    gpulz_mode list[GPULZ_V2_CANDIDATES_MAX];
    const unsigned count = gpulz_v2_candidates(p, list);
    gpu_ctx *c = J->c;
    /* with the adaptive flag, S = 1's bound too: the same two buffers serve
     * both rounds, so that the best so far stays where it is */
    const size_t cap = gpulz_compress_bound(n, p);
    const int in_dst = J->dst_cap >= cap;
    size_t best_len = 0;
    int best = -1, rc = GPULZ_OK;
    if ((!in_dst && (rc = gpu_grow_device(&c->d_out, &c->out_cap, cap)) != GPULZ_OK) ||
        (rc = gpu_grow_device(&c->d_alt, &c->alt_cap, cap)) != GPULZ_OK)
        return rc;
    uint8_t *buf[2] = {in_dst ? J->dst : c->d_out, c->d_alt};
    for (int r = 0; r < 2 && rc == GPULZ_OK; r++) {
        if (r && !gpulz_adaptive_retry(p, n, best_len))
            break;
        gpulz_params q = *p;
        q.symbol_size = r ? 1 : p->symbol_size;
        q.flags &= ~GPULZ_FLAG_ADAPTIVE; /* this loop applies the adaptive rule */
        rc = gpu_v2_candidates(c, n, &q, list, count, device_candidate, J, buf, cap, &best, &best_len);
    }
    if (rc != GPULZ_OK)
        return rc;
    if (best_len > J->dst_cap)
        return gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %zu exceeds the output capacity %zu", best_len,
                          J->dst_cap);
    if (buf[best] != J->dst && (rc = device_move(J, J->dst, buf[best], best_len)) != GPULZ_OK)
        return rc;
    *dst_len = best_len;
    return rc;
}

int gpu_compress_device_lane(unsigned lane, const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                             size_t *dst_len, const gpulz_params *p, void *cuda_stream, void *d_scratch,
                             size_t scratch_size)
{
    int rc = gpulz_params_check(p);
    if (rc != GPULZ_OK)
        return rc;
    if ((!d_src && n) || !d_dst || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    gpulz_layout L;
    if ((rc = gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols)) != GPULZ_OK)
        return rc;
    const void *bufs[] = {n ? d_src : NULL, d_dst, d_scratch};
    static const char *const names[] = {"src", "dst", "scratch"};
    gpu_ctx *c = NULL;
    int prev = 0, dev = 0;
    if ((rc = gpu_buffers_device(bufs, names, 3, &dev)) != GPULZ_OK ||
        (rc = gpu_ctx_acquire_lane(&c, &prev, dev, lane)) != GPULZ_OK)
        return rc;
    const size_t need = gpulz_compress_device_scratch_size(n, p);
    device_job J = {c, (const uint8_t *)d_src, (uint8_t *)d_dst, NULL, dst_cap, caller_stream(cuda_stream), need};
    if ((rc = scratch_for(c, d_scratch, scratch_size, need, &J.scratch)) == GPULZ_OK)
        rc = p->mode != GPULZ_MODE_LZ ? device_compress_v2(&J, n, p, dst_len)
                                         : gpulz_chunk_compress(&device_ops, &J, n, p, (uint8_t *)d_dst, dst_cap,
                                                                dst_len);
    if (rc != GPULZ_OK)
        gpu_ctx_quiesce(c, J.st);
    gpu_ctx_release(c, prev);
    return rc;
}

/* The device API's side of the decompression driver: the header copied to
 * the host, the table checked and the blocks decoded on the device. */
typedef struct device_chunk {
    gpu_ctx *c;
    const uint8_t *src;
    size_t n;
    void *d_scratch;
    size_t scratch_size;
    cudaStream_t st;
    size_t head_len; /* the chunk's first bytes in c->h_head */
} device_chunk;

static int device_header(void *ctx, const uint8_t **bytes)
{
    device_chunk *C = ctx;
    int rc = GPULZ_OK;
    /* the header of any version, and what format 2's streams need opened
     * after it, where it fits (GPU_V2_HEAD_BYTES): one wait, where each
     * stream took one more; the header reader checks the version's size
     * against n */
    size_t len = C->n < GPU_V2_HEAD_BYTES ? C->n : GPU_V2_HEAD_BYTES;
    if ((rc = gpu_grow_host(&C->c->h_head, &C->c->head_cap, GPU_V2_HEAD_BYTES)) != GPULZ_OK)
        return rc;
    GPULZ_CK(cudaMemcpyAsync(C->c->h_head, C->src, len, cudaMemcpyDeviceToHost, C->st));
    GPULZ_CK(cudaStreamSynchronize(C->st));
    C->head_len = len;
    *bytes = C->c->h_head;
done:
    return rc;
}

static int device_decode(void *ctx, const gpulz_layout *L, uint8_t *dst)
{
    device_chunk *C = ctx;
    gpu_scratch_plan P;
    uint8_t *scratch = NULL;
    int rc;
    if (L->version == 2) {
        size_t need = gpu_v2_decompress_scratch(C->n);
        if ((rc = scratch_for(C->c, C->d_scratch, C->scratch_size, need, &scratch)) != GPULZ_OK)
            return rc;
        return gpu_v2_decompress(C->c, C->src, C->c->h_head, C->head_len, C->n, L, dst, scratch, need, C->st);
    }
    if ((rc = gpu_plan_make(L->blocks, 0, &P)) != GPULZ_OK ||
        (rc = scratch_for(C->c, C->d_scratch, C->scratch_size, P.total, &scratch)) != GPULZ_OK ||
        (rc = gpu_dec_prepare(C->c, L, C->src, C->n, dst, scratch, &P, C->st)) != GPULZ_OK ||
        (rc = gpu_dec_launch(C->c, L, C->src, C->n, dst, scratch, &P, 0, L->blocks, C->st)) != GPULZ_OK)
        return rc;
    return gpu_dec_result(C->c, scratch, &P, C->st);
}

static const gpulz_chunk_dec_ops device_dec_ops = {"GPU", gpulz_gpu_stages, GPULZ_GPU_STAGE_COUNT, 1,
                                                   device_header, device_decode};

int gpulz_compress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap, size_t *dst_len,
                          const gpulz_params *p, void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    return gpu_compress_device_lane(0, d_src, n, d_dst, dst_cap, dst_len, p, cuda_stream, d_scratch,
                                    scratch_size);
}

int gpu_decompress_device_lane(unsigned lane, const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                               size_t *dst_len, void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    if (!d_src || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    if (n < GPULZ_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the header", n);
    const void *bufs[] = {d_src, d_dst, d_scratch};
    static const char *const names[] = {"src", "dst", "scratch"};
    gpu_ctx *c = NULL;
    int prev = 0, dev = 0, rc = gpu_buffers_device(bufs, names, 3, &dev);
    if (rc != GPULZ_OK || (rc = gpu_ctx_acquire_lane(&c, &prev, dev, lane)) != GPULZ_OK)
        return rc;
    device_chunk C = {c, (const uint8_t *)d_src, n, d_scratch, scratch_size, caller_stream(cuda_stream), 0};
    rc = gpulz_chunk_decompress(&device_dec_ops, &C, n, (uint8_t *)d_dst, dst_cap, dst_len);
    /* no room is answered from the header, before anything is queued: the
     * size query of callers that allocate (Python's) waits for nothing */
    if (rc != GPULZ_OK && rc != GPULZ_ERR_DST_SIZE)
        gpu_ctx_quiesce(c, C.st);
    gpu_ctx_release(c, prev);
    return rc;
}

int gpulz_decompress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap, size_t *dst_len,
                            void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    return gpu_decompress_device_lane(0, d_src, n, d_dst, dst_cap, dst_len, cuda_stream, d_scratch,
                                      scratch_size);
}
