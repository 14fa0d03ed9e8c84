/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_concurrent.c - several application threads using the codec at once,
 * sharing its thread pool: each compresses inputs of every symbol size in
 * every mode with 0, 1, 2, 3, 7 and 64 threads, and batches of them with 0,
 * 1 and 3, and must get the bytes one thread wrote alone before the others
 * started (the format's rule: the thread count changes no byte), which
 * decode back.  Before each call a thread fails one of its own (a thread
 * count out of range, a different one per thread) and must read its own
 * count in gpulz_last_error() then and after the calls that succeed,
 * whatever the others failed meanwhile.
 */
#include <pthread.h>

#include "codec_testutil.h"
#include "datagen.h"

#define CALLERS 4
#define ROUNDS 3
#define INPUTS 4
#define MODES 4
/* 256-symbol blocks: 256 to 1024 per input, work for up to 64 workers */
#define BLOCK 256

static const char *const kinds[INPUTS] = {"quant", "records", "float", "runs"};
static const unsigned sizes[INPUTS] = {2, 1, 4, 1};
static const unsigned counts[] = {0, 1, 2, 3, 7, 64}, batch_counts[] = {0, 1, 3};
#define COUNTS (sizeof counts / sizeof counts[0])

static uint8_t *in[INPUTS];
static size_t in_len[INPUTS];
/* the chunks one thread wrote: of each input at its symbol size, and at
 * S = 1 (the batches') */
static uint8_t *ref[INPUTS][MODES], *ref1[INPUTS][MODES];
static size_t ref_len[INPUTS][MODES], ref1_len[INPUTS][MODES];

static void params(gpulz_params *p, unsigned S, int mode, unsigned threads)
{
    tu_params(p, S, 128, BLOCK, threads);
    p->mode = (gpulz_mode)mode;
    /* auto with the adaptive rule: its retry at S = 1 runs too */
    if (mode == GPULZ_MODE_AUTO)
        p->flags |= GPULZ_FLAG_ADAPTIVE;
}

typedef struct caller {
    pthread_t tid;
    unsigned id;
    unsigned long fails;
    char first[200]; /* the first failure, told by the main thread */
} caller;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void caller_fail(caller *C, const char *fmt, ...)
{
    if (!C->fails++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(C->first, sizeof C->first, fmt, ap);
        va_end(ap);
    }
}

/* The thread count out of range that caller C's failures name. */
static void own_count(const caller *C, char *text, size_t size)
{
    snprintf(text, size, "%u threads", GPULZ_THREADS_MAX + 1 + C->id);
}

/* A failure of this thread's own: its detail names this thread's count. */
static void own_error(caller *C)
{
    gpulz_params p;
    char want[32];
    size_t len = 0;
    uint8_t out[64];
    params(&p, 1, GPULZ_MODE_LZ, GPULZ_THREADS_MAX + 1 + C->id);
    own_count(C, want, sizeof want);
    int rc = gpulz_compress(in[0], 16, out, sizeof out, &len, &p);
    if (rc != GPULZ_ERR_PARAM || !strstr(gpulz_last_error(), want))
        caller_fail(C, "caller %u: %s returned %d, its detail '%s'", C->id, want, rc, gpulz_last_error());
}

/* Calls that succeed leave the detail of the thread's last failure, while
 * the other threads fail with counts of their own. */
static void still_own(caller *C, const char *after)
{
    char want[32];
    own_count(C, want, sizeof want);
    if (!strstr(gpulz_last_error(), want))
        caller_fail(C, "caller %u: after %s the detail is '%s', not its failure with %s", C->id, after,
                    gpulz_last_error(), want);
}

static void one(caller *C, int i, int mode, unsigned threads)
{
    gpulz_params p;
    params(&p, sizes[i], mode, threads);
    size_t cap = gpulz_compress_bound(in_len[i], &p), len = 0, back_len = 0;
    uint8_t *out = tu_xmalloc(cap), *back = tu_xmalloc(in_len[i]);
    int rc = gpulz_compress(in[i], in_len[i], out, cap, &len, &p);
    if (rc != GPULZ_OK || len != ref_len[i][mode] || memcmp(out, ref[i][mode], len) != 0)
        caller_fail(C, "caller %u: %s, mode %s, %u threads: %s (%zu bytes, one thread alone %zu)", C->id,
                    kinds[i], gpulz_mode_name(mode), threads,
                    rc == GPULZ_OK ? "other bytes" : gpulz_last_error(), len, ref_len[i][mode]);
    else if ((rc = gpulz_decompress(out, len, back, in_len[i], &back_len, &p)) != GPULZ_OK ||
             back_len != in_len[i] || memcmp(back, in[i], back_len) != 0)
        caller_fail(C, "caller %u: %s, mode %s, %u threads: no round trip (%s)", C->id, kinds[i],
                    gpulz_mode_name(mode), threads, rc == GPULZ_OK ? "other bytes" : gpulz_last_error());
    free(out);
    free(back);
}

static void batch(caller *C, int mode, unsigned threads)
{
    gpulz_params p;
    params(&p, 1, mode, threads);
    const void *src[INPUTS], *chunk[INPUTS];
    void *dst[INPUTS], *back[INPUTS];
    size_t cap[INPUTS], len[INPUTS], back_len[INPUTS];
    int status[INPUTS];
    for (int i = 0; i < INPUTS; i++)
        src[i] = in[i];
    if (!gpulz_compress_batch_bound(INPUTS, in_len, &p, cap)) {
        caller_fail(C, "caller %u: no batch bound: %s", C->id, gpulz_last_error());
        return;
    }
    for (int i = 0; i < INPUTS; i++) {
        dst[i] = tu_xmalloc(cap[i]);
        back[i] = tu_xmalloc(in_len[i]);
        chunk[i] = dst[i];
    }
    int rc = gpulz_compress_batch(INPUTS, src, in_len, dst, cap, len, status, &p, GPULZ_MEMORY_HOST, NULL,
                                  NULL, 0);
    for (int i = 0; rc == GPULZ_OK && i < INPUTS; i++)
        if (status[i] != GPULZ_OK || len[i] != ref1_len[i][mode] || memcmp(dst[i], ref1[i][mode], len[i]) != 0)
            rc = GPULZ_ERR_CORRUPT;
    if (rc != GPULZ_OK)
        caller_fail(C, "caller %u: batch, mode %s, %u threads: other bytes than one thread's (%d)", C->id,
                    gpulz_mode_name(mode), threads, rc);
    else if ((rc = gpulz_decompress_batch(INPUTS, chunk, len, back, in_len, back_len, status, &p,
                                          GPULZ_MEMORY_HOST, NULL, NULL, 0)) != GPULZ_OK)
        caller_fail(C, "caller %u: batch, mode %s, %u threads: %s", C->id, gpulz_mode_name(mode), threads,
                    gpulz_last_error());
    for (int i = 0; rc == GPULZ_OK && i < INPUTS; i++)
        if (back_len[i] != in_len[i] || memcmp(back[i], in[i], in_len[i]) != 0)
            caller_fail(C, "caller %u: batch, mode %s, %u threads: chunk %d did not come back", C->id,
                        gpulz_mode_name(mode), threads, i);
    for (int i = 0; i < INPUTS; i++) {
        free(dst[i]);
        free(back[i]);
    }
}

static void *caller_main(void *arg)
{
    caller *C = arg;
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (int mode = 0; mode < MODES; mode++)
            for (int i = 0; i < INPUTS; i++) {
                own_error(C);
                one(C, i, mode, counts[(C->id + r + (unsigned)(mode * INPUTS + i)) % COUNTS]);
                still_own(C, "a chunk");
            }
        own_error(C);
        batch(C, (int)((C->id + r) % MODES), batch_counts[(C->id + r) % 3]);
        still_own(C, "a batch");
    }
    return NULL;
}

int main(void)
{
    for (int i = 0; i < INPUTS; i++) {
        /* a tail after the last whole symbol, and blocks of unequal cost */
        in_len[i] = ((size_t)256 << 10) + 3 + 5 * (size_t)i;
        in[i] = tu_xmalloc(in_len[i]);
        gpulz_gen(kinds[i], in[i], in_len[i], 11 + (uint64_t)i);
        for (int mode = 0; mode < MODES; mode++) {
            gpulz_params p;
            params(&p, sizes[i], mode, 1);
            ref[i][mode] = tu_compress(in[i], in_len[i], &p, &ref_len[i][mode]);
            params(&p, 1, mode, 1);
            ref1[i][mode] = tu_compress(in[i], in_len[i], &p, &ref1_len[i][mode]);
            if (!ref[i][mode] || !ref1[i][mode])
                return tu_finish("codec_concurrent");
        }
    }
    caller callers[CALLERS];
    unsigned started = 0;
    for (unsigned c = 0; c < CALLERS; c++) {
        callers[c] = (caller){.id = c};
        if (pthread_create(&callers[c].tid, NULL, caller_main, &callers[c]) != 0)
            break;
        started++;
    }
    TU_CHECK(started == CALLERS, "%u of %d callers started", started, CALLERS);
    for (unsigned c = 0; c < started; c++) {
        pthread_join(callers[c].tid, NULL);
        TU_CHECK(callers[c].fails == 0, "%lu failures, the first: %s", callers[c].fails, callers[c].first);
    }
    for (int i = 0; i < INPUTS; i++) {
        free(in[i]);
        for (int mode = 0; mode < MODES; mode++) {
            free(ref[i][mode]);
            free(ref1[i][mode]);
        }
    }
    return tu_finish("codec_concurrent");
}
