/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_decode.c - the reference decoder of one encoded block (docs/FORMAT.md
 * §5), checking every field before it is used (§9).
 */
#include <string.h>

#include "cpu_codec.h"

/* Copy len bytes from dist bytes back, where the source may overlap what this
 * copy writes (dist < len repeats a pattern).  Index from the source pointer:
 * dst[j - dist] would wrap the unsigned index for j < dist.  Exact: writes
 * nothing past dst + len (used near the end of a block). */
static inline void copy_match(uint8_t *dst, size_t dist, size_t len)
{
    const uint8_t *from = dst - dist;
    if (dist >= len) {
        memcpy(dst, from, len);
        return;
    }
    size_t j = 0;
    /* 8 bytes at a time read only bytes already final when dist >= 8 */
    if (dist >= 8)
        for (; j + 8 <= len; j += 8)
            memcpy(dst + j, from + j, 8);
    for (; j < len; j++)
        dst[j] = from[j];
}

/* Bytes that copy_match_wild may write past dst + len. */
#define WILD_SLACK 16

/*
 * The same copy in whole 8- or 16-byte stores, which may write up to
 * WILD_SLACK - 1 bytes of garbage past dst + len: the caller makes sure they
 * stay inside the block, where later tokens overwrite them (never into the
 * next block, which another thread may be writing).
 */
static inline void copy_match_wild(uint8_t *dst, size_t dist, size_t len)
{
    const uint8_t *from = dst - dist;
    if (len <= 16 && len <= dist) { /* the common short match: one load, one store */
        uint8_t t[16];
        memcpy(t, from, 16);
        memcpy(dst, t, 16);
        return;
    }
    if (dist >= 16) { /* each 16-byte load reads only bytes already final */
        for (size_t j = 0; j < len; j += 16)
            memcpy(dst + j, from + j, 16);
        return;
    }
    if (dist >= 8) {
        for (size_t j = 0; j < len; j += 8)
            memcpy(dst + j, from + j, 8);
        return;
    }
    /* A period of dist < 8 bytes: dst[j..j+8) is the same 8 bytes for every
     * j that is a multiple of step, the largest multiple of dist within 8. */
    uint8_t pat[8];
    for (size_t t = 0; t < 8; t++)
        pat[t] = t < dist ? from[t] : pat[t - dist];
    const size_t step = 8 / dist * dist;
    for (size_t j = 0; j < len; j += step)
        memcpy(dst + j, pat, 8);
}

/* One match of §5 at symbol o of a block of c symbols: its length and
 * offset checked (§9), its symbols copied, o advanced. */
static inline __attribute__((always_inline)) int decode_match(uint8_t *out, uint32_t *o, uint32_t L,
                                                              uint32_t D, unsigned c, const unsigned S,
                                                              unsigned W, unsigned long long kk,
                                                              uint32_t t)
{
    const unsigned lmin = gpulz_min_match(S);
    if (L < lmin || L > c - *o)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match length %u is out of %u..%u", kk,
                          t, L, lmin, c - *o);
    if (D == 0 || D > W || D > *o)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match offset %u is out of 1..%u", kk,
                          t, D, *o < W ? *o : W);
    if ((size_t)(*o + L) * S + WILD_SLACK <= (size_t)c * S)
        copy_match_wild(out + (size_t)*o * S, (size_t)D * S, (size_t)L * S);
    else
        copy_match(out + (size_t)*o * S, (size_t)D * S, (size_t)L * S);
    *o += L;
    return GPULZ_OK;
}

/* The decoder body, inlined once per symbol size so that S is a constant. */
static inline __attribute__((always_inline)) int decode_block(const uint8_t *b, uint32_t size,
                                                              uint8_t *out, unsigned c,
                                                              const unsigned S, unsigned W,
                                                              uint64_t k)
{
    unsigned long long kk = (unsigned long long)k;
    if (size < GPULZ_TOKEN_COUNT_SIZE)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: %u bytes cannot hold a token count", kk, size);
    uint32_t T = gpulz_get_u16(b);
    if (T == 0 || T > c)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token count %u is out of 1..%u", kk, T, c);
    uint32_t fbytes = gpulz_flag_bytes(T);
    if (GPULZ_TOKEN_COUNT_SIZE + fbytes > size)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: %u flag bytes overrun its %u bytes", kk,
                          fbytes, size);
    const uint8_t *flags = b + GPULZ_TOKEN_COUNT_SIZE;
    if (T % 8 && flags[fbytes - 1] >> (T % 8))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: flag bits set past token %u", kk, T);

    uint32_t p = GPULZ_TOKEN_COUNT_SIZE + fbytes; /* read position, bytes */
    uint32_t o = 0;                               /* symbols written */
    for (uint32_t t = 0; t < T; t++) {
        if (flags[t / 8] >> (t % 8) & 1) {
            if (size - p < GPULZ_MATCH_SIZE)
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u overruns the block", kk, t);
            uint32_t L = b[p], D = b[p + 1];
            p += GPULZ_MATCH_SIZE;
            if (decode_match(out, &o, L, D, c, S, W, kk, t) != GPULZ_OK)
                return GPULZ_ERR_CORRUPT;
        } else {
            if (size - p < S)
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u overruns the block", kk, t);
            if (o >= c)
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                  kk, t, c);
            memcpy(out + (size_t)o * S, b + p, S);
            p += S;
            o++;
        }
    }
    if (o != c)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: decodes to %u symbols instead of %u", kk, o, c);
    if (p != size)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: tokens end at byte %u of %u", kk, p, size);
    return GPULZ_OK;
}

int gpulz_cpu_decode_block(const uint8_t *b, uint32_t size, uint8_t *out, unsigned c, unsigned S,
                           unsigned W, uint64_t k)
{
    switch (S) {
    case 1: return decode_block(b, size, out, c, 1, W, k);
    case 2: return decode_block(b, size, out, c, 2, W, k);
    case 4: return decode_block(b, size, out, c, 4, W, k);
    default: return decode_block(b, size, out, c, 8, W, k);
    }
}

/* The tokens of one block from the streams of format 2, inlined once per
 * symbol size so that a literal is one move and decode_match's copies are
 * specialised. */
static inline __attribute__((always_inline)) int decode_streams(const uint8_t *flags, uint32_t T,
                                                                const uint8_t *lits, const uint8_t *lens,
                                                                const uint8_t *offs, uint8_t *out,
                                                                unsigned c, const unsigned S, unsigned W,
                                                                uint64_t k)
{
    unsigned long long kk = (unsigned long long)k;
    uint32_t o = 0; /* symbols written */
    for (uint32_t t = 0; t < T; t++) {
        /* eight literals in a row (a flag byte of zeros) in one copy */
        if (t % 8 == 0 && T - t >= 8 && flags[t / 8] == 0 && c - o >= 8) {
            memcpy(out + (size_t)o * S, lits, 8 * S);
            lits += 8 * S;
            o += 8;
            t += 7;
            continue;
        }
        if (flags[t / 8] >> (t % 8) & 1) {
            if (decode_match(out, &o, *lens++, *offs++, c, S, W, kk, t) != GPULZ_OK)
                return GPULZ_ERR_CORRUPT;
        } else {
            if (o >= c)
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                  kk, t, c);
            memcpy(out + (size_t)o * S, lits, S);
            lits += S;
            o++;
        }
    }
    if (o != c)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: decodes to %u symbols instead of %u", kk, o, c);
    return GPULZ_OK;
}

int gpulz_cpu_decode_block_streams(const uint8_t *flags, uint32_t T, const uint8_t *lits,
                                   const uint8_t *lens, const uint8_t *offs, uint8_t *out, unsigned c,
                                   unsigned S, unsigned W, uint64_t k)
{
    switch (S) {
    case 1: return decode_streams(flags, T, lits, lens, offs, out, c, 1, W, k);
    case 2: return decode_streams(flags, T, lits, lens, offs, out, c, 2, W, k);
    case 4: return decode_streams(flags, T, lits, lens, offs, out, c, 4, W, k);
    default: return decode_streams(flags, T, lits, lens, offs, out, c, 8, W, k);
    }
}
