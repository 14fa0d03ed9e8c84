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

#include "gpulz_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- launch policy: each number with the reason behind it ---------------- */

#define GPULZ_MAX_DEVICES 64
#define GPULZ_COPY_PIECE ((size_t)1 << 20) /* host copies and transfers go in pieces this big */
#define GPULZ_COPY_THREADS 8               /* copiers of pageable memory, the caller included */
/* Encoders of input pieces run side by side, one stream each in turn; more
 * streams than the device's 8 hardware queues measured faster than 6 on an
 * H100. */
#define GPULZ_WORK_STREAMS 14
/* Symbols per warp at most for the last round of pieces, whose encoders have
 * no later copies to overlap: more warps per block finish each block sooner. */
#define GPULZ_ENC_TAIL_SEGMENT 512
#define GPULZ_MAX_GRID ((uint64_t)1 << 30)
#define GPULZ_STATUS_BYTES 64 /* pinned: error word, chunk length, a header */

/* One call of a CUDA function that may fail; needs rc and a done label. */
#define GPULZ_CK(call)                                                                             \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            rc = gpulz_fail(GPULZ_ERR_CUDA, "%s: %s", #call, cudaGetErrorString(e_));              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* ---- the per-device context (gpu_context.c) -------------------------------- */

struct gpulz_copy_job;

typedef struct gpu_ctx {
    int device;
    int ready;
    pthread_mutex_t lock; /* one call at a time per device */
    cudaStream_t stream;
    cudaStream_t copy_stream, work[GPULZ_WORK_STREAMS]; /* host path: transfers in, encoders */
    cudaEvent_t work_done[GPULZ_WORK_STREAMS];
    size_t smem_optin; /* largest dynamic shared memory a block may opt in to */
    uint8_t *d_in, *d_out, *d_scratch;
    size_t in_cap, out_cap, scratch_cap;
    uint8_t *h_pinned; /* staging for pageable host buffers */
    size_t pinned_cap;
    uint64_t *h_status; /* pinned, GPULZ_STATUS_BYTES */
    cudaEvent_t *events; /* one per transfer piece */
    size_t event_count;
    /* host copy threads, started on first need and kept */
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_go, pool_done;
    struct gpulz_copy_job *pool_job;
    unsigned long pool_gen;
    unsigned pool_threads, pool_finished;
    int pool_tried;
} gpu_ctx;

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
 * The context of device want (-1: GPULZ_DEVICE, else the caller's current
 * device), locked, with that device current; *prev receives the caller's
 * device, which gpu_ctx_release() restores.
 */
int gpu_ctx_acquire(gpu_ctx **out, int *prev, int want);
void gpu_ctx_release(gpu_ctx *c, int prev);

/* Grow a cached buffer of the context to at least need bytes. */
int gpu_grow_device(uint8_t **buf, size_t *cap, size_t need);
int gpu_grow_pinned(gpu_ctx *c, size_t need);
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

/* Symbols per warp in the encoder's match search (GPULZ_ENC_SEGMENT, a power
 * of two 256..16384, overrides it for tuning; it never changes the output). */
unsigned gpu_enc_segment(void);

/* Encode blocks [k0, k1) of the input on the device, seg symbols per warp. */
int gpu_enc_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *scratch,
                   const gpu_scratch_plan *P, uint64_t k0, uint64_t k1, unsigned seg, cudaStream_t st);

/*
 * After every block is encoded: scan the sizes, move the blocks into d_dst,
 * write header and tail, read back the error word and the length (*dst_len
 * is the chunk's length even when GPULZ_ERR_DST_SIZE says it did not fit).
 */
int gpu_enc_finish(const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst, size_t dst_cap,
                   uint8_t *scratch, const gpu_scratch_plan *P, uint64_t *h_status, cudaStream_t st,
                   size_t *dst_len);

/* Decoding the chunk d_src (n bytes) of layout L into d_dst: check the table
 * and scan it into offsets, copy the tail; then decode blocks [k0, k1); then
 * read the error word back (GPULZ_ERR_CORRUPT for a damaged block or table). */
int gpu_dec_prepare(const gpulz_layout *L, const uint8_t *d_src, size_t n, uint8_t *d_dst,
                    uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st);
int gpu_dec_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, size_t n,
                   uint8_t *d_dst, uint8_t *scratch, const gpu_scratch_plan *P, uint64_t k0,
                   uint64_t k1, cudaStream_t st);
int gpu_dec_result(uint64_t *h_status, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st);

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
