/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2.h - format 2 on the GPU (docs/FORMAT.md §11-19): what the C side
 * of the backend (gpu_v2.c) and the nvcc unit of its kernels
 * (gpu_v2_launch.cu) share.  The transform, the rANS segments of the
 * symbol streams and the checksum run on the device; the models are built on
 * the host from the device's histograms, by the CPU codec's own functions,
 * so both write the same bytes.  Internal.
 */
#ifndef GPULZ_GPU_V2_H
#define GPULZ_GPU_V2_H

#include <cuda_runtime_api.h>

#include "gpu_context.h"
#include "gpulz_entropy.h"
#include "gpulz_format2.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPU_V2_STREAMS_MAX 8 /* the symbol streams of a chunk: S planes at most */

/* The encoder's entry for a unit value: ESC << 31 | f << 16 | c (§16). */
#define GPU_V2_ENC_ESC 0x80000000u

/* One symbol stream of a chunk, as the kernels see it. */
typedef struct gpu_v2_stream {
    uint64_t N;      /* units: the symbols */
    uint64_t nseg;   /* rANS segments coded by the kernels (0 for stored and constant) */
    uint64_t seg0;   /* its first segment among the chunk's, in the per-segment arrays */
    uint64_t dir_at; /* rANS: where its directory starts in the chunk */
    uint64_t seg_at; /* rANS: where its first segment starts; stored: its units */
    unsigned kind, u, plane; /* GPULZ_STREAM_*, unit bytes, byte of the symbol with SPLIT */
    const uint32_t *enc;             /* encoding: per unit value (2^(8u)) */
    const gpulz_dec_table *dec;      /* decoding: the table */
    uint32_t constant;               /* a constant stream's value */
} gpu_v2_stream;

/* The chunk's symbol streams and what the kernels share. */
typedef struct gpu_v2_job {
    unsigned S, C, g, delta, split, count;
    uint64_t m;             /* whole symbols */
    gpu_v2_stream s[GPU_V2_STREAMS_MAX];
    uint32_t *words;        /* per segment of every stream: its words */
    uint64_t *seg_off;      /* per segment: its offset from its stream's first (scanned) */
    unsigned *err;          /* the device error word */
} gpu_v2_job;

/* The device scratch of a format 2 chunk: byte offsets into one area. */
typedef struct gpu_v2_plan {
    size_t hist, status, enc, dec, words, seg_off, temp, total;
    size_t hist_bins;  /* per transform */
    size_t temp_bytes; /* the scan's */
    uint64_t segs;     /* segments of all streams, at most */
} gpu_v2_plan;

/* The plan for n bytes of S-byte symbols in segments of 2^g units. */
int gpu_v2_plan_make(uint64_t n, unsigned S, unsigned g, gpu_v2_plan *P);

/* ---- the chunk (gpu_v2.c) ------------------------------------------------ */

/*
 * A format 2 chunk of mode fast from the n bytes at d_src into d_dst (p:
 * symbol size, block size, flags), with scratch of gpu_v2_plan's total;
 * *dst_len is the chunk's size also when GPULZ_ERR_DST_SIZE says it did not
 * fit.  Returns when the chunk is complete.
 */
int gpu_v2_compress(const uint8_t *d_src, size_t n, const gpulz_params *p, uint8_t *d_dst, size_t dst_cap,
                    uint8_t *scratch, size_t scratch_cap, cudaStream_t st, size_t *dst_len);

/*
 * Decode the format 2 chunk at d_src (n bytes, header read into L) into
 * d_dst (L->n bytes).  h_src is the chunk in host memory when there is one,
 * else NULL: the streams' headers, tables and directories are copied from
 * the device to be checked.  Every check of the CPU decoder is made.
 */
size_t gpu_v2_decompress_scratch(size_t n);
int gpu_v2_decompress(const uint8_t *d_src, const uint8_t *h_src, size_t n, const gpulz_layout *L,
                      uint8_t *d_dst, uint8_t *scratch, size_t scratch_cap, cudaStream_t st);

/* ---- launches (gpu_v2_launch.cu); all queue on st and return at once ---- */

/* The histograms of the symbols and of their deltas (§19): bins per
 * transform as gpu_v2_plan says, 64-bit counts at hist, zeroed here. */
int gpu_v2_hist(const uint8_t *d_src, uint64_t m, unsigned S, unsigned C, uint64_t *hist, size_t bins,
                cudaStream_t st);

/* §17: the sum of the pieces' terms of n bytes at d_data into *sum
 * (zeroed here); the host finishes it with gpulz_ck_final. */
int gpu_v2_checksum(const uint8_t *d_data, uint64_t n, unsigned S, unsigned C, uint32_t *sum,
                    cudaStream_t st);

/* The rANS streams' segments: with write = 0 their word counts (J->words);
 * with write = 1 their states, words and directories into d_dst, where
 * J->seg_off places them.  Stored streams' units are written too. */
int gpu_v2_encode(const gpu_v2_job *J, const uint8_t *d_src, uint8_t *d_dst, int write,
                  uint64_t max_segs, cudaStream_t st);

/* J->seg_off from J->words: sizes scanned over all segs segments. */
int gpu_v2_place(const gpu_v2_job *J, uint64_t segs, uint8_t *temp, size_t temp_bytes, cudaStream_t st);

/* Decode the streams of the chunk at d_src into d_dst (seg_off: each
 * segment's offset from its stream's first, words: its words, from the
 * directory the host checked), then undo the delta.  Errors in *J->err. */
int gpu_v2_decode(const gpu_v2_job *J, const uint8_t *d_src, uint8_t *d_dst, uint64_t max_segs,
                  cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_GPU_V2_H */
