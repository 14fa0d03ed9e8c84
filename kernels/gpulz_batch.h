/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_batch.h - what the batched API (batch.c) shares with its GPU
 * pipeline for host buffers (gpu_batch.c with CUDA, gpu_none.c without).
 * Internal.
 */
#ifndef GPULZ_BATCH_H
#define GPULZ_BATCH_H

#include <pthread.h>

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One batch call: the caller's arrays as given, statuses never NULL. */
typedef struct gpulz_batch {
    int compress; /* 1: compress, 0: decompress */
    size_t count;
    const void *const *src;
    const size_t *src_len;
    void *const *dst;
    const size_t *dst_cap;
    size_t *dst_len;
    int *statuses;
    gpulz_params p; /* the caller's, or the defaults for decompression without */
    void *cuda_stream;
    /* the lowest-numbered failure and its detail, for the call's own error */
    pthread_mutex_t lock;
    size_t first_failed; /* count while none */
    char detail[256];
} gpulz_batch;

/* Record chunk i's status; a failure's detail is taken from the calling
 * thread's gpulz_last_error() when i is the lowest-numbered one so far. */
void gpulz_batch_done(gpulz_batch *B, size_t i, int rc);

/*
 * Every chunk of B, in host memory, through the GPU with pinned staging:
 * GPULZ_OK once each chunk has its status (which may be a failure), or the
 * status of a failure to set the pipeline up or run it, after which the
 * chunks' statuses and outputs mean nothing.
 */
int gpulz_batch_gpu_host(gpulz_batch *B);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_BATCH_H */
