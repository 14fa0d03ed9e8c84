/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_gpu.h - what the host API (codec.c) needs from the GPU backend.
 * Built from gpu_*.cu with CUDA, from gpu_none.c without.  Internal.
 */
#ifndef GPULZ_GPU_H
#define GPULZ_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "gpulz_chunk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build has a GPU backend and a device is usable now, else 0.
 * The first call starts CUDA (a forked child then loses the GPU). */
int gpulz_gpu_usable(void);

/*
 * 0 when no GPU is usable as far as is known without starting CUDA (no GPU
 * backend, a forked child, or a device query that found none), else 1.
 * Cheap and starts nothing, so the codec asks it for every input: a
 * process that only handles inputs below the GPU threshold never starts
 * CUDA and may still fork children that use the GPU.
 */
int gpulz_gpu_maybe_usable(void);

/* The device of the calling thread's last GPU call, -1 before any. */
int gpulz_gpu_last_device(void);

/* Smallest input (bytes) for which the auto backend tries the GPU:
 * GPULZ_GPU_MIN_BYTES, else GPULZ_GPU_MIN_BYTES_DEFAULT (gpulz_env.h). */
size_t gpulz_gpu_min_bytes(void);

/*
 * Host-buffer compression of one chunk with layout L into dst (capacity at
 * least gpulz_compress_bound()); same bytes as the CPU encoder.
 * GPULZ_ERR_NO_GPU or GPULZ_ERR_CUDA on failure, with nothing promised in dst.
 */
int gpulz_gpu_compress_host(const uint8_t *src, const gpulz_layout *L, uint8_t *dst, size_t *dst_len);

/* Format 2 chunks of the modes list[0, count) (fast, ratio; p's symbol
 * size, window, block size, flags) from the n bytes at src, sent to the
 * device once; the first of the shortest comes back into dst (cap bytes, at
 * least gpulz_v2_bound()). */
int gpulz_gpu_compress_v2_host(const uint8_t *src, size_t n, const gpulz_params *p, const gpulz_mode *list,
                               unsigned count, uint8_t *dst, size_t cap, size_t *dst_len);

/* Host-buffer decompression of a chunk whose header and table the chunk
 * driver checked into L, the stages included (gpulz_chunk_read_layout,
 * gpulz_chunk_decode_blocks). */
int gpulz_gpu_decompress_host(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst);

/* The stages the kernels implement.  A build without CUDA lists them too:
 * what a call there hears is that there is no GPU, not that a stage is
 * missing. */
#define GPULZ_GPU_STAGE_COUNT 5
extern const gpulz_stage_id gpulz_gpu_stages[GPULZ_GPU_STAGE_COUNT];

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_GPU_H */
