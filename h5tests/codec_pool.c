/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_pool.c - the thread pool of gpulz_parallel.h: every item runs
 * once, on a worker numbered below the count, each worker's items in
 * increasing order; a worker whose init fails is done without, the caller's
 * included, and the call fails with the caller's status only when no init
 * succeeded; an item's failure comes back with its detail; calls from
 * several threads at once, and from inside an item, finish; a child forked
 * while the pool works compresses with threads of its own.  "quick" (the
 * sanitizer run) does fewer rounds; "valgrind" fewer still and no fork: a
 * forked child's leak check counts what the parent's other threads hold;
 * "nofork" is quick without the forks, for the ASan build, whose runtime
 * (clang 14 here) can deadlock in a child forked while other threads
 * allocate: 1 run in 30 hung there, none in 200 without it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codec_testutil.h"
#include "datagen.h"
#include "gpulz_parallel.h"

#define ITEMS 5000
#define MAX_WORKERS 64

typedef struct trial {
    unsigned workers;
    atomic_uchar runs[ITEMS];
    uint64_t last[MAX_WORKERS]; /* each worker's last item + 1 */
    atomic_int bad_worker, out_of_order;
    unsigned fail_init_mask;    /* bit w % 32: worker w's init fails */
    uint64_t fail_item;         /* an item that fails, or ITEMS for none */
    int nested;                 /* each 500th item runs a job of its own */
    atomic_int nested_bad;
} trial;

static int trial_init(void *ctx, unsigned worker)
{
    trial *T = ctx;
    if (T->fail_init_mask >> (worker % 32) & 1)
        return gpulz_fail(GPULZ_ERR_NOMEM, "init of worker %u refused", worker);
    return GPULZ_OK;
}

static int count_item(void *ctx, unsigned worker, uint64_t item)
{
    (void)worker;
    atomic_fetch_add((atomic_int *)ctx, (int)item + 1);
    return 0;
}

static int trial_item(void *ctx, unsigned worker, uint64_t item)
{
    trial *T = ctx;
    if (worker >= T->workers) {
        atomic_store(&T->bad_worker, 1);
        return 0;
    }
    if (T->last[worker] > item)
        atomic_store(&T->out_of_order, 1);
    T->last[worker] = item + 1;
    atomic_fetch_add(&T->runs[item], 1);
    if (item == T->fail_item)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "item %llu refused", (unsigned long long)item);
    if (T->nested && item % 500 == 0) {
        atomic_int sum = 0;
        int rc = gpulz_parallel_for(100, 4, 1, NULL, count_item, &sum);
        if (rc != 0 || atomic_load(&sum) != 5050)
            atomic_store(&T->nested_bad, 1);
    }
    return 0;
}

/* One call; returns its status, the failures in *fails. */
static int run_trial(trial *T, unsigned workers, unsigned grain, unsigned fail_init_mask,
                     uint64_t fail_item, int nested, unsigned long *fails)
{
    memset(T, 0, sizeof *T);
    T->workers = workers;
    T->fail_init_mask = fail_init_mask;
    T->fail_item = fail_item;
    T->nested = nested;
    int rc = gpulz_parallel_for(ITEMS, workers, grain, trial_init, trial_item, T);
    if (atomic_load(&T->bad_worker) || atomic_load(&T->out_of_order) || atomic_load(&T->nested_bad))
        ++*fails;
    if (rc == GPULZ_OK)
        for (unsigned i = 0; i < ITEMS; i++)
            if (atomic_load(&T->runs[i]) != 1) {
                ++*fails;
                break;
            }
    return rc;
}

static void semantics(void)
{
    static trial T;
    static const unsigned counts[] = {1, 2, 3, 8, MAX_WORKERS};
    unsigned long fails = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (unsigned grain = 1; grain <= 4; grain *= 4) {
            unsigned w = counts[c];
            TU_CHECK(run_trial(&T, w, grain, 0, ITEMS, 0, &fails) == GPULZ_OK && !fails,
                     "%u workers, grain %u: items lost, repeated, out of order or on a bad worker", w,
                     grain);
            /* odd workers, then the caller alone, cannot set themselves up */
            TU_CHECK(run_trial(&T, w, grain, 0xAAAAAAAAu, ITEMS, 0, &fails) == GPULZ_OK && !fails,
                     "%u workers, grain %u, odd inits failing: %s", w, grain, gpulz_last_error());
            if (w > 1)
                TU_CHECK(run_trial(&T, w, grain, 1, ITEMS, 0, &fails) == GPULZ_OK && !fails,
                         "%u workers, grain %u, the caller's init failing: %s", w, grain,
                         gpulz_last_error());
            tu_clear_error();
            TU_CHECK(run_trial(&T, w, grain, ~0u, ITEMS, 0, &fails) == GPULZ_ERR_NOMEM &&
                         strstr(gpulz_last_error(), "init of worker 0 refused"),
                     "%u workers, every init failing: \"%s\"", w, gpulz_last_error());
            tu_clear_error();
            TU_CHECK(run_trial(&T, w, grain, 0, 1234, 0, &fails) == GPULZ_ERR_CORRUPT &&
                         strstr(gpulz_last_error(), "item 1234 refused"),
                     "%u workers, an item failing: \"%s\"", w, gpulz_last_error());
            TU_CHECK(run_trial(&T, w, grain, 0, ITEMS, 1, &fails) == GPULZ_OK && !fails,
                     "%u workers, grain %u, jobs inside items", w, grain);
        }
}

/* Calls from several threads at once: the pool serves some, the others
 * start threads of their own. */
typedef struct caller {
    pthread_t tid;
    unsigned rounds, seed;
    unsigned long fails;
} caller;

static void *caller_main(void *arg)
{
    caller *C = arg;
    trial *T = tu_xmalloc(sizeof *T);
    for (unsigned r = 0; r < C->rounds; r++) {
        unsigned w = 1 + (C->seed + 7 * r) % 12;
        if (run_trial(T, w, 1 + r % 4, 0, ITEMS, r % 5 == 0, &C->fails) != GPULZ_OK)
            C->fails++;
    }
    free(T);
    return NULL;
}

static void concurrent_calls(unsigned rounds)
{
    caller callers[4];
    for (unsigned i = 0; i < 4; i++) {
        callers[i] = (caller){.rounds = rounds, .seed = i};
        TU_CHECK(pthread_create(&callers[i].tid, NULL, caller_main, &callers[i]) == 0, "thread %u", i);
    }
    for (unsigned i = 0; i < 4; i++) {
        pthread_join(callers[i].tid, NULL);
        TU_CHECK(callers[i].fails == 0, "concurrent caller %u: %lu failed calls", i, callers[i].fails);
    }
}

/* 4 MiB of 256-symbol blocks: work for several threads. */
#define INPUT ((size_t)4 << 20)

static int codec_round(const uint8_t *in, const uint8_t *ref, size_t ref_len, unsigned threads)
{
    gpulz_params p;
    tu_params(&p, 2, 128, 256, threads);
    size_t cap = gpulz_compress_bound(INPUT, &p), len = 0, back_len = 0;
    uint8_t *out = malloc(cap), *back = malloc(INPUT);
    int ok = out && back && gpulz_compress(in, INPUT, out, cap, &len, &p) == GPULZ_OK && len == ref_len &&
             memcmp(out, ref, len) == 0 &&
             gpulz_decompress(out, len, back, INPUT, &back_len, &p) == GPULZ_OK && back_len == INPUT &&
             memcmp(back, in, INPUT) == 0;
    free(out);
    free(back);
    return ok;
}

typedef struct busy {
    pthread_t tid;
    atomic_int stop;
    unsigned long fails;
} busy;

static void *busy_main(void *arg)
{
    busy *B = arg;
    trial *T = tu_xmalloc(sizeof *T);
    while (!atomic_load(&B->stop))
        if (run_trial(T, 8, 1, 0, ITEMS, 0, &B->fails) != GPULZ_OK)
            B->fails++;
    free(T);
    return NULL;
}

/* Forks while another thread keeps the pool working: the child has neither
 * that thread nor the pool's, and compresses with threads of its own. */
static void fork_trials(const uint8_t *in, const uint8_t *ref, size_t ref_len, unsigned forks)
{
    busy B = {.stop = 0};
    TU_CHECK(pthread_create(&B.tid, NULL, busy_main, &B) == 0, "busy thread");
    for (unsigned f = 0; f < forks; f++) {
        pid_t pid = fork();
        if (pid == 0) {
            /* a pool that still counted the parent's threads would leave a
             * call whose own init fails waiting for them */
            alarm(60);
            unsigned long fails = 0;
            trial *T = malloc(sizeof *T);
            int ok = T && run_trial(T, 8, 4, 0, ITEMS, 1, &fails) == GPULZ_OK &&
                     run_trial(T, 8, 1, 1, ITEMS, 0, &fails) == GPULZ_OK && !fails &&
                     codec_round(in, ref, ref_len, 4) && codec_round(in, ref, ref_len, 0);
            _exit(ok ? 0 : 1);
        }
        int status = 0;
        TU_CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                     WEXITSTATUS(status) == 0,
                 "fork %u: the child failed (status %d)", f, status);
    }
    atomic_store(&B.stop, 1);
    pthread_join(B.tid, NULL);
    TU_CHECK(B.fails == 0, "the busy thread: %lu failed calls", B.fails);
}

int main(int argc, char **argv)
{
    int under_valgrind = argc > 1 && strcmp(argv[1], "valgrind") == 0;
    int no_fork = under_valgrind || (argc > 1 && strcmp(argv[1], "nofork") == 0);
    int quick = no_fork || (argc > 1 && strcmp(argv[1], "quick") == 0);
    semantics();
    concurrent_calls(quick ? 10 : 100);

    uint8_t *in = tu_xmalloc(INPUT);
    gpulz_gen("records", in, INPUT, 5);
    gpulz_params p;
    size_t ref_len = 0;
    tu_params(&p, 2, 128, 256, 1);
    uint8_t *ref = tu_compress(in, INPUT, &p, &ref_len);
    if (ref) {
        TU_CHECK(codec_round(in, ref, ref_len, 0) && codec_round(in, ref, ref_len, 8),
                 "threads wrote other bytes than one thread");
        if (!no_fork)
            fork_trials(in, ref, ref_len, quick ? 2 : 10);
    }
    free(in);
    free(ref);
    return tu_finish("codec_pool");
}
