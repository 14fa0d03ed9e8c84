/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_common.cuh - small device helpers shared by the GPU encoder and decoder.
 * Internal; included by gpu_launch.cu (and the emulator) only (one translation unit, no
 * relocatable device code).
 */
#ifndef GPULZ_GPU_COMMON_CUH
#define GPULZ_GPU_COMMON_CUH

#include <stdint.h>

#include "gpu_warp.cuh"
#include "gpulz_format.h"

/* Error codes a kernel leaves in the device error word (first one wins). */
#define GPULZ_DEV_ERR_CORRUPT 1u /* a block or the table breaks FORMAT.md §3-5 */
#define GPULZ_DEV_ERR_DST 2u     /* the output would not fit its capacity */
#define GPULZ_DEV_ERR_TRUNCATED 3u /* the blocks and tail the table declares end past the chunk */

/* Record an error for the host; only the first one is kept. */
__device__ __forceinline__ void gpulz_dev_error(unsigned *err, unsigned code)
{
    atomicCAS(err, 0u, code);
}

/*
 * Copy n bytes with all threads of the block.  When source and destination
 * are equally misaligned the bulk moves as 16-byte vectors, else as 4-byte
 * words where possible, else as bytes: inputs and outputs of the device API
 * may start at any address, and chunk blocks start at any byte.
 */
__device__ __forceinline__ void gpulz_block_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    const unsigned tid = threadIdx.x, nt = blockDim.x;
    uintptr_t ds = (uintptr_t)dst, ss = (uintptr_t)src;
    unsigned vec = ((ds ^ ss) & 15) == 0 ? 16 : ((ds ^ ss) & 3) == 0 ? 4 : 1;
    size_t head = vec == 1 ? n : (size_t)((vec - (ds & (vec - 1))) & (vec - 1));
    if (head > n)
        head = n;
    for (size_t i = tid; i < head; i += nt)
        dst[i] = src[i];
    if (vec == 1)
        return;
    size_t body = (n - head) / vec;
    if (vec == 16) {
        uint4 *d = (uint4 *)(dst + head);
        const uint4 *s = (const uint4 *)(src + head);
#pragma unroll 4
        for (size_t i = tid; i < body; i += nt)
            d[i] = s[i];
    } else {
        uint32_t *d = (uint32_t *)(dst + head);
        const uint32_t *s = (const uint32_t *)(src + head);
        for (size_t i = tid; i < body; i += nt)
            d[i] = s[i];
    }
    for (size_t i = head + body * vec + tid; i < n; i += nt)
        dst[i] = src[i];
}

#endif
