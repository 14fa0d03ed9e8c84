/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_context.c - the GPU backend's per-device context: which device a call
 * runs on (GPULZ_DEVICE, the caller's current one, or the one holding the
 * buffers), the guard against CUDA in a forked child, the streams and the
 * cached device, pinned and event buffers.  Plain C against the CUDA
 * runtime, linked statically, so a build with CUDA still loads on machines
 * without it; nothing runs at library load.
 */
#include <stdlib.h>
#include <string.h>

#include <stdatomic.h>

#include "gpu_context.h"
#include "gpu_v2.h"
#include "gpu_tune.h"
#include "gpulz_chunk.h"
#include "gpulz_env.h"
#include "gpulz_grow.h"

int gpu_stages_check(const gpulz_layout *L)
{
    return gpulz_stages_supported(L, gpulz_gpu_stages, GPULZ_GPU_STAGE_COUNT, "GPU");
}

int gpu_policy_fill(gpu_policy *pol, int dev)
{
    int rc = GPULZ_OK, grid_x = 0, optin = 0, sms = 0;
    /* three attributes, not cudaGetDeviceProperties: that one queries every
     * property and costs milliseconds on the first call of a process */
    GPULZ_CK(cudaDeviceGetAttribute(&grid_x, cudaDevAttrMaxGridDimX, dev));
    GPULZ_CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    GPULZ_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    pol->enc_segment = 2048;
    pol->enc_tail_segment = 512;
    pol->work_streams = 14; /* at most GPULZ_WORK_STREAMS_MAX */
    pol->dec_piece = 8 * GPULZ_COPY_PIECE;
    pol->max_grid = grid_x < (1 << 30) ? (uint64_t)grid_x : (uint64_t)1 << 30;
    pol->smem_optin = (size_t)optin;
    pol->sms = sms > 0 ? (unsigned)sms : 1;
done:
    return rc;
}

static atomic_uint tuned_segment; /* 0: the policy's */

int gpu_tune_enc_segment(unsigned symbols_per_warp)
{
    unsigned v = symbols_per_warp;
    if (v && (v < 256 || v > 16384 || (v & (v - 1))))
        return gpulz_fail(GPULZ_ERR_PARAM, "%u symbols per warp: not a power of two from 256 to 16384", v);
    atomic_store(&tuned_segment, v);
    return GPULZ_OK;
}

unsigned gpu_enc_segment(const gpu_ctx *c, int few)
{
    unsigned v = atomic_load(&tuned_segment);
    v = v ? v : c->pol.enc_segment;
    return few && v > c->pol.enc_tail_segment ? c->pol.enc_tail_segment : v;
}

int gpu_enc_few(const gpu_ctx *c, uint64_t blocks)
{
    return blocks <= (uint64_t)GPU_ENC_FEW_PER_SM * c->pol.sms;
}

static atomic_uint tuned_sample; /* 0: GPU_V2_SAMPLE_GROUPS */

int gpu_tune_sample_groups(unsigned groups)
{
    atomic_store(&tuned_sample, groups);
    return GPULZ_OK;
}

uint64_t gpu_v2_sample_groups(void)
{
    const unsigned v = atomic_load(&tuned_sample);
    return v ? v : GPU_V2_SAMPLE_GROUPS;
}

static atomic_int tuned_ck_apart;

int gpu_tune_ck_apart(int apart)
{
    atomic_store(&tuned_ck_apart, apart != 0);
    return GPULZ_OK;
}

int gpu_v2_ck_apart(void)
{
    return atomic_load(&tuned_ck_apart);
}

static atomic_size_t tuned_smem; /* 0: the device's opt-in */

int gpu_tune_smem_most(size_t bytes)
{
    atomic_store(&tuned_smem, bytes);
    return GPULZ_OK;
}

size_t gpu_smem_most(const gpu_ctx *c)
{
    const size_t t = atomic_load(&tuned_smem);
    return t && t < c->pol.smem_optin ? t : c->pol.smem_optin;
}

static atomic_int tuned_unranged;

int gpu_tune_unranged(int unranged)
{
    atomic_store(&tuned_unranged, unranged != 0);
    return GPULZ_OK;
}

int gpu_v2_unranged(void)
{
    return atomic_load(&tuned_unranged);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ctx_table_lock = PTHREAD_MUTEX_INITIALIZER;
static gpu_ctx *ctx_table[GPULZ_MAX_DEVICES][GPU_LANES_MAX];
static volatile int forked_child; /* CUDA is unusable in a child forked after init */
static volatile int cuda_touched;
static _Thread_local int last_device = -1; /* the device of this thread's last GPU call */

static void mark_forked(void)
{
    if (cuda_touched)
        forked_child = 1;
}

static void init_once(void)
{
    pthread_atfork(NULL, NULL, mark_forked);
}

void gpu_touch(void)
{
    cuda_touched = 1;
}

/* GPULZ_ERR_NO_GPU in a child forked after CUDA started, before any CUDA call. */
int gpu_not_forked(void)
{
    pthread_once(&once, init_once);
    if (forked_child)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "CUDA cannot be used in a process forked after its initialisation");
    return GPULZ_OK;
}

_Static_assert(GPULZ_MAX_DEVICES == GPULZ_DEVICES_MAX, "a GPULZ_DEVICE list holds as many devices as have contexts");

/*
 * The devices of the host API: GPULZ_DEVICE's (env.c parses it, for this and
 * for the checks that need no GPU), else the caller's current device alone.
 * A GPULZ_DEVICE that names no device here means no usable GPU.
 */
int gpu_host_devices(gpulz_devices *out)
{
    int rc = GPULZ_OK, count = 0;
    cuda_touched = 1;
    out->count = 0;
    /* a runtime that cannot count the devices (no driver, one too old for
     * this runtime) has no usable GPU, as gpulz.h names that status: the
     * callers that fall back to the CPU, or refuse backend gpu, tell it
     * from a CUDA failure by it */
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return gpulz_fail(GPULZ_ERR_NO_GPU, "cudaGetDeviceCount(&count): %s", cudaGetErrorString(e));
    }
    if (count <= 0)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "no CUDA device");
    if (gpulz_env_devices(count, out) != GPULZ_OK) {
        char why[256];
        strncpy(why, gpulz_last_error(), sizeof why - 1);
        why[sizeof why - 1] = 0;
        return gpulz_fail(GPULZ_ERR_NO_GPU, "%s", why);
    }
    if (out->count == 0) {
        GPULZ_CK(cudaGetDevice(&out->dev[0]));
        out->count = 1;
    }
done:
    return rc;
}

/* The device a single-chunk call runs on: the first of the host API's. */
static int pick_device(int *dev)
{
    gpulz_devices d;
    int rc = gpu_host_devices(&d);
    if (rc == GPULZ_OK)
        *dev = d.dev[0];
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
int gpu_buffers_device(const void *const *bufs, const char *const *names, int count, int *dev)
{
    int rc = gpu_not_forked();
    *dev = -1;
    if (rc != GPULZ_OK)
        return rc;
    cuda_touched = 1;
    for (int i = 0; i < count; i++) {
        if (!bufs[i])
            continue;
        struct cudaPointerAttributes a;
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
        GPULZ_CK(cudaGetDevice(dev));
done:
    return rc;
}

/*
 * Lane lane's context of device want (-1: the one pick_device() chooses),
 * locked, with that device current; *prev receives the caller's device,
 * which gpu_ctx_release() restores.
 */
int gpu_ctx_acquire_lane(gpu_ctx **out, int *prev, int want, unsigned lane)
{
    int rc = gpu_not_forked(), dev = want;
    gpu_ctx *c = NULL;
    if (rc != GPULZ_OK)
        return rc;
    cuda_touched = 1;
    if (want < 0 && (rc = pick_device(&dev)) != GPULZ_OK)
        return rc;
    if (dev >= GPULZ_MAX_DEVICES)
        return gpulz_fail(GPULZ_ERR_NO_GPU, "device %d is beyond the %d this library handles", dev,
                          GPULZ_MAX_DEVICES);
    if (lane >= GPU_LANES_MAX)
        return gpulz_fail(GPULZ_ERR_PARAM, "lane %u is beyond the %d a device has", lane, GPU_LANES_MAX);
    last_device = dev;
    cudaError_t e = cudaGetDevice(prev);
    if (e != cudaSuccess)
        return gpulz_fail(GPULZ_ERR_CUDA, "cudaGetDevice: %s", cudaGetErrorString(e));
    pthread_mutex_lock(&ctx_table_lock);
    if (!ctx_table[dev][lane]) {
        c = calloc(1, sizeof *c);
        if (c) {
            c->device = dev;
            pthread_mutex_init(&c->lock, NULL);
            pthread_mutex_init(&c->batch_lock, NULL);
            ctx_table[dev][lane] = c;
        }
    }
    c = ctx_table[dev][lane];
    pthread_mutex_unlock(&ctx_table_lock);
    if (!c)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the GPU context");
    pthread_mutex_lock(&c->lock);
    if (dev != *prev)
        GPULZ_CK(cudaSetDevice(dev));
    if (!c->ready) {
        /* each made once: a setup that failed part way (memory refused)
         * keeps what it made for the next call's try, not made again and
         * leaked */
#define CTX_STREAM(s)                                                                              \
    if (!(s))                                                                                      \
    GPULZ_CK(cudaStreamCreateWithFlags(&(s), cudaStreamNonBlocking))
#define CTX_EVENT(e)                                                                               \
    if (!(e))                                                                                      \
    GPULZ_CK(cudaEventCreateWithFlags(&(e), cudaEventDisableTiming))
        if ((rc = gpu_policy_fill(&c->pol, dev)) != GPULZ_OK)
            goto done;
        CTX_STREAM(c->stream);
        CTX_STREAM(c->copy_stream);
        CTX_STREAM(c->side);
        CTX_EVENT(c->side_fork);
        CTX_EVENT(c->side_done);
        CTX_EVENT(c->side_sum);
        CTX_EVENT(c->coded);
        CTX_EVENT(c->coder_end);
        CTX_EVENT(c->copied);
        for (unsigned w = 0; w < c->pol.work_streams; w++) {
            CTX_STREAM(c->work[w]);
            CTX_EVENT(c->work_done[w]);
        }
#undef CTX_STREAM
#undef CTX_EVENT
        if (!c->h_status)
            GPULZ_CK(cudaHostAlloc((void **)&c->h_status, GPULZ_STATUS_BYTES, cudaHostAllocMapped));
        if (cudaHostGetDevicePointer((void **)&c->d_status, c->h_status, 0) != cudaSuccess) {
            (void)cudaGetLastError(); /* not sticky: the status is then copied back */
            c->d_status = NULL;
        }
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

int gpu_ctx_acquire(gpu_ctx **out, int *prev, int want)
{
    return gpu_ctx_acquire_lane(out, prev, want, 0);
}

void gpu_ctx_quiesce(gpu_ctx *c, cudaStream_t st)
{
    if (st)
        (void)cudaStreamSynchronize(st);
    const cudaStream_t own[] = {c->stream, c->copy_stream, c->side};
    for (unsigned k = 0; k < sizeof own / sizeof *own; k++)
        if (own[k])
            (void)cudaStreamSynchronize(own[k]);
    for (unsigned w = 0; w < c->pol.work_streams && w < GPULZ_WORK_STREAMS_MAX; w++)
        if (c->work[w])
            (void)cudaStreamSynchronize(c->work[w]);
    (void)cudaGetLastError(); /* what failed was reported: not the next call's */
}

void gpu_ctx_release(gpu_ctx *c, int prev)
{
    if (prev != c->device)
        cudaSetDevice(prev);
    pthread_mutex_unlock(&c->lock);
}

/* Grow a cached device buffer to at least need bytes. */
int gpu_grow_device(uint8_t **buf, size_t *cap, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= *cap)
        return rc;
    if (*buf)
        GPULZ_CK(cudaFree(*buf));
    *buf = NULL;
    *cap = 0;
    need = gpulz_grown(need);
    GPULZ_CK(cudaMalloc((void **)buf, need));
    *cap = need;
done:
    return rc;
}

int gpu_grow_pinned(gpu_ctx *c, size_t need)
{
    if (need <= c->pinned_cap)
        return GPULZ_OK;
    return gpu_grow_host(&c->h_pinned, &c->pinned_cap, gpulz_grown(need));
}

int gpu_grow_host(uint8_t **buf, size_t *cap, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= *cap)
        return rc;
    if (*buf)
        GPULZ_CK(cudaFreeHost(*buf));
    *buf = NULL;
    *cap = 0;
    GPULZ_CK(cudaHostAlloc((void **)buf, need, cudaHostAllocDefault));
    *cap = need;
done:
    return rc;
}

int gpu_grow_events(gpu_ctx *c, size_t need)
{
    int rc = GPULZ_OK;
    if (need <= c->event_count)
        return rc;
    cudaEvent_t *ev = realloc(c->events, need * sizeof *ev);
    if (!ev)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate %zu events", need);
    c->events = ev;
    while (c->event_count < need) {
        GPULZ_CK(cudaEventCreateWithFlags(&c->events[c->event_count], cudaEventDisableTiming));
        c->event_count++;
    }
done:
    return rc;
}

int gpulz_gpu_usable(void)
{
    int n = 0;
    pthread_once(&once, init_once);
    if (forked_child)
        return 0;
    cuda_touched = 1;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

int gpulz_gpu_available(void)
{
    int dev, rc = gpu_not_forked();
    if (rc == GPULZ_OK)
        rc = pick_device(&dev);
    return rc == GPULZ_OK;
}

int gpulz_gpu_maybe_usable(void)
{
    pthread_once(&once, init_once);
    if (forked_child)
        return 0;
    /* once CUDA has started the device query costs little and changes nothing */
    return cuda_touched ? gpulz_gpu_usable() : 1;
}

int gpulz_gpu_last_device(void)
{
    return last_device;
}

size_t gpulz_gpu_min_bytes(void)
{
    unsigned long long v = GPULZ_GPU_MIN_BYTES_DEFAULT;
    /* a bad value keeps the default; the filter refuses it at dataset creation */
    if (gpulz_env_uint("GPULZ_GPU_MIN_BYTES", SIZE_MAX, &v) != GPULZ_OK)
        v = GPULZ_GPU_MIN_BYTES_DEFAULT;
    return (size_t)v;
}

unsigned gpu_lanes_for(size_t chunks, size_t largest)
{
    unsigned lanes;
    /* a bad value keeps the default; the filter refuses it at dataset creation */
    (void)gpulz_env_gpu_lanes(&lanes);
    if (lanes > chunks)
        lanes = (unsigned)chunks;
    while (lanes > 1 && largest > GPU_LANE_CHUNK_BYTES / lanes)
        lanes--;
    return lanes ? lanes : 1;
}
