/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_parallel.h - the one pool of threads (parallel.c): the CPU codec
 * spreads blocks over it, the GPU backend's staging the pieces of a copy
 * through pinned memory.  Internal: not installed.
 */
#ifndef GPULZ_PARALLEL_H
#define GPULZ_PARALLEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks a CPU worker takes at a time: blocks differ in cost (a run of
 * zeros is cheap, noise is not), so they are handed out in small batches
 * rather than in fixed ranges. */
#define GPULZ_BLOCK_GRAIN 4

/* The stack of each thread the library starts.  glibc's default is
 * RLIMIT_STACK, 8 MiB, reserved in the address space for as long as the
 * thread lives, and the pool keeps a thread per core: under an
 * address-space limit (ulimit -v) on a many-core machine those stacks left
 * too little for the chunk's own buffers.  The deepest path a worker runs,
 * a batch lane's whole GPU chunk call, takes well under 256 KiB (gcc
 * -fstack-usage); the rest is room for the CUDA runtime and the C library. */
#define GPULZ_THREAD_STACK ((size_t)2 << 20)
/* Online cores when first asked, 1..GPULZ_THREADS_MAX. */
unsigned gpulz_online_cores(void);

/* Workers for items blocks at grain GPULZ_BLOCK_GRAIN: threads (0: one per
 * online core, at most GPULZ_THREADS_MAX), fewer where some would get less
 * than a few batches. */
unsigned gpulz_worker_count(unsigned threads, uint64_t items);

/*
 * Run fn(ctx, worker, item) for item = 0..items-1 on up to workers threads,
 * the calling thread among them as worker 0, handing out grain items at a
 * time in increasing order from a shared counter.  worker is
 * 0..workers-1, so fn can index per-worker state; init (may be NULL) sets
 * that state up in each worker before it takes items.  The count is a
 * ceiling: a thread that cannot be had, or whose init fails, is done
 * without and the others take its share; the call fails, with the calling
 * thread's init status, only when no worker's init succeeded.  The first
 * nonzero return of fn stops the hand-out and is returned, with its detail
 * carried to the calling thread's gpulz_last_error().
 *
 * The threads come from a pool started on first need and kept, so a call
 * pays no thread creation; what the pool cannot give (it is busy with
 * another call, or smaller than workers) is started for the call and
 * joined at its end.  Calls from several threads at once, and from fn
 * itself, are fine.  A child forked while the pool runs starts a pool of
 * its own.
 */
typedef int (*gpulz_worker_init_fn)(void *ctx, unsigned worker);
typedef int (*gpulz_item_fn)(void *ctx, unsigned worker, uint64_t item);
int gpulz_parallel_for(uint64_t items, unsigned workers, unsigned grain, gpulz_worker_init_fn init,
                       gpulz_item_fn fn, void *ctx);
/*
 * The workers' memory, allocated on the calling thread: alloc(ctx, w) for
 * w = 0 .. *workers - 1 until one fails, *workers then the count that
 * succeeded; fails, with the first one's status, only when none did.
 * Workers that malloc nothing themselves leave the address space as it
 * was: glibc gives each thread that allocates an arena of its own, 64 MiB
 * of address space kept for the life of the process, and under an
 * address-space limit (ulimit -v) a many-thread call's arenas left too
 * little for the chunk's own buffers.  parallel_for's init is for what
 * must be set on the worker's thread (its CUDA device).
 */
int gpulz_workers_alloc(unsigned *workers, gpulz_worker_init_fn alloc, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_PARALLEL_H */
