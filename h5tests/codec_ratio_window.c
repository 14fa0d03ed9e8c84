/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_ratio_window.c - mode ratio's CPU encoder tokenises a large chunk a
 * window of blocks at a time (cpu_v2.c, LZ_WINDOW_MIN..MAX).  One thread's
 * windows of 1024 blocks and 64 threads' one window of the chunk's 3072
 * give the same bytes (both were compared with the encoder's before windows
 * when they came), which decode back; and what the encoder holds stays near
 * the tokens it makes: a 64 MiB chunk that compresses well grows the
 * process's peak resident size by less than twice the chunk (its
 * delta-transformed copy takes one chunk), where every block's token slots
 * at once (a chunk's room three times over, every page written) grew it by
 * about four times (the peak from getrusage; not measured under a
 * sanitizer, whose shadow memory it would count).
 */
#include "codec_testutil.h"

#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

/* Runs of a few values, some noise: LZSS finds matches, literals are few. */
static void fill(uint8_t *b, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)((i / 4096) % 7 + (tu_below(&seed, 13) == 0));
}

static size_t compress_ratio(const uint8_t *src, size_t n, unsigned threads, uint8_t **out)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = 1;
    p.mode = GPULZ_MODE_RATIO;
    p.threads = threads;
    p.backend = GPULZ_BACKEND_CPU;
    const size_t cap = gpulz_compress_bound(n, &p);
    size_t len = 0;
    *out = tu_xmalloc(cap);
    int rc = gpulz_compress(src, n, *out, cap, &len, &p);
    TU_CHECK(rc == GPULZ_OK, "%zu bytes, %u threads: compress failed (%d): %s", n, threads, rc, gpulz_last_error());
    return len;
}

static long peak_kib(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : -1;
}

int main(void)
{
    /* windows: 3072 blocks of 4096 bytes (S = 1's default block) */
    const size_t n = (size_t)3072 * 4096;
    uint8_t *src = tu_xmalloc(n), *one = NULL, *many = NULL, *back = tu_xmalloc(n);
    fill(src, n, 1);
    const size_t a = compress_ratio(src, n, 1, &one), b = compress_ratio(src, n, 64, &many);
    TU_CHECK(a == b && memcmp(one, many, a) == 0, "1 and 64 threads: %zu and %zu bytes, or other bytes", a, b);
    size_t got = 0;
    gpulz_params p;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_CPU;
    TU_CHECK(gpulz_decompress(one, a, back, n, &got, &p) == GPULZ_OK && got == n && memcmp(back, src, n) == 0,
             "%zu bytes in %zu: not decoded back", n, a);
    printf("%zu bytes in %zu, in windows of 1024 blocks and of the whole chunk alike\n", n, a);
    free(one);
    free(many);
    free(back);
    free(src);

    if (UNDER_SANITIZER) {
        printf("peak resident size not measured under a sanitizer\n");
        return tu_finish("codec_ratio_window");
    }
    const size_t big = (size_t)64 << 20;
    uint8_t *x = tu_xmalloc(big), *c = NULL;
    fill(x, big, 2);
    const long before = peak_kib();
    const size_t len = compress_ratio(x, big, 1, &c);
    const long after = peak_kib();
    TU_CHECK(before > 0 && after > 0 && (size_t)(after - before) * 1024 < 2 * big,
             "64 MiB in mode ratio: the peak resident size grew by %ld KiB (a chunk is %zu KiB)", after - before,
             big / 1024);
    printf("64 MiB in %zu bytes: the peak resident size grew by %ld KiB\n", len, after - before);
    free(c);
    free(x);
    return tu_finish("codec_ratio_window");
}
