/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * copy.c - copies of whole chunks with non-temporal stores (gpulz_copy.h).
 */
#include "gpulz_copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

void gpulz_copy_bulk(void *restrict dst, const void *restrict src, size_t n)
{
    if (n < GPULZ_COPY_BULK_MIN) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t *d = dst;
    const uint8_t *s = src;
    /* whole lines of the destination, so that the write-combining buffers
     * fill and no line is read */
    const size_t head = (size_t)(-(uintptr_t)d & 63);
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    const size_t body = n & ~(size_t)63;
    for (size_t i = 0; i < body; i += 64) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        const __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        const __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    memcpy(d + body, s + body, n - body);
    /* non-temporal stores are weakly ordered: all of them before what follows */
    _mm_sfence();
}

#else

void gpulz_copy_bulk(void *restrict dst, const void *restrict src, size_t n)
{
    memcpy(dst, src, n);
}

#endif
