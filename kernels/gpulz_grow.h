/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_grow.h - how far a cached buffer grows.  Internal: the library's
 * device and pinned buffers (gpu_context.c) and direct chunk I/O's host
 * buffers (gpulz_h5direct.c) share it.
 */
#ifndef GPULZ_GROW_H
#define GPULZ_GROW_H

#include <stddef.h>
#include <stdint.h>

/* The capacity to allocate for need bytes: an eighth more, so that the next,
 * slightly larger chunk finds room instead of a free and an allocation,
 * where that sum does not wrap past SIZE_MAX (then need itself). */
static inline size_t gpulz_grown(size_t need)
{
    return need + (need / 8 <= SIZE_MAX - need ? need / 8 : 0);
}

#endif /* GPULZ_GROW_H */
