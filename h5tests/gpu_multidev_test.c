/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_multidev_test.c - gpulz on a host with several GPUs, where MPI ranks
 * and threads each pick their own: the work runs on the calling thread's
 * current device, or on GPULZ_DEVICE when set; the caller's current device is
 * the same after the call; threads on different devices at once get the CPU
 * reference's bytes; the device-buffer API works on buffers of a device other
 * than 0; a GPULZ_DEVICE that names no device is an error with the GPU
 * backend and a CPU fallback with the automatic one; a GPULZ_DEVICE list or
 * local-rank gives single chunks one device, the list's first.
 *
 * Which device ran is read from gpulz_last_backend()'s reason ("requested,
 * device N"), and the device-buffer API must run where the buffers are,
 * whatever GPULZ_DEVICE says (kernels on another device would fault).
 * Exits 77 with fewer than two usable GPUs.
 */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "gpu_testutil.h"


#define BIG ((size_t)24 << 20) /* input of the device-choice checks */

/* The device named in the reason of this thread's last call, -1 if none. */
static int last_device(void)
{
    const char *why = "";
    gpulz_last_backend(&why);
    const char *d = strstr(why, "device ");
    return d ? atoi(d + 7) : -1;
}

static void params_for(gpulz_params *p, unsigned S, unsigned W, gpulz_backend b)
{
    gpulz_params_init(p);
    p->mode = GPULZ_MODE_LZ; /* the round trips this test was written with */
    p->symbol_size = S;
    p->window = W;
    p->backend = b;
}

/* Compress src with the CPU and with backend b; 1 if the bytes agree and the
 * chunk decodes back with backend b. */
static int round_trip(const uint8_t *src, size_t n, unsigned S, unsigned W, gpulz_backend b,
                      gpulz_backend *ran)
{
    gpulz_params pc, pg;
    params_for(&pc, S, W, GPULZ_BACKEND_CPU);
    params_for(&pg, S, W, b);
    size_t bound = gpulz_compress_bound(n, &pc), la = 0, lb = 0, lo = 0;
    uint8_t *a = malloc(bound), *c = malloc(bound), *o = malloc(n);
    int ok = a && c && o && gpulz_compress(src, n, a, bound, &la, &pc) == GPULZ_OK &&
             gpulz_compress(src, n, c, bound, &lb, &pg) == GPULZ_OK;
    if (ran)
        *ran = gpulz_last_backend(NULL);
    ok = ok && la == lb && memcmp(a, c, la) == 0 &&
         gpulz_decompress(c, lb, o, n, &lo, &pg) == GPULZ_OK && lo == n && memcmp(o, src, n) == 0;
    free(a);
    free(c);
    free(o);
    return ok;
}

/* A host-API call with current device cur and GPULZ_DEVICE env (NULL: unset)
 * must run on device want and leave cur current. */
static void device_choice(const uint8_t *src, int cur, const char *env, int want)
{
    if (env)
        setenv("GPULZ_DEVICE", env, 1);
    else
        unsetenv("GPULZ_DEVICE");
    cudaSetDevice(cur);
    gpulz_backend ran = GPULZ_BACKEND_CPU;
    CHECK(round_trip(src, BIG, 2, 128, GPULZ_BACKEND_GPU, &ran),
          "current %d, GPULZ_DEVICE %s: round trip", cur, env ? env : "unset");
    CHECK(ran == GPULZ_BACKEND_GPU, "current %d: not on the GPU", cur);
    CHECK(last_device() == want, "current %d, GPULZ_DEVICE %s: ran on device %d, not %d", cur,
          env ? env : "unset", last_device(), want);
    int after = -1;
    cudaGetDevice(&after);
    CHECK(after == cur, "current device %d became %d", cur, after);
    unsetenv("GPULZ_DEVICE");
}

/* The device-buffer API on device dev's buffers and stream. */
static void device_api(const uint8_t *src, size_t n, int dev, int cur, const char *env)
{
    if (env)
        setenv("GPULZ_DEVICE", env, 1);
    gpulz_params p;
    params_for(&p, 4, 64, GPULZ_BACKEND_CPU);
    size_t bound = gpulz_compress_bound(n, &p), lc = 0, lg = 0, lo = 0;
    uint8_t *ref = malloc(bound), *got = malloc(bound), *back = malloc(n);
    CHECK(gpulz_compress(src, n, ref, bound, &lc, &p) == GPULZ_OK, "cpu reference");
    void *d_src = NULL, *d_cmp = NULL, *d_out = NULL;
    cudaStream_t st = NULL;
    cudaSetDevice(dev);
    int ok = cudaMalloc(&d_src, n) == cudaSuccess && cudaMalloc(&d_cmp, bound) == cudaSuccess &&
             cudaMalloc(&d_out, n) == cudaSuccess && cudaStreamCreate(&st) == cudaSuccess &&
             cudaMemcpy(d_src, src, n, cudaMemcpyHostToDevice) == cudaSuccess;
    CHECK(ok, "device %d: buffers", dev);
    cudaSetDevice(cur);
    if (ok) {
        int rc = gpulz_compress_device(d_src, n, d_cmp, bound, &lg, &p, st, NULL, 0);
        CHECK(rc == GPULZ_OK, "device %d (current %d): compress_device %d", dev, cur, rc);
        CHECK(cudaMemcpy(got, d_cmp, lg, cudaMemcpyDeviceToHost) == cudaSuccess && lg == lc &&
                  memcmp(got, ref, lc) == 0,
              "device %d: compress_device bytes differ from the CPU's", dev);
        rc = gpulz_decompress_device(d_cmp, lg, d_out, n, &lo, st, NULL, 0);
        CHECK(rc == GPULZ_OK && lo == n, "device %d: decompress_device %d", dev, rc);
        CHECK(cudaMemcpy(back, d_out, n, cudaMemcpyDeviceToHost) == cudaSuccess &&
                  memcmp(back, src, n) == 0,
              "device %d: decompress_device output differs", dev);
        int after = -1;
        cudaGetDevice(&after);
        CHECK(after == cur, "device API: current device %d became %d", cur, after);
    }
    cudaSetDevice(dev);
    cudaFree(d_src);
    cudaFree(d_cmp);
    cudaFree(d_out);
    if (st)
        cudaStreamDestroy(st);
    cudaSetDevice(cur);
    free(ref);
    free(got);
    free(back);
    unsetenv("GPULZ_DEVICE");
}

/* One thread per device, at the same time, each on its own current device. */
static void *worker(void *arg)
{
    int dev = (int)(intptr_t)arg;
    cudaSetDevice(dev);
    uint8_t *buf = malloc((size_t)9 << 20);
    for (int i = 0; i < 12 && buf; i++) {
        size_t n = ((size_t)1 + (size_t)(i + dev) % 9) << 20;
        gpulz_gen(i % 2 ? "quant" : "int", buf, n, (uint64_t)(100 * dev + i));
        static const unsigned windows[] = {32, 128, 255};
        gpulz_backend ran = GPULZ_BACKEND_CPU;
        CHECK(round_trip(buf, n, i % 2 ? 2 : 4, windows[i % 3], GPULZ_BACKEND_GPU, &ran),
              "thread on device %d, round %d", dev, i);
        CHECK(ran == GPULZ_BACKEND_GPU, "thread on device %d: not on the GPU", dev);
        int cur = -1;
        cudaGetDevice(&cur);
        CHECK(cur == dev, "thread on device %d: current device became %d", dev, cur);
    }
    free(buf);
    return NULL;
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
        printf("gpu_multidev_test: needs two usable GPUs, found %d: skipped\n", count);
        return 77;
    }
    unsetenv("GPULZ_DEVICE");
    uint8_t *src = malloc(BIG);
    if (!src)
        return 99;
    gpulz_gen("quant", src, BIG, 7);

    device_choice(src, 1, NULL, 1); /* the caller's current device */
    device_choice(src, 0, NULL, 0);
    device_choice(src, 1, "0", 0);  /* GPULZ_DEVICE over the current one */
    device_choice(src, 0, "1", 1);
    /* a list: single chunks take its first device (batches of host chunks
     * spread over all, gpu_batch_test) */
    device_choice(src, 1, "0,1", 0);
    device_choice(src, 0, "1,0", 1);
    device_choice(src, 1, "all", 0);
    /* one GPU per MPI rank: the local rank modulo the devices */
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
    device_choice(src, 0, "local-rank", 3 % count);
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");

    /* the device API runs where its buffers are, current device and GPULZ_DEVICE aside */
    device_api(src, (size_t)5 << 20, 1, 1, NULL);
    device_api(src, (size_t)5 << 20, 1, 0, NULL);
    device_api(src, (size_t)5 << 20, 1, 0, "0");
    device_api(src, (size_t)5 << 20, 0, 1, "1");

    /* buffers on two devices: refused, not run */
    {
        void *a = NULL, *b = NULL;
        size_t len = 0;
        gpulz_params p;
        params_for(&p, 2, 128, GPULZ_BACKEND_GPU);
        cudaSetDevice(0);
        cudaMalloc(&a, (size_t)1 << 20);
        cudaSetDevice(1);
        cudaMalloc(&b, (size_t)2 << 20);
        int rc = gpulz_compress_device(a, (size_t)1 << 20, b, (size_t)2 << 20, &len, &p, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_PARAM, "src on device 0, dst on device 1: %d, not GPULZ_ERR_PARAM", rc);
        cudaFree(b);
        cudaSetDevice(0);
        cudaFree(a);
    }

    pthread_t th[2];
    for (int d = 0; d < 2; d++)
        pthread_create(&th[d], NULL, worker, (void *)(intptr_t)d);
    for (int d = 0; d < 2; d++)
        pthread_join(th[d], NULL);

    char bad[16];
    snprintf(bad, sizeof bad, "%d", count);
    setenv("GPULZ_DEVICE", bad, 1);
    gpulz_params p;
    params_for(&p, 2, 128, GPULZ_BACKEND_GPU);
    size_t bound = gpulz_compress_bound((size_t)1 << 20, &p), len = 0;
    uint8_t *dst = malloc(bound);
    int rc = gpulz_compress(src, (size_t)1 << 20, dst, bound, &len, &p);
    CHECK(rc == GPULZ_ERR_NO_GPU, "GPULZ_DEVICE=%s with the GPU backend: %d", bad, rc);
    setenv("GPULZ_GPU_MIN_BYTES", "0", 1); /* the automatic backend must try the GPU */
    gpulz_backend ran = GPULZ_BACKEND_GPU;
    const char *why = "";
    CHECK(round_trip(src, (size_t)1 << 20, 2, 128, GPULZ_BACKEND_AUTO, &ran), "automatic backend");
    gpulz_last_backend(&why);
    CHECK(ran == GPULZ_BACKEND_CPU && strncmp(why, "GPU failed, CPU fallback", 24) == 0,
          "GPULZ_DEVICE=%s with the automatic backend: ran on %d (%s), not the CPU fallback", bad,
          (int)ran, why);
    /* a list that names a device twice is no usable GPU either, and says why */
    setenv("GPULZ_DEVICE", "1,1", 1);
    CHECK(!gpulz_gpu_available() && strstr(gpulz_last_error(), "GPULZ_DEVICE=1,1: device 1 is named twice"),
          "GPULZ_DEVICE=1,1 taken");
    unsetenv("GPULZ_GPU_MIN_BYTES");
    unsetenv("GPULZ_DEVICE");
    free(dst);
    free(src);

    if (failures) {
        fprintf(stderr, "gpu_multidev_test: %d failures\n", failures);
        return 1;
    }
    printf("gpu_multidev_test: all checks passed on %d GPUs\n", count);
    return 0;
}
