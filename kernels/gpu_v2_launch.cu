/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2_launch.cu - the nvcc unit of format 2's kernels: the scratch plan
 * (CUB's scan sizes it) and the launches gpu_v2.c calls.  Kernels run on
 * the stream they are given; nothing here synchronises.
 */
#include <cuda_runtime.h>
#include <string.h>

#include <cub/device/device_scan.cuh>

#include "gpu_v2.cuh"

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static unsigned sym_streams_max(unsigned S)
{
    return S == 1 ? 1 : S;
}

extern "C" int gpu_v2_plan_make(uint64_t n, unsigned S, unsigned g, gpu_v2_plan *P)
{
    int rc = GPULZ_OK;
    size_t temp = 0;
    const uint64_t m = n / S;
    const size_t enc_values = S == 2 ? 65536 : (size_t)sym_streams_max(S) * 256;
    memset(P, 0, sizeof *P);
    P->hist_bins = S == 1 ? 256 : S == 2 ? 65536 : (size_t)S * 256;
    P->segs = (uint64_t)sym_streams_max(S) * ((m >> g) + ((m & (((uint64_t)1 << g) - 1)) != 0));
    gpu_touch(); /* the size query may start the CUDA runtime */
    GPULZ_CK(cub::DeviceScan::ExclusiveSum(NULL, temp, (uint64_t *)NULL, (uint64_t)(P->segs + 1)));
    P->temp_bytes = temp;
    P->hist = 0;
    P->status = align256(P->hist + 2 * P->hist_bins * sizeof(uint64_t));
    P->enc = align256(P->status + 16);
    P->dec = align256(P->enc + enc_values * sizeof(uint32_t));
    P->words = align256(P->dec + (size_t)sym_streams_max(S) * sizeof(gpulz_dec_table));
    P->seg_off = align256(P->words + P->segs * sizeof(uint32_t));
    P->temp = align256(P->seg_off + (P->segs + 1) * sizeof(uint64_t));
    P->total = align256(P->temp + temp);
done:
    return rc;
}

static unsigned grid_for(uint64_t items, unsigned threads)
{
    uint64_t g = (items + threads - 1) / threads;
    return g < 1 ? 1 : g > 65535 * 16 ? 65535 * 16 : (unsigned)g;
}

extern "C" int gpu_v2_hist(const uint8_t *d_src, uint64_t m, unsigned S, unsigned C, uint64_t *hist, size_t bins,
                           cudaStream_t st)
{
    int rc = GPULZ_OK;
    unsigned long long *h = (unsigned long long *)hist;
    GPULZ_CK(cudaMemsetAsync(hist, 0, 2 * bins * sizeof(uint64_t), st));
    if (m) {
        /* a few blocks per SM: each flushes its shared counts once */
        unsigned grid = grid_for(m, 256 * 16);
        switch (S) {
        case 1: gpu_v2_hist_kernel<1><<<grid, 256, 0, st>>>(d_src, m, C, h, bins); break;
        case 2: gpu_v2_hist_kernel<2><<<grid, 256, 0, st>>>(d_src, m, C, h, bins); break;
        case 4: gpu_v2_hist_kernel<4><<<grid, 256, 0, st>>>(d_src, m, C, h, bins); break;
        default: gpu_v2_hist_kernel<8><<<grid, 256, 0, st>>>(d_src, m, C, h, bins); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_checksum(const uint8_t *d_data, uint64_t n, unsigned S, unsigned C, uint32_t *sum,
                               cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t m = n / S, nb = (m + C - 1) / C, pieces = nb + 1;
    GPULZ_CK(cudaMemsetAsync(sum, 0, sizeof *sum, st));
    gpu_v2_checksum_kernel<<<(unsigned)((pieces + 7) / 8), 256, 0, st>>>(d_data, (uint64_t)C * S, m * S, nb,
                                                                         n - m * S, sum);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_v2_encode(const gpu_v2_job *J, const uint8_t *d_src, uint8_t *d_dst, int write,
                             uint64_t max_segs, cudaStream_t st)
{
    int rc = GPULZ_OK;
    if (max_segs) {
        dim3 grid((unsigned)((max_segs + GPU_V2_WARPS - 1) / GPU_V2_WARPS), J->count);
#define ENC(SS)                                                                                        \
    (write ? gpu_v2_encode_kernel<SS, true><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst)     \
           : gpu_v2_encode_kernel<SS, false><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst))
        switch (J->S) {
        case 1: ENC(1); break;
        case 2: ENC(2); break;
        case 4: ENC(4); break;
        default: ENC(8); break;
        }
#undef ENC
        GPULZ_CK(cudaGetLastError());
    }
    if (write) {
        dim3 grid(grid_for(J->m, 256 * 8), J->count);
        switch (J->S) {
        case 1: gpu_v2_store_kernel<1><<<grid, 256, 0, st>>>(*J, d_src, d_dst); break;
        case 2: gpu_v2_store_kernel<2><<<grid, 256, 0, st>>>(*J, d_src, d_dst); break;
        case 4: gpu_v2_store_kernel<4><<<grid, 256, 0, st>>>(*J, d_src, d_dst); break;
        default: gpu_v2_store_kernel<8><<<grid, 256, 0, st>>>(*J, d_src, d_dst); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_place(const gpu_v2_job *J, uint64_t segs, uint8_t *temp, size_t temp_bytes, cudaStream_t st)
{
    int rc = GPULZ_OK;
    gpu_v2_sizes_kernel<<<grid_for(segs + 1, 256), 256, 0, st>>>(J->words, J->seg_off, segs);
    GPULZ_CK(cudaGetLastError());
    GPULZ_CK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, J->seg_off, (uint64_t)(segs + 1), st));
done:
    return rc;
}

extern "C" int gpu_v2_decode(const gpu_v2_job *J, const uint8_t *d_src, uint8_t *d_dst, uint64_t max_segs,
                             cudaStream_t st)
{
    int rc = GPULZ_OK;
    if (max_segs) {
        dim3 grid((unsigned)((max_segs + GPU_V2_WARPS - 1) / GPU_V2_WARPS), J->count);
        switch (J->S) {
        case 1: gpu_v2_decode_kernel<1><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst); break;
        case 2: gpu_v2_decode_kernel<2><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst); break;
        case 4: gpu_v2_decode_kernel<4><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst); break;
        default: gpu_v2_decode_kernel<8><<<grid, 32 * GPU_V2_WARPS, 0, st>>>(*J, d_src, d_dst); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
    {
        dim3 grid(grid_for(J->m, 256 * 8), J->count);
        gpu_v2_unstore_kernel<<<grid, 256, 0, st>>>(*J, d_src, d_dst);
        GPULZ_CK(cudaGetLastError());
    }
    if (J->delta && J->m) {
        const uint64_t nb = (J->m + J->C - 1) / J->C;
        switch (J->S) {
        case 1: gpu_v2_undelta_kernel<1><<<(unsigned)nb, GPU_V2_UNDELTA_THREADS, 0, st>>>(d_dst, J->m, J->C); break;
        case 2: gpu_v2_undelta_kernel<2><<<(unsigned)nb, GPU_V2_UNDELTA_THREADS, 0, st>>>(d_dst, J->m, J->C); break;
        case 4: gpu_v2_undelta_kernel<4><<<(unsigned)nb, GPU_V2_UNDELTA_THREADS, 0, st>>>(d_dst, J->m, J->C); break;
        default: gpu_v2_undelta_kernel<8><<<(unsigned)nb, GPU_V2_UNDELTA_THREADS, 0, st>>>(d_dst, J->m, J->C); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}
