/*
 * gpu_device.cu - the GPU backend: device discovery so far; the kernels
 * follow.  Compiled by nvcc through libtool, linked with the static CUDA
 * runtime, so a build with CUDA still loads on machines without it.
 */
#include <cuda_runtime.h>

#include "gpulz_gpu.h"

extern "C" int gpulz_gpu_usable(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

extern "C" size_t gpulz_gpu_min_bytes(void)
{
    return SIZE_MAX; /* the auto backend stays on the CPU until the kernels exist */
}

extern "C" int gpulz_gpu_compress_host(const uint8_t *src, const gpulz_layout *L, uint8_t *dst,
                                       size_t *dst_len)
{
    (void)src, (void)L, (void)dst, (void)dst_len;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "the GPU encoder is not built yet");
}

extern "C" int gpulz_gpu_decompress_host(const uint8_t *src, size_t n, const gpulz_layout *L,
                                         uint8_t *dst)
{
    (void)src, (void)n, (void)L, (void)dst;
    return gpulz_fail(GPULZ_ERR_NO_GPU, "the GPU decoder is not built yet");
}
