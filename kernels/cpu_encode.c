/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_encode.c - the reference encoder of one block: the canonical greedy
 * parse of docs/FORMAT.md §6.
 *
 * Matches are looked for only where a token starts.  Candidates of length 2
 * or more come from a hash chain over symbol pairs: it links every earlier
 * position j of the block whose pair (x[j], x[j+1]) hashes like (x[i],
 * x[i+1]), nearest first.  Every offset d with len(d) >= 2 has its pair equal,
 * so it is on that chain; candidates are visited in increasing d and replace
 * the best only when strictly longer, so the result is the longest match with
 * the nearest offset among the longest: the canonical one.  Only where that
 * finds nothing and a one-symbol match pays (S >= 4, Lmin = 1) is a second
 * chain, over single symbols, walked for the nearest equal symbol.  Hashing
 * pairs rather than single symbols matters on peaked data such as
 * quantization codes, where most of the window holds the same few symbols.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_codec.h"

#define HASH_BITS 12
#define NO_POS 0xFFFFu

struct gpulz_cpu_scratch {
    uint64_t sym[GPULZ_BLOCK_MAX];        /* the block's symbols, widened */
    uint16_t prev2[GPULZ_BLOCK_MAX];      /* previous position on the same pair chain */
    uint16_t head2[1u << HASH_BITS];      /* latest position of each pair hash */
    uint16_t prev1[GPULZ_BLOCK_MAX];      /* the same over single symbols (Lmin = 1 only) */
    uint16_t head1[1u << HASH_BITS];
    uint8_t flags[GPULZ_BLOCK_MAX / 8];   /* one bit per token */
    uint8_t tokens[GPULZ_BLOCK_MAX * 8 + 16]; /* token bytes; one token past the raw size fits */
};

gpulz_cpu_scratch *gpulz_cpu_scratch_new(void)
{
    return malloc(sizeof(gpulz_cpu_scratch));
}

void gpulz_cpu_scratch_free(gpulz_cpu_scratch *s)
{
    free(s);
}

static inline unsigned hash_symbol(uint64_t v)
{
    return (unsigned)((v * 0x9E3779B97F4A7C15ull) >> (64 - HASH_BITS));
}

static inline unsigned hash_pair(uint64_t a, uint64_t b)
{
    return hash_symbol(a * 0xC2B2AE3D27D4EB4Full + b);
}

static void widen(const uint8_t *x, unsigned c, unsigned S, uint64_t *sym)
{
    switch (S) {
    case 1:
        for (unsigned i = 0; i < c; i++)
            sym[i] = x[i];
        break;
    case 2:
        for (unsigned i = 0; i < c; i++) {
            uint16_t v;
            memcpy(&v, x + 2 * i, 2);
            sym[i] = v;
        }
        break;
    case 4:
        for (unsigned i = 0; i < c; i++) {
            uint32_t v;
            memcpy(&v, x + 4 * i, 4);
            sym[i] = v;
        }
        break;
    default:
        memcpy(sym, x, (size_t)c * 8);
        break;
    }
}

/* Put position i on its chains; a pair needs i + 1 < c. */
static inline void chain_insert(gpulz_cpu_scratch *s, unsigned i, unsigned c, int singles)
{
    if (i + 1 < c) {
        unsigned h = hash_pair(s->sym[i], s->sym[i + 1]);
        s->prev2[i] = s->head2[h];
        s->head2[h] = (uint16_t)i;
    }
    if (singles) {
        unsigned h = hash_symbol(s->sym[i]);
        s->prev1[i] = s->head1[h];
        s->head1[h] = (uint16_t)i;
    }
}

/*
 * How far the bytes of a and b agree from byte `from` on, at most to byte
 * lim: 8 bytes a step where 8 fit before lim, a byte a step after.  The
 * symbols that agree are this / S (a symbol agrees when all its bytes do);
 * the extension of long matches on runs was most of the parse's time.
 */
static inline unsigned match_extend(const uint8_t *a, const uint8_t *b, unsigned from, unsigned lim)
{
    unsigned k = from;
    for (; k + 8 <= lim; k += 8) {
        const uint64_t d = gpulz_get_u64(a + k) ^ gpulz_get_u64(b + k);
        if (d)
            return k + (unsigned)__builtin_ctzll(d) / 8;
    }
    while (k < lim && a[k] == b[k])
        k++;
    return k;
}

/*
 * The greedy parse of FORMAT.md §6 step 2 into s->flags and s->tokens; with
 * stop_at_raw it gives up as soon as the encoding cannot beat the raw size
 * (§6 step 3; *i_end < c then).  *T and *tbytes receive the token count and
 * the token bytes.
 */
static void parse_block(const uint8_t *x, unsigned c, unsigned S, unsigned W, gpulz_cpu_scratch *s,
                        int stop_at_raw, uint32_t *T_out, uint32_t *tbytes_out, unsigned *i_end)
{
    const uint32_t raw = c * S;
    const unsigned lmin = gpulz_min_match(S);
    const uint64_t *sym = s->sym;
    widen(x, c, S, s->sym);
    const int singles = lmin == 1;
    memset(s->head2, 0xFF, sizeof s->head2);
    if (singles)
        memset(s->head1, 0xFF, sizeof s->head1);
    memset(s->flags, 0, (c + 7) / 8);

    uint32_t tbytes = 0, T = 0; /* token bytes written: S a literal, 2 a match */
    unsigned i = 0;
    while (i < c) {
        unsigned maxlen = c - i < GPULZ_MATCH_MAX ? c - i : GPULZ_MATCH_MAX;
        unsigned best = 0, bestd = 0;
        if (maxlen >= 2) {
            for (unsigned j = s->head2[hash_pair(sym[i], sym[i + 1])]; j != NO_POS && i - j <= W;
                 j = s->prev2[j]) {
                /* a longer match must also agree at index best: test that first */
                if (sym[j + best] != sym[i + best] || sym[j] != sym[i] || sym[j + 1] != sym[i + 1])
                    continue;
                const unsigned len = match_extend(x + (size_t)j * S, x + (size_t)i * S, 2 * S, maxlen * S) / S;
                if (len > best) {
                    best = len;
                    bestd = i - j;
                    if (best == maxlen)
                        break;
                }
            }
        }
        if (best == 0 && singles) {
            for (unsigned j = s->head1[hash_symbol(sym[i])]; j != NO_POS && i - j <= W; j = s->prev1[j])
                if (sym[j] == sym[i]) {
                    best = 1;
                    bestd = i - j;
                    break;
                }
        }
        if (best >= lmin) {
            s->flags[T / 8] |= (uint8_t)(1u << (T % 8));
            s->tokens[tbytes] = (uint8_t)best;
            s->tokens[tbytes + 1] = (uint8_t)bestd;
            tbytes += GPULZ_MATCH_SIZE;
            for (unsigned e = i + best; i < e; i++)
                chain_insert(s, i, c, singles);
        } else {
            memcpy(s->tokens + tbytes, x + (size_t)i * S, S);
            tbytes += S;
            chain_insert(s, i, c, singles);
            i++;
        }
        T++;
        if (stop_at_raw && !gpulz_block_shrinks(gpulz_block_bytes(T, tbytes), raw))
            break;
    }
    *T_out = T;
    *tbytes_out = tbytes;
    *i_end = i;
}

uint32_t gpulz_cpu_encode_block(const uint8_t *x, unsigned c, unsigned S, unsigned W, uint8_t *dst,
                                gpulz_cpu_scratch *s)
{
    const uint32_t raw = c * S;
    uint32_t T, tbytes;
    unsigned i;
    parse_block(x, c, S, W, s, 1, &T, &tbytes, &i);
    uint32_t E = gpulz_block_bytes(T, tbytes);
    if (i < c || !gpulz_block_shrinks(E, raw)) {
        memcpy(dst, x, raw);
        return GPULZ_RAW_BIT | raw;
    }
    gpulz_put_u16(dst, T);
    memcpy(dst + GPULZ_TOKEN_COUNT_SIZE, s->flags, gpulz_flag_bytes(T));
    memcpy(dst + GPULZ_TOKEN_COUNT_SIZE + gpulz_flag_bytes(T), s->tokens, tbytes);
    return E;
}

uint32_t gpulz_cpu_parse_block(const uint8_t *x, unsigned c, unsigned S, unsigned W,
                               gpulz_cpu_scratch *s, const uint8_t **flags, const uint8_t **tokens,
                               uint32_t *tbytes)
{
    uint32_t T;
    unsigned i;
    parse_block(x, c, S, W, s, 0, &T, tbytes, &i);
    *flags = s->flags;
    *tokens = s->tokens;
    return T;
}
