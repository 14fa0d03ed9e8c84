/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_kernel_bench.cu - where the GPU encoder's time goes: the encode kernel's
 * steps (gpu_encode.cuh) run up to each one (load, match keys, walk, all),
 * timed with CUDA events on 256 MB of quant data.  A tuning aid, built by hand:
 *   nvcc -O3 -arch=sm_90 -std=c++17 -Ikernels -Itools -I. \
 *        bench/gpu_kernel_bench.cu tools/datagen.c -o gpu_kernel_bench
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" {
#include "datagen.h"
}
#include "gpu_encode.cuh"

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e_));             \
            exit(99);                                                                              \
        }                                                                                          \
    } while (0)

/* The encode kernel's steps up to STOP (1 load, 2 match keys, 3 walk, 9
 * all); a value from the last step run is kept so that none is optimised
 * away. */
template <typename Sym, int G, int STOP>
__global__ void __launch_bounds__(256) steps_kernel(gpulz_enc_args a)
{
    extern __shared__ __align__(16) uint8_t smem[];
    const gpulz_enc_smem lay = gpulz_enc_smem_layout(a.C, sizeof(Sym));
    const unsigned lmin = gpulz_min_match(sizeof(Sym));
    const uint64_t k = a.k0 + blockIdx.x;
    const Sym *sym = (const Sym *)smem;
    uint16_t *key = (uint16_t *)(smem + lay.key);
    const unsigned c = gpulz_enc_load<Sym>(a, k, smem, lay);
    if (STOP == 1) {
        if (threadIdx.x == 0)
            a.size[k] = (uint64_t)sym[0];
        return;
    }
    gpulz_enc_keys<Sym, G>(sym, key, c, a.W);
    if (STOP == 2) {
        if (threadIdx.x == 0)
            a.size[k] = key[0] + key[c / 2];
        return;
    }
    unsigned T, M;
    gpulz_enc_walk(key, (uint32_t *)(smem + lay.starts), c, lmin, &T, &M);
    if (STOP == 3) {
        if (threadIdx.x == 0)
            a.size[k] = T + M;
        return;
    }
    gpulz_enc_store<Sym>(a, k, smem, lay, c, T, M, lmin);
}

template <typename Sym, int G, int STOP>
static float run(gpulz_enc_args a, uint64_t nb, unsigned seg)
{
    void (*k)(gpulz_enc_args) = STOP == 9 ? gpulz_encode_kernel<Sym, G> : steps_kernel<Sym, G, STOP>;
    size_t smem = gpulz_enc_smem_layout(a.C, sizeof(Sym)).total;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    int per_sm = 0;
    unsigned threads = 32 * gpulz_enc_warps(a.C, seg);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float best = 1e30f;
    for (int r = 0; r < 4; r++) {
        CK(cudaEventRecord(e0));
        k<<<(unsigned)nb, threads, smem>>>(a);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r > 0 && ms < best)
            best = ms;
    }
    printf("    stop %d: %8.3f ms  (%d blocks of %u threads per SM)\n", STOP, best, per_sm, threads);
    return best;
}

template <typename Sym, int G>
static void config(const uint8_t *d_src, uint8_t *d_slot, uint32_t *d_entry, uint64_t *d_size, size_t n,
                   unsigned W, unsigned block_bytes, unsigned seg)
{
    gpulz_enc_args a;
    a.src = d_src;
    a.slot = d_slot;
    a.entry = d_entry;
    a.size = d_size;
    a.m = n / sizeof(Sym);
    a.k0 = 0;
    a.C = block_bytes / sizeof(Sym);
    a.W = W;
    uint64_t nb = (a.m + a.C - 1) / a.C;
    printf("S=%zu W=%u block %u bytes, %u symbols per warp:\n", sizeof(Sym), W, block_bytes, seg);
    float t[4];
    t[0] = run<Sym, G, 1>(a, nb, seg);
    t[1] = run<Sym, G, 2>(a, nb, seg);
    t[2] = run<Sym, G, 3>(a, nb, seg);
    t[3] = run<Sym, G, 9>(a, nb, seg);
    printf("    all: %.1f GB/s; load %.0f%%, match %.0f%%, walk %.0f%%, write %.0f%%\n", n / (t[3] * 1e6),
           100 * t[0] / t[3], 100 * (t[1] - t[0]) / t[3], 100 * (t[2] - t[1]) / t[3],
           100 * (t[3] - t[2]) / t[3]);
}

int main(void)
{
    size_t n = 256000000;
    uint8_t *h = (uint8_t *)malloc(n), *d_src, *d_slot;
    uint32_t *d_entry;
    uint64_t *d_size;
    gpulz_gen("quant", h, n, 42);
    CK(cudaMalloc(&d_src, n));
    CK(cudaMalloc(&d_slot, n));
    CK(cudaMalloc(&d_entry, n / 64));
    CK(cudaMalloc(&d_size, n / 32));
    CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
    config<uint32_t, 1>(d_src, d_slot, d_entry, d_size, n, 32, 4096, 2048);
    config<uint32_t, 1>(d_src, d_slot, d_entry, d_size, n, 32, 2048, 2048);
    config<uint16_t, 4>(d_src, d_slot, d_entry, d_size, n, 128, 4096, 2048);
    config<uint16_t, 4>(d_src, d_slot, d_entry, d_size, n, 128, 4096, 1024);
    config<uint16_t, 1>(d_src, d_slot, d_entry, d_size, n, 32, 4096, 2048);
    config<uint8_t, 4>(d_src, d_slot, d_entry, d_size, n, 128, 4096, 2048);
    return 0;
}
