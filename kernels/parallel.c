/*
 * parallel.c - spread independent blocks over CPU cores with pthreads.
 * Blocks differ in cost (a run of zeros is cheap, noise is not), so items are
 * handed out from a shared counter in small batches rather than in fixed
 * ranges.
 *
 * The thread count is a ceiling, not a promise: a thread that cannot be
 * created, or whose working memory cannot be allocated, is done without and
 * the others take its share.  A call fails for lack of resources only when
 * no worker at all, the caller's thread included, could set itself up.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_codec.h"

#define BATCH 4

typedef struct pool {
    gpulz_worker_init_fn init;
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

/* Take batches of items until none is left or an item fails. */
static void take_items(pool *P, unsigned id)
{
    while (atomic_load(&P->status) == 0) {
        uint64_t first = atomic_fetch_add(&P->next, BATCH);
        if (first >= P->items)
            break;
        uint64_t last = first + BATCH < P->items ? first + BATCH : P->items;
        for (uint64_t it = first; it < last; it++) {
            int rc = P->fn(P->ctx, id, it);
            if (rc != 0) {
                int expected = 0;
                if (atomic_compare_exchange_strong(&P->status, &expected, rc)) {
                    pthread_mutex_lock(&P->lock);
                    strncpy(P->detail, gpulz_last_error(), sizeof P->detail - 1);
                    pthread_mutex_unlock(&P->lock);
                }
                return;
            }
        }
    }
}

static void *thread_main(void *arg)
{
    worker_arg *a = arg;
    /* a worker without its working memory takes no items: the others do them */
    if (a->P->init && a->P->init(a->P->ctx, a->id) != 0)
        return NULL;
    take_items(a->P, a->id);
    return NULL;
}

int gpulz_parallel_for(uint64_t items, unsigned workers, gpulz_worker_init_fn init,
                       gpulz_item_fn fn, void *ctx)
{
    pool P = {.init = init, .fn = fn, .ctx = ctx, .items = items};
    atomic_init(&P.next, 0);
    atomic_init(&P.status, 0);
    pthread_mutex_init(&P.lock, NULL);
    /* the calling thread is worker 0; without room for the records of the
     * others it works alone */
    pthread_t *tid = workers > 1 ? calloc(workers, sizeof *tid) : NULL;
    worker_arg *args = workers > 1 ? calloc(workers, sizeof *args) : NULL;
    unsigned started = 0;
    if (tid && args) {
        /* a thread that cannot be created (no memory for its stack, a
         * process limit) is one worker fewer */
        for (unsigned w = 1; w < workers; w++) {
            args[w] = (worker_arg){&P, w};
            if (pthread_create(&tid[w], NULL, thread_main, &args[w]) != 0)
                break;
            started = w;
        }
    }
    int init_rc = init ? init(ctx, 0) : 0;
    if (init_rc == 0)
        take_items(&P, 0);
    for (unsigned w = 1; w <= started; w++)
        pthread_join(tid[w], NULL);
    int rc = atomic_load(&P.status);
    if (rc != 0)
        gpulz_fail(rc, "%s", P.detail);
    else if (atomic_load(&P.next) < items)
        /* worker 0 takes items until none is left, so some remain only when
         * its init failed (the detail is in this thread's error) and no
         * other worker could take them */
        rc = init_rc;
    free(tid);
    free(args);
    pthread_mutex_destroy(&P.lock);
    return rc;
}
