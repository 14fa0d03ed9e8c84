/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * crafted_chunks.h - chunks built field by field (docs/FORMAT.md) so that
 * every check before the one a case aims at passes: the header, the block
 * or token table, each stream's kind, N and size, the directory adding up
 * to the stream, the tail.  What is left broken is what a decode kernel
 * meets: a match reaching before its block's start or past its end, an
 * offset beyond W, a length under Lmin, a token count beyond its block, flag
 * bits past T, literal/length counts against the flags, a segment's word
 * count moved to its neighbour (so that one reads past its words and one
 * leaves words over), states below 2^16 or never coming back to it, words
 * left over, a swapped table.  Beside them controls that must decode, to
 * known bytes where built by hand.
 *
 * Format 2 chunks are built with stored streams (kind 0) where the tokens
 * are what is crafted, so that every unit is the test's choice, and taken
 * from the CPU encoder where the rANS segments are (then rewritten: words,
 * states, directory, table).  Shared by the CPU test (codec_corrupt.c: the
 * CPU's statuses) and the GPU test (gpu_codec_test.c: the GPU decoders give
 * the CPU's status and bytes, and write nothing past the output's end).
 */
#ifndef CRAFTED_CHUNKS_H
#define CRAFTED_CHUNKS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz.h"

#define CC_ANY 1 /* want: whatever the CPU decoder says (its status is the reference) */

typedef struct cc_case {
    char name[112];
    uint8_t *bytes;
    size_t len, cap;  /* the chunk, and the output capacity to decode it into */
    int want;         /* the CPU decoder's status, or CC_ANY */
    uint8_t *expect;  /* with want GPULZ_OK: the decoded bytes, or NULL (not known by hand) */
    size_t expect_len;
} cc_case;

typedef struct cc_list {
    cc_case *c;
    size_t count, cap;
    int broken; /* a base chunk did not have the shape its cases rewrite */
} cc_list;

typedef struct cc_buf {
    uint8_t b[4096];
    size_t len;
} cc_buf;

static void *cc_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "crafted chunks: out of memory\n");
        exit(1);
    }
    return p;
}

static uint64_t cc_get(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void cc_set(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void cc_put(cc_buf *B, uint64_t v, int bytes)
{
    cc_set(B->b + B->len, v, bytes);
    B->len += (size_t)bytes;
}

static void cc_raw(cc_buf *B, const void *p, size_t n)
{
    if (n)
        memcpy(B->b + B->len, p, n);
    B->len += n;
}

static void cc_add(cc_list *L, const char *name, const uint8_t *bytes, size_t len, size_t cap, int want,
                   const uint8_t *expect, size_t expect_len)
{
    if (L->count == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        cc_case *n = realloc(L->c, L->cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "crafted chunks: out of memory\n");
            exit(1);
        }
        L->c = n;
    }
    cc_case *c = &L->c[L->count++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->bytes = cc_xmalloc(len);
    memcpy(c->bytes, bytes, len);
    c->len = len;
    c->cap = cap;
    c->want = want;
    c->expect = NULL;
    c->expect_len = expect_len;
    if (expect) {
        c->expect = cc_xmalloc(expect_len);
        memcpy(c->expect, expect, expect_len);
    }
}

static void cc_free(cc_list *L)
{
    for (size_t i = 0; i < L->count; i++) {
        free(L->c[i].bytes);
        free(L->c[i].expect);
    }
    free(L->c);
    memset(L, 0, sizeof *L);
}

/* ---- format 1 ------------------------------------------------------------ */

/* A format 1 chunk: header (C = 2^lg), the table entries, the blocks' bytes
 * (all of them, in order) and the tail. */
static void cc_v1(cc_buf *B, unsigned S, unsigned W, unsigned lg, uint64_t n, const uint32_t *e, unsigned nb,
                  const uint8_t *blocks, size_t blen, const uint8_t *tail, unsigned nt)
{
    static const uint8_t magic[4] = {'G', 'P', 'L', 'Z'};
    B->len = 0;
    cc_raw(B, magic, 4);
    cc_put(B, 1, 1);
    cc_put(B, 0, 1);
    cc_put(B, S, 1);
    cc_put(B, W, 1);
    cc_put(B, lg, 1);
    cc_put(B, 0, 3);
    cc_put(B, n, 8);
    cc_put(B, nb, 8);
    for (unsigned k = 0; k < nb; k++)
        cc_put(B, e[k], 4);
    cc_raw(B, blocks, blen);
    cc_raw(B, tail, nt);
}

/*
 * Two blocks of S = 1, C = 256, n = 266: block 0 is 'a' then a match L 255
 * D 1 (256 symbols), block 1 "ab" then L 8 D 2 (10 symbols).  Each variant
 * changes one block's tokens or the table and keeps everything else
 * consistent, so that only the block decoder's own check rejects it.
 */
static void cc_format1(cc_list *L)
{
    static const uint8_t b0[] = {2, 0, 0x02, 'a', 255, 1};
    static const uint8_t b1[] = {3, 0, 0x04, 'a', 'b', 8, 2};
    uint8_t expect[266], blocks[600];
    memset(expect, 'a', 256);
    for (unsigned i = 0; i < 10; i++)
        expect[256 + i] = i % 2 ? 'b' : 'a';
    cc_buf B;
    struct {
        const char *what;
        const uint8_t *x0, *x1;
        size_t l0, l1;
        uint32_t e0, e1; /* 0: the block's length */
        int tail_extra;  /* bytes after the last block: +1 one too many, -1 one cut off */
        int want;
    } v[] = {
        {"v1 control: two blocks", b0, b1, 6, 7, 0, 0, 0, GPULZ_OK},
        {"v1 block 1 starts with a match D 1 (reaches into block 0)", b0,
         (const uint8_t[]){1, 0, 0x01, 10, 1}, 6, 5, 0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 0 match D 2 after one symbol (before the chunk)", (const uint8_t[]){2, 0, 0x02, 'a', 255, 2},
         b1, 6, 7, 0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 0 overruns: L 255 then L 3 (259 of 256 symbols)",
         (const uint8_t[]){3, 0, 0x06, 'a', 255, 1, 3, 1}, b1, 8, 7, 0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 1 match L 9 runs past the last block's 10 symbols", b0,
         (const uint8_t[]){3, 0, 0x04, 'a', 'b', 9, 2}, 6, 7, 0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 1 T 11 beyond its 10 symbols", b0, (const uint8_t[]){11, 0, 0x04, 0, 'a', 'b', 8, 2}, 6, 8, 0,
         0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 1 flag bit 3 set past T 3", b0, (const uint8_t[]){3, 0, 0x0C, 'a', 'b', 8, 2}, 6, 7, 0, 0, 0,
         GPULZ_ERR_CORRUPT},
        {"v1 block 1 one byte after its last token (entry 8)", b0, (const uint8_t[]){3, 0, 0x04, 'a', 'b', 8, 2, 0},
         6, 8, 0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 1 stored, raw", b0, (const uint8_t *)"ababababab", 6, 10, 0, 0x8000000Au, 0, GPULZ_OK},
        {"v1 block 1 stored with size 9 of 10", b0, (const uint8_t *)"ababababa", 6, 9, 0, 0x80000009u, 0,
         GPULZ_ERR_CORRUPT},
        {"v1 block 1 encoded at its raw size 10", b0, (const uint8_t[]){3, 0, 0x04, 'a', 'b', 8, 2, 0, 0, 0}, 6, 10,
         0, 0, 0, GPULZ_ERR_CORRUPT},
        {"v1 block 0 match at the block's last byte cut off", (const uint8_t[]){2, 0, 0x02, 'a', 255}, b1, 5, 7, 0, 0,
         0, GPULZ_ERR_CORRUPT},
        {"v1 a byte after the last block", b0, b1, 6, 7, 0, 0, 1, GPULZ_ERR_CORRUPT},
        {"v1 the last block cut short by a byte", b0, b1, 6, 7, 0, 0, -1, GPULZ_ERR_TRUNCATED},
        {"v1 table sizes swapped (7, 6)", b0, b1, 6, 7, 7, 6, 0, GPULZ_ERR_CORRUPT},
    };
    for (unsigned i = 0; i < sizeof v / sizeof *v; i++) {
        uint32_t e[2] = {v[i].e0 ? v[i].e0 : (uint32_t)v[i].l0, v[i].e1 ? v[i].e1 : (uint32_t)v[i].l1};
        memcpy(blocks, v[i].x0, v[i].l0);
        memcpy(blocks + v[i].l0, v[i].x1, v[i].l1);
        size_t bl = v[i].l0 + v[i].l1;
        if (v[i].tail_extra > 0)
            blocks[bl++] = 0;
        else if (v[i].tail_extra < 0)
            bl--;
        cc_v1(&B, 1, 128, 8, 266, e, 2, blocks, bl, NULL, 0);
        cc_add(L, v[i].what, B.b, B.len, 266, v[i].want, v[i].want == GPULZ_OK ? expect : NULL, 266);
    }
    /* the caller's room one byte short of the n the header declares */
    {
        uint32_t e[2] = {6, 7};
        memcpy(blocks, b0, 6);
        memcpy(blocks + 6, b1, 7);
        cc_v1(&B, 1, 128, 8, 266, e, 2, blocks, 13, NULL, 0);
        cc_add(L, "v1 output room 265 for n 266", B.b, B.len, 265, GPULZ_ERR_DST_SIZE, NULL, 0);
    }
    /* S = 8 with a tail of 5: one literal, a match L 2 D 1 (Lmin 1), the tail */
    {
        static const uint8_t blk[] = {2, 0, 0x02, 1, 2, 3, 4, 5, 6, 7, 8, 2, 1};
        static const uint8_t tail[] = {9, 10, 11, 12, 13};
        uint8_t ex[29];
        for (unsigned i = 0; i < 24; i++)
            ex[i] = (uint8_t)(1 + i % 8);
        memcpy(ex + 24, tail, 5);
        uint32_t e[1] = {13};
        cc_v1(&B, 8, 4, 8, 29, e, 1, blk, 13, tail, 5);
        cc_add(L, "v1 S 8 with a 5-byte tail", B.b, B.len, 29, GPULZ_OK, ex, 29);
        cc_add(L, "v1 S 8, its tail one byte short", B.b, B.len - 1, 29, GPULZ_ERR_TRUNCATED, NULL, 0);
        B.b[B.len++] = 0;
        cc_add(L, "v1 S 8, a byte after its tail", B.b, B.len, 29, GPULZ_ERR_CORRUPT, NULL, 0);
        /* W 1 and D 2 over two literals (the window, not the output, refuses it) */
        static const uint8_t w1[] = {3, 0, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2};
        e[0] = sizeof w1;
        cc_v1(&B, 8, 1, 8, 29, e, 1, w1, sizeof w1, tail, 5);
        cc_add(L, "v1 S 8 match D 2 beyond W 1", B.b, B.len, 29, GPULZ_ERR_CORRUPT, NULL, 0);
    }
}

/* ---- format 2, stored streams ---------------------------------------------- */

static void cc_v2_header(cc_buf *B, unsigned flags, unsigned S, unsigned W, unsigned lg, uint64_t n)
{
    static const uint8_t magic[4] = {'G', 'P', 'L', 'Z'};
    const uint64_t m = n / S, C = (uint64_t)1 << lg;
    B->len = 0;
    cc_raw(B, magic, 4);
    cc_put(B, 2, 1);
    cc_put(B, flags, 1);
    cc_put(B, S, 1);
    cc_put(B, W, 1);
    cc_put(B, lg, 1);
    cc_put(B, 14, 1); /* g */
    cc_put(B, 0, 2);
    cc_put(B, n, 8);
    cc_put(B, (m + C - 1) / C, 8);
    cc_put(B, 0, 4); /* no CHECKSUM */
}

/* A stored stream of N units of u bytes: `have` bytes of units given, the
 * rest (where N asks more) zeros. */
static void cc_stored(cc_buf *B, uint64_t N, unsigned u, const uint8_t *units, size_t have)
{
    cc_put(B, 0, 1);
    cc_put(B, N, 8);
    cc_put(B, N * u, 8);
    for (uint64_t i = 0; i < N * u; i++)
        B->b[B->len++] = i < have ? units[i] : 0;
}

#define CC_F_DELTA 0x01u
#define CC_F_SPLIT 0x02u
#define CC_F_LZSS 0x04u
#define CC_F_ENTROPY 0x08u

/* A ratio chunk (LZSS | ENTROPY, C = 256) from its tokens, every stream
 * stored; dN[0..2] are added to the N of the flags, the first literal and
 * the lengths streams (a count that disagrees), kind3 makes the offsets
 * stream's kind 3, big its size past the chunk. */
typedef struct cc_ratio {
    unsigned flags, S, W;
    uint64_t n;
    unsigned nb;
    uint16_t T[4];
    const uint8_t *fl, *lit, *len, *off, *tail;
    unsigned nf, nl, nm, nt;
    int dN[3], kind3, big;
} cc_ratio;

static void cc_ratio_build(cc_buf *B, const cc_ratio *r)
{
    const unsigned split = (r->flags & CC_F_SPLIT) != 0, planes = split ? r->S : 1, u = split ? 1 : r->S;
    uint8_t plane[256];
    cc_v2_header(B, r->flags | CC_F_LZSS | CC_F_ENTROPY, r->S, r->W, 8, r->n);
    for (unsigned k = 0; k < r->nb; k++)
        cc_put(B, r->T[k], 2);
    cc_stored(B, (uint64_t)((int)r->nf + r->dN[0]), 1, r->fl, r->nf);
    for (unsigned j = 0; j < planes; j++) {
        const uint64_t N = (uint64_t)((int)r->nl + (j == 0 ? r->dN[1] : 0));
        for (unsigned i = 0; i < r->nl; i++)
            plane[i] = r->lit[i * r->S + j];
        cc_stored(B, N, u, split ? plane : r->lit, split ? r->nl : (size_t)r->nl * r->S);
    }
    cc_stored(B, (uint64_t)((int)r->nm + r->dN[2]), 1, r->len, r->nm);
    const size_t off_at = B->len;
    cc_stored(B, r->nm, 1, r->off, r->nm);
    if (r->kind3)
        B->b[off_at] = 3;
    if (r->big)
        cc_set(B->b + off_at + 9, 1u << 20, 8);
    cc_raw(B, r->tail, r->nt);
}

static void cc_format2_stored(cc_list *L)
{
    cc_buf B;
    /* S 1, n 10: 'a', 'b', match L 8 D 2 */
    static const uint8_t fl[] = {0x04}, lit[] = {'a', 'b'}, len[] = {8}, off[] = {2};
    const cc_ratio base = {0, 1, 128, 10, 1, {3}, fl, lit, len, off, NULL, 1, 2, 1, 0, {0, 0, 0}, 0, 0};
    struct {
        const char *what;
        cc_ratio r;
        int want;
    } v[] = {
        {"ratio control", base, GPULZ_OK},
        {"ratio match D 3 after two symbols", base, GPULZ_ERR_CORRUPT},
        {"ratio match D 0", base, GPULZ_ERR_CORRUPT},
        {"ratio match D 2 beyond W 1", base, GPULZ_ERR_CORRUPT},
        {"ratio match L 9 past the block's end", base, GPULZ_ERR_CORRUPT},
        {"ratio match L 7: a symbol short", base, GPULZ_ERR_CORRUPT},
        {"ratio flag bit 3 set past T 3", base, GPULZ_ERR_CORRUPT},
        {"ratio T 11 beyond the block's 10 symbols", base, GPULZ_ERR_CORRUPT},
        {"ratio T 0", base, GPULZ_ERR_CORRUPT},
        {"ratio flags stream N 2 for T 3", base, GPULZ_ERR_CORRUPT},
        {"ratio literals N 3 where the flags say 2", base, GPULZ_ERR_CORRUPT},
        {"ratio lengths N 0 where the flags say 1", base, GPULZ_ERR_CORRUPT},
        {"ratio offsets stream of kind 3", base, GPULZ_ERR_CORRUPT},
        {"ratio offsets stream's size past the chunk", base, GPULZ_ERR_TRUNCATED},
        {"ratio match L 2 under Lmin 3, then L 6", base, GPULZ_ERR_CORRUPT},
    };
    static const uint8_t d3[] = {3}, d0[] = {0}, l9[] = {9}, l7[] = {7}, fl_past[] = {0x0C};
    static const uint8_t fl2[] = {0x0C}, lens2[] = {2, 6}, offs2[] = {2, 2}, fl11[] = {0x04, 0x00};
    v[1].r.off = d3;
    v[2].r.off = d0;
    v[3].r.W = 1;
    v[4].r.len = l9;
    v[5].r.len = l7;
    v[6].r.fl = fl_past;
    v[7].r.T[0] = 11;
    v[7].r.fl = fl11;
    v[7].r.nf = 2; /* ceil(11 / 8): the flags stream agrees with T */
    v[8].r.T[0] = 0;
    v[8].r.nf = 0;
    v[9].r.dN[0] = 1;
    v[10].r.dN[1] = 1;
    v[11].r.dN[2] = -1;
    v[12].r.kind3 = 1;
    v[13].r.big = 1;
    v[14].r.T[0] = 4;
    v[14].r.fl = fl2;
    v[14].r.nm = 2;
    v[14].r.len = lens2;
    v[14].r.off = offs2;
    for (unsigned i = 0; i < sizeof v / sizeof *v; i++) {
        cc_ratio_build(&B, &v[i].r);
        cc_add(L, v[i].what, B.b, B.len, 10, v[i].want, v[i].want == GPULZ_OK ? (const uint8_t *)"ababababab" : NULL,
               10);
    }

    /* two blocks, n 266: block 0 'a' + L 255 D 1, block 1 'a', 'b', L 8 D 2 */
    {
        uint8_t ex[266];
        memset(ex, 'a', 256);
        for (unsigned i = 0; i < 10; i++)
            ex[256 + i] = i % 2 ? 'b' : 'a';
        static const uint8_t fl3[] = {0x02, 0x04}, lit3[] = {'a', 'a', 'b'}, len3[] = {255, 8}, off3[] = {1, 2};
        cc_ratio r = {0, 1, 128, 266, 2, {2, 3}, fl3, lit3, len3, off3, NULL, 2, 3, 2, 0, {0, 0, 0}, 0, 0};
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio control: two blocks", B.b, B.len, 266, GPULZ_OK, ex, 266);
        /* block 1 opens with a match D 1: it may not reach into block 0 */
        static const uint8_t fl4[] = {0x02, 0x01}, lit4[] = {'a'}, len4[] = {255, 10}, off4[] = {1, 1};
        cc_ratio r4 = {0, 1, 128, 266, 2, {2, 1}, fl4, lit4, len4, off4, NULL, 2, 1, 2, 0, {0, 0, 0}, 0, 0};
        cc_ratio_build(&B, &r4);
        cc_add(L, "ratio block 1 starts with a match D 1 (into block 0)", B.b, B.len, 266, GPULZ_ERR_CORRUPT, NULL, 0);
        /* block 0 with L 255 and L 3: 259 symbols, its matches running into block 1 */
        static const uint8_t fl5[] = {0x06, 0x04}, len5[] = {255, 3, 8}, off5[] = {1, 1, 2};
        cc_ratio r5 = {0, 1, 128, 266, 2, {3, 3}, fl5, lit3, len5, off5, NULL, 2, 3, 3, 0, {0, 0, 0}, 0, 0};
        cc_ratio_build(&B, &r5);
        cc_add(L, "ratio block 0 overruns into block 1 (259 of 256)", B.b, B.len, 266, GPULZ_ERR_CORRUPT, NULL, 0);
        /* DELTA: the same tokens are the differences; the symbols their running sums per block */
        uint8_t dx[266];
        for (unsigned k = 0, i = 0; k < 2; k++) {
            uint8_t s = 0;
            for (unsigned j = 0; j < (k ? 10u : 256u); j++, i++)
                dx[i] = s = (uint8_t)(s + ex[i]);
        }
        r.flags = CC_F_DELTA;
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio control: DELTA, two blocks", B.b, B.len, 266, GPULZ_OK, dx, 266);
    }
    /* S 2 without SPLIT (16-bit literal units), a tail of 1 */
    {
        static const uint8_t fl6[] = {0x04}, lit6[] = {1, 2, 3, 4}, len6[] = {8}, off6[] = {2}, tail[] = {0x77};
        uint8_t ex[21];
        for (unsigned i = 0; i < 20; i++)
            ex[i] = (uint8_t)(1 + i % 4);
        ex[20] = 0x77;
        cc_ratio r = {0, 2, 128, 21, 1, {3}, fl6, lit6, len6, off6, tail, 1, 2, 1, 1, {0, 0, 0}, 0, 0};
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio control: S 2, tail 1", B.b, B.len, 21, GPULZ_OK, ex, 21);
        cc_add(L, "ratio S 2, its tail cut off", B.b, B.len - 1, 21, GPULZ_ERR_TRUNCATED, NULL, 0);
        B.b[B.len++] = 0;
        cc_add(L, "ratio S 2, a byte after its tail", B.b, B.len, 21, GPULZ_ERR_CORRUPT, NULL, 0);
        static const uint8_t len7[] = {1};
        r.len = len7; /* Lmin is 2 for S 2 */
        r.T[0] = 3;
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio S 2 match L 1 under Lmin 2", B.b, B.len, 21, GPULZ_ERR_CORRUPT, NULL, 0);
    }
    /* S 4 with SPLIT: four literal planes */
    {
        static const uint8_t fl8[] = {0x04}, lit8[] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}, len8[] = {8},
                             off8[] = {2};
        uint8_t ex[40];
        for (unsigned i = 0; i < 40; i++)
            ex[i] = (uint8_t)('a' + i % 8);
        cc_ratio r = {CC_F_SPLIT, 4, 128, 40, 1, {3}, fl8, lit8, len8, off8, NULL, 1, 2, 1, 0, {0, 0, 0}, 0, 0};
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio control: S 4 SPLIT", B.b, B.len, 40, GPULZ_OK, ex, 40);
        r.dN[1] = -1;
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio S 4 SPLIT, literal plane 0 N 1 of 2", B.b, B.len, 40, GPULZ_ERR_CORRUPT, NULL, 0);
        /* the matches' lengths as the units of a one-symbol-short block */
        static const uint8_t len9[] = {7};
        r.dN[1] = 0;
        r.len = len9;
        cc_ratio_build(&B, &r);
        cc_add(L, "ratio S 4 SPLIT match L 7: a symbol short", B.b, B.len, 40, GPULZ_ERR_CORRUPT, NULL, 0);
    }

    /* fast: S 1, n 10, one stream */
    {
        static const uint8_t sym[] = "ababababab";
        cc_v2_header(&B, CC_F_ENTROPY, 1, 0, 8, 10);
        cc_stored(&B, 10, 1, sym, 10);
        cc_add(L, "fast control: stored", B.b, B.len, 10, GPULZ_OK, sym, 10);
        cc_v2_header(&B, CC_F_ENTROPY, 1, 0, 8, 10);
        cc_stored(&B, 9, 1, sym, 9);
        cc_add(L, "fast stored N 9 for 10 symbols", B.b, B.len, 10, GPULZ_ERR_CORRUPT, NULL, 0);
        cc_v2_header(&B, CC_F_ENTROPY, 1, 0, 8, 10);
        cc_stored(&B, 10, 1, sym, 10);
        cc_set(B.b + 32 + 9, 11, 8);
        B.b[B.len++] = 0;
        cc_add(L, "fast stored of 10 units in 11 bytes", B.b, B.len, 10, GPULZ_ERR_CORRUPT, NULL, 0);
        static const uint8_t con[] = {0, 10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'q'};
        uint8_t q[10];
        memset(q, 'q', 10);
        cc_v2_header(&B, CC_F_ENTROPY, 1, 0, 8, 10);
        cc_raw(&B, con, sizeof con);
        B.b[32] = 1;
        cc_add(L, "fast control: constant", B.b, B.len, 10, GPULZ_OK, q, 10);
        cc_set(B.b + 32 + 9, 2, 8);
        B.b[B.len++] = 'q';
        cc_add(L, "fast constant of 2 bytes", B.b, B.len, 10, GPULZ_ERR_CORRUPT, NULL, 0);
        cc_v2_header(&B, CC_F_ENTROPY, 1, 0, 8, 0); /* n 0: no block, the constant of 0 units */
        cc_raw(&B, con, sizeof con);
        B.b[32] = 1;
        cc_set(B.b + 33, 0, 8);
        cc_add(L, "fast constant of 0 units", B.b, B.len, 0, GPULZ_ERR_CORRUPT, NULL, 0);
    }
    /* fast S 2, m 0, tail 1: a rANS stream of N 0, its table alone (§14) */
    {
        static const uint8_t tab[] = {1, 0, 0, 0, 0xFF, 0x1F}; /* K 1, E 0, value 0, f 4096 */
        cc_v2_header(&B, CC_F_ENTROPY, 2, 0, 8, 1);
        cc_put(&B, 2, 1);
        cc_put(&B, 0, 8);
        cc_put(&B, sizeof tab, 8);
        cc_raw(&B, tab, sizeof tab);
        cc_put(&B, 0x5A, 1);
        cc_add(L, "fast control: rANS of 0 units, a tail", B.b, B.len, 1, GPULZ_OK, (const uint8_t[]){0x5A}, 1);
        /* the same with a directory entry no segment needs */
        cc_v2_header(&B, CC_F_ENTROPY, 2, 0, 8, 1);
        cc_put(&B, 2, 1);
        cc_put(&B, 0, 8);
        cc_put(&B, sizeof tab + 4, 8);
        cc_raw(&B, tab, sizeof tab);
        cc_put(&B, 0, 4);
        cc_put(&B, 0x5A, 1);
        cc_add(L, "fast rANS of 0 units with 4 bytes over", B.b, B.len, 1, GPULZ_ERR_CORRUPT, NULL, 0);
    }
    /* fast S 8 (SPLIT): eight planes, stored and constant, a tail of 3 */
    {
        uint8_t sym[8 * 5 + 3];
        for (unsigned i = 0; i < 40; i++)
            sym[i] = (uint8_t)(i % 8 == 3 ? 0xEE : i * 7 + 1);
        sym[40] = 1;
        sym[41] = 2;
        sym[42] = 3;
        cc_v2_header(&B, CC_F_ENTROPY | CC_F_SPLIT, 8, 0, 8, 43);
        for (unsigned j = 0; j < 8; j++) {
            uint8_t pl[5];
            for (unsigned i = 0; i < 5; i++)
                pl[i] = sym[8 * i + j];
            if (j == 3) {
                cc_put(&B, 1, 1);
                cc_put(&B, 5, 8);
                cc_put(&B, 1, 8);
                cc_put(&B, 0xEE, 1);
            } else {
                cc_stored(&B, 5, 1, pl, 5);
            }
        }
        cc_raw(&B, sym + 40, 3);
        cc_add(L, "fast control: S 8 SPLIT, a constant plane, tail 3", B.b, B.len, 43, GPULZ_OK, sym, 43);
        cc_add(L, "fast S 8 SPLIT, its tail a byte short", B.b, B.len - 1, 43, GPULZ_ERR_TRUNCATED, NULL, 0);
    }
}

/* ---- format 2, rANS segments from the encoder ------------------------------- */

/* A stream of a chunk as the walk finds it: for rANS its table's size,
 * the directory and the segments' start. */
typedef struct cc_stream {
    size_t at, dir, segs;
    unsigned kind;
    uint64_t N, size, nseg;
} cc_stream;

static int cc_stream_at(const uint8_t *c, size_t len, size_t at, cc_stream *s)
{
    memset(s, 0, sizeof *s);
    if (at + 17 > len)
        return 0;
    s->at = at;
    s->kind = c[at];
    s->N = cc_get(c + at + 1, 8);
    s->size = cc_get(c + at + 9, 8);
    if (s->kind != 2)
        return at + 17 + s->size <= len;
    size_t p = at + 17;
    const unsigned K = (unsigned)cc_get(c + p, 2), E = c[p + 2];
    p += 3;
    for (unsigned i = 0; i < 2 * K + E && p < len; i++) {
        while (p < len && c[p] & 0x80)
            p++;
        p++;
    }
    s->nseg = (s->N + (1u << 14) - 1) >> 14;
    s->dir = p;
    s->segs = p + 4 * s->nseg;
    return s->segs <= len && at + 17 + s->size <= len;
}

/* Segment i's offset in the chunk. */
static size_t cc_seg(const uint8_t *c, const cc_stream *s, uint64_t i)
{
    size_t p = s->segs;
    for (uint64_t j = 0; j < i; j++)
        p += 128 + 2 * (size_t)cc_get(c + s->dir + 4 * j, 4);
    return p;
}

/* The rewrites of one rANS stream of chunk c (at least two segments, each
 * with a word) as cases; `tag` names the chunk. */
static void cc_rans_cases(cc_list *L, const uint8_t *c, size_t len, size_t n, const cc_stream *s, const char *tag)
{
    char what[112];
    uint8_t *x = cc_xmalloc(len + 2);
    const uint64_t w0 = cc_get(c + s->dir, 4), w1 = cc_get(c + s->dir + 4, 4);
    if (s->nseg < 2 || !w0 || !w1) {
        L->broken = 1;
        free(x);
        return;
    }
    /* one word of segment 1 counted in segment 0: 0 reads a word of 1's
     * states as its last, 1 starts a word late and leaves one unread */
    memcpy(x, c, len);
    cc_set(x + s->dir, w0 + 1, 4);
    cc_set(x + s->dir + 4, w1 - 1, 4);
    snprintf(what, sizeof what, "%s: segment 0 takes a word of segment 1", tag);
    cc_add(L, what, x, len, n, GPULZ_ERR_CORRUPT, NULL, 0);
    /* and the other way: segment 0 reads past its words */
    memcpy(x, c, len);
    cc_set(x + s->dir, w0 - 1, 4);
    cc_set(x + s->dir + 4, w1 + 1, 4);
    snprintf(what, sizeof what, "%s: segment 0 one word short", tag);
    cc_add(L, what, x, len, n, GPULZ_ERR_CORRUPT, NULL, 0);
    /* all of segment 1's words given to segment 0: segment 1 has none to read */
    memcpy(x, c, len);
    cc_set(x + s->dir, w0 + w1, 4);
    cc_set(x + s->dir + 4, 0, 4);
    snprintf(what, sizeof what, "%s: segment 1 with no words", tag);
    cc_add(L, what, x, len, n, GPULZ_ERR_CORRUPT, NULL, 0);
    /* a state below 2^16, and one that cannot come back to it */
    const size_t s1 = cc_seg(c, s, 1);
    memcpy(x, c, len);
    cc_set(x + s1 + 4 * 7, 0xFFFF, 4);
    snprintf(what, sizeof what, "%s: segment 1 lane 7 state 0xFFFF", tag);
    cc_add(L, what, x, len, n, GPULZ_ERR_CORRUPT, NULL, 0);
    memcpy(x, c, len);
    cc_set(x + s->segs, 0xFFFFFFFFu, 4);
    snprintf(what, sizeof what, "%s: segment 0 lane 0 state 0xFFFFFFFF", tag);
    cc_add(L, what, x, len, n, CC_ANY, NULL, 0);
    memcpy(x, c, len);
    cc_set(x + s->segs + 4 * 31, 0, 4);
    snprintf(what, sizeof what, "%s: segment 0 lane 31 state 0", tag);
    cc_add(L, what, x, len, n, GPULZ_ERR_CORRUPT, NULL, 0);
    /* the last segment with a word too many: two bytes put after its
     * words, its count and the stream's size grown to match */
    {
        const uint64_t last = s->nseg - 1;
        const size_t end = cc_seg(c, s, s->nseg);
        memcpy(x, c, end);
        x[end] = 0x34;
        x[end + 1] = 0x12;
        memcpy(x + end + 2, c + end, len - end);
        cc_set(x + s->dir + 4 * last, cc_get(c + s->dir + 4 * last, 4) + 1, 4);
        cc_set(x + s->at + 9, s->size + 2, 8);
        snprintf(what, sizeof what, "%s: the last segment with a word left over", tag);
        cc_add(L, what, x, len + 2, n, GPULZ_ERR_CORRUPT, NULL, 0);
    }
    /* two frequencies of the table swapped (varints of one length, so the
     * table keeps its size): other slots for the same states */
    {
        size_t p = s->at + 17;
        const unsigned K = (unsigned)cc_get(c + p, 2), E = c[p + 2];
        p += 3;
        for (unsigned i = 0; i < K; i++) {
            while (c[p] & 0x80)
                p++;
            p++;
        }
        size_t at[2] = {0, 0}, l0 = 0;
        for (unsigned i = 0; i < K + E && !at[1]; i++) {
            const size_t q = p;
            while (c[p] & 0x80)
                p++;
            p++;
            if (!at[0]) {
                at[0] = q;
                l0 = p - q;
            } else if (p - q == l0 && memcmp(c + q, c + at[0], l0)) {
                at[1] = q;
            }
        }
        if (at[1]) {
            memcpy(x, c, len);
            memcpy(x + at[0], c + at[1], l0);
            memcpy(x + at[1], c + at[0], l0);
            snprintf(what, sizeof what, "%s: two table frequencies swapped", tag);
            cc_add(L, what, x, len, n, CC_ANY, NULL, 0);
        }
    }
    free(x);
}

static uint64_t cc_rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void cc_format2_rans(cc_list *L)
{
    uint64_t r = 0x9E3779B97F4A7C15ull;
    /* three segments of skewed bytes (fast, S 1: one rANS stream), and
     * 16-bit symbols of which most are one value and the rest spread over
     * all of them (fast, S 2 without SPLIT: a table with an escape) */
    for (unsigned which = 0; which < 3; which++) {
        const unsigned S = which == 1 ? 2 : 1;
        const size_t n = which == 1 ? 2 * 40000 + 1 : which == 2 ? 120000 : 40000;
        uint8_t *in = cc_xmalloc(n);
        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)(cc_rng(&r) % 4 == 0 ? cc_rng(&r) % 24 : 'x');
        if (which == 1)
            for (size_t i = 0; i + 1 < n; i += 2)
                if (cc_rng(&r) % 3 == 0)
                    in[i] = (uint8_t)cc_rng(&r), in[i + 1] = (uint8_t)cc_rng(&r);
        gpulz_params p;
        gpulz_params_init(&p);
        p.backend = GPULZ_BACKEND_CPU;
        p.flags = GPULZ_FLAG_NO_CHECKSUM;
        p.mode = which == 2 ? GPULZ_MODE_RATIO : GPULZ_MODE_FAST;
        p.symbol_size = S;
        p.block_symbols = 1024;
        size_t cap = gpulz_compress_bound(n, &p), len = 0;
        uint8_t *c = cc_xmalloc(cap);
        cc_stream s;
        char tag[48];
        if (gpulz_compress(in, n, c, cap, &len, &p) != GPULZ_OK || len < 32 || c[4] != 2) {
            L->broken = 1;
        } else if (which < 2) {
            /* fast: the stream right after the header, rANS (with the escape for S 2) */
            snprintf(tag, sizeof tag, "fast S %u rANS", S);
            if (!cc_stream_at(c, len, 32, &s) || s.kind != 2 || (which == 1 && c[32 + 17 + 2] != 1))
                L->broken = 1;
            else
                cc_rans_cases(L, c, len, n, &s, tag);
            cc_add(L, which ? "fast S 2 rANS control" : "fast S 1 rANS control", c, len, n, GPULZ_OK, in, n);
        } else {
            /* ratio: the flags after the token table; the literals after them */
            const uint64_t nb = (n + 1023) / 1024;
            cc_stream f;
            if (!cc_stream_at(c, len, 32 + 2 * nb, &f) || !cc_stream_at(c, len, f.at + 17 + f.size, &s) ||
                s.kind != 2)
                L->broken = 1;
            else
                cc_rans_cases(L, c, len, n, &s, "ratio literals rANS");
            cc_add(L, "ratio rANS control", c, len, n, GPULZ_OK, in, n);
        }
        free(c);
        free(in);
    }
}

/* Every crafted chunk. */
static void cc_build(cc_list *L)
{
    memset(L, 0, sizeof *L);
    cc_format1(L);
    cc_format2_stored(L);
    cc_format2_rans(L);
}

#endif /* CRAFTED_CHUNKS_H */
