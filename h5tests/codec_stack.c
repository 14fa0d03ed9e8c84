/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_stack.c - the CPU codec on a caller's thread with a small stack:
 * HDF5 calls the filter on whatever thread the application reads or
 * writes from, and some runtimes give their threads 64 KiB (musl's default
 * was 80 KiB).  Every mode, S = 1, 2 and 4, one thread (all on the
 * caller's stack) and two, compresses and decompresses 1 MiB of codes on a
 * thread of STACK bytes; a frame that does not fit crashes the test.  A
 * 48 KiB model on the stack did (gpulz_stream_estimate,
 * gpulz_stream_encode).
 */
#include <pthread.h>

#include "codec_testutil.h"
#include "datagen.h"

#define STACK ((size_t)64 << 10)
#define INPUT_SIZE ((size_t)1 << 20)

static uint8_t *in;

static void *round_trips(void *arg)
{
    (void)arg;
    static const gpulz_mode modes[] = {GPULZ_MODE_LZ, GPULZ_MODE_FAST, GPULZ_MODE_RATIO, GPULZ_MODE_AUTO};
    static const unsigned sizes[] = {1, 2, 4};
    for (unsigned m = 0; m < sizeof modes / sizeof *modes; m++)
        for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++)
            for (unsigned threads = 1; threads <= 2; threads++) {
                gpulz_params p;
                tu_params(&p, sizes[k], 128, 2048, threads);
                p.mode = modes[m];
                size_t len = 0, back_len = 0, cap = gpulz_compress_bound(INPUT_SIZE, &p);
                uint8_t *out = tu_xmalloc(cap), *back = tu_xmalloc(INPUT_SIZE);
                int rc = gpulz_compress(in, INPUT_SIZE, out, cap, &len, &p);
                TU_CHECK(rc == GPULZ_OK, "mode %s S %u threads %u: compress: %s", gpulz_mode_name(modes[m]),
                         sizes[k], threads, gpulz_last_error());
                if (rc == GPULZ_OK)
                    rc = gpulz_decompress(out, len, back, INPUT_SIZE, &back_len, &p);
                TU_CHECK(rc == GPULZ_OK && back_len == INPUT_SIZE && memcmp(back, in, INPUT_SIZE) == 0,
                         "mode %s S %u threads %u: no round trip: %s", gpulz_mode_name(modes[m]), sizes[k],
                         threads, gpulz_last_error());
                free(out);
                free(back);
            }
    return NULL;
}

int main(void)
{
    in = tu_xmalloc(INPUT_SIZE);
    gpulz_gen("quant", in, INPUT_SIZE, 5);
    pthread_attr_t attr;
    pthread_t th;
    TU_CHECK(pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, STACK) == 0,
             "cannot ask for a %zu-byte stack", STACK);
    TU_CHECK(pthread_create(&th, &attr, round_trips, NULL) == 0, "cannot start a thread");
    TU_CHECK(pthread_join(th, NULL) == 0, "cannot join the thread");
    pthread_attr_destroy(&attr);
    free(in);
    printf("every mode round trips on a thread of %zu KiB of stack\n", STACK >> 10);
    return tu_finish("codec_stack");
}
