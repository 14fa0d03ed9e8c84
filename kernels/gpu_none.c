/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_none.c - the GPU backend of a build without CUDA: never usable. */
#include "gpulz_batch.h"
#include "gpulz_gpu.h"


int gpulz_gpu_usable(void)
{
    return 0;
}

int gpulz_gpu_available(void)
{
    gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
    return 0;
}

int gpulz_gpu_maybe_usable(void)
{
    return 0;
}

int gpulz_gpu_last_device(void)
{
    return -1;
}

size_t gpulz_gpu_min_bytes(void)
{
    return SIZE_MAX;
}

int gpulz_gpu_compress_host(const uint8_t *src, const gpulz_layout *L, uint8_t *dst, size_t *dst_len)
{
    (void)src, (void)L, (void)dst, (void)dst_len;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

int gpulz_gpu_compress_v2_host(const uint8_t *src, size_t n, const gpulz_params *p, const gpulz_mode *list,
                               unsigned count, uint8_t *dst, size_t cap, size_t *dst_len)
{
    (void)src, (void)n, (void)p, (void)list, (void)count, (void)dst, (void)cap, (void)dst_len;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

int gpulz_gpu_decompress_host(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst)
{
    (void)src, (void)n, (void)L, (void)dst;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

size_t gpulz_compress_device_scratch_size(size_t n, const gpulz_params *p)
{
    (void)n, (void)p;
    return 0;
}

int gpulz_compress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap, size_t *dst_len,
                          const gpulz_params *p, void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    (void)d_src, (void)n, (void)d_dst, (void)dst_cap, (void)dst_len, (void)p, (void)cuda_stream,
        (void)d_scratch, (void)scratch_size;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

size_t gpulz_decompress_device_scratch_size(size_t n)
{
    (void)n;
    return 0;
}

int gpulz_decompress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap, size_t *dst_len,
                            void *cuda_stream, void *d_scratch, size_t scratch_size)
{
    (void)d_src, (void)n, (void)d_dst, (void)dst_cap, (void)dst_len, (void)cuda_stream, (void)d_scratch,
        (void)scratch_size;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

int gpulz_batch_gpu_host(gpulz_batch *B)
{
    (void)B;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "this gpulz was built without CUDA");
}

int gpulz_batch_gpu_device(gpulz_batch *B, void *d_scratch, size_t scratch_size)
{
    (void)B, (void)d_scratch, (void)scratch_size;
    return GPULZ_OK; /* every chunk pending: the device API says why it cannot run */
}

int gpulz_batch_gpu_lanes(gpulz_batch *B)
{
    (void)B;
    return GPULZ_OK; /* every chunk still pending, as above */
}
