/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_context.h - what the files of the GPU backend share: the per-device
 * context (gpu_context.c), the staging of pageable host buffers
 * (gpu_staging.c), the kernel launches (gpu_launch.cu, the one nvcc unit)
 * and the launch policy.  Plain C against the CUDA runtime's C API, so that
 * only the kernels need nvcc.  Internal.
 */
#ifndef GPULZ_GPU_CONTEXT_H
#define GPULZ_GPU_CONTEXT_H

#include <cuda_runtime_api.h>
#include <pthread.h>

#include "gpulz_env.h"
#include "gpulz_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- fixed sizes ------------------------------------------------------------ */

#define GPULZ_MAX_DEVICES 64
#define GPULZ_COPY_PIECE ((size_t)1 << 20) /* host copies and transfers go in pieces this big */
#define GPULZ_COPY_THREADS 8               /* copiers of pageable memory, the caller included */
#define GPULZ_WORK_STREAMS_MAX 32          /* work streams a context creates at most */
#define GPULZ_STATUS_BYTES 64              /* pinned: error word, chunk length, a header */

/* ---- launch policy --------------------------------------------------------- */

/*
 * How the GPU backend shapes its work on one device: filled once per context
 * from the device's properties (gpu_policy_fill), read by every launch.  The
 * numbers that are not properties are measurements on an H100 (132 SMs); the
 * comment of each says which.  None of them changes a compressed byte.
 */
typedef struct gpu_policy {
    /* Symbols per warp in the encoder's match search, a power of two: at
     * S=2 W=128 4 KiB blocks 2048 gave 37.3 GB/s against 30.1 at 512 and 23.2
     * at 256; at S=4 W=32, 106.3 against 68.9 and 92.7 (the segment sweep of
     * bench/gpu_bench, bench/results/2026-11-22-h100-ab-74c3a8b). */
    unsigned enc_segment;
    /* ... for the last round of input pieces of the host path, whose encoders
     * have no later copies to overlap: more warps per block finish each block
     * sooner (16 MiB host compression 10.2-10.9 -> 13.2-13.5 GB/s with it,
     * bench/RESULTS.md "each 1 MiB piece encoded as it arrives"), and for
     * format 2's tokens on a grid of at most two blocks an SM (1 MB ratio
     * 0.44-0.51 -> 0.37 ms, "format 2 on the GPU with fewer launches"). */
    unsigned enc_tail_segment;
    /* Encoders of input pieces running side by side, one stream each in turn:
     * more streams than the device's hardware queues (8 on an H100) measured
     * faster than 6 (same section). */
    unsigned work_streams;
    /* Host decompression decodes and copies back this many bytes at a time,
     * so the copy back of one piece overlaps the decoding of the next. */
    size_t dec_piece;
    /* Blocks in one launch: the device's grid limit in x, at most 2^30 so
     * that grid arithmetic stays in 32 bits. */
    uint64_t max_grid;
    /* The largest dynamic shared memory a block may opt in to: it bounds the
     * block sizes the kernels accept. */
    size_t smem_optin;
    /* Its multiprocessors: kernels that keep counts per block fill the
     * device once with blocks and no more. */
    unsigned sms;
} gpu_policy;

/* The policy of device dev from its attributes. */
int gpu_policy_fill(gpu_policy *pol, int dev);

/*
 * One call of a CUDA function that may fail; needs rc and a done label.
 * A failure that is not sticky (an allocation beyond the device's memory)
 * stays the thread's last CUDA error until read: it is cleared here, or
 * the next launch check of this thread, in any later call, would take it
 * for its own and fail a chunk that has nothing wrong.
 */
#define GPULZ_CK(call)                                                                             \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            (void)cudaGetLastError();                                                              \
            rc = gpulz_fail(GPULZ_ERR_CUDA, "%s: %s", #call, cudaGetErrorString(e_));              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* ---- the per-device context (gpu_context.c) -------------------------------- */

typedef struct gpu_ctx {
    int device;
    int ready;
    pthread_mutex_t lock; /* one call at a time per device */
    cudaStream_t stream;
    cudaStream_t copy_stream, work[GPULZ_WORK_STREAMS_MAX]; /* host path: transfers in, encoders */
    cudaEvent_t work_done[GPULZ_WORK_STREAMS_MAX];
    cudaEvent_t copied; /* host compression: every transfer in on copy_stream queued */
    /* format 2: the checksum on side, beside the histograms and the models
     * (side_sum: its sum is on the host), and auto's ratio tokens beside
     * fast's coding on the call's stream (gpu_v2.c); side_fork orders them
     * after the input; coded: format 2's first coding pass and its sums
     * are on the host (gpu_v2_code_streams: the sums come back on
     * copy_stream after coder_end, while the placement runs on) */
    cudaStream_t side;
    cudaEvent_t side_fork, side_done, side_sum, coded, coder_end;
    gpu_policy pol;
    uint8_t *d_in, *d_out, *d_scratch;
    size_t in_cap, out_cap, scratch_cap;
    uint8_t *d_tokens; /* format 2 decoding: the token streams of LZSS */
    size_t tokens_cap;
    uint8_t *d_alt; /* a second output: format 2's candidates go to d_out and here in turn */
    size_t alt_cap;
    uint8_t *h_pinned; /* staging for pageable host buffers */
    size_t pinned_cap;
    uint64_t *h_status; /* pinned, GPULZ_STATUS_BYTES */
    uint32_t *d_status; /* h_status as kernels write it (mapped), or NULL where it is not */
    /* pinned: format 2's histograms on their way to the host, and its
     * encoding tables on their way to the device (gpu_v2.c) */
    uint8_t *h_hists, *h_tables;
    size_t hists_cap, tables_cap;
    /* format 2's S = 2 histograms (gpu_v2_hists_fetch), and the
     * summaries of the wide ones */
    uint64_t *h_whole;
    struct gpu_v2_summary *h_summary;
    /* format 2's coding models (gpu_v2_code_streams), allocated at first
     * use: at 80 KB each, a chunk's would take 880 KB of its caller's stack */
    struct gpulz_model *h_models;
    /* pinned: format 2 decoding's tables and segment directories, built
     * there and sent from there in one copy (gpu_v2_reader) */
    uint8_t *h_dirs;
    size_t dirs_cap;
    /* pinned: the first GPU_V2_HEAD_BYTES of a chunk the device API decodes
     * (gpu_api.c), read with its header */
    uint8_t *h_head;
    size_t head_cap;
    cudaEvent_t *events; /* one per transfer piece */
    size_t event_count;
    /* the staging slots of host batches (gpu_batch.c), kept between calls
     * up to GPULZ_BATCH_STAGING_KEEP: pinning and freeing them every call
     * costs a good part of a batch, and the devices of a multi-GPU batch
     * would pin at once.  One batch at a time has them (batch_lock, taken
     * without waiting); another allocates its own. */
    pthread_mutex_t batch_lock;
    uint8_t *batch_h, *batch_d;
    size_t batch_h_cap, batch_d_cap; /* the host's holds a download ring too */
} gpu_ctx;

/* The most staging a device keeps for host batches between calls. */
#define GPULZ_BATCH_STAGING_KEEP ((size_t)256 << 20)

/* GPULZ_ERR_NO_GPU in a child forked after CUDA started, before any CUDA call. */
int gpu_not_forked(void);

/* Note that CUDA has been started in this process (the fork guard needs it). */
void gpu_touch(void);

/*
 * The device of the device API's buffers: the one that holds them (pinned
 * and managed memory count for none; alone they mean the current device).
 * Pageable host memory, or buffers of two devices, are GPULZ_ERR_PARAM.
 */
int gpu_buffers_device(const void *const *bufs, const char *const *names, int count, int *dev);

/*
 * The devices of the host API: GPULZ_DEVICE's list (gpulz_env.h), else the
 * caller's current device alone.  Single-chunk calls run on the first;
 * batches of host chunks spread over all of them (gpu_batch.c).
 * GPULZ_ERR_NO_GPU where there is no device or GPULZ_DEVICE names none.
 */
int gpu_host_devices(gpulz_devices *out);

/*
 * The context of device want (-1: the first of gpu_host_devices()), locked,
 * with that device current; *prev receives the caller's device, which
 * gpu_ctx_release() restores.
 */
int gpu_ctx_acquire(gpu_ctx **out, int *prev, int want);

/*
 * A device has GPU_LANES_MAX contexts, its lanes.  Every single-chunk call
 * takes lane 0, one call at a time; a batch runs chunks side by side, each
 * lane on a thread of its own with its own streams and buffers, so one
 * chunk's host work (format 2 builds its models between kernels) and
 * waits overlap the others' kernels and copies.  A lane keeps its buffers
 * as lane 0 does, until the process ends.  gpu_ctx_acquire() is lane 0.
 */
#define GPU_LANES_MAX GPULZ_GPU_LANES_MAX
int gpu_ctx_acquire_lane(gpu_ctx **out, int *prev, int want, unsigned lane);

/* The lanes a device gives a batch's chunks (the largest of largest bytes):
 * GPULZ_GPU_LANES, no more than the chunks, and no more than keep
 * GPU_LANE_CHUNK_BYTES of chunks in flight: beyond that one chunk fills the
 * device, and every lane would hold buffers of several times its chunk. */
#define GPU_LANE_CHUNK_BYTES ((size_t)128 << 20)
unsigned gpu_lanes_for(size_t chunks, size_t largest);

/* gpulz_compress_device() and gpulz_decompress_device() on lane lane of the
 * buffers' device (the public calls are lane 0). */
int gpu_compress_device_lane(unsigned lane, const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                             size_t *dst_len, const gpulz_params *p, void *cuda_stream, void *d_scratch,
                             size_t scratch_size);
int gpu_decompress_device_lane(unsigned lane, const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                               size_t *dst_len, void *cuda_stream, void *d_scratch, size_t scratch_size);
void gpu_ctx_release(gpu_ctx *c, int prev);

/* After a call failed part way: wait for what it queued on st (the
 * caller's, or NULL) and on the context's streams, so that no copy or
 * kernel of it runs on in the context's buffers once the next call holds
 * them (a launch refused after others were queued left them running). */
void gpu_ctx_quiesce(gpu_ctx *c, cudaStream_t st);

/* Grow a cached buffer of the context to at least need bytes. */
int gpu_grow_device(uint8_t **buf, size_t *cap, size_t need);
int gpu_grow_pinned(gpu_ctx *c, size_t need);
/* The same for a pinned host buffer (its contents are not kept). */
int gpu_grow_host(uint8_t **buf, size_t *cap, size_t need);
int gpu_grow_events(gpu_ctx *c, size_t need);

/* GPULZ_OK when the kernels implement every stage of layout L's chunk. */
int gpu_stages_check(const gpulz_layout *L);

/* ---- the scratch area and the launches (gpu_launch.cu) --------------------- */

/* Byte offsets in the scratch area; every part 256-byte aligned. */
typedef struct gpu_scratch_plan {
    size_t slot, entry, size, temp, status, total;
    size_t temp_bytes;
} gpu_scratch_plan;

/* The scratch of nb blocks with slot_bytes of encoder slots (0 to decode). */
int gpu_plan_make(uint64_t nb, uint64_t slot_bytes, gpu_scratch_plan *P);

/* Let a kernel of context c take smem bytes of dynamic shared memory, with
 * the largest shared memory carveout (GPULZ_ERR_CUDA beyond the device's). */
int gpu_smem_optin(const gpu_ctx *c, const void *kernel, size_t smem);

/* The most shared memory a block of context c may have: the device's
 * opt-in, or less where gpu_tune_smem_most says. */
size_t gpu_smem_most(const gpu_ctx *c);

/* Symbols per warp in the encoder's match search on context c: the policy's,
 * unless a test or benchmark set another (gpu_tune.h); few: the launch
 * leaves most of the device idle (the host path's last pieces, a small
 * chunk's tokens), so more warps a block, at most enc_tail_segment each. */
unsigned gpu_enc_segment(const gpu_ctx *c, int few);

/* Whether one chunk's launch of `blocks` thread blocks of the match search
 * is few: at most GPU_ENC_FEW_PER_SM blocks an SM, so that most SMs hold a
 * block or two and each block's warps, not the SM's, set its time.  Beyond
 * that the policy's segment was the fastest at 4-256 MB (bench/RESULTS.md). */
#define GPU_ENC_FEW_PER_SM 2
int gpu_enc_few(const gpu_ctx *c, uint64_t blocks);

/* Encode blocks [k0, k1) of the input on the device, seg symbols per warp. */
int gpu_enc_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *scratch,
                   const gpu_scratch_plan *P, uint64_t k0, uint64_t k1, unsigned seg, cudaStream_t st);

/*
 * After every block is encoded: scan the sizes, move the blocks into d_dst,
 * write header and tail, read back the error word and the length (*dst_len
 * is the chunk's length even when GPULZ_ERR_DST_SIZE says it did not fit).
 */
int gpu_enc_finish(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst,
                   size_t dst_cap, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st,
                   size_t *dst_len);

/* gpu_enc_finish() in two halves, for callers that queue many chunks before
 * they wait: the work queued, the error word and the length left in the
 * scratch's status words (P->status, 16 bytes); then those two words, read
 * back, as gpu_enc_finish() reads them. */
int gpu_enc_finish_enqueue(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst,
                           size_t dst_cap, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st);
int gpu_enc_status(const uint64_t words[2], size_t dst_cap, size_t *dst_len);

/* Decoding the chunk d_src (n bytes) of layout L into d_dst: check the table
 * and scan it into offsets, copy the tail; then decode blocks [k0, k1); then
 * read the error word back (GPULZ_ERR_CORRUPT for a damaged block or table). */
int gpu_dec_prepare(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, size_t n, uint8_t *d_dst,
                    uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st);
int gpu_dec_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, size_t n,
                   uint8_t *d_dst, uint8_t *scratch, const gpu_scratch_plan *P, uint64_t k0,
                   uint64_t k1, cudaStream_t st);
int gpu_dec_result(const gpu_ctx *c, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st);
/* The decoder's error word (the low 32 bits of the first status word) as
 * gpu_dec_result() reads it, for callers that read it back themselves. */
int gpu_dec_status(uint64_t word);

/* ---- pageable host buffers through pinned memory (gpu_staging.c) ----------- */

/* Compression's input: each piece's blocks are encoded as soon as the piece
 * is on the device, so the encoders start while later pieces are copied. */
typedef struct gpu_enc_feed {
    const gpulz_layout *L;
    const gpu_scratch_plan *P;
} gpu_enc_feed;

/*
 * into_device: host[0, n) -> pinned -> dev, each piece's transfer queued as
 * soon as it is staged, and with a feed its encoder after it.  Otherwise
 * pinned -> host[0, n) for transfers that gpu_d2h_enqueue() queued, each
 * piece as soon as its event fires.  The pinned buffer is used from pin_off,
 * where it mirrors dev.
 */
int gpu_copy_pieces(gpu_ctx *c, uint8_t *host, uint8_t *dev, size_t pin_off, size_t n, int into_device,
                    cudaStream_t st, const gpu_enc_feed *feed);

/* Queue dev[off, off + n) into the pinned buffer, a piece at a time with its event. */
int gpu_d2h_enqueue(gpu_ctx *c, const uint8_t *dev, size_t off, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_GPU_CONTEXT_H */
