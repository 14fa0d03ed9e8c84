/*
 * gpu_device.cu - the GPU backend: the per-device context, the host-buffer
 * path codec.c calls (gpulz_gpu_compress_host / _decompress_host) and the
 * device-buffer API of gpulz.h.  Compiled by nvcc through libtool, linked with
 * the static CUDA runtime, so a build with CUDA still loads on machines
 * without it.  Nothing here runs at library load: the first call that wants
 * the GPU creates the context of its device.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cub/device/device_scan.cuh>

#include "gpulz_gpu.h"
#include "gpu_decode.cuh"
#include "gpu_encode.cuh"

#define GPULZ_MAX_DEVICES 64
#define GPULZ_COPY_PIECE ((size_t)1 << 20) /* host copies and transfers go in pieces this big */
#define GPULZ_COPY_THREADS 8
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
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            rc = gpulz_fail(GPULZ_ERR_CUDA, "%s: %s", #call, cudaGetErrorString(e_));              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* ---- the per-device context --------------------------------------------- */

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
    struct copy_job *pool_job;
    unsigned long pool_gen;
    unsigned pool_threads, pool_finished;
    int pool_tried;
} gpu_ctx;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ctx_table_lock = PTHREAD_MUTEX_INITIALIZER;
static gpu_ctx *ctx_table[GPULZ_MAX_DEVICES];
static volatile int forked_child; /* CUDA is unusable in a child forked after init */
static volatile int cuda_touched;
static thread_local int last_device = -1; /* the device of this thread's last GPU call */

static void mark_forked(void)
{
    if (cuda_touched)
        forked_child = 1;
}

static void init_once(void)
{
    pthread_atfork(NULL, NULL, mark_forked);
}

/* GPULZ_ERR_NO_GPU in a child forked after CUDA started, before any CUDA call. */
static int not_forked(void)
{
    pthread_once(&once, init_once);
    if (forked_child)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "CUDA cannot be used in a process forked after its initialisation");
    return GPULZ_OK;
}

/* The device this call runs on: GPULZ_DEVICE, else the caller's current one. */
static int pick_device(int *dev)
{
    int rc = GPULZ_OK, count = 0;
    const char *env = getenv("GPULZ_DEVICE");
    cuda_touched = 1;
    CK(cudaGetDeviceCount(&count));
    if (count <= 0)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "no CUDA device");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end || v < 0 || v >= count)
            return gpulz_fail(GPULZ_ERR_NO_GPU, "GPULZ_DEVICE=%s is not a device 0..%d", env, count - 1);
        *dev = (int)v;
    } else {
        CK(cudaGetDevice(dev));
    }
done:
    return rc;
}

/*
 * The device of the device API's buffers: the one that holds them.
 * GPULZ_DEVICE does not apply here: kernels run on another device than the
 * buffers' would fault, and a fault spoils the caller's CUDA context for the
 * rest of the process.  Pageable host memory is refused for the same reason;
 * pinned host and managed memory are reachable from any device and leave the
 * choice to the others, or to the caller's current device.
 */
static int buffers_device(const void *const *bufs, const char *const *names, int count, int *dev)
{
    int rc = not_forked();
    *dev = -1;
    if (rc != GPULZ_OK)
        return rc;
    cuda_touched = 1;
    for (int i = 0; i < count; i++) {
        if (!bufs[i])
            continue;
        cudaPointerAttributes a;
        cudaError_t e = cudaPointerGetAttributes(&a, bufs[i]);
        if (e != cudaSuccess) {
            (void)cudaGetLastError(); /* not sticky: clear it for the caller */
            return gpulz_fail(GPULZ_ERR_PARAM, "%s: %s", names[i], cudaGetErrorString(e));
        }
        if (a.type == cudaMemoryTypeUnregistered)
            return gpulz_fail(GPULZ_ERR_PARAM, "%s is host memory, not device memory", names[i]);
        if (a.type != cudaMemoryTypeDevice)
            continue;
        if (*dev >= 0 && a.device != *dev)
            return gpulz_fail(GPULZ_ERR_PARAM, "%s is on device %d, the other buffers on device %d",
                              names[i], a.device, *dev);
        *dev = a.device;
    }
    if (*dev < 0)
        CK(cudaGetDevice(dev));
done:
    return rc;
}

/*
 * The context of device want (-1: the one pick_device() chooses), locked,
 * with that device current; *prev receives the caller's device, which
 * ctx_release() restores.
 */
static int ctx_acquire(gpu_ctx **out, int *prev, int want)
{
    int rc = not_forked(), dev = want;
    gpu_ctx *c = NULL;
    if (rc != GPULZ_OK)
        return rc;
    cuda_touched = 1;
    if (want < 0 && (rc = pick_device(&dev)) != GPULZ_OK)
        return rc;
    if (dev >= GPULZ_MAX_DEVICES)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "device %d is beyond the %d this library handles", dev,
                          GPULZ_MAX_DEVICES);
    last_device = dev;
    cudaError_t e = cudaGetDevice(prev);
    if (e != cudaSuccess)
        return gpulz_fail(GPULZ_ERR_CUDA, "cudaGetDevice: %s", cudaGetErrorString(e));
    pthread_mutex_lock(&ctx_table_lock);
    if (!ctx_table[dev]) {
        c = (gpu_ctx *)calloc(1, sizeof *c);
        if (c) {
            c->device = dev;
            pthread_mutex_init(&c->lock, NULL);
            pthread_mutex_init(&c->pool_lock, NULL);
            pthread_cond_init(&c->pool_go, NULL);
            pthread_cond_init(&c->pool_done, NULL);
            ctx_table[dev] = c;
        }
    }
    c = ctx_table[dev];
    pthread_mutex_unlock(&ctx_table_lock);
    if (!c)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the GPU context");
    pthread_mutex_lock(&c->lock);
    if (dev != *prev)
        CK(cudaSetDevice(dev));
    if (!c->ready) {
        int optin = 0;
        CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        c->smem_optin = (size_t)optin;
        CK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&c->copy_stream, cudaStreamNonBlocking));
        for (int w = 0; w < GPULZ_WORK_STREAMS; w++) {
            CK(cudaStreamCreateWithFlags(&c->work[w], cudaStreamNonBlocking));
            CK(cudaEventCreateWithFlags(&c->work_done[w], cudaEventDisableTiming));
        }
        CK(cudaHostAlloc((void **)&c->h_status, GPULZ_STATUS_BYTES, cudaHostAllocDefault));
        c->ready = 1;
    }
    *out = c;
    return GPULZ_OK;
done:
    if (dev != *prev)
        cudaSetDevice(*prev);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static void ctx_release(gpu_ctx *c, int prev)
{
    if (prev != c->device)
        cudaSetDevice(prev);
    pthread_mutex_unlock(&c->lock);
}

/* Grow a cached device buffer to at least need bytes. */
static int grow_device(uint8_t **buf, size_t *cap, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= *cap)
        return rc;
    if (*buf)
        CK(cudaFree(*buf));
    *buf = NULL;
    *cap = 0;
    need += need / 8; /* room for the next, slightly larger chunk */
    CK(cudaMalloc((void **)buf, need));
    *cap = need;
done:
    return rc;
}

static int grow_pinned(gpu_ctx *c, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= c->pinned_cap)
        return rc;
    if (c->h_pinned)
        CK(cudaFreeHost(c->h_pinned));
    c->h_pinned = NULL;
    c->pinned_cap = 0;
    need += need / 8;
    CK(cudaHostAlloc((void **)&c->h_pinned, need, cudaHostAllocDefault));
    c->pinned_cap = need;
done:
    return rc;
}

static int grow_events(gpu_ctx *c, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= c->event_count)
        return rc;
    cudaEvent_t *ev = (cudaEvent_t *)realloc(c->events, need * sizeof *ev);
    if (!ev)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate %zu events", need);
    c->events = ev;
    while (c->event_count < need) {
        CK(cudaEventCreateWithFlags(&c->events[c->event_count], cudaEventDisableTiming));
        c->event_count++;
    }
done:
    return rc;
}

/* ---- the scratch area ----------------------------------------------------- */

/* Byte offsets in the scratch area; every part 256-byte aligned. */
typedef struct scratch_plan {
    size_t slot, entry, size, temp, status, total;
    size_t temp_bytes;
} scratch_plan;

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static int plan_make(uint64_t nb, uint64_t slot_bytes, scratch_plan *P)
{
    int rc = GPULZ_OK;
    size_t temp = 0;
    memset(P, 0, sizeof *P);
    cuda_touched = 1; /* the size query may start the CUDA runtime */
    CK(cub::DeviceScan::ExclusiveSum(NULL, temp, (uint64_t *)NULL, (uint64_t)(nb + 1)));
    P->temp_bytes = temp;
    P->slot = 0;
    P->entry = align256(P->slot + slot_bytes);
    P->size = align256(P->entry + 4 * nb);
    P->temp = align256(P->size + 8 * (nb + 1));
    P->status = align256(P->temp + temp);
    P->total = align256(P->status + 2 * sizeof(uint64_t));
done:
    return rc;
}

/* ---- compression on the device ------------------------------------------ */

typedef void (*enc_kernel_t)(gpulz_enc_args);

template <typename Sym>
static enc_kernel_t enc_kernel_g(unsigned G)
{
    switch (G) {
    case 1: return gpulz_encode_kernel<Sym, 1>;
    case 2: return gpulz_encode_kernel<Sym, 2>;
    case 3: return gpulz_encode_kernel<Sym, 3>;
    case 4: return gpulz_encode_kernel<Sym, 4>;
    case 5: return gpulz_encode_kernel<Sym, 5>;
    case 6: return gpulz_encode_kernel<Sym, 6>;
    case 7: return gpulz_encode_kernel<Sym, 7>;
    default: return gpulz_encode_kernel<Sym, 8>;
    }
}

static enc_kernel_t enc_kernel(unsigned S, unsigned W)
{
    unsigned G = (W + 31) / 32;
    switch (S) {
    case 1: return enc_kernel_g<uint8_t>(G);
    case 2: return enc_kernel_g<uint16_t>(G);
    case 4: return enc_kernel_g<uint32_t>(G);
    default: return enc_kernel_g<uint64_t>(G);
    }
}

typedef void (*dec_kernel_t)(gpulz_dec_args);

static dec_kernel_t dec_kernel(unsigned S)
{
    switch (S) {
    case 1: return gpulz_decode_kernel<uint8_t>;
    case 2: return gpulz_decode_kernel<uint16_t>;
    case 4: return gpulz_decode_kernel<uint32_t>;
    default: return gpulz_decode_kernel<uint64_t>;
    }
}

/*
 * Allow a kernel the dynamic shared memory it needs (beyond the default 48 KB
 * counting its static shared memory), and ask for the largest shared memory
 * carveout: the kernels keep their data in shared memory, not in L1.
 */
static int smem_optin(const gpu_ctx *c, const void *kernel, size_t smem)
{
    int rc = GPULZ_OK;
    if (smem > c->smem_optin)
        return gpulz_fail(GPULZ_ERR_CUDA, "a block needs %zu bytes of shared memory; the device has %zu",
                          smem, c->smem_optin);
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                            cudaSharedmemCarveoutMaxShared));
done:
    return rc;
}

/* Symbols per warp in the encoder's match search; GPULZ_ENC_SEGMENT (a
 * power of two, 256..16384) overrides it for tuning.  It never changes the
 * output. */
static unsigned enc_segment(void)
{
    const char *env = getenv("GPULZ_ENC_SEGMENT");
    if (env && *env) {
        unsigned long v = strtoul(env, NULL, 10);
        if (v >= 256 && v <= 16384 && !(v & (v - 1)))
            return (unsigned)v;
    }
    return GPULZ_ENC_SEGMENT_DEFAULT;
}

/* Encode blocks [k0, k1) of the input already on the device, seg symbols
 * per warp (enc_segment() or shorter). */
static int enc_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *scratch,
                      const scratch_plan *P, uint64_t k0, uint64_t k1, unsigned seg, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const unsigned S = L->symbol_size, C = L->block_symbols;
    const size_t smem = gpulz_enc_smem(C, S);
    enc_kernel_t kern = enc_kernel(S, L->window);
    if ((rc = smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
        return rc;
    gpulz_enc_args a;
    a.src = d_src;
    a.slot = scratch + P->slot;
    a.entry = (uint32_t *)(scratch + P->entry);
    a.size = (uint64_t *)(scratch + P->size);
    a.m = L->symbols;
    a.C = C;
    a.W = L->window;
    while (k0 < k1) {
        uint64_t nblk = k1 - k0 < GPULZ_MAX_GRID ? k1 - k0 : GPULZ_MAX_GRID;
        a.k0 = k0;
        kern<<<(unsigned)nblk, 32 * gpulz_enc_warps(C, seg), smem, st>>>(a);
        CK(cudaGetLastError());
        k0 += nblk;
    }
done:
    return rc;
}

/*
 * After every block is encoded: scan the sizes, move the blocks into d_dst,
 * write header and tail, and read back the error word and the length
 * (*dst_len is the chunk's length even when GPULZ_ERR_DST_SIZE says it did
 * not fit in dst_cap).
 */
static int enc_finish(const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst, size_t dst_cap,
                      uint8_t *scratch, const scratch_plan *P, uint64_t *h_status, cudaStream_t st,
                      size_t *dst_len)
{
    int rc = GPULZ_OK;
    const uint64_t nb = L->blocks;
    uint64_t *size = (uint64_t *)(scratch + P->size);
    unsigned *err = (unsigned *)(scratch + P->status);
    uint64_t *len = (uint64_t *)(scratch + P->status + 8);
    size_t temp = P->temp_bytes;
    gpulz_header_bytes h;
    gpulz_header_write(h.b, L);
    CK(cudaMemsetAsync(size + nb, 0, sizeof(uint64_t), st));
    CK(cudaMemsetAsync(err, 0, sizeof(unsigned), st));
    CK(cub::DeviceScan::ExclusiveSum(scratch + P->temp, temp, size, (uint64_t)(nb + 1), st));
    if (nb) {
        uint64_t grid = nb < GPULZ_MAX_GRID ? nb : GPULZ_MAX_GRID;
        gpulz_compact_kernel<<<(unsigned)grid, 256, 0, st>>>(
            d_src, scratch + P->slot, (const uint32_t *)(scratch + P->entry), size, d_dst, dst_cap,
            L->table_end, nb, L->tail, L->block_symbols, L->symbol_size);
        CK(cudaGetLastError());
    }
    gpulz_finish_kernel<<<1, 32, 0, st>>>(h, d_src, size, d_dst, dst_cap, L->table_end, nb,
                                          L->symbols * L->symbol_size, L->tail, len, err);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(h_status, err, 16, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    *dst_len = (size_t)h_status[1]; /* also when it does not fit: adaptive compares lengths */
    if ((unsigned)h_status[0] == GPULZ_DEV_ERR_DST)
        return gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %llu exceeds the output capacity %zu",
                          (unsigned long long)h_status[1], dst_cap);
done:
    return rc;
}

/* ---- decompression on the device ---------------------------------------- */

static void dec_args_make(const gpulz_layout *L, const uint8_t *d_src, size_t n, uint8_t *d_dst,
                          uint8_t *scratch, const scratch_plan *P, gpulz_dec_args *a)
{
    a->src = d_src;
    a->n = n;
    a->off = (const uint64_t *)(scratch + P->size);
    a->dst = d_dst;
    a->err = (unsigned *)(scratch + P->status);
    a->table_end = L->table_end;
    a->m = L->symbols;
    a->tail = L->tail;
    a->k0 = 0;
    a->C = L->block_symbols;
    a->W = L->window;
}

/* Check the table, scan it into offsets, copy the tail bytes. */
static int dec_prepare(const gpulz_layout *L, const gpulz_dec_args *a, uint8_t *scratch,
                       const scratch_plan *P, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t nb = L->blocks;
    uint64_t *size = (uint64_t *)(scratch + P->size);
    size_t temp = P->temp_bytes;
    uint64_t grid = (nb + 1 + 255) / 256;
    if (grid > 65536)
        grid = 65536;
    CK(cudaMemsetAsync(a->err, 0, sizeof(unsigned), st));
    gpulz_table_sizes_kernel<<<(unsigned)grid, 256, 0, st>>>(a->src + GPULZ_HEADER_SIZE, nb, L->symbols,
                                                             L->block_symbols, L->symbol_size, size,
                                                             a->err);
    CK(cudaGetLastError());
    CK(cub::DeviceScan::ExclusiveSum(scratch + P->temp, temp, size, (uint64_t)(nb + 1), st));
    gpulz_dec_finish_kernel<<<1, 32, 0, st>>>(*a, nb, L->symbol_size);
    CK(cudaGetLastError());
done:
    return rc;
}

/* Decode blocks [k0, k1). */
static int dec_launch(const gpu_ctx *c, const gpulz_layout *L, gpulz_dec_args a, uint64_t k0, uint64_t k1,
                      cudaStream_t st)
{
    int rc = GPULZ_OK;
    const size_t smem = gpulz_dec_smem(L->block_symbols, L->symbol_size);
    dec_kernel_t kern = dec_kernel(L->symbol_size);
    if ((rc = smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
        return rc;
    while (k0 < k1) {
        uint64_t nblk = k1 - k0 < GPULZ_MAX_GRID ? k1 - k0 : GPULZ_MAX_GRID;
        a.k0 = k0;
        kern<<<(unsigned)nblk, GPULZ_DEC_THREADS, smem, st>>>(a);
        CK(cudaGetLastError());
        k0 += nblk;
    }
done:
    return rc;
}

static int dec_result(uint64_t *h_status, const unsigned *err, cudaStream_t st)
{
    int rc = GPULZ_OK;
    CK(cudaMemcpyAsync(h_status, err, sizeof(unsigned), cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    if ((unsigned)h_status[0] != 0)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "the GPU decoder found a damaged block or table");
done:
    return rc;
}

/* ---- host copies in parallel pieces --------------------------------------- */

/* Compression's input: each piece's blocks are encoded as soon as the piece
 * is on the device, so the encoders start while later pieces are copied. */
typedef struct enc_feed {
    const gpulz_layout *L;
    const scratch_plan *P;
} enc_feed;

/* No block straddles two pieces. */
static_assert(GPULZ_COPY_PIECE % ((size_t)8 << GPULZ_LOG2_BLOCK_MAX) == 0,
              "a copy piece must be a multiple of every block size");

/*
 * Pageable memory moves through the pinned buffer in pieces, copied by a few
 * threads: one core copies pageable memory at about the speed of a pageable
 * transfer, so it takes several to approach the pinned one.  into_device:
 * host -> pinned, then each piece's transfer is queued at once; otherwise
 * each piece waits for its transfer's event, then pinned -> host.
 */
typedef struct copy_job {
    gpu_ctx *c;
    uint8_t *pin; /* the pinned buffer at the same offset as host and dev */
    uint8_t *host;
    uint8_t *dev; /* with a feed: the start of the device input */
    size_t n;
    size_t pieces;
    size_t copiers; /* threads taking pieces */
    int into_device;
    cudaStream_t st; /* of the transfers in */
    const enc_feed *feed; /* or NULL */
    pthread_mutex_t lock;
    size_t next;
    int rc;
    char detail[256];
} copy_job;

/*
 * Encode the blocks of input piece i, [off, off + len), after its transfer,
 * on the next work stream: a piece's encoder alone fills a fraction of the
 * GPU, the pieces after it the rest.
 */
static int enc_piece(copy_job *J, size_t i, size_t off, size_t len)
{
    int rc = GPULZ_OK;
    gpu_ctx *c = J->c;
    const gpulz_layout *L = J->feed->L;
    const size_t block_bytes = (size_t)L->block_symbols * L->symbol_size;
    const uint64_t k0 = off / block_bytes, k1 = off + len == J->n ? L->blocks : (off + len) / block_bytes;
    cudaStream_t w = c->work[i % GPULZ_WORK_STREAMS];
    unsigned seg = enc_segment();
    if (k0 >= k1)
        return rc;
    if (i + J->copiers >= J->pieces && seg > GPULZ_ENC_TAIL_SEGMENT)
        seg = GPULZ_ENC_TAIL_SEGMENT;
    CK(cudaEventRecord(c->events[i], J->st));
    CK(cudaStreamWaitEvent(w, c->events[i], 0));
    rc = enc_launch(c, L, J->dev, c->d_scratch, J->feed->P, k0, k1, seg, w);
done:
    return rc;
}

static int copy_piece(copy_job *J, size_t i)
{
    int rc = GPULZ_OK;
    gpu_ctx *c = J->c;
    size_t off = i * GPULZ_COPY_PIECE, len = J->n - off < GPULZ_COPY_PIECE ? J->n - off : GPULZ_COPY_PIECE;
    if (J->into_device) {
        memcpy(J->pin + off, J->host + off, len);
        CK(cudaMemcpyAsync(J->dev + off, J->pin + off, len, cudaMemcpyHostToDevice, J->st));
        if (J->feed)
            rc = enc_piece(J, i, off, len);
    } else {
        CK(cudaEventSynchronize(c->events[i]));
        memcpy(J->host + off, J->pin + off, len);
    }
done:
    return rc;
}

/* Take pieces until none is left (or one failed). */
static void copy_run(copy_job *J)
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
    gpu_ctx *c = (gpu_ctx *)arg;
    unsigned long seen = 0;
    int usable = cudaSetDevice(c->device) == cudaSuccess;
    pthread_mutex_lock(&c->pool_lock);
    for (;;) {
        while (c->pool_gen == seen)
            pthread_cond_wait(&c->pool_go, &c->pool_lock);
        seen = c->pool_gen;
        copy_job *J = c->pool_job;
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
static int d2h_enqueue(gpu_ctx *c, const uint8_t *dev, size_t off, size_t n)
{
    int rc = GPULZ_OK;
    size_t end = off + n;
    if ((rc = grow_events(c, (end + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE)) != GPULZ_OK)
        return rc;
    for (; off < end; off += GPULZ_COPY_PIECE) {
        size_t len = end - off < GPULZ_COPY_PIECE ? end - off : GPULZ_COPY_PIECE;
        CK(cudaMemcpyAsync(c->h_pinned + off, dev + off, len, cudaMemcpyDeviceToHost, c->stream));
        CK(cudaEventRecord(c->events[off / GPULZ_COPY_PIECE], c->stream));
    }
done:
    return rc;
}

/*
 * into_device: host[0, n) -> pinned -> dev, each piece's transfer queued as
 * soon as it is staged, and with a feed its encoder after it (the events
 * must number the pieces).  Otherwise pinned -> host[0, n) for transfers that
 * d2h_enqueue() queued, each piece as soon as its event fires.  The pinned
 * buffer is used from pin_off, where it mirrors dev.  Output pieces are
 * numbered from the pinned buffer's start: out of the device only with
 * pin_off = 0.
 */
static int copy_pieces(gpu_ctx *c, uint8_t *host, uint8_t *dev, size_t pin_off, size_t n, int into_device,
                       cudaStream_t st, const enc_feed *feed)
{
    int rc = GPULZ_OK;
    copy_job J;
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

/* ---- the host-buffer path ------------------------------------------------- */

extern "C" int gpulz_gpu_usable(void)
{
    int n = 0;
    pthread_once(&once, init_once);
    if (forked_child)
        return 0;
    cuda_touched = 1;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

extern "C" int gpulz_gpu_available(void)
{
    int dev, rc = not_forked();
    if (rc == GPULZ_OK)
        rc = pick_device(&dev);
    return rc == GPULZ_OK;
}

extern "C" int gpulz_gpu_maybe_usable(void)
{
    pthread_once(&once, init_once);
    if (forked_child)
        return 0;
    /* once CUDA has started the device query costs little and changes nothing */
    return cuda_touched ? gpulz_gpu_usable() : 1;
}

extern "C" int gpulz_gpu_last_device(void)
{
    return last_device;
}

extern "C" size_t gpulz_gpu_min_bytes(void)
{
    /* Below about a megabyte the transfers and launches cost more than the
     * CPU codec on a few cores; GPULZ_GPU_MIN_BYTES moves the threshold. */
    const char *env = getenv("GPULZ_GPU_MIN_BYTES");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end)
            return (size_t)v;
    }
    return (size_t)1 << 20;
}

extern "C" int gpulz_gpu_compress_host(const uint8_t *src, const gpulz_layout *L, uint8_t *dst,
                                       size_t *dst_len)
{
    gpu_ctx *c = NULL;
    int prev = 0, rc = ctx_acquire(&c, &prev, -1);
    if (rc != GPULZ_OK)
        return rc;
    const size_t n = (size_t)L->n, bound = (size_t)L->table_end + n;
    const size_t pieces = (n + GPULZ_COPY_PIECE - 1) / GPULZ_COPY_PIECE;
    const unsigned streams = pieces < GPULZ_WORK_STREAMS ? (unsigned)pieces : GPULZ_WORK_STREAMS;
    scratch_plan P;
    enc_feed feed = {L, &P};
    size_t len = 0;
    if ((rc = plan_make(L->blocks, L->symbols * L->symbol_size, &P)) != GPULZ_OK ||
        (rc = grow_device(&c->d_in, &c->in_cap, n ? n : 1)) != GPULZ_OK ||
        (rc = grow_device(&c->d_out, &c->out_cap, bound)) != GPULZ_OK ||
        (rc = grow_device(&c->d_scratch, &c->scratch_cap, P.total)) != GPULZ_OK ||
        (rc = grow_pinned(c, bound > n ? bound : n)) != GPULZ_OK ||
        (rc = grow_events(c, pieces)) != GPULZ_OK ||
        (rc = copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->copy_stream, &feed)) != GPULZ_OK)
        goto done;
    for (unsigned w = 0; w < streams; w++) {
        CK(cudaEventRecord(c->work_done[w], c->work[w]));
        CK(cudaStreamWaitEvent(c->stream, c->work_done[w], 0));
    }
    if ((rc = enc_finish(L, c->d_in, c->d_out, bound, c->d_scratch, &P, c->h_status, c->stream, &len)) !=
        GPULZ_OK)
        goto done;
    if ((rc = d2h_enqueue(c, c->d_out, 0, len)) != GPULZ_OK ||
        (rc = copy_pieces(c, dst, c->d_out, 0, len, 0, c->stream, NULL)) != GPULZ_OK)
        goto done;
    *dst_len = len;
done:
    ctx_release(c, prev);
    return rc;
}

extern "C" int gpulz_gpu_decompress_host(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst)
{
    gpu_ctx *c = NULL;
    int prev = 0, rc = ctx_acquire(&c, &prev, -1);
    if (rc != GPULZ_OK)
        return rc;
    const size_t out_n = (size_t)L->n;
    const size_t block_bytes = (size_t)L->block_symbols * L->symbol_size;
    scratch_plan P;
    gpulz_dec_args a;
    if ((rc = plan_make(L->blocks, 0, &P)) != GPULZ_OK ||
        (rc = grow_device(&c->d_in, &c->in_cap, n)) != GPULZ_OK ||
        (rc = grow_device(&c->d_out, &c->out_cap, out_n ? out_n : 1)) != GPULZ_OK ||
        (rc = grow_device(&c->d_scratch, &c->scratch_cap, P.total)) != GPULZ_OK ||
        (rc = grow_pinned(c, n > out_n ? n : out_n)) != GPULZ_OK)
        goto done;
    if ((rc = copy_pieces(c, (uint8_t *)src, c->d_in, 0, n, 1, c->stream, NULL)) != GPULZ_OK)
        goto done;
    dec_args_make(L, c->d_in, n, c->d_out, c->d_scratch, &P, &a);
    if ((rc = dec_prepare(L, &a, c->d_scratch, &P, c->stream)) != GPULZ_OK)
        goto done;
    /* decode and bring back a few megabytes at a time */
    for (size_t off = 0; off < out_n;) {
        size_t piece = 8 * GPULZ_COPY_PIECE;
        size_t len_out = out_n - off < piece ? out_n - off : piece;
        uint64_t k0 = off / block_bytes;
        uint64_t k1 = off + len_out == out_n ? L->blocks : (off + len_out) / block_bytes;
        if ((rc = dec_launch(c, L, a, k0, k1, c->stream)) != GPULZ_OK ||
            (rc = d2h_enqueue(c, c->d_out, off, len_out)) != GPULZ_OK)
            goto done;
        off += len_out;
    }
    if ((rc = copy_pieces(c, dst, c->d_out, 0, out_n, 0, c->stream, NULL)) != GPULZ_OK)
        goto done;
    rc = dec_result(c->h_status, a.err, c->stream);
done:
    ctx_release(c, prev);
    return rc;
}

/* ---- the device-buffer API ------------------------------------------------ */

extern "C" size_t gpulz_compress_device_scratch_size(size_t n, const gpulz_params *p)
{
    gpulz_layout L;
    scratch_plan P, P1;
    if (gpulz_params_check(p) != GPULZ_OK ||
        gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols) != GPULZ_OK ||
        plan_make(L.blocks, L.symbols * L.symbol_size, &P) != GPULZ_OK)
        return 0;
    if (!(p->flags & GPULZ_FLAG_ADAPTIVE) || p->symbol_size == 1)
        return P.total;
    /* adaptive may also encode with S = 1, whose plan has the most blocks */
    if (gpulz_layout_make(&L, n, 1, p->window, p->block_symbols) != GPULZ_OK ||
        plan_make(L.blocks, L.symbols, &P1) != GPULZ_OK)
        return 0;
    return P.total > P1.total ? P.total : P1.total;
}

extern "C" size_t gpulz_decompress_device_scratch_size(size_t src_len)
{
    scratch_plan P;
    /* the table must fit in the chunk: nb <= (src_len - 28) / 4 */
    uint64_t nb = src_len > GPULZ_HEADER_SIZE ? (src_len - GPULZ_HEADER_SIZE) / GPULZ_TABLE_ENTRY_SIZE : 0;
    if (plan_make(nb, 0, &P) != GPULZ_OK)
        return 0;
    return P.total;
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
    int rc = grow_device(&c->d_scratch, &c->scratch_cap, need);
    *out = c->d_scratch;
    return rc;
}

/* One encoding of d_src with layout L into d_dst, scratch planned for at least L. */
static int enc_all(gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst, size_t dst_cap,
                   uint8_t *scratch, cudaStream_t st, size_t *len)
{
    scratch_plan P;
    int rc = plan_make(L->blocks, L->symbols * L->symbol_size, &P);
    if (rc == GPULZ_OK)
        rc = enc_launch(c, L, d_src, scratch, &P, 0, L->blocks, enc_segment(), st);
    if (rc == GPULZ_OK)
        rc = enc_finish(L, d_src, d_dst, dst_cap, scratch, &P, c->h_status, st, len);
    return rc;
}

extern "C" int gpulz_compress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                                     size_t *dst_len, const gpulz_params *p, void *cuda_stream,
                                     void *d_scratch, size_t scratch_size)
{
    int rc = gpulz_params_check(p);
    if (rc != GPULZ_OK)
        return rc;
    if ((!d_src && n) || !d_dst || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    gpulz_layout L, L1;
    const int adaptive = (p->flags & GPULZ_FLAG_ADAPTIVE) && p->symbol_size > 1;
    if ((rc = gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols)) != GPULZ_OK ||
        (adaptive && (rc = gpulz_layout_make(&L1, n, 1, p->window, p->block_symbols)) != GPULZ_OK))
        return rc;
    const void *bufs[] = {n ? d_src : NULL, d_dst, d_scratch};
    static const char *const names[] = {"src", "dst", "scratch"};
    gpu_ctx *c = NULL;
    int prev = 0, dev = 0;
    if ((rc = buffers_device(bufs, names, 3, &dev)) != GPULZ_OK ||
        (rc = ctx_acquire(&c, &prev, dev)) != GPULZ_OK)
        return rc;
    cudaStream_t st = cuda_stream ? (cudaStream_t)cuda_stream : c->stream;
    const uint8_t *src = (const uint8_t *)d_src;
    uint8_t *scratch = NULL;
    size_t need = gpulz_compress_device_scratch_size(n, p), len = 0, len1 = 0;
    if ((rc = scratch_for(c, d_scratch, scratch_size, need, &scratch)) != GPULZ_OK)
        goto done;
    rc = enc_all(c, &L, src, (uint8_t *)d_dst, dst_cap, scratch, st, &len);
    /* FORMAT.md §8, as gpulz_compress(): where the ratio n / len is under 1.5,
     * S = 1 too, kept only if strictly shorter; the first result may not have
     * fitted in dst_cap, its length is known all the same */
    if (adaptive && (rc == GPULZ_OK || rc == GPULZ_ERR_DST_SIZE) &&
        (unsigned __int128)2 * n < (unsigned __int128)3 * len) {
        int rc1 = grow_device(&c->d_out, &c->out_cap, (size_t)L1.table_end + n);
        if (rc1 == GPULZ_OK)
            rc1 = enc_all(c, &L1, src, c->d_out, (size_t)L1.table_end + n, scratch, st, &len1);
        if (rc1 != GPULZ_OK) {
            rc = rc1;
            goto done;
        }
        if (len1 < len) {
            len = len1;
            if (len1 > dst_cap) {
                rc = gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %zu exceeds the output capacity %zu",
                                len1, dst_cap);
                goto done;
            }
            CK(cudaMemcpyAsync(d_dst, c->d_out, len1, cudaMemcpyDeviceToDevice, st));
            CK(cudaStreamSynchronize(st));
            rc = GPULZ_OK;
        }
    }
    if (rc == GPULZ_OK)
        *dst_len = len;
done:
    ctx_release(c, prev);
    return rc;
}

extern "C" int gpulz_decompress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                                       size_t *dst_len, void *cuda_stream, void *d_scratch,
                                       size_t scratch_size)
{
    if (!d_src || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    if (n < GPULZ_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the header", n);
    const void *bufs[] = {d_src, d_dst, d_scratch};
    static const char *const names[] = {"src", "dst", "scratch"};
    gpu_ctx *c = NULL;
    int prev = 0, dev = 0, rc = buffers_device(bufs, names, 3, &dev);
    if (rc != GPULZ_OK || (rc = ctx_acquire(&c, &prev, dev)) != GPULZ_OK)
        return rc;
    cudaStream_t st = cuda_stream ? (cudaStream_t)cuda_stream : c->stream;
    uint8_t h[GPULZ_HEADER_SIZE];
    gpulz_layout L;
    scratch_plan P;
    uint8_t *scratch = NULL;
    gpulz_dec_args a;
    CK(cudaMemcpyAsync(c->h_status, d_src, GPULZ_HEADER_SIZE, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    memcpy(h, c->h_status, GPULZ_HEADER_SIZE);
    /* the table itself is checked on the device */
    if ((rc = gpulz_header_read(h, n, &L)) != GPULZ_OK)
        goto done;
    if (L.n > dst_cap || (!d_dst && L.n)) {
        rc = gpulz_fail(GPULZ_ERR_DST_SIZE, "uncompressed size %llu exceeds the output capacity %zu",
                        (unsigned long long)L.n, dst_cap);
        goto done;
    }
    if ((rc = plan_make(L.blocks, 0, &P)) != GPULZ_OK ||
        (rc = scratch_for(c, d_scratch, scratch_size, P.total, &scratch)) != GPULZ_OK)
        goto done;
    dec_args_make(&L, (const uint8_t *)d_src, n, (uint8_t *)d_dst, scratch, &P, &a);
    if ((rc = dec_prepare(&L, &a, scratch, &P, st)) != GPULZ_OK ||
        (rc = dec_launch(c, &L, a, 0, L.blocks, st)) != GPULZ_OK ||
        (rc = dec_result(c->h_status, a.err, st)) != GPULZ_OK)
        goto done;
    *dst_len = (size_t)L.n;
done:
    ctx_release(c, prev);
    return rc;
}
