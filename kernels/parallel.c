/*
 * parallel.c - spread independent blocks over CPU cores with pthreads.
 * Blocks differ in cost (a run of zeros is cheap, noise is not), so items are
 * handed out from a shared counter in small batches rather than in fixed
 * ranges.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_codec.h"

#define BATCH 4

typedef struct pool {
    gpulz_item_fn fn;
    void *ctx;
    uint64_t items;
    atomic_uint_fast64_t next;
    atomic_int status;           /* first failure, 0 while none */
    pthread_mutex_t lock;        /* guards detail */
    char detail[256];
} pool;

typedef struct worker_arg {
    pool *P;
    unsigned id;
} worker_arg;

unsigned gpulz_worker_count(unsigned threads, uint64_t items)
{
    if (threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (unsigned)cores : 1;
    }
    /* a worker with less than a few batches to do costs more than it saves */
    uint64_t useful = items / (2 * BATCH);
    if (useful < threads)
        threads = useful > 1 ? (unsigned)useful : 1;
    return threads;
}

static void *work(void *arg)
{
    worker_arg *a = arg;
    pool *P = a->P;
    while (atomic_load(&P->status) == 0) {
        uint64_t first = atomic_fetch_add(&P->next, BATCH);
        if (first >= P->items)
            break;
        uint64_t last = first + BATCH < P->items ? first + BATCH : P->items;
        for (uint64_t it = first; it < last; it++) {
            int rc = P->fn(P->ctx, a->id, it);
            if (rc != 0) {
                int expected = 0;
                if (atomic_compare_exchange_strong(&P->status, &expected, rc)) {
                    pthread_mutex_lock(&P->lock);
                    strncpy(P->detail, gpulz_last_error(), sizeof P->detail - 1);
                    pthread_mutex_unlock(&P->lock);
                }
                return NULL;
            }
        }
    }
    return NULL;
}

int gpulz_parallel_for(uint64_t items, unsigned workers, gpulz_item_fn fn, void *ctx)
{
    if (workers <= 1) {
        for (uint64_t it = 0; it < items; it++) {
            int rc = fn(ctx, 0, it);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    int rc = 0;
    pool P = {.fn = fn, .ctx = ctx, .items = items};
    atomic_init(&P.next, 0);
    atomic_init(&P.status, 0);
    pthread_mutex_init(&P.lock, NULL);
    pthread_t *tid = calloc(workers, sizeof *tid);
    worker_arg *args = calloc(workers, sizeof *args);
    unsigned started = 0;
    if (!tid || !args) {
        rc = gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate %u worker records", workers);
        goto done;
    }
    /* the calling thread is worker 0 */
    for (unsigned w = 1; w < workers; w++) {
        args[w] = (worker_arg){&P, w};
        if (pthread_create(&tid[w], NULL, work, &args[w]) != 0)
            break;
        started = w;
    }
    args[0] = (worker_arg){&P, 0};
    work(&args[0]);
    for (unsigned w = 1; w <= started; w++)
        pthread_join(tid[w], NULL);
    rc = atomic_load(&P.status);
    if (rc != 0)
        gpulz_fail(rc, "%s", P.detail);
done:
    free(tid);
    free(args);
    pthread_mutex_destroy(&P.lock);
    return rc;
}
