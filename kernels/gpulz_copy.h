/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_copy.h - the library's copies of whole chunks in host memory: between
 * the caller's pageable buffers and the pinned staging (gpu_batch.c), and
 * between the caller's buffers and direct chunk I/O's (gpulz_h5direct.c).
 * Internal.
 */
#ifndef GPULZ_COPY_H
#define GPULZ_COPY_H

#include <stddef.h>

/* From this size on, a copy stores around the caches.  Below it the
 * destination may well be in cache already, and a plain copy is cheaper. */
#define GPULZ_COPY_BULK_MIN ((size_t)256 << 10)

/*
 * memcpy(dst, src, n) for buffers that do not overlap.  From
 * GPULZ_COPY_BULK_MIN bytes on, where the processor has them, with
 * non-temporal stores: a plain store first reads the destination's line, so a
 * copy of a chunk that is not in cache moves three times its size through the
 * host's memory, this one twice.  glibc's memcpy turns to such stores only
 * above a threshold of the order of the shared cache, which the 1-16 MiB
 * chunks of HDF5 are often under; and host memory is what bounds direct chunk
 * I/O from host buffers (bench/RESULTS.md, 2026-11-30).  The stores are
 * fenced before it returns, so a transfer queued after it, or another thread
 * told after it, sees the bytes.
 */
void gpulz_copy_bulk(void *restrict dst, const void *restrict src, size_t n);

#endif /* GPULZ_COPY_H */
