/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * parallel.c - spread independent items over threads (gpulz_parallel.h):
 * the CPU codec's blocks, the GPU staging's copy pieces.  Items are handed
 * out from a shared counter, a grain at a time.
 *
 * The thread count is a ceiling, not a promise: a thread that cannot be
 * created, or whose working memory cannot be allocated, is done without and
 * the others take its share.  A call fails for lack of resources only when
 * no worker at all, the caller's thread included, could set itself up.
 *
 * The threads are a pool, started on first need and kept: the GPU's host
 * path calls for a few copy threads per chunk, and creating them each time
 * would cost more than a small copy.  A call offers the pool seats in its
 * job; idle pool threads take them, and the call starts threads of its own
 * for what the pool cannot give.  A call never waits for a busy thread (its
 * seats come from idle ones), so calls from several threads, or from inside
 * an item, cannot deadlock.  The pool's threads run the library's code for as long as the
 * process lives: every shared object carrying it is linked with
 * -z nodelete (kernels/Makefile.inc, plugin/Makefile.inc), so a dlclose
 * never unmaps it under them.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulz_format.h"
#include "gpulz_parallel.h"

typedef struct job {
    gpulz_worker_init_fn init;
    gpulz_item_fn fn;
    void *ctx;
    uint64_t items;
    unsigned grain;
    unsigned workers;
    atomic_uint_fast64_t next;  /* the next item to hand out */
    atomic_uint next_worker;    /* the next helper's worker number */
    atomic_int status;          /* first failure, 0 while none */
    pthread_mutex_t lock;       /* guards detail */
    char detail[256];
    /* under the pool's lock */
    unsigned seats;             /* pool threads that may still join */
    unsigned inside;            /* pool threads working on it now */
    struct job *next_open;
} job;

/*
 * Every thread the pool started is idle and unpromised, promised to a job
 * (one of its seats), or inside a job: unpromised + seats + inside of the
 * open jobs = threads.  A job offers only unpromised threads, so each seat
 * has a thread that will take it.
 */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* seats were offered */
    pthread_cond_t left; /* a job lost its last pool thread or seat */
    job *open;           /* jobs offered seats, until their calls close them */
    unsigned threads, unpromised, cap;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0};

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;
static unsigned online_cores;

static void cores_count(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    online_cores = cores > 0 ? (cores < GPULZ_THREADS_MAX ? (unsigned)cores : GPULZ_THREADS_MAX) : 1;
}

unsigned gpulz_online_cores(void)
{
    /* read once: glibc reads /sys for it, and every chunk asks */
    pthread_once(&cores_once, cores_count);
    return online_cores;
}

unsigned gpulz_worker_count(unsigned threads, uint64_t items)
{
    if (threads == 0)
        threads = gpulz_online_cores();
    /* a worker with less than a few batches to do costs more than it saves */
    uint64_t useful = items / (2 * GPULZ_BLOCK_GRAIN);
    if (useful < threads)
        threads = useful > 1 ? (unsigned)useful : 1;
    return threads;
}

/* Take grains of items until none is left or an item fails. */
static void take_items(job *J, unsigned id)
{
    while (atomic_load(&J->status) == 0) {
        uint64_t first = atomic_fetch_add(&J->next, J->grain);
        if (first >= J->items)
            break;
        uint64_t last = J->items - first > J->grain ? first + J->grain : J->items;
        for (uint64_t it = first; it < last; it++) {
            int rc = J->fn(J->ctx, id, it);
            if (rc != 0) {
                int expected = 0;
                if (atomic_compare_exchange_strong(&J->status, &expected, rc)) {
                    pthread_mutex_lock(&J->lock);
                    strncpy(J->detail, gpulz_last_error(), sizeof J->detail - 1);
                    pthread_mutex_unlock(&J->lock);
                }
                return;
            }
        }
    }
}

/* A helper's part of a job: a worker number, its init, then items.  A
 * worker without its working memory takes no items: the others do them. */
static void help(job *J)
{
    unsigned id = atomic_fetch_add(&J->next_worker, 1);
    if (id >= J->workers || (J->init && J->init(J->ctx, id) != 0))
        return;
    take_items(J, id);
}

static int drained(job *J)
{
    return atomic_load(&J->next) >= J->items || atomic_load(&J->status) != 0;
}

/* A seat of an open job, under the lock.  A job with nothing left to hand
 * out gives its seats back: a thread joining it now would find no work. */
static job *take_seat(void)
{
    for (job *J = pool.open; J; J = J->next_open) {
        if (!J->seats)
            continue;
        if (drained(J)) {
            pool.unpromised += J->seats;
            J->seats = 0;
            if (!J->inside)
                pthread_cond_broadcast(&pool.left);
            continue;
        }
        J->seats--;
        J->inside++;
        return J;
    }
    return NULL;
}

static void *pool_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        job *J = take_seat();
        if (!J) {
            pthread_cond_wait(&pool.wake, &pool.lock);
            continue;
        }
        pthread_mutex_unlock(&pool.lock);
        help(J);
        pthread_mutex_lock(&pool.lock);
        pool.unpromised++;
        if (--J->inside == 0)
            pthread_cond_broadcast(&pool.left);
    }
    return NULL;
}

static void *call_main(void *arg)
{
    help(arg);
    return NULL;
}

/*
 * Start a thread with the application's signals blocked: a process-directed
 * signal then reaches one of the application's own threads, which may block
 * it around what its handler must not see half done (the gpulz command
 * does).  Faults stay with the thread that causes them.
 */
static int start_thread(pthread_t *tid, void *(*main_fn)(void *), void *arg, int detached)
{
    sigset_t all, old;
    pthread_attr_t attr;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGTRAP);
    sigdelset(&all, SIGSYS);
    if (pthread_attr_init(&attr) != 0)
        return -1;
    pthread_attr_setstacksize(&attr, GPULZ_THREAD_STACK);
    if (detached)
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(tid, &attr, main_fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return rc;
}

/* Around fork(): no pool thread holds the lock while the process is copied.
 * The child has none of the pool's threads, nor the callers of the open
 * jobs: it starts from an empty pool. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&pool.lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&pool.lock);
}

static void fork_child(void)
{
    pool.open = NULL;
    pool.threads = pool.unpromised = 0;
    /* waiters counted in the conditions are threads the child lacks */
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.left, NULL);
    pthread_mutex_unlock(&pool.lock);
}

static void pool_setup(void)
{
    /* the caller of a job is its worker 0: a thread per other core keeps
     * a default-sized job off threads of its own */
    pool.cap = gpulz_online_cores() - 1;
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Offer J up to helpers seats, growing the pool toward its cap when too few
 * of its threads are unpromised; returns the seats offered. */
static unsigned pool_offer(job *J, unsigned helpers)
{
    pthread_once(&pool_once, pool_setup);
    pthread_mutex_lock(&pool.lock);
    while (pool.unpromised < helpers && pool.threads < pool.cap) {
        pthread_t tid;
        if (start_thread(&tid, pool_main, NULL, 1) != 0)
            break; /* tried again by a later call */
        pool.threads++;
        pool.unpromised++;
    }
    unsigned seats = pool.unpromised < helpers ? pool.unpromised : helpers;
    if (seats) {
        pool.unpromised -= seats;
        J->seats = seats;
        J->next_open = pool.open;
        pool.open = J;
        for (unsigned s = 0; s < seats; s++)
            pthread_cond_signal(&pool.wake);
    }
    pthread_mutex_unlock(&pool.lock);
    return seats;
}

/*
 * Wait until no pool thread is inside J, which lives on its caller's
 * stack.  Untaken seats are withdrawn, except when the caller could not
 * set itself up (keep_seats): then every offered thread gets its turn.
 */
static void pool_close(job *J, int keep_seats)
{
    pthread_mutex_lock(&pool.lock);
    if (!keep_seats) {
        pool.unpromised += J->seats;
        J->seats = 0;
    }
    while (J->seats || J->inside)
        pthread_cond_wait(&pool.left, &pool.lock);
    job **at = &pool.open;
    while (*at != J)
        at = &(*at)->next_open;
    *at = J->next_open;
    pthread_mutex_unlock(&pool.lock);
}

int gpulz_parallel_for(uint64_t items, unsigned workers, unsigned grain, gpulz_worker_init_fn init,
                       gpulz_item_fn fn, void *ctx)
{
    job J = {.init = init, .fn = fn, .ctx = ctx, .items = items, .grain = grain ? grain : 1,
             .workers = workers ? workers : 1};
    atomic_init(&J.next, 0);
    atomic_init(&J.next_worker, 1);
    atomic_init(&J.status, 0);
    pthread_mutex_init(&J.lock, NULL);
    unsigned helpers = J.workers - 1;
    unsigned seats = helpers ? pool_offer(&J, helpers) : 0;
    /* what the pool cannot give, threads of the call's own; without room
     * for their records the call does with the pool's */
    unsigned own = helpers - seats, started = 0;
    pthread_t *tid = own ? calloc(own, sizeof *tid) : NULL;
    if (tid)
        while (started < own && start_thread(&tid[started], call_main, &J, 0) == 0)
            started++;
    int init_rc = init ? init(ctx, 0) : 0;
    if (init_rc == 0)
        take_items(&J, 0);
    if (seats)
        pool_close(&J, init_rc != 0);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    int rc = atomic_load(&J.status);
    if (rc != 0)
        gpulz_fail(rc, "%s", J.detail);
    else if (atomic_load(&J.next) < items)
        /* worker 0 takes items until none is left, so some remain only when
         * its init failed (the detail is in this thread's error) and no
         * other worker could take them */
        rc = init_rc;
    free(tid);
    pthread_mutex_destroy(&J.lock);
    return rc;
}

int gpulz_workers_alloc(unsigned *workers, gpulz_worker_init_fn alloc, void *ctx)
{
    unsigned w = 0;
    int rc = 0;
    while (w < *workers && (rc = alloc(ctx, w)) == 0)
        w++;
    if (w == 0)
        return rc;
    *workers = w;
    return 0;
}
