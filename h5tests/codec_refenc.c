/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_refenc.c - see codec_refenc.h.  Every step is the literal reading
 * of docs/FORMAT.md: every offset is tried at every position and every
 * match is measured symbol by symbol.  Quadratic and proud of it.
 */
#include <stdlib.h>
#include <string.h>

#include "codec_refenc.h"

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* §6: the smallest L with L * S > 2 */
static unsigned lmin_of(unsigned S)
{
    unsigned L = 1;
    while (L * S <= 2)
        L++;
    return L;
}

/* Whether symbols a and b (indices into x) are equal, compared as S-byte units. */
static int sym_eq(const uint8_t *x, unsigned S, size_t a, size_t b)
{
    return memcmp(x + a * S, x + b * S, S) == 0;
}

/* Encode block x of c symbols into out (room for c * S bytes); returns the table entry. */
static uint32_t encode_block(const uint8_t *x, size_t c, unsigned S, unsigned W, uint8_t *out,
                             ref_stats *st)
{
    const unsigned lmin = lmin_of(S);
    uint8_t *flags = calloc(c / 8 + 1, 1);
    uint8_t *tok = malloc(c * S + 1);
    size_t T = 0, tb = 0, i = 0;
    while (i < c) {
        size_t cap = c - i < 255 ? c - i : 255, Lbest = 0, dbest = 0, ties = 0;
        size_t dmax = i < W ? i : W;
        for (size_t d = 1; d <= dmax; d++) {
            size_t L = 0;
            while (L < cap && sym_eq(x, S, i + L, i + L - d))
                L++;
            if (L > Lbest) {
                Lbest = L;
                dbest = d;
                ties = 0;
            } else if (L == Lbest && L > 0) {
                ties++;
            }
        }
        if (Lbest >= lmin) {
            flags[T / 8] |= (uint8_t)(1u << (T % 8));
            tok[tb++] = (uint8_t)Lbest;
            tok[tb++] = (uint8_t)dbest;
            if (st) {
                st->matches++;
                st->match_max_len += Lbest == 255;
                st->match_at_window += dbest == W;
                st->match_overlap += dbest < Lbest;
                st->match_tie += ties > 0;
                st->match_min_len += Lbest == lmin;
            }
            i += Lbest;
        } else {
            memcpy(tok + tb, x + i * S, S);
            tb += S;
            if (st) {
                st->literals++;
                st->short_repeat += Lbest > 0;
            }
            i++;
        }
        T++;
    }
    size_t fb = (T + 7) / 8, E = 2 + fb + tb;
    uint32_t entry;
    if (E < c * S) {
        put_le(out, T, 2);
        memcpy(out + 2, flags, fb);
        memcpy(out + 2 + fb, tok, tb);
        entry = (uint32_t)E;
        if (st)
            st->blocks_encoded++;
    } else {
        memcpy(out, x, c * S);
        entry = (uint32_t)(c * S) | 0x80000000u;
        if (st)
            st->blocks_raw++;
    }
    free(flags);
    free(tok);
    return entry;
}

uint8_t *ref_compress(const uint8_t *in, size_t n, unsigned S, unsigned W, unsigned C,
                      size_t *out_len, ref_stats *st)
{
    size_t m = n / S, t = n % S, nb = (m + C - 1) / C;
    unsigned lg = 0;
    while ((1u << lg) < C)
        lg++;
    uint8_t *out = malloc(28 + 4 * nb + n + 1);
    /* §2 header */
    out[0] = 'G';
    out[1] = 'P';
    out[2] = 'L';
    out[3] = 'Z';
    out[4] = 1;
    out[5] = 0;
    out[6] = (uint8_t)S;
    out[7] = (uint8_t)W;
    out[8] = (uint8_t)lg;
    out[9] = out[10] = out[11] = 0;
    put_le(out + 12, n, 8);
    put_le(out + 20, nb, 8);
    size_t pos = 28 + 4 * nb;
    for (size_t k = 0; k < nb; k++) {
        size_t c = m - k * C < C ? m - k * C : C;
        uint32_t e = encode_block(in + k * C * S, c, S, W, out + pos, st);
        put_le(out + 28 + 4 * k, e, 4);
        pos += e & 0x7FFFFFFFu;
    }
    memcpy(out + pos, in + m * S, t);
    if (st && t)
        st->tails++;
    *out_len = pos + t;
    return out;
}
