/*
 * gpu_staging.c - pageable host buffers to and from the device through the
 * context's pinned buffer, in pieces copied by a few threads: one core copies
 * pageable memory at about the speed of a pageable transfer, so it takes
 * several to approach the pinned one.  Compression's encoders start on each
 * piece as soon as it is on the device.  Plain C against the CUDA runtime.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_context.h"

/* No block straddles two pieces. */
_Static_assert(GPULZ_COPY_PIECE % ((size_t)8 << GPULZ_LOG2_BLOCK_MAX) == 0,
              "a copy piece must be a multiple of every block size");

/*
 * Pageable memory moves through the pinned buffer in pieces, copied by a few
 * threads: one core copies pageable memory at about the speed of a pageable
 * transfer, so it takes several to approach the pinned one.  into_device:
 * host -> pinned, then each piece's transfer is queued at once; otherwise
 * each piece waits for its transfer's event, then pinned -> host.
 */
typedef struct gpulz_copy_job {
    gpu_ctx *c;
    uint8_t *pin; /* the pinned buffer at the same offset as host and dev */
    uint8_t *host;
    uint8_t *dev; /* with a feed: the start of the device input */
    size_t n;
    size_t pieces;
    size_t copiers; /* threads taking pieces */
    int into_device;
    cudaStream_t st; /* of the transfers in */
    const gpu_enc_feed *feed; /* or NULL */
    pthread_mutex_t lock;
    size_t next;
    int rc;
    char detail[256];
} gpulz_copy_job;

/*
 * Encode the blocks of input piece i, [off, off + len), after its transfer,
 * on the next work stream: a piece's encoder alone fills a fraction of the
 * GPU, the pieces after it the rest.
 */
static int enc_piece(gpulz_copy_job *J, size_t i, size_t off, size_t len)
{
    int rc = GPULZ_OK;
    gpu_ctx *c = J->c;
    const gpulz_layout *L = J->feed->L;
    const size_t block_bytes = (size_t)L->block_symbols * L->symbol_size;
    const uint64_t k0 = off / block_bytes, k1 = off + len == J->n ? L->blocks : (off + len) / block_bytes;
    cudaStream_t w = c->work[i % c->pol.work_streams];
    unsigned seg = gpu_enc_segment(c);
    if (k0 >= k1)
        return rc;
    if (i + J->copiers >= J->pieces && seg > c->pol.enc_tail_segment)
        seg = c->pol.enc_tail_segment;
    GPULZ_CK(cudaEventRecord(c->events[i], J->st));
    GPULZ_CK(cudaStreamWaitEvent(w, c->events[i], 0));
    rc = gpu_enc_launch(c, L, J->dev, c->d_scratch, J->feed->P, k0, k1, seg, w);
done:
    return rc;
}

static int copy_piece(gpulz_copy_job *J, size_t i)
{
    int rc = GPULZ_OK;
    gpu_ctx *c = J->c;
    size_t off = i * GPULZ_COPY_PIECE, len = J->n - off < GPULZ_COPY_PIECE ? J->n - off : GPULZ_COPY_PIECE;
    if (J->into_device) {
        memcpy(J->pin + off, J->host + off, len);
        GPULZ_CK(cudaMemcpyAsync(J->dev + off, J->pin + off, len, cudaMemcpyHostToDevice, J->st));
        if (J->feed)
            rc = enc_piece(J, i, off, len);
    } else {
        GPULZ_CK(cudaEventSynchronize(c->events[i]));
        memcpy(J->host + off, J->pin + off, len);
    }
done:
    return rc;
}

/* Take pieces until none is left (or one failed). */
static void copy_run(gpulz_copy_job *J)
{
    for (;;) {
        pthread_mutex_lock(&J->lock);
        size_t i = J->rc == GPULZ_OK ? J->next++ : J->pieces;
        pthread_mutex_unlock(&J->lock);
        if (i >= J->pieces)
            break;
        int rc = copy_piece(J, i);
        if (rc != GPULZ_OK) {
            pthread_mutex_lock(&J->lock);
            if (J->rc == GPULZ_OK) {
                J->rc = rc;
                strncpy(J->detail, gpulz_last_error(), sizeof J->detail - 1);
            }
            pthread_mutex_unlock(&J->lock);
        }
    }
}

/*
 * A copy thread of the context: each generation of pool_gen it helps with
 * pool_job, then reports in pool_finished.  Threads live as long as the
 * process; starting them per call would cost more than a small copy.
 */
static void *pool_worker(void *arg)
{
    gpu_ctx *c = arg;
    unsigned long seen = 0;
    int usable = cudaSetDevice(c->device) == cudaSuccess;
    pthread_mutex_lock(&c->pool_lock);
    for (;;) {
        while (c->pool_gen == seen)
            pthread_cond_wait(&c->pool_go, &c->pool_lock);
        seen = c->pool_gen;
        gpulz_copy_job *J = c->pool_job;
        pthread_mutex_unlock(&c->pool_lock);
        if (usable) /* else the other copiers do the pieces */
            copy_run(J);
        pthread_mutex_lock(&c->pool_lock);
        if (++c->pool_finished == c->pool_threads)
            pthread_cond_signal(&c->pool_done);
    }
    return NULL;
}

static void pool_start(gpu_ctx *c)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned want = GPULZ_COPY_THREADS - 1;
    c->pool_tried = 1;
    if (cores > 0 && (long)want > cores - 1)
        want = cores > 1 ? (unsigned)(cores - 1) : 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_mutex_lock(&c->pool_lock);
    for (unsigned t = 0; t < want; t++) {
        pthread_t tid;
        if (pthread_create(&tid, &attr, pool_worker, c) != 0)
            break;
        c->pool_threads++;
    }
    pthread_mutex_unlock(&c->pool_lock);
    pthread_attr_destroy(&attr);
}

/*
 * Queue the transfer of dev[off, off + n) into the pinned buffer, a piece at
 * a time, each with its event (pieces are numbered from the buffer's start).
 */
int gpu_d2h_enqueue(gpu_ctx *c, const uint8_t *dev, size_t off, size_t n)
{
    int rc = GPULZ_OK;
    size_t end = off + n;
    if ((rc = gpu_grow_events(c, (end + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE)) != GPULZ_OK)
        return rc;
    for (; off < end; off += GPULZ_COPY_PIECE) {
        size_t len = end - off < GPULZ_COPY_PIECE ? end - off : GPULZ_COPY_PIECE;
        GPULZ_CK(cudaMemcpyAsync(c->h_pinned + off, dev + off, len, cudaMemcpyDeviceToHost, c->stream));
        GPULZ_CK(cudaEventRecord(c->events[off / GPULZ_COPY_PIECE], c->stream));
    }
done:
    return rc;
}

/*
 * into_device: host[0, n) -> pinned -> dev, each piece's transfer queued as
 * soon as it is staged, and with a feed its encoder after it (the events
 * must number the pieces).  Otherwise pinned -> host[0, n) for transfers that
 * gpu_d2h_enqueue() queued, each piece as soon as its event fires.  The pinned
 * buffer is used from pin_off, where it mirrors dev.  Output pieces are
 * numbered from the pinned buffer's start: out of the device only with
 * pin_off = 0.
 */
int gpu_copy_pieces(gpu_ctx *c, uint8_t *host, uint8_t *dev, size_t pin_off, size_t n, int into_device,
                       cudaStream_t st, const gpu_enc_feed *feed)
{
    int rc = GPULZ_OK;
    gpulz_copy_job J;
    memset(&J, 0, sizeof J);
    (void)rc;
    J.c = c;
    J.pin = c->h_pinned + pin_off;
    J.host = host;
    J.dev = dev;
    J.n = n;
    J.pieces = (n + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE;
    J.into_device = into_device;
    J.st = st;
    J.feed = feed;
    pthread_mutex_init(&J.lock, NULL);
    if (J.pieces > 1 && !c->pool_tried)
        pool_start(c);
    J.copiers = J.pieces > 1 ? c->pool_threads + 1 : 1;
    if (J.pieces > 1 && c->pool_threads > 0) {
        /* the calling thread is one of the copiers; J must outlive every
         * thread's look at it, hence the wait for all of them */
        pthread_mutex_lock(&c->pool_lock);
        c->pool_job = &J;
        c->pool_finished = 0;
        c->pool_gen++;
        pthread_cond_broadcast(&c->pool_go);
        pthread_mutex_unlock(&c->pool_lock);
        copy_run(&J);
        pthread_mutex_lock(&c->pool_lock);
        while (c->pool_finished < c->pool_threads)
            pthread_cond_wait(&c->pool_done, &c->pool_lock);
        pthread_mutex_unlock(&c->pool_lock);
    } else {
        copy_run(&J);
    }
    if (J.rc != GPULZ_OK)
        rc = gpulz_fail(J.rc, "%s", J.detail);
    pthread_mutex_destroy(&J.lock);
    return rc;
}

