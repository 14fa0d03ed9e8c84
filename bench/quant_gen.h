/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * quant_gen.h - the benchmarks' quantization codes (tools/datagen's "quant"
 * kind), made in 64 MiB pieces, one seed each (seed + the piece's number),
 * over several threads: one thread would take longer than a measurement of
 * gigabytes.  Piece k is the same whoever makes it, so MPI ranks that each
 * make their own pieces of an array hold together the array that one
 * process makes (h5direct_bench and mpi_bench measure the same codes).
 */
#ifndef GPULZ_QUANT_GEN_H
#define GPULZ_QUANT_GEN_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "datagen.h"

#define QUANT_GEN_PIECE ((size_t)64 << 20)

typedef struct quant_gen_work {
    uint8_t *buf;
    size_t bytes;
    uint64_t seed; /* of the first piece */
    unsigned next_piece, pieces;
    pthread_mutex_t lock;
    int failed;
} quant_gen_work;

static void *quant_gen_worker(void *arg)
{
    quant_gen_work *G = arg;
    for (;;) {
        pthread_mutex_lock(&G->lock);
        unsigned k = G->next_piece++;
        pthread_mutex_unlock(&G->lock);
        if (k >= G->pieces)
            return NULL;
        size_t off = (size_t)k * QUANT_GEN_PIECE;
        size_t n = G->bytes - off < QUANT_GEN_PIECE ? G->bytes - off : QUANT_GEN_PIECE;
        if (gpulz_gen("quant", G->buf + off, n, G->seed + k) != 0) {
            pthread_mutex_lock(&G->lock);
            G->failed = 1;
            pthread_mutex_unlock(&G->lock);
        }
    }
}

/* bytes of codes into buf, from piece first_piece of the array of seed, on
 * up to threads threads (0: every core); 0, or -1 on a failure. */
static int quant_gen(uint8_t *buf, size_t bytes, uint64_t seed, uint64_t first_piece, unsigned threads)
{
    quant_gen_work G = {buf, bytes, seed + first_piece, 0,
                        (unsigned)((bytes + QUANT_GEN_PIECE - 1) / QUANT_GEN_PIECE), PTHREAD_MUTEX_INITIALIZER, 0};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned nthreads = threads ? threads : cores < 1 ? 1 : (unsigned)cores;
    pthread_t tid[64];
    unsigned started = 0;
    if (nthreads > 64)
        nthreads = 64;
    for (; started < nthreads; started++)
        if (pthread_create(&tid[started], NULL, quant_gen_worker, &G) != 0)
            break;
    if (started == 0)
        quant_gen_worker(&G);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&G.lock);
    return G.failed ? -1 : 0;
}

#endif /* GPULZ_QUANT_GEN_H */
