/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hostbw.c - the host's ceilings for direct chunk reads from pageable
 * buffers: bytes copied per second by T threads (memcpy between buffers of
 * their own, pre-touched), device-to-host copies into pinned memory from
 * each GPU alone and from all at once, and both at the same time.
 * Build: cc -O2 -std=gnu11 -I$CUDA/include hostbw.c -L$CUDA/lib64 -lcudart -lpthread
 */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK ((size_t)64 << 20)
static atomic_int stop;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

typedef struct { unsigned char *a, *b; double bytes; } cpu_job;
static void *cpu_run(void *arg)
{
    cpu_job *J = arg;
    while (!atomic_load(&stop)) { memcpy(J->b, J->a, BLOCK); J->bytes += BLOCK; }
    return NULL;
}
typedef struct { int dev; void *d; unsigned char *h; double bytes; } dma_job;
static void *dma_run(void *arg)
{
    dma_job *J = arg;
    cudaSetDevice(J->dev);
    cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    while (!atomic_load(&stop)) {
        for (int k = 0; k < 4; k++) cudaMemcpyAsync(J->h + k * BLOCK, (char *)J->d + k * BLOCK, BLOCK, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); J->bytes += 4.0 * BLOCK;
    }
    cudaStreamDestroy(s);
    return NULL;
}
static cpu_job cj[64]; static dma_job dj[8]; static int ngpu;
static void run(const char *name, int threads, int gpus, double secs)
{
    pthread_t th[72]; int n = 0;
    atomic_store(&stop, 0);
    for (int i = 0; i < threads; i++) { cj[i].bytes = 0; pthread_create(&th[n++], NULL, cpu_run, &cj[i]); }
    for (int g = 0; g < gpus; g++) { dj[g].bytes = 0; pthread_create(&th[n++], NULL, dma_run, &dj[g]); }
    double t0 = now();
    while (now() - t0 < secs) ;
    atomic_store(&stop, 1);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    double t = now() - t0, c = 0, d = 0;
    for (int i = 0; i < threads; i++) c += cj[i].bytes;
    for (int g = 0; g < gpus; g++) d += dj[g].bytes;
    printf("%-28s threads %2d gpus %d: memcpy %6.1f GB/s, device-to-pinned %6.1f GB/s\n", name, threads, gpus, c / t / 1e9, d / t / 1e9);
    fflush(stdout);
}
int main(void)
{
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) ngpu = 0;
    for (int i = 0; i < 32; i++) {
        cj[i].a = malloc(BLOCK); cj[i].b = malloc(BLOCK);
        memset(cj[i].a, i, BLOCK); memset(cj[i].b, 0, BLOCK);
    }
    for (int g = 0; g < ngpu && g < 8; g++) {
        dj[g].dev = g; cudaSetDevice(g);
        cudaMalloc(&dj[g].d, 4 * BLOCK); cudaMemset(dj[g].d, 1, 4 * BLOCK);
        cudaMallocHost((void **)&dj[g].h, 4 * BLOCK);
    }
    int T[] = {1, 2, 4, 8, 16, 24, 32};
    for (int i = 0; i < 7; i++) run("cpu", T[i], 0, 1.0);
    for (int g = 1; g <= ngpu && g <= 2; g++) run("dma", 0, g, 1.0);
    for (int g = 1; g <= ngpu && g <= 2; g++) { run("dma+cpu", 8, g, 1.0); run("dma+cpu", 16, g, 1.0); }
    return 0;
}
