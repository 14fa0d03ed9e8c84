/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_launch.cu - the one nvcc translation unit: the scratch plan (CUB's
 * scan sizes it), the kernels' instantiations, shared memory opt-in and the
 * launches the C files of the GPU backend call.  Kernels run on the stream
 * they are given; nothing here synchronises except the result read-backs.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>

#include "gpu_context.h"
#include "gpu_decode.cuh"
#include "gpu_encode.cuh"

/* ---- the scratch area ----------------------------------------------------- */

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

extern "C" int gpu_plan_make(uint64_t nb, uint64_t slot_bytes, gpu_scratch_plan *P)
{
    int rc = GPULZ_OK;
    size_t temp = 0;
    memset(P, 0, sizeof *P);
    gpu_touch(); /* the size query may start the CUDA runtime */
    GPULZ_CK(cub::DeviceScan::ExclusiveSum(NULL, temp, (uint64_t *)NULL, (uint64_t)(nb + 1)));
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
/* The sizes set so far, per device and kernel: a device keeps a kernel's
 * attributes, and the two calls cost a chunk's statistics, which set two
 * kernels', about 5 us of launches at every call. */
#define GPU_OPTIN_SEEN_MAX 64
static pthread_mutex_t optin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    const void *kernel;
    int device;
    size_t smem;
} optin_seen[GPU_OPTIN_SEEN_MAX];
static unsigned optin_count;

extern "C" int gpu_smem_optin(const gpu_ctx *c, const void *kernel, size_t smem)
{
    int rc = GPULZ_OK;
    unsigned i = 0;
    if (smem > gpu_smem_most(c))
        return gpulz_fail(GPULZ_ERR_CUDA, "a block needs %zu bytes of shared memory; the device has %zu",
                          smem, gpu_smem_most(c));
    pthread_mutex_lock(&optin_lock);
    while (i < optin_count && (optin_seen[i].kernel != kernel || optin_seen[i].device != c->device))
        i++;
    if (i < optin_count && optin_seen[i].smem >= smem)
        goto done;
    GPULZ_CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    GPULZ_CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared));
    if (i == optin_count && i < GPU_OPTIN_SEEN_MAX)
        optin_seen[optin_count++] = {kernel, c->device, smem};
    else if (i < optin_count)
        optin_seen[i].smem = smem;
done:
    pthread_mutex_unlock(&optin_lock);
    return rc;
}

/* Encode blocks [k0, k1) of the input already on the device, seg symbols
 * per warp (gpu_enc_segment() or shorter). */
extern "C" int gpu_enc_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *scratch,
                      const gpu_scratch_plan *P, uint64_t k0, uint64_t k1, unsigned seg, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const unsigned S = L->symbol_size, C = L->block_symbols;
    const size_t smem = gpulz_enc_smem_layout(C, S).total;
    enc_kernel_t kern = enc_kernel(S, L->window);
    if ((rc = gpu_smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
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
        uint64_t nblk = k1 - k0 < c->pol.max_grid ? k1 - k0 : c->pol.max_grid;
        a.k0 = k0;
        kern<<<(unsigned)nblk, 32 * gpulz_enc_warps(C, seg), smem, st>>>(a);
        GPULZ_CK(cudaGetLastError());
        k0 += nblk;
    }
done:
    return rc;
}

/*
 * After every block is encoded: scan the sizes, move the blocks into d_dst,
 * write header and tail; the error word and the length are left in the
 * scratch's status words, nothing waited for.
 */
extern "C" int gpu_enc_finish_enqueue(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst,
                                      size_t dst_cap, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t nb = L->blocks;
    uint64_t *size = (uint64_t *)(scratch + P->size);
    unsigned *err = (unsigned *)(scratch + P->status);
    uint64_t *len = (uint64_t *)(scratch + P->status + 8);
    size_t temp = P->temp_bytes;
    gpulz_header_bytes h;
    gpulz_header_write(h.b, L);
    GPULZ_CK(cudaMemsetAsync(size + nb, 0, sizeof(uint64_t), st));
    /* the error word and its padding: the status read-back copies both words */
    GPULZ_CK(cudaMemsetAsync(err, 0, 2 * sizeof(uint64_t), st));
    GPULZ_CK(cub::DeviceScan::ExclusiveSum(scratch + P->temp, temp, size, (uint64_t)(nb + 1), st));
    if (nb) {
        uint64_t grid = nb < c->pol.max_grid ? nb : c->pol.max_grid;
        gpulz_compact_kernel<<<(unsigned)grid, 256, 0, st>>>(
            d_src, scratch + P->slot, (const uint32_t *)(scratch + P->entry), size, d_dst, dst_cap,
            L->table_end, nb, L->tail, L->block_symbols, L->symbol_size);
        GPULZ_CK(cudaGetLastError());
    }
    gpulz_finish_kernel<<<1, 32, 0, st>>>(h, d_src, size, d_dst, dst_cap, L->table_end, nb,
                                          L->symbols * L->symbol_size, L->tail, len, err);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_enc_status(const uint64_t words[2], size_t dst_cap, size_t *dst_len)
{
    *dst_len = (size_t)words[1]; /* also when it does not fit: adaptive compares lengths */
    if ((unsigned)words[0] == GPULZ_DEV_ERR_DST)
        return gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %llu exceeds the output capacity %zu",
                          (unsigned long long)words[1], dst_cap);
    return GPULZ_OK;
}

extern "C" int gpu_enc_finish(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, uint8_t *d_dst,
                              size_t dst_cap, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st,
                              size_t *dst_len)
{
    uint64_t *h_status = c->h_status;
    int rc = gpu_enc_finish_enqueue(c, L, d_src, d_dst, dst_cap, scratch, P, st);
    if (rc != GPULZ_OK)
        return rc;
    GPULZ_CK(cudaMemcpyAsync(h_status, scratch + P->status, 16, cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    rc = gpu_enc_status(h_status, dst_cap, dst_len);
done:
    return rc;
}

/* ---- decompression on the device ---------------------------------------- */

static void dec_args_make(const gpulz_layout *L, const uint8_t *d_src, size_t n, uint8_t *d_dst,
                          uint8_t *scratch, const gpu_scratch_plan *P, gpulz_dec_args *a)
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

extern "C" int gpu_dec_prepare(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, size_t n, uint8_t *d_dst,
                               uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st)
{
    int rc = GPULZ_OK;
    gpulz_dec_args args;
    const gpulz_dec_args *a = &args;
    dec_args_make(L, d_src, n, d_dst, scratch, P, &args);
    const uint64_t nb = L->blocks;
    uint64_t *size = (uint64_t *)(scratch + P->size);
    size_t temp = P->temp_bytes;
    uint64_t grid = (nb + 1 + 255) / 256;
    if (grid > c->pol.max_grid)
        grid = c->pol.max_grid;
    GPULZ_CK(cudaMemsetAsync(a->err, 0, sizeof(unsigned), st));
    gpulz_table_sizes_kernel<<<(unsigned)grid, 256, 0, st>>>(a->src + GPULZ_HEADER_SIZE, nb, L->symbols,
                                                             L->block_symbols, L->symbol_size, size,
                                                             a->err);
    GPULZ_CK(cudaGetLastError());
    GPULZ_CK(cub::DeviceScan::ExclusiveSum(scratch + P->temp, temp, size, (uint64_t)(nb + 1), st));
    gpulz_dec_finish_kernel<<<1, 32, 0, st>>>(*a, nb, L->symbol_size);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_dec_launch(const gpu_ctx *c, const gpulz_layout *L, const uint8_t *d_src, size_t n,
                              uint8_t *d_dst, uint8_t *scratch, const gpu_scratch_plan *P, uint64_t k0,
                              uint64_t k1, cudaStream_t st)
{
    int rc = GPULZ_OK;
    gpulz_dec_args a;
    dec_args_make(L, d_src, n, d_dst, scratch, P, &a);
    const size_t smem = gpulz_dec_smem_layout(L->block_symbols, L->symbol_size).total;
    dec_kernel_t kern = dec_kernel(L->symbol_size);
    if ((rc = gpu_smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
        return rc;
    while (k0 < k1) {
        uint64_t nblk = k1 - k0 < c->pol.max_grid ? k1 - k0 : c->pol.max_grid;
        a.k0 = k0;
        kern<<<(unsigned)nblk, GPULZ_DEC_THREADS, smem, st>>>(a);
        GPULZ_CK(cudaGetLastError());
        k0 += nblk;
    }
done:
    return rc;
}

extern "C" int gpu_dec_status(uint64_t word)
{
    if ((unsigned)word == GPULZ_DEV_ERR_TRUNCATED)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "the chunk ends before the blocks its table declares");
    if ((unsigned)word != 0)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "the GPU decoder found a damaged block or table");
    return GPULZ_OK;
}

extern "C" int gpu_dec_result(const gpu_ctx *c, uint8_t *scratch, const gpu_scratch_plan *P, cudaStream_t st)
{
    uint64_t *h_status = c->h_status;
    int rc = GPULZ_OK;
    const unsigned *err = (const unsigned *)(scratch + P->status);
    GPULZ_CK(cudaMemcpyAsync(h_status, err, sizeof(unsigned), cudaMemcpyDeviceToHost, st));
    GPULZ_CK(cudaStreamSynchronize(st));
    rc = gpu_dec_status(h_status[0]);
done:
    return rc;
}
