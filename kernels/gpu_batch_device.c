/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_batch_device.c - device chunks of a batch queued without waiting
 * (gpulz_batch.h).  Plain C against the CUDA runtime.
 *
 * The device API waits for each chunk's status words before it returns,
 * so a loop over it leaves the device idle between chunks for a round trip
 * to the host, and never runs one chunk's short tail (scan, compaction,
 * header) beside the next chunk's blocks.  Here the format 1 work of every
 * chunk is queued on a few lanes, each a stream of the context with its own
 * part of the scratch; each chunk's status words are copied into its slot of
 * a status area at the front of the scratch; one read-back and one wait at
 * the end give every chunk its status.  The launches are the device API's
 * own (gpu_enc_launch, gpu_enc_finish's halves, gpu_dec_prepare and
 * gpu_dec_launch) with the same arguments, so the bytes are its bytes.
 *
 * Left for the device API (GPULZ_BATCH_PENDING): format 2 chunks, whose
 * encoders and decoders build their models on the host between kernels;
 * chunks whose adaptive flag asks for the S = 1 encoding, known only once
 * the first length is back; chunks whose buffers are not on the batch's
 * device or not device memory (the device API says why); and every chunk
 * where the scratch has no room for a lane.  Where the caller gave no
 * scratch, those of one device run side by side on its lanes, a thread
 * each (gpulz_batch_gpu_lanes, at the end); the rest one at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpulz_batch.h"
#include "gpulz_chunk.h"
#include "gpulz_parallel.h"

typedef struct queue {
    gpulz_batch *B;
    gpu_ctx *c;
    int device;
    unsigned lanes, next_lane;
    size_t lane_bytes;
    uint8_t *d_status; /* GPULZ_BATCH_STATUS_BYTES per chunk, on the device */
    uint8_t *d_lanes;  /* lanes x lane_bytes */
    uint64_t *h_status; /* pinned mirror of d_status */
    uint8_t *h_headers; /* pinned: GPULZ_HEADER_MAX per chunk, decompression */
    uint8_t *queued;   /* 1: the chunk's status words are to be read back */
} queue;

static cudaStream_t lane_stream(const queue *Q, unsigned k)
{
    return Q->c->work[k];
}

/* The lane of the next chunk, in turn, and its scratch. */
static unsigned lane_next(queue *Q, uint8_t **scratch)
{
    unsigned k = Q->next_lane;
    Q->next_lane = (k + 1) % Q->lanes;
    *scratch = Q->d_lanes + (size_t)k * Q->lane_bytes;
    return k;
}

/* Chunk i's buffers are device memory of the batch's device. */
static int on_batch_device(const queue *Q, const void *src, const void *dst)
{
    const void *bufs[] = {src, dst};
    static const char *const names[] = {"src", "dst"};
    int dev = -1;
    return gpu_buffers_device(bufs, names, 2, &dev) == GPULZ_OK && dev == Q->device;
}

/* Chunk i's status words, once its work is done, into its slot. */
static int status_copy(queue *Q, size_t i, const uint8_t *words, cudaStream_t st)
{
    int rc = GPULZ_OK;
    GPULZ_CK(cudaMemcpyAsync(Q->d_status + i * GPULZ_BATCH_STATUS_BYTES, words, GPULZ_BATCH_STATUS_BYTES,
                             cudaMemcpyDeviceToDevice, st));
    Q->queued[i] = 1;
done:
    return rc;
}

/* ---- compression ---------------------------------------------------------- */

/* Chunk i queued, or failed, or left pending; GPULZ_OK unless the queue
 * itself failed. */
static int compress_queue(queue *Q, size_t i)
{
    gpulz_batch *B = Q->B;
    const gpulz_params *p = &B->p;
    const size_t n = B->src_len[i];
    const uint8_t *src = B->src[i];
    uint8_t *dst = B->dst[i], *scratch = NULL;
    gpulz_layout L;
    gpu_scratch_plan P;
    if ((!src && n) || !dst) {
        gpulz_batch_done(B, i, gpulz_fail(GPULZ_ERR_PARAM, "null buffer"));
        return GPULZ_OK;
    }
    int rc = gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols);
    if (rc == GPULZ_OK)
        rc = gpu_stages_check(&L);
    if (rc != GPULZ_OK) {
        gpulz_batch_done(B, i, rc);
        return GPULZ_OK;
    }
    if (!on_batch_device(Q, n ? src : NULL, dst))
        return GPULZ_OK;
    unsigned k = lane_next(Q, &scratch);
    cudaStream_t st = lane_stream(Q, k);
    if ((rc = gpu_plan_make(L.blocks, L.symbols * L.symbol_size, &P)) != GPULZ_OK ||
        (rc = gpu_enc_launch(Q->c, &L, src, scratch, &P, 0, L.blocks, gpu_enc_segment(Q->c, 0), st)) != GPULZ_OK ||
        (rc = gpu_enc_finish_enqueue(Q->c, &L, src, dst, B->dst_cap[i], scratch, &P, st)) != GPULZ_OK)
        return rc;
    return status_copy(Q, i, scratch + P.status, st);
}

/* Chunk i's status as gpulz_chunk_compress() would give it after the first
 * encoding; pending where the adaptive rule asks for the second. */
static void compress_result(queue *Q, size_t i)
{
    gpulz_batch *B = Q->B;
    size_t len = 0;
    int rc = gpu_enc_status(Q->h_status + 2 * i, B->dst_cap[i], &len);
    if (gpulz_adaptive_retry(&B->p, B->src_len[i], len))
        return;
    B->dst_len[i] = len;
    gpulz_batch_done(B, i, rc);
}

/* ---- decompression -------------------------------------------------------- */

/* The decompression driver's view of a queued chunk: its header already in
 * pinned memory, its blocks queued on its lane. */
typedef struct queued_chunk {
    queue *Q;
    size_t i;
} queued_chunk;

static int queued_header(void *ctx, const uint8_t **bytes)
{
    queued_chunk *C = ctx;
    *bytes = C->Q->h_headers + C->i * GPULZ_HEADER_MAX;
    return GPULZ_OK;
}

static int queued_decode(void *ctx, const gpulz_layout *L, uint8_t *dst)
{
    queued_chunk *C = ctx;
    queue *Q = C->Q;
    const uint8_t *src = Q->B->src[C->i];
    const size_t n = Q->B->src_len[C->i];
    uint8_t *scratch = NULL;
    gpu_scratch_plan P;
    unsigned k = lane_next(Q, &scratch);
    cudaStream_t st = lane_stream(Q, k);
    int rc;
    if ((rc = gpu_plan_make(L->blocks, 0, &P)) != GPULZ_OK ||
        (rc = gpu_dec_prepare(Q->c, L, src, n, dst, scratch, &P, st)) != GPULZ_OK ||
        (rc = gpu_dec_launch(Q->c, L, src, n, dst, scratch, &P, 0, L->blocks, st)) != GPULZ_OK)
        return rc;
    return status_copy(Q, C->i, scratch + P.status, st);
}

static const gpulz_chunk_dec_ops queued_dec_ops = {"GPU", gpulz_gpu_stages, GPULZ_GPU_STAGE_COUNT, 1,
                                                   queued_header, queued_decode};

/* Chunk i's header into its pinned slot (the chunk's first bytes, the rest
 * zero, as the device API reads it); 0 when the chunk is left to others. */
static int header_fetch(queue *Q, size_t i, int *fetched)
{
    gpulz_batch *B = Q->B;
    int rc = GPULZ_OK;
    const size_t n = B->src_len[i];
    *fetched = 0;
    if (!B->src[i]) {
        gpulz_batch_done(B, i, gpulz_fail(GPULZ_ERR_PARAM, "null buffer"));
        return GPULZ_OK;
    }
    if (n < GPULZ_HEADER_SIZE) {
        gpulz_batch_done(B, i, gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the header", n));
        return GPULZ_OK;
    }
    if (!on_batch_device(Q, B->src[i], B->dst[i]))
        return GPULZ_OK;
    uint8_t *slot = Q->h_headers + i * GPULZ_HEADER_MAX;
    size_t len = n < GPULZ_HEADER_MAX ? n : GPULZ_HEADER_MAX;
    memset(slot, 0, GPULZ_HEADER_MAX);
    GPULZ_CK(cudaMemcpyAsync(slot, B->src[i], len, cudaMemcpyDeviceToHost, lane_stream(Q, 0)));
    *fetched = 1;
done:
    return rc;
}

/* Chunk i, its header on the host: checked, then queued (format 1), failed,
 * or left pending (format 2). */
static int decompress_queue(queue *Q, size_t i)
{
    gpulz_batch *B = Q->B;
    queued_chunk C = {Q, i};
    gpulz_layout L;
    int rc = gpulz_chunk_read_layout(&queued_dec_ops, &C, B->src_len[i], B->dst[i], B->dst_cap[i], &L,
                                     &B->dst_len[i]);
    if (rc != GPULZ_OK) {
        gpulz_batch_done(B, i, rc);
        return GPULZ_OK;
    }
    if (L.version != GPULZ_FORMAT_VERSION_LZ)
        return GPULZ_OK;
    rc = gpulz_chunk_decode_blocks(&queued_dec_ops, &C, &L, B->dst[i], &B->dst_len[i]);
    if (rc == GPULZ_ERR_CUDA)
        return rc;
    if (rc != GPULZ_OK)
        gpulz_batch_done(B, i, rc);
    return GPULZ_OK;
}

/* ---- the batch ------------------------------------------------------------ */

/* The device of the batch: the scratch's, else the first chunk's whose
 * buffers name one; -1 where none does (every chunk is left pending). */
static int batch_device(const gpulz_batch *B, void *d_scratch)
{
    static const char *const names[] = {"scratch", "src", "dst"};
    for (size_t i = 0; i < B->count; i++) {
        const void *bufs[] = {d_scratch, B->src_len[i] ? B->src[i] : NULL, B->dst[i]};
        int dev = -1;
        if (gpu_buffers_device(bufs, names, 3, &dev) == GPULZ_OK)
            return dev;
    }
    return -1;
}

/* The largest per-chunk scratch of the batch. */
static size_t chunk_need(const gpulz_batch *B)
{
    size_t most = 0;
    for (size_t i = 0; i < B->count; i++) {
        size_t s = B->compress ? gpulz_compress_device_scratch_size(B->src_len[i], &B->p)
                               : gpulz_decompress_device_scratch_size(B->src_len[i]);
        most = s > most ? s : most;
    }
    return most;
}

/* Every lane waits for what the caller queued before the call. */
static int lanes_fork(queue *Q)
{
    int rc = GPULZ_OK;
    cudaStream_t caller = Q->B->cuda_stream ? (cudaStream_t)Q->B->cuda_stream : cudaStreamLegacy;
    GPULZ_CK(cudaEventRecord(Q->c->events[0], caller));
    for (unsigned k = 0; k < Q->lanes; k++)
        GPULZ_CK(cudaStreamWaitEvent(lane_stream(Q, k), Q->c->events[0], 0));
done:
    return rc;
}

/* Lane 0 after every other lane's work. */
static int lanes_join(queue *Q)
{
    int rc = GPULZ_OK;
    for (unsigned k = 1; k < Q->lanes; k++) {
        GPULZ_CK(cudaEventRecord(Q->c->work_done[k], lane_stream(Q, k)));
        GPULZ_CK(cudaStreamWaitEvent(lane_stream(Q, 0), Q->c->work_done[k], 0));
    }
done:
    return rc;
}

static int status_readback(queue *Q)
{
    int rc = GPULZ_OK;
    GPULZ_CK(cudaMemcpyAsync(Q->h_status, Q->d_status, Q->B->count * GPULZ_BATCH_STATUS_BYTES,
                             cudaMemcpyDeviceToHost, lane_stream(Q, 0)));
    GPULZ_CK(cudaStreamSynchronize(lane_stream(Q, 0)));
done:
    return rc;
}

static int queue_run(queue *Q)
{
    gpulz_batch *B = Q->B;
    int rc = lanes_fork(Q);
    if (rc != GPULZ_OK)
        return rc;
    if (!B->compress) {
        /* every header in one round trip: the layouts decide the launches */
        size_t fetched = 0;
        for (size_t i = 0; i < B->count; i++) {
            int one = 0;
            if ((rc = header_fetch(Q, i, &one)) != GPULZ_OK)
                return rc;
            fetched += (size_t)one;
            Q->queued[i] = (uint8_t)one;
        }
        cudaError_t e = fetched ? cudaStreamSynchronize(lane_stream(Q, 0)) : cudaSuccess;
        if (e != cudaSuccess)
            return gpulz_fail(GPULZ_ERR_CUDA, "reading the chunks' headers: %s", cudaGetErrorString(e));
        for (size_t i = 0; i < B->count; i++) {
            if (!Q->queued[i])
                continue;
            Q->queued[i] = 0;
            if ((rc = decompress_queue(Q, i)) != GPULZ_OK)
                return rc;
        }
    } else {
        for (size_t i = 0; i < B->count; i++)
            if ((rc = compress_queue(Q, i)) != GPULZ_OK)
                return rc;
    }
    if ((rc = lanes_join(Q)) != GPULZ_OK || (rc = status_readback(Q)) != GPULZ_OK)
        return rc;
    for (size_t i = 0; i < B->count; i++) {
        if (!Q->queued[i])
            continue;
        if (B->compress)
            compress_result(Q, i);
        else
            gpulz_batch_done(B, i, gpu_dec_status(Q->h_status[2 * i]));
    }
    return GPULZ_OK;
}

int gpulz_batch_gpu_device(gpulz_batch *B, void *d_scratch, size_t scratch_size)
{
    queue Q = {.B = B};
    int rc = GPULZ_OK, prev = 0;
    /* format 2 encoders wait on the host between their kernels: nothing to queue */
    if (B->compress && B->p.mode != GPULZ_MODE_LZ)
        return GPULZ_OK;
    const size_t need = chunk_need(B);
    if (!need || (Q.device = batch_device(B, d_scratch)) < 0)
        return GPULZ_OK;
    const size_t status_bytes = gpulz_batch_align(B->count * GPULZ_BATCH_STATUS_BYTES);
    Q.lane_bytes = gpulz_batch_align(need);
    Q.lanes = gpulz_batch_lanes(B->count, need);
    if (d_scratch)
        while (Q.lanes && (scratch_size < status_bytes || (scratch_size - status_bytes) / Q.lane_bytes < Q.lanes))
            Q.lanes--;
    if (!Q.lanes)
        return GPULZ_OK;
    if (!(Q.queued = calloc(B->count, 1)))
        return GPULZ_OK; /* the device API, one chunk at a time, needs no more memory */
    if ((rc = gpu_ctx_acquire(&Q.c, &prev, Q.device)) != GPULZ_OK)
        goto free;
    if (Q.lanes > Q.c->pol.work_streams)
        Q.lanes = Q.c->pol.work_streams;
    uint8_t *area = d_scratch;
    if (!area) {
        if ((rc = gpu_grow_device(&Q.c->d_scratch, &Q.c->scratch_cap, status_bytes + Q.lanes * Q.lane_bytes)) !=
            GPULZ_OK)
            goto release;
        area = Q.c->d_scratch;
    }
    Q.d_status = area;
    Q.d_lanes = area + status_bytes;
    const size_t pinned = B->count * (GPULZ_BATCH_STATUS_BYTES + GPULZ_HEADER_MAX);
    if ((rc = gpu_grow_pinned(Q.c, pinned)) != GPULZ_OK || (rc = gpu_grow_events(Q.c, 1)) != GPULZ_OK)
        goto release;
    Q.h_status = (uint64_t *)Q.c->h_pinned;
    Q.h_headers = Q.c->h_pinned + B->count * GPULZ_BATCH_STATUS_BYTES;
    rc = queue_run(&Q);
    if (rc != GPULZ_OK) {
        /* nothing queued may still write into the buffers the caller gets
         * back, or into the scratch the chunks run with again */
        for (unsigned k = 0; k < Q.lanes; k++)
            (void)cudaStreamSynchronize(lane_stream(&Q, k));
    }
release:
    gpu_ctx_release(Q.c, prev);
free:
    free(Q.queued);
    return rc;
}

/* ---- pending chunks on the lanes of their device ---------------------------- */

typedef struct lanes_run {
    gpulz_batch *B;
    size_t *todo; /* the chunks the lanes take, in order */
    cudaStream_t st[GPU_LANES_MAX];
} lanes_run;

/* Chunk todo[k] through the device API on lane `worker`: the pool's
 * workers are numbered 0..lanes-1, one thread each. */
static int lane_item(void *ctx, unsigned worker, uint64_t k)
{
    lanes_run *R = ctx;
    gpulz_batch *B = R->B;
    const size_t i = R->todo[k];
    int rc = B->compress ? gpu_compress_device_lane(worker, B->src[i], B->src_len[i], B->dst[i], B->dst_cap[i],
                                                    &B->dst_len[i], &B->p, R->st[worker], NULL, 0)
                         : gpu_decompress_device_lane(worker, B->src[i], B->src_len[i], B->dst[i],
                                                      B->dst_cap[i], &B->dst_len[i], R->st[worker], NULL, 0);
    gpulz_batch_done(B, i, rc);
    return 0;
}

int gpulz_batch_gpu_lanes(gpulz_batch *B)
{
    static const char *const names[] = {"src", "dst"};
    lanes_run R = {.B = B};
    cudaEvent_t fork = NULL, join[GPU_LANES_MAX] = {NULL};
    size_t todo = 0, largest = 0;
    int rc = GPULZ_OK, device = -1, prev = -1;
    unsigned lanes = 0;
    if (!(R.todo = malloc(B->count * sizeof *R.todo)))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the lanes' list of %zu chunks", B->count);
    for (size_t i = 0; i < B->count; i++) {
        if (B->statuses[i] != GPULZ_BATCH_PENDING || !B->src[i] || !B->dst[i])
            continue;
        const void *bufs[] = {B->src[i], B->dst[i]};
        int dev = -1;
        /* a chunk the device API would refuse is left to say why itself */
        if (gpu_buffers_device(bufs, names, 2, &dev) != GPULZ_OK || (device >= 0 && dev != device))
            continue;
        device = dev;
        R.todo[todo++] = i;
        const size_t w = B->compress ? B->src_len[i] : B->dst_cap[i];
        largest = w > largest ? w : largest;
    }
    if (todo < 2 || (lanes = gpu_lanes_for(todo, largest)) < 2)
        goto done; /* one at a time: the caller's loop does that */
    cudaStream_t caller = B->cuda_stream ? (cudaStream_t)B->cuda_stream : cudaStreamLegacy;
    GPULZ_CK(cudaGetDevice(&prev));
    GPULZ_CK(cudaSetDevice(device));
    GPULZ_CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    GPULZ_CK(cudaEventRecord(fork, caller));
    for (unsigned k = 0; k < lanes; k++) {
        GPULZ_CK(cudaStreamCreateWithFlags(&R.st[k], cudaStreamNonBlocking));
        GPULZ_CK(cudaStreamWaitEvent(R.st[k], fork, 0));
        GPULZ_CK(cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming));
    }
    if ((rc = gpulz_parallel_for(todo, lanes, 1, NULL, lane_item, &R)) != GPULZ_OK)
        goto done;
    /* every chunk's call returned with its work done; the caller's later
     * work is ordered after it all the same */
    for (unsigned k = 0; k < lanes; k++) {
        GPULZ_CK(cudaEventRecord(join[k], R.st[k]));
        GPULZ_CK(cudaStreamWaitEvent(caller, join[k], 0));
    }
done:
    for (unsigned k = 0; k < lanes; k++) {
        if (R.st[k])
            cudaStreamDestroy(R.st[k]);
        if (join[k])
            cudaEventDestroy(join[k]);
    }
    if (fork)
        cudaEventDestroy(fork);
    if (prev >= 0)
        cudaSetDevice(prev);
    free(R.todo);
    return rc;
}
