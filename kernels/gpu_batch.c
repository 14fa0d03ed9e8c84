/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_batch.c - host chunks of a batch through the GPU (gpulz_batch.h).
 * Plain C against the CUDA runtime; the work of each chunk is the device
 * API's, so the bytes are its bytes.
 *
 * Three pinned staging slots, each with a device input and output, turn
 * the chunks round: while chunk i runs on the work stream, the copy stream
 * uploads chunk i+1 and downloads chunk i-1.  The device API returns with
 * its chunk done; meanwhile a thread of the pipeline's own (copier, below)
 * copies the next chunks' inputs into pinned memory and the last ones'
 * outputs out of it, each as soon as its slot or its download allows, so
 * that the host's copies overlap the chunks' calls.  The slots stay with
 * the device's context between calls (gpu_context.h says how far).  A
 * caller's chunk in pinned memory (cudaHostAlloc, cudaHostRegister) skips
 * its slot: the copy engines read or write it in place, so that its bytes
 * cross host memory once instead of three times (a core copies about 12
 * GB/s, and the host's memory, not PCIe, bounds the batch).  An output
 * larger than the download ring (below) goes through the ring instead of
 * its slot.
 *
 * Where GPULZ_DEVICE lists several devices, the chunks are cut into one run
 * of consecutive chunks per device, even in bytes (gpulz_batch_split).  A
 * device's run is cut again, into one run per lane of the device
 * (gpu_context.h): each goes through a pipeline of its own, driven by a
 * thread of its own (the library's pool), on that lane's context, streams
 * and staging, so the runs share nothing but the batch's status record,
 * which is locked.  A chunk's call waits for its kernels, and a format 2
 * chunk builds its models on the host between them; with lanes the device
 * runs the other lanes' chunks meanwhile.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpu_tune.h"
#include "gpulz_batch.h"
#include "gpulz_copy.h"
#include "gpulz_format.h"
#include "gpulz_parallel.h"

#define SLOTS 3

/*
 * The download ring: a chunk's output larger than RING_PIECES pieces is
 * downloaded a piece at a time into a ring of pinned pieces after the
 * slots, on a stream of its own, and the copier copies each piece out as it
 * lands and queues the next download into its place.  Whole outputs of 16
 * MiB, three slots to a lane and eight lanes keep some 400 MiB of pinned
 * bytes in flight, written by the copy engine and read back by a core long
 * after; the ring keeps what a core reads a moment old, and so, it seems, in
 * the host's cache.  Measured (H200 machines, bench/RESULTS.md, 2026-11-30
 * third session): 16 MiB chunks read 1.3x as fast with 4 pieces of 2 MiB,
 * less with 1 MiB pieces, slower with 256 KiB ones; 4 MiB outputs, which
 * this ring leaves to their slots, read as fast either way.
 */
#define RING_PIECES 4
#define RING_PIECE_DEFAULT ((size_t)2 << 20)

typedef struct slot {
    uint8_t *h_in, *h_out, *d_in, *d_out;
    cudaEvent_t uploaded, downloaded;
    int out_in_place; /* the chunk's output went straight to the caller's pinned dst */
    int ringed;       /* the chunk's output stays on the device for the ring */
} slot;

typedef struct pipeline {
    gpulz_batch *B;
    const size_t *cap; /* each chunk's room (gpulz_batch_room), the batch's */
    gpu_ctx *c;        /* the lane's context, whose staging it may borrow */
    unsigned lane;
    int borrowed;      /* h_all and d_all are the context's (batch_lock held) */
    size_t first, end; /* the chunks of this device's run */
    void *stream;      /* the caller's stream, where it is this device's */
    slot s[SLOTS];
    size_t in_max, out_max;
    uint8_t *h_all, *d_all;
    cudaStream_t copy, work, own_work;
    size_t piece;    /* bytes of a ring's piece; 0 where no output can be larger than the ring */
    uint8_t *h_ring; /* RING_PIECES pieces, pinned, after the slots */
    cudaStream_t down; /* the ring's downloads */
    cudaEvent_t landed[RING_PIECES];
} pipeline;

static atomic_size_t tuned_piece; /* 0: RING_PIECE_DEFAULT */

int gpu_tune_ring_piece(size_t bytes)
{
    if (bytes && (bytes < 256 || bytes > ((size_t)64 << 20)))
        return gpulz_fail(GPULZ_ERR_PARAM, "%zu bytes a ring piece: not from 256 bytes to 64 MiB", bytes);
    atomic_store(&tuned_piece, bytes);
    return GPULZ_OK;
}

static int pipeline_open(pipeline *P)
{
    int rc = GPULZ_OK;
    gpulz_batch *B = P->B;
    for (size_t i = P->first; i < P->end; i++) {
        P->in_max = B->src_len[i] > P->in_max ? B->src_len[i] : P->in_max;
        P->out_max = P->cap[i] > P->out_max ? P->cap[i] : P->out_max;
    }
    /* 256-byte aligned parts, as the device API's own buffers */
    P->in_max = (P->in_max + 255) & ~(size_t)255;
    P->out_max = (P->out_max + 255) & ~(size_t)255;
    if (!P->in_max)
        P->in_max = 256;
    if (!P->out_max)
        P->out_max = 256;
    size_t slot_bytes = P->in_max + P->out_max;
    if (slot_bytes < P->in_max || slot_bytes > SIZE_MAX / SLOTS)
        return gpulz_fail(GPULZ_ERR_PARAM, "chunks too large to stage");
    const size_t tuned = atomic_load(&tuned_piece), piece = tuned ? tuned : RING_PIECE_DEFAULT;
    if (P->out_max > RING_PIECES * piece)
        P->piece = piece;
    const size_t ring_bytes = RING_PIECES * P->piece;
    if (SLOTS * slot_bytes > SIZE_MAX - ring_bytes)
        return gpulz_fail(GPULZ_ERR_PARAM, "chunks too large to stage");
    /* the ring is host memory only */
    const size_t need_d = SLOTS * slot_bytes, need_h = need_d + ring_bytes;
    gpu_ctx *c = P->c;
    if (need_h <= GPULZ_BATCH_STAGING_KEEP && pthread_mutex_trylock(&c->batch_lock) == 0) {
        P->borrowed = 1;
        if (c->batch_h_cap < need_h) {
            cudaFreeHost(c->batch_h);
            c->batch_h = NULL;
            c->batch_h_cap = 0;
            GPULZ_CK(cudaMallocHost((void **)&c->batch_h, need_h));
            c->batch_h_cap = need_h;
        }
        if (c->batch_d_cap < need_d) {
            cudaFree(c->batch_d);
            c->batch_d = NULL;
            c->batch_d_cap = 0;
            GPULZ_CK(cudaMalloc((void **)&c->batch_d, need_d));
            c->batch_d_cap = need_d;
        }
        P->h_all = c->batch_h;
        P->d_all = c->batch_d;
    } else {
        GPULZ_CK(cudaMallocHost((void **)&P->h_all, need_h));
        GPULZ_CK(cudaMalloc((void **)&P->d_all, need_d));
    }
    for (int k = 0; k < SLOTS; k++) {
        slot *s = &P->s[k];
        s->h_in = P->h_all + k * slot_bytes;
        s->h_out = s->h_in + P->in_max;
        s->d_in = P->d_all + k * slot_bytes;
        s->d_out = s->d_in + P->in_max;
        GPULZ_CK(cudaEventCreateWithFlags(&s->uploaded, cudaEventDisableTiming));
        GPULZ_CK(cudaEventCreateWithFlags(&s->downloaded, cudaEventDisableTiming));
    }
    if (P->piece) {
        P->h_ring = P->h_all + SLOTS * slot_bytes;
        for (int k = 0; k < RING_PIECES; k++)
            GPULZ_CK(cudaEventCreateWithFlags(&P->landed[k], cudaEventDisableTiming));
        GPULZ_CK(cudaStreamCreateWithFlags(&P->down, cudaStreamNonBlocking));
    }
    GPULZ_CK(cudaStreamCreateWithFlags(&P->copy, cudaStreamNonBlocking));
    if (P->stream) {
        P->work = (cudaStream_t)P->stream;
    } else {
        GPULZ_CK(cudaStreamCreateWithFlags(&P->own_work, cudaStreamNonBlocking));
        P->work = P->own_work;
    }
done:
    return rc;
}

static void pipeline_close(pipeline *P)
{
    /* nothing may still copy into or out of what is freed or handed on,
     * nor a kernel of a chunk that failed read or write it */
    if (P->copy)
        cudaStreamSynchronize(P->copy);
    if (P->work)
        cudaStreamSynchronize(P->work);
    if (P->down)
        cudaStreamSynchronize(P->down);
    for (int k = 0; k < SLOTS; k++) {
        if (P->s[k].uploaded)
            cudaEventDestroy(P->s[k].uploaded);
        if (P->s[k].downloaded)
            cudaEventDestroy(P->s[k].downloaded);
    }
    for (int k = 0; k < RING_PIECES; k++)
        if (P->landed[k])
            cudaEventDestroy(P->landed[k]);
    if (P->down)
        cudaStreamDestroy(P->down);
    if (P->copy)
        cudaStreamDestroy(P->copy);
    if (P->own_work)
        cudaStreamDestroy(P->own_work);
    if (P->borrowed) {
        pthread_mutex_unlock(&P->c->batch_lock);
    } else {
        cudaFree(P->d_all);
        cudaFreeHost(P->h_all);
    }
}

static atomic_ullong in_place_copies, host_batches, ring_chunks;

unsigned long long gpu_tune_ring_chunks(void)
{
    return atomic_load(&ring_chunks);
}

unsigned long long gpu_tune_in_place_copies(void)
{
    return atomic_load(&in_place_copies);
}

unsigned long long gpu_tune_host_batches(void)
{
    return atomic_load(&host_batches);
}

/*
 * Whether the n bytes at p are pinned host memory, which a copy engine reads
 * and writes in place: its first and last byte page-locked, at the same
 * distance in the device's view as in the host's.  Pageable memory (and
 * whatever CUDA cannot tell) goes through the slots.
 */
static int host_pinned(const void *p, size_t n)
{
    struct cudaPointerAttributes a, b;
    if (!p || !n)
        return 0;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: clear it for the next call */
        return 0;
    }
    if (a.type != cudaMemoryTypeHost || !a.devicePointer)
        return 0;
    const uint8_t *last = (const uint8_t *)p + (n - 1);
    if (cudaPointerGetAttributes(&b, last) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return b.type == cudaMemoryTypeHost && b.devicePointer &&
           (const uint8_t *)b.devicePointer - (const uint8_t *)a.devicePointer == (ptrdiff_t)(n - 1);
}

/* Chunk i's input into its slot's pinned memory (unless pinned already),
 * and its upload queued. */
static int stage_in(pipeline *P, size_t i)
{
    int rc = GPULZ_OK;
    slot *s = &P->s[i % SLOTS];
    /* a NULL chunk sends nothing: run_chunk refuses it as the CPU does */
    size_t n = P->B->src[i] ? P->B->src_len[i] : 0;
    const uint8_t *from = s->h_in;
    if (host_pinned(P->B->src[i], n)) {
        from = P->B->src[i]; /* the caller's, unchanged until the call returns */
        atomic_fetch_add(&in_place_copies, 1);
    } else if (n) {
        gpulz_copy_bulk(s->h_in, P->B->src[i], n);
    }
    GPULZ_CK(cudaMemcpyAsync(s->d_in, from, n, cudaMemcpyHostToDevice, P->copy));
    GPULZ_CK(cudaEventRecord(s->uploaded, P->copy));
done:
    return rc;
}

/* Chunk i on the work stream once uploaded, then its download queued. */
static int run_chunk(pipeline *P, size_t i)
{
    int rc = GPULZ_OK;
    gpulz_batch *B = P->B;
    slot *s = &P->s[i % SLOTS];
    GPULZ_CK(cudaStreamWaitEvent(P->work, s->uploaded, 0));
    int chunk_rc = !B->src[i] && B->src_len[i] ? gpulz_fail(GPULZ_ERR_PARAM, "null buffer")
                   : B->compress ? gpu_compress_device_lane(P->lane, s->d_in, B->src_len[i], s->d_out, P->cap[i],
                                                            &B->dst_len[i], &B->p, P->work, NULL, 0)
                                 : gpu_decompress_device_lane(P->lane, s->d_in, B->src_len[i], s->d_out, P->cap[i],
                                                              &B->dst_len[i], P->work, NULL, 0);
    /* a CUDA failure is the pipeline's, not the chunk's: the device may be
     * unusable for every later chunk too */
    if (chunk_rc == GPULZ_ERR_CUDA || chunk_rc == GPULZ_ERR_NO_GPU)
        return chunk_rc;
    gpulz_batch_done(B, i, chunk_rc);
    /* set before the lane counts the chunk run, which the copier waits for */
    s->out_in_place = chunk_rc == GPULZ_OK && host_pinned(B->dst[i], B->dst_len[i]);
    if (s->out_in_place)
        atomic_fetch_add(&in_place_copies, 1);
    s->ringed = chunk_rc == GPULZ_OK && !s->out_in_place && P->piece && B->dst_len[i] > RING_PIECES * P->piece;
    if (s->ringed)
        atomic_fetch_add(&ring_chunks, 1);
    if (chunk_rc == GPULZ_OK && !s->ringed) {
        /* the device API returned with the chunk done (decoded chunks
         * verified): no wait on the work stream, and only its dst_len bytes */
        GPULZ_CK(cudaMemcpyAsync(s->out_in_place ? B->dst[i] : s->h_out, s->d_out, B->dst_len[i],
                                 cudaMemcpyDeviceToHost, P->copy));
    }
    GPULZ_CK(cudaEventRecord(s->downloaded, P->copy));
done:
    return rc;
}

/* Where piece k of an output lands in the ring, and its length of n. */
static uint8_t *ring_place(const pipeline *P, size_t k)
{
    return P->h_ring + (k % RING_PIECES) * P->piece;
}

static size_t piece_len(const pipeline *P, size_t n, size_t k)
{
    const size_t off = k * P->piece;
    return n - off < P->piece ? n - off : P->piece;
}

/* Piece k of the n output bytes at d queued for download into the ring. */
static int ring_fetch(pipeline *P, const uint8_t *d, size_t n, size_t k)
{
    int rc = GPULZ_OK;
    GPULZ_CK(cudaMemcpyAsync(ring_place(P, k), d + k * P->piece, piece_len(P, n, k), cudaMemcpyDeviceToHost,
                             P->down));
    GPULZ_CK(cudaEventRecord(P->landed[k % RING_PIECES], P->down));
done:
    return rc;
}

/* Chunk i's output out of pinned memory: the whole of it once downloaded,
 * or through the ring a piece at a time as each lands.  The lane set the
 * chunk's status, length and ringed before it counted the chunk run, which
 * the copier waited for; the slot, whose device output the ring reads, is
 * not staged again until this returns. */
static int stage_out(pipeline *P, size_t i)
{
    int rc = GPULZ_OK;
    gpulz_batch *B = P->B;
    slot *s = &P->s[i % SLOTS];
    if (!s->ringed) {
        GPULZ_CK(cudaEventSynchronize(s->downloaded));
        if (B->statuses[i] == GPULZ_OK && B->dst_len[i] && !s->out_in_place)
            gpulz_copy_bulk(B->dst[i], s->h_out, B->dst_len[i]);
        goto done;
    }
    const size_t n = B->dst_len[i], pieces = (n + P->piece - 1) / P->piece;
    for (size_t k = 0; k < RING_PIECES; k++) /* ringed: more pieces than that */
        if ((rc = ring_fetch(P, s->d_out, n, k)) != GPULZ_OK)
            goto done;
    for (size_t k = 0; k < pieces; k++) {
        GPULZ_CK(cudaEventSynchronize(P->landed[k % RING_PIECES]));
        gpulz_copy_bulk((uint8_t *)B->dst[i] + k * P->piece, ring_place(P, k), piece_len(P, n, k));
        if (k + RING_PIECES < pieces && (rc = ring_fetch(P, s->d_out, n, k + RING_PIECES)) != GPULZ_OK)
            goto done;
    }
done:
    return rc;
}

/*
 * A lane's copies through pinned memory, on a thread of their own beside the
 * lane's thread, which only runs the chunks: a chunk's call waits for its
 * kernels, and the copies of the chunks before and after it (a core copies
 * about 12 GB/s, H100 machine) would otherwise wait for that call.  In
 * order: a chunk's input is staged once its slot's last chunk, SLOTS
 * before it, is copied out; a chunk is copied out once the lane has run it.
 */
typedef struct copier {
    pipeline *P;
    int device;
    pthread_mutex_t lock;
    pthread_cond_t moved;
    size_t staged; /* chunks [first, staged) are staged in */
    size_t ran;    /* chunks [first, ran) have been run by the lane */
    int stop;      /* the lane failed: copy nothing more */
    int rc;        /* the copier's own failure, with its detail */
    char detail[256];
} copier;

static void *copier_run(void *arg)
{
    copier *K = arg;
    pipeline *P = K->P;
    int rc = GPULZ_OK;
    size_t in = P->first, out = P->first;
    if (cudaSetDevice(K->device) != cudaSuccess)
        rc = gpulz_fail(GPULZ_ERR_CUDA, "cannot take device %d for the copies", K->device);
    while (rc == GPULZ_OK && out < P->end) {
        const int stage = in < P->end && in < out + SLOTS;
        pthread_mutex_lock(&K->lock);
        while (!stage && !K->stop && K->ran <= out)
            pthread_cond_wait(&K->moved, &K->lock);
        const int stop = K->stop;
        pthread_mutex_unlock(&K->lock);
        if (stop)
            break;
        rc = stage ? stage_in(P, in) : stage_out(P, out);
        if (rc != GPULZ_OK)
            break; /* a chunk whose staging failed is never counted staged */
        if (!stage) {
            out++; /* only this thread waits on it */
            continue;
        }
        pthread_mutex_lock(&K->lock);
        K->staged = ++in;
        pthread_cond_broadcast(&K->moved);
        pthread_mutex_unlock(&K->lock);
    }
    pthread_mutex_lock(&K->lock);
    if (rc != GPULZ_OK) {
        K->rc = rc;
        K->stop = 1;
        strncpy(K->detail, gpulz_last_error(), sizeof K->detail - 1);
        K->detail[sizeof K->detail - 1] = 0;
    }
    pthread_cond_broadcast(&K->moved);
    pthread_mutex_unlock(&K->lock);
    return NULL;
}

/* One lane's run of chunks, the pipeline above on that lane of its device. */
typedef struct share {
    gpulz_batch *B;
    const size_t *cap;
    int device;
    unsigned lane;
    size_t first, end;
    void *stream;
    int rc; /* a failure of the pipeline itself, with its detail */
    char detail[256];
} share;

static int run_share(share *S)
{
    pipeline P = {.B = S->B, .cap = S->cap, .lane = S->lane, .first = S->first, .end = S->end, .stream = S->stream};
    copier K = {.P = &P, .device = S->device, .staged = S->first, .ran = S->first};
    pthread_t copy_thread;
    int rc = GPULZ_OK, prev = -1, ctx_prev = 0, synced = 0, copying = 0;
    /* the lane's context made ready (policy, streams); released at once,
     * as every chunk's call takes it (contexts live as long as the process) */
    if ((rc = gpu_ctx_acquire_lane(&P.c, &ctx_prev, S->device, S->lane)) != GPULZ_OK)
        return rc;
    gpu_ctx_release(P.c, ctx_prev);
    GPULZ_CK(cudaGetDevice(&prev));
    GPULZ_CK(cudaSetDevice(S->device));
    if (P.first == P.end || (rc = pipeline_open(&P)) != GPULZ_OK)
        goto done;
    pthread_mutex_init(&K.lock, NULL);
    pthread_cond_init(&K.moved, NULL);
    synced = 1;
    if (pthread_create(&copy_thread, NULL, copier_run, &K) != 0) {
        rc = gpulz_fail(GPULZ_ERR_NOMEM, "cannot start a lane's copier");
        goto done;
    }
    copying = 1;
    for (size_t i = P.first; i < P.end && rc == GPULZ_OK; i++) {
        pthread_mutex_lock(&K.lock);
        while (K.staged <= i && !K.stop)
            pthread_cond_wait(&K.moved, &K.lock);
        const int stop = K.stop;
        pthread_mutex_unlock(&K.lock);
        if (stop)
            break;
        rc = run_chunk(&P, i);
        pthread_mutex_lock(&K.lock);
        if (rc == GPULZ_OK)
            K.ran = i + 1;
        else
            K.stop = 1;
        pthread_cond_broadcast(&K.moved);
        pthread_mutex_unlock(&K.lock);
    }
done:
    if (copying) {
        pthread_join(copy_thread, NULL);
        if (rc == GPULZ_OK && K.rc != GPULZ_OK)
            rc = gpulz_fail(K.rc, "%s", K.detail);
    }
    if (synced) {
        pthread_cond_destroy(&K.moved);
        pthread_mutex_destroy(&K.lock);
    }
    pipeline_close(&P);
    if (prev >= 0)
        cudaSetDevice(prev);
    return rc;
}

/* A pool worker's share: its failure is kept with it, so that the call can
 * report the one of the lowest share whatever the order they ended in. */
static int share_item(void *ctx, unsigned worker, uint64_t k)
{
    share *S = (share *)ctx + k;
    (void)worker;
    if ((S->rc = run_share(S)) != GPULZ_OK) {
        strncpy(S->detail, gpulz_last_error(), sizeof S->detail - 1);
        S->detail[sizeof S->detail - 1] = 0;
    }
    return 0;
}

/*
 * The device a caller's stream belongs to, -1 where that cannot be told
 * (CUDA before 12.8, or a handle CUDA does not take there): the stream is
 * then given to the first device, as before devices could be several.
 */
static int stream_device(void *stream)
{
    int dev = -1;
#if CUDART_VERSION >= 12080
    if (stream && cudaStreamGetDevice((cudaStream_t)stream, &dev) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: clear it for the caller */
        dev = -1;
    }
#else
    (void)stream;
#endif
    return dev;
}

int gpulz_batch_gpu_host(gpulz_batch *B)
{
    gpulz_devices D;
    size_t cut[GPULZ_DEVICES_MAX + 1], lane_cut[GPU_LANES_MAX + 1];
    int rc = gpu_host_devices(&D);
    if (rc != GPULZ_OK)
        return rc;
    atomic_fetch_add(&host_batches, 1);
    /* a device without a chunk would only set its pipeline up */
    unsigned parts = B->count < D.count ? (unsigned)B->count : D.count;
    size_t *cap = NULL, *w = NULL;
    share *S = NULL;
    if (!(cap = malloc((B->count ? B->count : 1) * 2 * sizeof *cap))) {
        rc = gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the sizes of %zu chunks", B->count);
        goto done;
    }
    w = cap + (B->count ? B->count : 1);
    for (size_t i = 0; i < B->count; i++) {
        /* a NULL dst has no room: GPULZ_ERR_DST_SIZE and the size needed,
         * as the CPU answers, not a download into NULL */
        cap[i] = B->dst[i] ? gpulz_batch_room(B, i) : 0;
        w[i] = gpulz_batch_weight(B, i, cap[i]);
    }
    gpulz_batch_split(B->count, w, parts, cut);
    int sdev = B->cuda_stream ? stream_device(B->cuda_stream) : -1;
    if (B->cuda_stream && sdev < 0)
        sdev = D.dev[0];
    if (!(S = calloc((size_t)parts * GPU_LANES_MAX, sizeof *S))) {
        rc = gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the runs of %u devices", parts);
        goto done;
    }
    unsigned runs = 0;
    for (unsigned k = 0; k < parts; k++) {
        size_t largest = 0;
        for (size_t i = cut[k]; i < cut[k + 1]; i++)
            largest = w[i] > largest ? w[i] : largest;
        const unsigned lanes = gpu_lanes_for(cut[k + 1] - cut[k], largest);
        gpulz_batch_split(cut[k + 1] - cut[k], w + cut[k], lanes, lane_cut);
        for (unsigned l = 0; l < lanes; l++)
            S[runs++] = (share){B, cap, D.dev[k], l, cut[k] + lane_cut[l], cut[k] + lane_cut[l + 1],
                                D.dev[k] == sdev && l == 0 ? B->cuda_stream : NULL, GPULZ_OK, {0}};
    }
    if (runs == 1) {
        rc = run_share(&S[0]);
    } else if ((rc = gpulz_parallel_for(runs, runs, 1, NULL, share_item, S)) == GPULZ_OK) {
        /* one thread per run; where the pool cannot give them all, the
         * threads it has take the runs one after another */
        for (unsigned k = 0; k < runs; k++)
            if (S[k].rc != GPULZ_OK) {
                rc = gpulz_fail(S[k].rc, "device %d: %s", S[k].device, S[k].detail);
                break;
            }
    }
done:
    free(S);
    free(cap);
    return rc;
}
