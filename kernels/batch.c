/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * batch.c - the batched API of gpulz.h: many chunks in one call, each the
 * bytes of one call of the per-chunk API.  Only the public per-chunk
 * functions do the work, so a batch cannot drift from them: host chunks on
 * the CPU spread over the thread pool (parallel.c), host chunks on the GPU
 * through the pinned pipeline of gpu_batch.c, device chunks through the
 * device API one after another on the caller's stream.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_batch.h"
#include "gpulz_format.h"
#include "gpulz_gpu.h"
#include "gpulz_parallel.h"

void gpulz_batch_done(gpulz_batch *B, size_t i, int rc)
{
    B->statuses[i] = rc;
    if (rc == GPULZ_OK)
        return;
    pthread_mutex_lock(&B->lock);
    if (i < B->first_failed) {
        B->first_failed = i;
        strncpy(B->detail, gpulz_last_error(), sizeof B->detail - 1);
        B->detail[sizeof B->detail - 1] = 0;
    }
    pthread_mutex_unlock(&B->lock);
}

size_t gpulz_batch_room(const gpulz_batch *B, size_t i)
{
    uint64_t want = GPULZ_BATCH_ROOM_UNREAD;
    if (B->compress && !(want = gpulz_compress_bound(B->src_len[i], &B->p)))
        return B->dst_cap[i]; /* no bound: the cap stands */
    gpulz_layout L;
    if (!B->compress)
        want = B->src[i] && gpulz_declared_size(B->src[i], B->src_len[i], &L) == GPULZ_OK ? L.n
                                                                                          : GPULZ_BATCH_ROOM_UNREAD;
    return want < B->dst_cap[i] ? (size_t)want : B->dst_cap[i];
}

size_t gpulz_batch_weight(const gpulz_batch *B, size_t i, size_t room)
{
    return B->compress ? B->src_len[i] : room;
}

/* ---- host chunks on the CPU ----------------------------------------------- */

typedef struct cpu_share {
    gpulz_batch *B;
    gpulz_params q; /* the batch's, on the CPU with each chunk's share of the threads */
} cpu_share;

/* One chunk; its failure is its status, never the pool's, so that the pool
 * goes on handing out the other chunks. */
static int cpu_chunk(void *ctx, unsigned worker, uint64_t item)
{
    cpu_share *S = ctx;
    gpulz_batch *B = S->B;
    size_t i = (size_t)item;
    (void)worker;
    int rc = B->compress
                 ? gpulz_compress(B->src[i], B->src_len[i], B->dst[i], B->dst_cap[i], &B->dst_len[i], &S->q)
                 : gpulz_decompress(B->src[i], B->src_len[i], B->dst[i], B->dst_cap[i], &B->dst_len[i],
                                    &S->q);
    gpulz_batch_done(B, i, rc);
    return 0;
}

/*
 * A chunk to a worker; where there are fewer chunks than threads, each
 * chunk splits its blocks among its share of them (the codec's threads
 * change no byte).
 */
static int cpu_batch(gpulz_batch *B)
{
    unsigned threads = B->p.threads ? B->p.threads : gpulz_online_cores();
    unsigned workers = B->count < threads ? (unsigned)B->count : threads;
    cpu_share S = {B, B->p};
    S.q.backend = GPULZ_BACKEND_CPU;
    S.q.threads = threads / workers;
    return gpulz_parallel_for(B->count, workers, 1, NULL, cpu_chunk, &S);
}

/* ---- device chunks -------------------------------------------------------- */

/*
 * Format 1 chunks queued on a few streams and waited for once
 * (gpu_batch_device.c); without the caller's scratch, the rest of one
 * device on its lanes; what is left, or all where the queue fails, through
 * the device API per chunk on the caller's stream, sharing the scratch:
 * each call returns with its chunk done, so the next may reuse it.
 */
static void device_batch(gpulz_batch *B, void *d_scratch, size_t scratch_size)
{
    size_t i;
    for (i = 0; i < B->count; i++)
        B->statuses[i] = GPULZ_BATCH_PENDING;
    if (gpulz_batch_gpu_device(B, d_scratch, scratch_size) != GPULZ_OK) {
        for (i = 0; i < B->count; i++)
            B->statuses[i] = GPULZ_BATCH_PENDING;
        B->first_failed = B->count;
    }
    /* the lanes use their own scratch; a failure to set them up leaves
     * their chunks to the loop below */
    if (!d_scratch)
        (void)gpulz_batch_gpu_lanes(B);
    for (i = 0; i < B->count; i++) {
        if (B->statuses[i] != GPULZ_BATCH_PENDING)
            continue;
        int rc = B->compress ? gpulz_compress_device(B->src[i], B->src_len[i], B->dst[i], B->dst_cap[i],
                                                     &B->dst_len[i], &B->p, B->cuda_stream, d_scratch,
                                                     scratch_size)
                             : gpulz_decompress_device(B->src[i], B->src_len[i], B->dst[i], B->dst_cap[i],
                                                       &B->dst_len[i], B->cuda_stream, d_scratch,
                                                       scratch_size);
        gpulz_batch_done(B, i, rc);
    }
}

/* ---- host chunks over several devices ---------------------------------------- */

static double gap(double a, double b)
{
    return a > b ? a - b : b - a;
}

void gpulz_batch_split(size_t count, const size_t w[], unsigned parts, size_t cut[])
{
    /* doubles: the sum of size_t weights may pass 2^64, and a few ulps
     * cannot move a cut by a chunk where it matters */
    double total = 0, prefix = 0;
    int by_count = 1;
    for (size_t i = 0; i < count; i++) {
        total += (double)w[i];
        by_count &= w[i] == 0;
    }
    if (by_count)
        total = (double)count;
    cut[0] = 0;
    for (unsigned k = 1; k < parts; k++) {
        const double target = total * k / parts;
        /* the borders' distances to the target shrink until one passes it,
         * then grow: the first of the nearest is found by then */
        size_t best = cut[k - 1], j = best;
        double best_prefix = prefix, p = prefix;
        while (j < count && p <= target) {
            p += by_count ? 1.0 : (double)w[j];
            j++;
            if (gap(p, target) < gap(best_prefix, target)) {
                best = j;
                best_prefix = p;
            }
        }
        cut[k] = best;
        prefix = best_prefix;
    }
    cut[parts] = count;
}

/* ---- the calls ------------------------------------------------------------ */

typedef struct span {
    uintptr_t start, end;
    size_t chunk;
    int out; /* a dst, else a src */
} span;

/* A room said larger than the address space ends at its top. */
static span span_of(const void *p, size_t len, size_t chunk, int out)
{
    const uintptr_t start = (uintptr_t)p;
    return (span){start, len > UINTPTR_MAX - start ? UINTPTR_MAX : start + len, chunk, out};
}

static int span_order(const void *a, const void *b)
{
    const span *x = a, *y = b;
    /* ties by chunk, so that the pair named does not hang on qsort's order */
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->chunk != y->chunk)
        return x->chunk < y->chunk ? -1 : 1;
    return x->out - y->out;
}

/* The greatest end among spans seen, and the greatest among those of the
 * other chunks than its own: a span overlaps an earlier one of another
 * chunk exactly where that end passes its start. */
typedef struct reach {
    uintptr_t end, end_other;
    size_t chunk;
    int any;
} reach;

static void reach_add(reach *r, const span *s)
{
    if (!r->any || s->chunk == r->chunk) {
        r->end = !r->any || s->end > r->end ? s->end : r->end;
        r->chunk = s->chunk;
        r->any = 1;
    } else if (s->end > r->end) {
        r->end_other = r->end;
        r->end = s->end;
        r->chunk = s->chunk;
    } else if (s->end > r->end_other) {
        r->end_other = s->end;
    }
}

static uintptr_t reach_other(const reach *r, size_t chunk)
{
    return !r->any ? 0 : chunk == r->chunk ? r->end_other : r->end;
}

/*
 * Whether a chunk's dst shares a byte with another chunk's dst or src: the
 * chunks run at once, on several threads or lanes, so such a batch would
 * leave one chunk's output holding another's bytes without an error.  A
 * dst is what its chunk may write: on the host its room (gpulz_batch_room:
 * a generous cap, say the rest of one buffer for each chunk, overlaps
 * nothing the chunk writes), on the device, whose headers the host does not
 * read, its whole cap.  A chunk's own src and dst are its call's to refuse.
 * 1 with the first such pair found in *a (a dst) and *b, *b_out; 0 where
 * there is none; -1 where the spans cannot be allocated.
 */
static int outs_overlap(const gpulz_batch *B, gpulz_memory memory, size_t *a, size_t *b, int *b_out)
{
    span *v = B->count <= SIZE_MAX / (2 * sizeof *v) ? malloc(2 * B->count * sizeof *v) : NULL;
    size_t n = 0;
    if (!v)
        return -1;
    for (size_t i = 0; i < B->count; i++) {
        const size_t room = !B->dst[i] ? 0 : memory == GPULZ_MEMORY_HOST ? gpulz_batch_room(B, i) : B->dst_cap[i];
        if (room)
            v[n++] = span_of(B->dst[i], room, i, 1);
        if (B->src[i] && B->src_len[i])
            v[n++] = span_of(B->src[i], B->src_len[i], i, 0);
    }
    qsort(v, n, sizeof *v, span_order);
    reach any = {0}, outs = {0};
    int found = 0;
    for (size_t k = 0; k < n && !found; k++) {
        const span *s = &v[k];
        /* an out meets any earlier span; a src meets only an earlier out */
        if (reach_other(s->out ? &any : &outs, s->chunk) > s->start) {
            /* name the pair: the earlier span of another chunk reaching it */
            for (size_t j = 0; j < k; j++) {
                if (v[j].chunk != s->chunk && v[j].end > s->start && (s->out || v[j].out)) {
                    const int s_is_a = s->out;
                    *a = s_is_a ? s->chunk : v[j].chunk;
                    *b = s_is_a ? v[j].chunk : s->chunk;
                    *b_out = s_is_a ? v[j].out : s->out;
                    break;
                }
            }
            found = 1;
        }
        reach_add(&any, s);
        if (s->out)
            reach_add(&outs, s);
    }
    free(v);
    return found;
}

/* Whether host chunks go to the GPU: asked for, or auto where a GPU is
 * usable, the work runs there and the chunks are worth it on average. */
static int host_on_gpu(const gpulz_batch *B)
{
    if (B->p.backend == GPULZ_BACKEND_GPU)
        return 1;
    if (B->p.backend != GPULZ_BACKEND_AUTO || !gpulz_gpu_maybe_usable() || B->count == 0)
        return 0;
    uint64_t total = 0;
    for (size_t i = 0; i < B->count; i++)
        total += gpulz_batch_weight(B, i, gpulz_batch_room(B, i));
    return total / B->count >= gpulz_gpu_min_bytes() && gpulz_gpu_usable();
}

static int batch_run(gpulz_batch *B, gpulz_memory memory, void *d_scratch, size_t scratch_size)
{
    int rc = GPULZ_OK;
    size_t i;
    int *own = NULL;
    if (!B->statuses && B->count && !(B->statuses = own = calloc(B->count, sizeof *own)))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the statuses of %zu chunks", B->count);
    /* a whole-call error, written to every status as the others: the
     * caller's statuses are otherwise what they held before, GPULZ_OK too */
    if (B->count && (!B->src || !B->src_len || !B->dst || !B->dst_cap || !B->dst_len))
        rc = gpulz_fail(GPULZ_ERR_PARAM, "null array");
    else if (memory != GPULZ_MEMORY_HOST && memory != GPULZ_MEMORY_DEVICE)
        rc = gpulz_fail(GPULZ_ERR_PARAM, "memory %d is not host or device", (int)memory);
    else if (memory == GPULZ_MEMORY_HOST && d_scratch)
        rc = gpulz_fail(GPULZ_ERR_PARAM, "device scratch given for host buffers");
    if (rc != GPULZ_OK || B->count == 0)
        goto done;
    size_t a = 0, b = 0;
    int b_out = 0, o = outs_overlap(B, memory, &a, &b, &b_out);
    if (o < 0)
        rc = gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the spans of %zu chunks", B->count);
    else if (o)
        rc = gpulz_fail(GPULZ_ERR_PARAM, "chunk %zu's dst overlaps chunk %zu's %s: each chunk needs a dst of its own",
                        a, b, b_out ? "dst" : "src");
    if (rc != GPULZ_OK)
        goto done;
    if (memory == GPULZ_MEMORY_DEVICE) {
        device_batch(B, d_scratch, scratch_size);
    } else if (host_on_gpu(B)) {
        rc = gpulz_batch_gpu_host(B);
        /* auto never fails for want of a GPU: the CPU does it all again */
        if (rc != GPULZ_OK && B->p.backend == GPULZ_BACKEND_AUTO) {
            B->first_failed = B->count;
            rc = cpu_batch(B);
        }
    } else {
        rc = cpu_batch(B);
    }
done:
    if (rc != GPULZ_OK) {
        /* the whole call failed: no chunk's output counts */
        for (i = 0; i < B->count; i++)
            B->statuses[i] = rc;
    } else if (B->first_failed < B->count) {
        rc = gpulz_fail(B->statuses[B->first_failed], "chunk %zu of %zu: %s", B->first_failed, B->count,
                        B->detail);
    }
    free(own);
    return rc;
}

int gpulz_compress_batch(size_t count, const void *const src[], const size_t src_len[], void *const dst[],
                         const size_t dst_cap[], size_t dst_len[], int statuses[], const gpulz_params *p,
                         gpulz_memory memory, void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    int rc = gpulz_params_check(p);
    if (rc != GPULZ_OK) {
        for (size_t i = 0; statuses && i < count; i++)
            statuses[i] = rc;
        return rc;
    }
    gpulz_batch B = {1, count, src, src_len, dst, dst_cap, dst_len, statuses, *p, cuda_stream,
                     PTHREAD_MUTEX_INITIALIZER, count, {0}};
    rc = batch_run(&B, memory, d_scratch, scratch_size);
    pthread_mutex_destroy(&B.lock);
    return rc;
}

int gpulz_decompress_batch(size_t count, const void *const src[], const size_t src_len[], void *const dst[],
                           const size_t dst_cap[], size_t dst_len[], int statuses[], const gpulz_params *p,
                           gpulz_memory memory, void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    gpulz_params q;
    gpulz_params_init(&q);
    if (p) {
        q.threads = p->threads;
        q.backend = p->backend;
    }
    int rc = gpulz_params_check(&q);
    if (rc != GPULZ_OK) {
        for (size_t i = 0; statuses && i < count; i++)
            statuses[i] = rc;
        return rc;
    }
    gpulz_batch B = {0, count, src, src_len, dst, dst_cap, dst_len, statuses, q, cuda_stream,
                     PTHREAD_MUTEX_INITIALIZER, count, {0}};
    rc = batch_run(&B, memory, d_scratch, scratch_size);
    pthread_mutex_destroy(&B.lock);
    return rc;
}

size_t gpulz_compress_batch_bound(size_t count, const size_t src_len[], const gpulz_params *p,
                                  size_t dst_cap[])
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        size_t b = gpulz_compress_bound(src_len[i], p);
        if (b == 0 || total > SIZE_MAX - b)
            return 0;
        if (dst_cap)
            dst_cap[i] = b;
        total += b;
    }
    return total;
}

/* The status area and the lanes of gpu_batch_device.c, sized by the largest
 * per-chunk scratch; 0 without CUDA, where every per-chunk size is 0. */
size_t gpulz_compress_batch_scratch_size(size_t count, const size_t src_len[], const gpulz_params *p)
{
    size_t most = 0;
    for (size_t i = 0; i < count; i++) {
        size_t s = gpulz_compress_device_scratch_size(src_len[i], p);
        most = s > most ? s : most;
    }
    /* format 2 chunks run one at a time: one chunk's scratch is all they use */
    if (!most || p->mode != GPULZ_MODE_LZ)
        return most;
    return gpulz_batch_scratch(count, most);
}

size_t gpulz_decompress_batch_scratch_size(size_t count, const size_t src_len[])
{
    size_t most = 0;
    for (size_t i = 0; i < count; i++) {
        size_t s = gpulz_decompress_device_scratch_size(src_len[i]);
        most = s > most ? s : most;
    }
    return gpulz_batch_scratch(count, most);
}

size_t gpulz_batch_chunks(size_t chunk_bytes)
{
    const size_t n = chunk_bytes ? GPULZ_BATCH_BYTES / chunk_bytes : GPULZ_BATCH_CHUNKS;
    return n < 1 ? 1 : n > GPULZ_BATCH_CHUNKS ? GPULZ_BATCH_CHUNKS : n;
}
