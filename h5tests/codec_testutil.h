/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_testutil.h - helpers shared by the codec tests: a seeded generator,
 * failure counting, small-alphabet data, and compress/decompress wrappers
 * that pin the CPU backend (these tests are about the CPU codec and the
 * format; GPU tests compare against it elsewhere).
 */
#ifndef CODEC_TESTUTIL_H
#define CODEC_TESTUTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz.h"
#include "gpulz_format2.h"

static unsigned long tu_failures;

/* Report a failed expectation; the first few in full, then only count them. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static inline void tu_fail(const char *fmt, ...)
{
    tu_failures++;
    if (tu_failures > 40)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

#define TU_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond))                                                                               \
            tu_fail(__VA_ARGS__);                                                                  \
    } while (0)

/* Exit status for Automake's harness: 0 pass, 1 fail. */
static inline int tu_finish(const char *name)
{
    if (tu_failures) {
        fprintf(stderr, "%s: %lu failures\n", name, tu_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

static inline void *tu_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(99);
    }
    return p;
}

/* splitmix64: the tests' own generator, independent of tools/datagen. */
static inline uint64_t tu_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0..k-1 (k > 0). */
static inline uint64_t tu_below(uint64_t *s, uint64_t k)
{
    return tu_next(s) % k;
}

/*
 * Data in which the greedy parse has choices to make: symbols drawn from a
 * small alphabet, runs, short periods, and copies of earlier bytes at any
 * byte distance (so that some repeats are not aligned to the symbol size).
 */
static inline void tu_fill_matchy(uint8_t *b, size_t n, uint64_t *s)
{
    unsigned style = (unsigned)tu_below(s, 6);
    switch (style) {
    case 0: { /* bytes from an alphabet of 1 to 4 values */
        unsigned k = 1 + (unsigned)tu_below(s, 4);
        uint8_t alpha[4];
        for (unsigned a = 0; a < k; a++)
            alpha[a] = (uint8_t)tu_next(s);
        for (size_t i = 0; i < n; i++)
            b[i] = alpha[tu_below(s, k)];
        break;
    }
    case 1: { /* 8-byte groups from an alphabet of 1 to 3 groups */
        unsigned k = 1 + (unsigned)tu_below(s, 3);
        uint64_t alpha[3];
        for (unsigned a = 0; a < k; a++)
            alpha[a] = tu_next(s) & 0x0101010101010101ull;
        for (size_t i = 0; i < n; i += 8) {
            uint64_t v = alpha[tu_below(s, k)];
            memcpy(b + i, &v, n - i < 8 ? n - i : 8);
        }
        break;
    }
    case 2: { /* runs of 1 to 600 bytes of 2 values */
        uint8_t v0 = (uint8_t)tu_next(s), v1 = (uint8_t)tu_next(s);
        for (size_t i = 0; i < n;) {
            size_t len = 1 + tu_below(s, tu_below(s, 2) ? 600 : 20);
            uint8_t v = tu_below(s, 2) ? v0 : v1;
            for (size_t e = i + len < n ? i + len : n; i < e; i++)
                b[i] = v;
        }
        break;
    }
    case 3: { /* a period of 1 to 300 bytes, with rare point changes */
        size_t p = 1 + tu_below(s, tu_below(s, 2) ? 300 : 16);
        for (size_t i = 0; i < n; i++)
            b[i] = i < p ? (uint8_t)tu_below(s, 3) : b[i - p];
        for (size_t i = 0; i < n; i++)
            if (tu_below(s, 200) == 0)
                b[i] ^= 1;
        break;
    }
    case 4: { /* byte-level LZ77-like text: literals and copies from any distance */
        size_t i = 0;
        while (i < n) {
            if (i > 0 && tu_below(s, 3)) {
                size_t d = 1 + tu_below(s, i < 600 ? i : 600);
                size_t len = 1 + tu_below(s, 40);
                for (size_t e = i + len < n ? i + len : n; i < e; i++)
                    b[i] = b[i - d];
            } else {
                b[i++] = (uint8_t)('a' + tu_below(s, 6));
            }
        }
        break;
    }
    default: { /* a mix: random stretches and zero stretches */
        for (size_t i = 0; i < n;) {
            size_t len = 1 + tu_below(s, 500);
            int zero = (int)tu_below(s, 2);
            for (size_t e = i + len < n ? i + len : n; i < e; i++)
                b[i] = zero ? 0 : (uint8_t)tu_next(s);
        }
        break;
    }
    }
}

/* Mode lz, named rather than the default: most codec tests are about format 1's
 * bytes, and those of format 2 set their mode after this. */
static inline void tu_params(gpulz_params *p, unsigned S, unsigned W, unsigned C, unsigned threads)
{
    gpulz_params_init(p);
    p->mode = GPULZ_MODE_LZ;
    p->symbol_size = S;
    p->window = W;
    p->block_symbols = C;
    p->threads = threads;
    p->backend = GPULZ_BACKEND_CPU;
}

/* The encoder parameters that wrote a chunk (as its header says), to encode
 * its contents again: the shape of a format 2 chunk gives its mode (fast
 * without LZSS, ratio with it) and its flags the checksum. */
static inline void tu_params_of_chunk(gpulz_params *p, const gpulz_chunk_info *info)
{
    tu_params(p, info->symbol_size, info->window ? info->window : GPULZ_WINDOW_DEFAULT,
              info->block_symbols, 1);
    if (info->format_version == 2) {
        p->mode = info->flags & GPULZ_V2_FLAG_LZSS ? GPULZ_MODE_RATIO : GPULZ_MODE_FAST;
        if (!(info->flags & GPULZ_V2_FLAG_CHECKSUM))
            p->flags |= GPULZ_FLAG_NO_CHECKSUM;
    }
}

/* Compress into a fresh buffer of the bound; NULL (and a failure) on error. */
static inline uint8_t *tu_compress(const uint8_t *in, size_t n, const gpulz_params *p, size_t *len)
{
    size_t cap = gpulz_compress_bound(n, p);
    uint8_t *out = tu_xmalloc(cap);
    int rc = gpulz_compress(in, n, out, cap, len, p);
    if (rc != GPULZ_OK) {
        tu_fail("compress n=%zu S=%u W=%u C=%u flags=%u: %s (%s)", n, p->symbol_size, p->window,
                p->block_symbols, p->flags, gpulz_strerror(rc), gpulz_last_error());
        free(out);
        return NULL;
    }
    return out;
}

/* Clear the thread's error detail so that a test can tell a fresh one apart. */
static inline void tu_clear_error(void)
{
    gpulz_fail(GPULZ_OK, "%s", "");
}

/* Read a whole file; NULL if it cannot be read. */
static inline uint8_t *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *b = tu_xmalloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *nb = realloc(b, cap);
            if (!nb) {
                free(b);
                fclose(f);
                return NULL;
            }
            b = nb;
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return b;
}

static inline const char *tu_srcdir(void)
{
    const char *d = getenv("top_srcdir");
    return d && *d ? d : ".";
}

#endif
