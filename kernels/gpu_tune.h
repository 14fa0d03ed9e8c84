/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_tune.h - hooks for the tests and benchmarks of the GPU backend: they
 * change how the work is split, never a compressed byte.  Internal: the
 * tests and bench/ link libgpulz_core; libgpulz and the plugin export only
 * gpulz_* names, so no application reaches these.
 */
#ifndef GPULZ_GPU_TUNE_H
#define GPULZ_GPU_TUNE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols per warp of the encoder's match search for every later call of
 * this process, instead of the launch policy's (0 restores it).  A power of
 * two from 256 to 16384, else GPULZ_ERR_PARAM. */
int gpu_tune_enc_segment(unsigned symbols_per_warp);

/* Groups of 8 symbols that S = 2's statistics read whole before they take
 * their window from a sample instead (GPU_V2_SAMPLE_GROUPS; 0 restores
 * it), for every later call of this process: the tests reach the sampled
 * window, and the values outside it, on small inputs. */
int gpu_tune_sample_groups(unsigned groups);

/* The most shared memory a block may ask for, in bytes, where that is
 * below the device's opt-in (0 restores the device's own), for every
 * later call of this process: the tests reach on any GPU what a smaller one
 * refuses (a launch refused part way through a call, the CPU's fallback). */
int gpu_tune_smem_most(size_t bytes);

/* Nonzero: S = 2's statistics are counted as on a device without room for
 * hist2's shared counters (gpu_v2_hist_ranged says no): every transform's
 * 2^16 counts come back whole, none packed or summarised; 0 restores the
 * default.  For every later call of this process: the tests reach on any
 * GPU the path that such devices take. */
int gpu_tune_unranged(int unranged);

/* Nonzero: a format 2 chunk's decoding checks its checksum with a pass of
 * its own over the decoded bytes, as where the passes that put them down
 * cannot sum it (gpu_v2_dec_sums); 0 restores the default.  For every
 * later call of this process: the tests compare both, the benchmarks time
 * both. */
int gpu_tune_ck_apart(int apart);

/* How many chunk copies host batches have made in place since the process
 * began: uploads from, and downloads into, the caller's pinned memory
 * (gpu_batch.c), so that the tests see that path taken. */
unsigned long long gpu_tune_in_place_copies(void);

/* How many host batches (and whole-batch retries) have gone through the GPU
 * since the process began (gpulz_batch_gpu_host), so that the tests see
 * which way the auto backend sent one. */
unsigned long long gpu_tune_host_batches(void);

/* Bytes of a piece of host batches' download ring (gpu_batch.c), for every
 * later batch of this process, instead of 2 MiB (0 restores it); from 256
 * bytes to 64 MiB, else GPULZ_ERR_PARAM.  The ring takes outputs of more
 * than four pieces: the tests reach it, its wrapping and its tails on small
 * chunks. */
int gpu_tune_ring_piece(size_t bytes);

/* How many chunks' outputs host batches have sent through that ring since
 * the process began (counted as each is sent, before its pieces come
 * down), so that the tests see which way each went. */
unsigned long long gpu_tune_ring_chunks(void);

/* Nonzero: a ratio chunk's decoding takes the CPU decoder's order from the
 * start (the flags first, their counts read back), as it does after the
 * streams decoded at once found anything amiss (gpu_v2_ratio.c); 0
 * restores the default.  For every later call of this process. */
int gpu_tune_ratio_careful(int careful);

/* How many ratio chunks since the process began were decoded again in the
 * CPU decoder's order after the streams decoded at once found them amiss:
 * the tests see a sound chunk never take that way, and a damaged one take it. */
unsigned long long gpu_tune_ratio_redone(void);

#ifdef __cplusplus
}
#endif

#endif
