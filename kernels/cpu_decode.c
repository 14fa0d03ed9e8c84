/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_decode.c - the decoder of one LZSS block, of format 1 (docs/FORMAT.md
 * §5) and of format 2's ratio shape (§12), checking every field before it
 * is used (§9, §20).
 */
#include <string.h>

#include "cpu_codec.h"

/* ---- copies ------------------------------------------------------------- */

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

/* A little-endian 64-bit load as one move where the host is little-endian. */
static inline uint64_t load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return gpulz_get_u64(p);
#endif
}

/* Whether at least 7 in 8 of a window's n tokens are matches (its set
 * bits counted without __builtin_popcountll, a library call where the
 * target has no population count instruction). */
static inline int mostly_matches(uint64_t bits, uint32_t n)
{
    bits = bits - (bits >> 1 & 0x5555555555555555u);
    bits = (bits & 0x3333333333333333u) + (bits >> 2 & 0x3333333333333333u);
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return 8 * (uint32_t)(bits * 0x0101010101010101u >> 56) >= 7 * n;
}

/* n bytes from a buffer that does not overlap out, in 32-byte moves: up to
 * 31 bytes past out + n are written and past from + n read (the slack the
 * caller gives both). */
static inline __attribute__((always_inline)) void copy_wild32(uint8_t *out, const uint8_t *from, size_t n)
{
    size_t j = 0;
    do {
        memcpy(out + j, from + j, 32);
        j += 32;
    } while (j < n);
}

/*
 * A match's len bytes from dist bytes back, which may overlap what it writes,
 * in whole moves that write up to 15 bytes past out + len (slack).  With
 * len <= dist every byte it needs is final before it starts (those it reads
 * past them land past out + len); otherwise each 16-byte (8-byte) load
 * reads only final bytes when dist >= 16 (>= 8), and a period of dist < 8
 * bytes repeats an 8-byte pattern: the dist final bytes at out - dist
 * repeated by a multiply, stored at every multiple of the largest multiple
 * of dist within 8.
 */
static inline __attribute__((always_inline)) void copy_match_slack(uint8_t *out, size_t dist, size_t len)
{
    const uint8_t *from = out - dist;
    size_t j = 0;
    if (len <= dist || dist >= 16) {
        do {
            uint8_t t[16];
            memcpy(t, from + j, 16);
            memcpy(out + j, t, 16);
            j += 16;
        } while (j < len);
    } else if (dist >= 8) {
        do {
            uint64_t t;
            memcpy(&t, from + j, 8);
            memcpy(out + j, &t, 8);
            j += 8;
        } while (j < len);
    } else {
        static const uint8_t step[8] = {0, 8, 8, 6, 8, 5, 6, 7};
        uint64_t pat;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* the copies of the first dist bytes, each 8 dist bits up, in one
         * multiply (the 8 bytes loaded end within out's slack) */
        static const uint64_t spread[8] = {0, 0x0101010101010101u, 0x0001000100010001u, 0x0001000001000001u,
                                           0x0000000100000001u, 0x0000010000000001u, 0x0001000000000001u,
                                           0x0100000000000001u};
        memcpy(&pat, from, 8);
        pat = (pat & (((uint64_t)1 << 8 * dist) - 1)) * spread[dist];
#else
        uint8_t b[8];
        for (size_t i = 0; i < 8; i++)
            b[i] = i < dist ? from[i] : b[i - dist];
        memcpy(&pat, b, 8);
#endif
        do {
            memcpy(out + j, &pat, 8);
            j += step[dist];
        } while (j < len);
    }
}

/* ---- format 1 ----------------------------------------------------------- */

/* The flags of tokens t.. (t a multiple of 8) as a little-endian word, from
 * one load where 8 bytes of the block are there to read (the bits past the
 * flags are masked off by the caller), else byte by byte. */
static inline uint64_t flag_word(const uint8_t *flags, uint32_t t, uint32_t fbytes, uint32_t readable)
{
    if (readable >= 8)
        return load_le64(flags + t / 8);
    uint64_t v = 0;
    for (uint32_t i = 0; t / 8 + i < fbytes && i < 8; i++)
        v |= (uint64_t)flags[t / 8 + i] << 8 * i;
    return v;
}

/* Token tm, a match at byte *p of the block, checked (§9), its symbols
 * copied into out (in whole moves where 16 bytes of the block follow it),
 * *p and *o advanced. */
static inline __attribute__((always_inline)) int v1_match(const uint8_t *b, uint32_t size, uint32_t *p,
                                                          uint8_t *out, uint32_t *o, unsigned c,
                                                          const unsigned S, unsigned W,
                                                          unsigned long long kk, uint32_t tm)
{
    const unsigned lmin = gpulz_min_match(S);
    if (__builtin_expect(size - *p < GPULZ_MATCH_SIZE, 0))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u overruns the block", kk, tm);
    const uint32_t L = b[*p], D = b[*p + 1];
    *p += GPULZ_MATCH_SIZE;
    if (__builtin_expect(L < lmin || L > c - *o, 0))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match length %u is out of %u..%u", kk, tm,
                          L, lmin, c - *o);
    if (__builtin_expect(D == 0 || D > W || D > *o, 0))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match offset %u is out of 1..%u", kk, tm,
                          D, *o < W ? *o : W);
    if ((size_t)(*o + L) * S + 16 <= (size_t)c * S)
        copy_match_slack(out + (size_t)*o * S, (size_t)D * S, (size_t)L * S);
    else
        copy_match(out + (size_t)*o * S, (size_t)D * S, (size_t)L * S);
    *o += L;
    return GPULZ_OK;
}

/*
 * The decoder body, inlined once per symbol size so that S is a constant.
 * As format 2's below: tokens 64 flag bits at a time, a run of literals (here
 * S bytes each, in a row in the block) in one copy and the checks made per
 * run, naming the token a check of one literal at a time would name first.
 * The copies are whole moves where the block has the room for them, in its
 * bytes to read and in its symbols to write (never past its end: another
 * thread may be writing the next block), exact near its end.  A window of
 * mostly matches, where most runs are empty and the per-run work is only
 * overhead, goes one token at a time: its branch on the flag predicts well.
 */
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

    const size_t end = (size_t)c * S;             /* the block's bytes out */
    uint32_t p = GPULZ_TOKEN_COUNT_SIZE + fbytes; /* read position, bytes */
    uint32_t o = 0;                               /* symbols written */
    for (uint32_t t = 0; t < T; t += 64) {
        const uint32_t n = T - t < 64 ? T - t : 64;
        uint64_t bits = flag_word(flags, t, fbytes, size - GPULZ_TOKEN_COUNT_SIZE - t / 8);
        if (n < 64)
            bits &= ((uint64_t)1 << n) - 1;
        if (mostly_matches(bits, n)) {
            for (uint32_t j = 0; j < n; j++) {
                if (bits >> j & 1) {
                    if (v1_match(b, size, &p, out, &o, c, S, W, kk, t + j) != GPULZ_OK)
                        return GPULZ_ERR_CORRUPT;
                    continue;
                }
                if (size - p < S)
                    return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u overruns the block", kk, t + j);
                if (o >= c)
                    return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                      kk, t + j, c);
                memcpy(out + (size_t)o * S, b + p, S);
                p += S;
                o++;
            }
            continue;
        }
        uint32_t i = 0; /* tokens of the window done */
        for (;;) {
            const uint32_t r = bits ? (uint32_t)__builtin_ctzll(bits) : n - i;
            /* the first literal of the run that does not fit: its bytes
             * checked first, then its place in the block */
            const uint32_t fit = (size - p) / S, room = c - o;
            if (__builtin_expect(r > fit || r > room, 0)) {
                if (fit <= room)
                    return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u overruns the block", kk,
                                      t + i + fit);
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                  kk, t + i + room, c);
            }
            const size_t bytes = (size_t)r * S;
            if (p + bytes + 32 <= size && (size_t)o * S + bytes + 32 <= end)
                copy_wild32(out + (size_t)o * S, b + p, bytes);
            else
                memcpy(out + (size_t)o * S, b + p, bytes);
            p += (uint32_t)bytes;
            o += r;
            if (!bits)
                break;
            if (v1_match(b, size, &p, out, &o, c, S, W, kk, t + i + r) != GPULZ_OK)
                return GPULZ_ERR_CORRUPT;
            i += r + 1;
            bits = bits >> r >> 1;
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

/* ---- format 2's LZSS shape ---------------------------------------------- */

/*
 * The tokens of one block from the streams of format 2, inlined once per
 * symbol size.  Tokens go 64 flag bits at a time: the literals up to the next
 * match (the bits' trailing zeros) are one copy, so the branch per token on
 * its flag becomes one per match, and the checks of §9 are made per run of
 * literals (all of them within the block: the first past it is the token the
 * error names, as one at a time would) and per match.  Each block's flags
 * start at a byte, and a 64-token window at a multiple of 64 tokens, so the
 * window is whole bytes.  A window of mostly matches goes one token at a
 * time, as format 1's does.
 */
/* Token tm, a match with length and offset from *lens and *offs, checked
 * (§9), its symbols copied into out (with slack), the pointers and *o
 * advanced. */
static inline __attribute__((always_inline)) int v2_match(const uint8_t **lens, const uint8_t **offs,
                                                          uint8_t *out, uint32_t *o, unsigned c,
                                                          const unsigned S, unsigned W,
                                                          unsigned long long kk, uint32_t tm)
{
    const unsigned lmin = gpulz_min_match(S);
    const uint32_t L = *(*lens)++, D = *(*offs)++;
    if (__builtin_expect(L < lmin || L > c - *o, 0))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match length %u is out of %u..%u", kk, tm,
                          L, lmin, c - *o);
    if (__builtin_expect(D == 0 || D > W || D > *o, 0))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u: match offset %u is out of 1..%u", kk, tm,
                          D, *o < W ? *o : W);
    copy_match_slack(out + (size_t)*o * S, (size_t)D * S, (size_t)L * S);
    *o += L;
    return GPULZ_OK;
}

static inline __attribute__((always_inline)) int decode_streams(const uint8_t *flags, uint32_t T,
                                                                const uint8_t *lits, const uint8_t *lens,
                                                                const uint8_t *offs, uint8_t *out,
                                                                unsigned c, const unsigned S, unsigned W,
                                                                uint64_t k)
{
    const unsigned long long kk = (unsigned long long)k;
    uint32_t o = 0; /* symbols written */
    for (uint32_t t = 0; t < T; t += 64) {
        const uint32_t n = T - t < 64 ? T - t : 64;
        uint64_t bits = load_le64(flags + t / 8);
        if (n < 64)
            bits &= ((uint64_t)1 << n) - 1;
        if (mostly_matches(bits, n)) {
            /* mostly empty runs: one token at a time, the flag's branch
             * predicting well */
            for (uint32_t j = 0; j < n; j++) {
                if (bits >> j & 1) {
                    if (v2_match(&lens, &offs, out, &o, c, S, W, kk, t + j) != GPULZ_OK)
                        return GPULZ_ERR_CORRUPT;
                    continue;
                }
                if (o >= c)
                    return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                      kk, t + j, c);
                memcpy(out + (size_t)o * S, lits, S);
                lits += S;
                o++;
            }
            continue;
        }
        uint32_t i = 0; /* tokens of the window done */
        for (;;) {
            /* the literals up to the next match, or to the window's end;
             * copied even when there are none (a move into the slack), as
             * whether there are is what the data make unpredictable */
            const uint32_t r = bits ? (uint32_t)__builtin_ctzll(bits) : n - i;
            if (__builtin_expect(r > c - o, 0))
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: token %u lies past the block's %u symbols",
                                  kk, t + i + (c - o), c);
            copy_wild32(out + (size_t)o * S, lits, (size_t)r * S);
            lits += (size_t)r * S;
            o += r;
            if (!bits)
                break;
            if (v2_match(&lens, &offs, out, &o, c, S, W, kk, t + i + r) != GPULZ_OK)
                return GPULZ_ERR_CORRUPT;
            i += r + 1;
            bits = bits >> r >> 1;
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
