/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_staging.c - pageable host buffers to and from the device through the
 * context's pinned buffer, in pieces copied by a few threads of the
 * library's pool (gpulz_parallel.h): one core copies pageable memory at
 * about the speed of a pageable transfer, so it takes several to approach
 * the pinned one.  Compression's encoders start on each piece as soon as it
 * is on the device.  Plain C against the CUDA runtime.
 */
#include <string.h>

#include "gpu_context.h"
#include "gpulz_parallel.h"

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
    size_t copiers; /* threads taking pieces, at most */
    int into_device;
    cudaStream_t st; /* of the transfers in */
    const gpu_enc_feed *feed; /* or NULL */
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
    /* the last round of pieces has no later copies to overlap */
    const unsigned seg = gpu_enc_segment(c, i + J->copiers >= J->pieces);
    if (k0 >= k1)
        return rc;
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

/* A copier of the pool runs on the context's device, as the caller does;
 * one that cannot leaves the pieces to the others. */
static int copier_init(void *ctx, unsigned worker)
{
    gpulz_copy_job *J = ctx;
    int rc = GPULZ_OK;
    if (worker > 0)
        GPULZ_CK(cudaSetDevice(J->c->device));
done:
    return rc;
}

static int copy_one(void *ctx, unsigned worker, uint64_t i)
{
    (void)worker;
    return copy_piece(ctx, (size_t)i);
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
    gpulz_copy_job J = {c, c->h_pinned + pin_off, host, dev, n, (n + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE,
                        1, into_device, st, feed};
    if (J.pieces > 1) {
        J.copiers = J.pieces < GPULZ_COPY_THREADS ? J.pieces : GPULZ_COPY_THREADS;
        if (J.copiers > gpulz_online_cores())
            J.copiers = gpulz_online_cores();
    }
    /* one piece at a time, in order: each piece's transfer goes on one
     * stream as soon as it is staged, and its encoder right after it */
    return gpulz_parallel_for(J.pieces, (unsigned)J.copiers, 1, copier_init, copy_one, &J);
}
