/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_batch.h - what the batched API (batch.c) shares with its GPU
 * pipeline for host buffers (gpu_batch.c with CUDA, gpu_none.c without).
 * Internal.
 */
#ifndef GPULZ_BATCH_H
#define GPULZ_BATCH_H

#include <pthread.h>
#include <stdint.h>

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One batch call: the caller's arrays as given, statuses never NULL. */
typedef struct gpulz_batch {
    int compress; /* 1: compress, 0: decompress */
    size_t count;
    const void *const *src;
    const size_t *src_len;
    void *const *dst;
    const size_t *dst_cap;
    size_t *dst_len;
    int *statuses;
    gpulz_params p; /* the caller's, or the defaults for decompression without */
    void *cuda_stream;
    /* the lowest-numbered failure and its detail, for the call's own error */
    pthread_mutex_t lock;
    size_t first_failed; /* count while none */
    char detail[256];
} gpulz_batch;

/* Record chunk i's status; a failure's detail is taken from the calling
 * thread's gpulz_last_error() when i is the lowest-numbered one so far. */
void gpulz_batch_done(gpulz_batch *B, size_t i, int rc);

/*
 * Every chunk of B, in host memory, through the GPU with pinned staging:
 * GPULZ_OK once each chunk has its status (which may be a failure), or the
 * status of a failure to set the pipeline up or run it, after which the
 * chunks' statuses and outputs mean nothing.  Where GPULZ_DEVICE lists
 * several devices the chunks are cut into one run per device
 * (gpulz_batch_split() by gpulz_batch_weight()), each run through a
 * pipeline of its own on a thread of its own.
 */
int gpulz_batch_gpu_host(gpulz_batch *B);

/*
 * The batch gpulz_batch_chunks() advises: enough chunks to keep every core,
 * or one GPU's lanes, busy, while a caller's two batches (one coded while
 * the other is stored or read) stay a fraction of any machine's memory.
 * Larger batches for several GPUs in one process were measured no faster
 * (bench/RESULTS.md, 2026-11-28, four GPUs), nor were 512 MiB batches of
 * 16 MiB chunks on one: 3-11 % faster from host buffers over 4 GiB, but
 * over 1 GiB (two batches) no faster from host and 15-20 % slower from
 * device buffers (2026-11-30).
 */
#define GPULZ_BATCH_BYTES ((size_t)256 << 20)
#define GPULZ_BATCH_CHUNKS 1024

/*
 * What chunk i's output may take (its staging, its room on the device):
 * compression never needs more than the bound, decompression more than the
 * size the chunk declares (a larger dst_cap changes nothing but the slots,
 * pinned three to a lane: a caller's generous caps, say the rest of one
 * buffer for each chunk, asked for more pinned memory than the host had).
 * A header that does not parse gets GPULZ_BATCH_ROOM_UNREAD bytes: its
 * decoding fails the same way, whatever room it is given.  At most
 * dst_cap[i] always.
 */
#define GPULZ_BATCH_ROOM_UNREAD 256
size_t gpulz_batch_room(const gpulz_batch *B, size_t i);

/* What chunk i's work is reckoned by: its input when compressing, its room
 * when decompressing (the size it declares, not the caller's cap, so that
 * generous caps do not make small chunks look large).  room is
 * gpulz_batch_room(B, i), which callers reckon once (it parses a decoded
 * chunk's header) for the weight and the staging alike. */
size_t gpulz_batch_weight(const gpulz_batch *B, size_t i, size_t room);

/*
 * Cut chunks 0..count-1, of weights w, into parts runs of consecutive
 * chunks, as even in weight as whole chunks allow: run k is chunks cut[k]
 * to cut[k+1]-1, cut[0] = 0 and cut[parts] = count (cut holds parts + 1).
 * Each cut is the chunk border nearest to k/parts of the total weight (the
 * earlier one on a tie), so equal chunks split by count and a run may be
 * empty where one chunk outweighs the rest.  Weights of 0 everywhere count
 * the chunks instead.  The same weights always give the same cuts.
 */
void gpulz_batch_split(size_t count, const size_t w[], unsigned parts, size_t cut[]);

/*
 * Device chunks queued on the device without a wait per chunk
 * (gpu_batch_device.c): the caller sets every status to
 * GPULZ_BATCH_PENDING; chunks this leaves pending run through the device
 * API one at a time afterwards.  GPULZ_OK when every chunk not pending has
 * its status, else the failure of the queue itself, after which nothing of
 * it runs any more and every chunk is to be run again.  A build without
 * CUDA leaves every chunk pending.
 */
#define GPULZ_BATCH_PENDING 1
int gpulz_batch_gpu_device(gpulz_batch *B, void *d_scratch, size_t scratch_size);

/*
 * Then, for a call without a scratch of the caller's, the device chunks
 * still pending (format 2's), those whose buffers are on the device of the
 * first of them, on that device's lanes (gpu_context.h), each through the
 * device API on a stream of its lane, after what the caller queued before
 * the call.  Chunks it leaves pending run as above.  GPULZ_OK, or the
 * failure to set the lanes up, after which the chunks it did not reach are
 * still pending.  A build without CUDA leaves every chunk pending.
 */
int gpulz_batch_gpu_lanes(gpulz_batch *B);

/*
 * The device scratch of a batch: a status area of GPULZ_BATCH_STATUS_BYTES
 * per chunk, then one part per lane, each the largest per-chunk scratch.
 * Up to GPULZ_BATCH_LANES lanes (streams) so that one chunk's tail overlaps
 * the next chunk's blocks, fewer where the parts would pass
 * GPULZ_BATCH_LANE_BYTES together (one at least).
 */
#define GPULZ_BATCH_STATUS_BYTES 16
#define GPULZ_BATCH_LANES 4
#define GPULZ_BATCH_LANE_BYTES ((size_t)256 << 20)

static inline size_t gpulz_batch_align(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static inline unsigned gpulz_batch_lanes(size_t count, size_t need)
{
    unsigned lanes = GPULZ_BATCH_LANES;
    while (lanes > 1 && (lanes > count || lanes * gpulz_batch_align(need) > GPULZ_BATCH_LANE_BYTES))
        lanes--;
    return lanes;
}

/* 0 where need is 0 (no CUDA) or the sum overflows. */
static inline size_t gpulz_batch_scratch(size_t count, size_t need)
{
    if (!need || count > SIZE_MAX / 2 / GPULZ_BATCH_STATUS_BYTES || need > SIZE_MAX / 8)
        return 0;
    return gpulz_batch_align(count * GPULZ_BATCH_STATUS_BYTES) +
           gpulz_batch_lanes(count, need) * gpulz_batch_align(need);
}

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_BATCH_H */
