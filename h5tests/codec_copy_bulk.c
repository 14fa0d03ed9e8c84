/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_copy_bulk.c - gpulz_copy_bulk, the chunk copy with non-temporal
 * stores: sizes on both sides of GPULZ_COPY_BULK_MIN, with every alignment of
 * source and destination within a cache line and every tail length past the
 * last whole line, copied into a buffer fenced by canary bytes: the copy must
 * equal the source and no canary may change.
 */
#include "codec_testutil.h"
#include "gpulz_copy.h"

#define FENCE 128

static void one_copy(const uint8_t *src, uint8_t *buf, size_t n, unsigned dst_off)
{
    uint8_t *dst = buf + FENCE + dst_off;
    memset(buf, 0xA5, FENCE + dst_off);
    memset(dst, 0x00, n);
    memset(dst + n, 0x5A, FENCE);
    gpulz_copy_bulk(dst, src, n);
    TU_CHECK(memcmp(dst, src, n) == 0, "n %zu dst +%u: copy differs", n, dst_off);
    for (size_t i = 0; i < FENCE + dst_off; i++)
        if (buf[i] != 0xA5) {
            TU_CHECK(0, "n %zu dst +%u: canary before the copy at %zu changed", n, dst_off, i);
            break;
        }
    for (size_t i = 0; i < FENCE; i++)
        if (dst[n + i] != 0x5A) {
            TU_CHECK(0, "n %zu dst +%u: canary after the copy at %zu changed", n, dst_off, i);
            break;
        }
}

int main(void)
{
    const size_t most = GPULZ_COPY_BULK_MIN + 4096;
    uint8_t *src = tu_xmalloc(most + 64), *buf = tu_xmalloc(most + 64 + 2 * FENCE);
    uint64_t rng = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < most + 64; i++)
        src[i] = (uint8_t)tu_next(&rng);
    const size_t sizes[] = {0, 1, 63, 64, 65, 4096, GPULZ_COPY_BULK_MIN - 1, GPULZ_COPY_BULK_MIN};
    unsigned long copies = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (unsigned so = 0; so < 64; so += 7)
            for (unsigned d = 0; d < 64; d++, copies++)
                one_copy(src + so, buf, sizes[k], d);
    /* past the threshold: every tail of 0..63 bytes after the last whole line */
    for (unsigned t = 0; t < 64; t++)
        for (unsigned d = 0; d < 64; d += 5, copies++)
            one_copy(src + t % 13, buf, GPULZ_COPY_BULK_MIN + 1024 + t, d);
    fprintf(stderr, "%lu copies\n", copies);
    free(src);
    free(buf);
    return tu_finish("codec_copy_bulk");
}
