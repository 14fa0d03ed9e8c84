/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_threads.c - the thread count of gpulz_params: GPULZ_THREADS_MAX is
 * taken and writes the bytes of one thread; anything above it, up to
 * UINT_MAX (a negative int cast to unsigned), is refused with
 * GPULZ_ERR_PARAM by compress and decompress alike, before any work, and the
 * message names the count.
 */
#include <limits.h>

#include "codec_testutil.h"
#include "datagen.h"

/* 8 MiB in blocks of 256 one-byte symbols: 32768 blocks, enough for every
 * one of GPULZ_THREADS_MAX workers to get a few batches. */
#define INPUT_SIZE ((size_t)8 << 20)
#define BLOCK 256

static void check_refused(unsigned threads, const uint8_t *in, const uint8_t *chunk,
                          size_t chunk_len)
{
    char count[32];
    snprintf(count, sizeof count, "%u", threads);
    gpulz_params p;
    tu_params(&p, 1, 128, BLOCK, threads);
    TU_CHECK(gpulz_params_check(&p) == GPULZ_ERR_PARAM, "params_check took %u threads", threads);
    TU_CHECK(gpulz_compress_bound(INPUT_SIZE, &p) == 0, "compress_bound took %u threads", threads);

    size_t cap = INPUT_SIZE + 65536, len = 0;
    uint8_t *out = tu_xmalloc(cap);
    tu_clear_error();
    int rc = gpulz_compress(in, INPUT_SIZE, out, cap, &len, &p);
    TU_CHECK(rc == GPULZ_ERR_PARAM, "compress with %u threads returned %d, not GPULZ_ERR_PARAM",
             threads, rc);
    TU_CHECK(strstr(gpulz_last_error(), count) != NULL,
             "compress with %u threads: the message '%s' does not name the count", threads,
             gpulz_last_error());

    tu_clear_error();
    rc = gpulz_decompress(chunk, chunk_len, out, cap, &len, &p);
    TU_CHECK(rc == GPULZ_ERR_PARAM, "decompress with %u threads returned %d, not GPULZ_ERR_PARAM",
             threads, rc);
    TU_CHECK(strstr(gpulz_last_error(), count) != NULL,
             "decompress with %u threads: the message '%s' does not name the count", threads,
             gpulz_last_error());
    free(out);
}

int main(void)
{
    uint8_t *in = tu_xmalloc(INPUT_SIZE);
    gpulz_gen("quant", in, INPUT_SIZE, 1);

    gpulz_params p;
    size_t one_len = 0, many_len = 0, back_len = 0;
    tu_params(&p, 1, 128, BLOCK, 1);
    uint8_t *one = tu_compress(in, INPUT_SIZE, &p, &one_len);
    tu_params(&p, 1, 128, BLOCK, GPULZ_THREADS_MAX);
    TU_CHECK(gpulz_params_check(&p) == GPULZ_OK, "params_check refused %d threads: %s",
             GPULZ_THREADS_MAX, gpulz_last_error());
    uint8_t *many = tu_compress(in, INPUT_SIZE, &p, &many_len);
    if (!one || !many)
        return tu_finish("codec_threads");
    TU_CHECK(one_len == many_len && memcmp(one, many, one_len) == 0,
             "%d threads wrote other bytes than 1 thread (%zu and %zu bytes)", GPULZ_THREADS_MAX,
             many_len, one_len);

    uint8_t *back = tu_xmalloc(INPUT_SIZE);
    int rc = gpulz_decompress(one, one_len, back, INPUT_SIZE, &back_len, &p);
    TU_CHECK(rc == GPULZ_OK, "decompress with %d threads: %s (%s)", GPULZ_THREADS_MAX,
             gpulz_strerror(rc), gpulz_last_error());
    TU_CHECK(rc != GPULZ_OK || (back_len == INPUT_SIZE && memcmp(back, in, INPUT_SIZE) == 0),
             "decompress with %d threads did not give the input back", GPULZ_THREADS_MAX);

    check_refused(GPULZ_THREADS_MAX + 1, in, one, one_len);
    check_refused(UINT_MAX, in, one, one_len);

    free(in);
    free(one);
    free(many);
    free(back);
    return tu_finish("codec_threads");
}
