/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_refdec_test.c - gpulz's format 2 encoder and decoder held to the
 * independent decoder of codec_refdec.c (docs/FORMAT.md alone):
 *
 *  1. thousands of inputs of varied kinds (random, zeros, runs, small-alphabet
 *     codes of 1 and 2 bytes with skew, sorted integers, float-like values,
 *     text-like bytes, values rare enough to be escaped, tiny and odd sizes,
 *     tails) and parameters (S 1/2/4/8, C, W, modes fast/ratio/auto, the
 *     checksum on and off): gpulz_compress writes a chunk whose header says
 *     what section 19 says (stages, W, g, checksum), and both
 *     codec_refdec and gpulz_decompress give the input back;
 *  2. damaged copies of those chunks (bit flips, bytes overwritten,
 *     truncation, a byte appended, header fields, and the stream, table,
 *     directory, state and token-count fields the reference decoder found):
 *     the two decoders must agree on accepting or refusing each; a damaged
 *     chunk both accept must decode to the same bytes, and when it carries
 *     the checksum to the original input.  A disagreement is printed with
 *     the chunk's parameters and the damage, and fails the test.
 *
 * Usage: codec_refdec_test [inputs [seed]]   (default 8000 inputs, 16 damaged copies each)
 *        codec_refdec_test --decode FILE...   both decoders on chunk files
 *        codec_refdec_test --compress MODE S W C FLAGS IN OUT
 *                          (gpulz_compress, for h5tests/v2_refenc.py --diff; FLAGS:
 *                          1 the checksum, 2 GPULZ_FLAG_ADAPTIVE)
 */
#include "codec_refdec.h"
#include "codec_testutil.h"

#define GUARD 64

static const char *const mode_name[] = {"lz", "fast", "ratio", "auto"};

static int verbose; /* CODEC_REFDEC_VERBOSE set: print refusals whose statuses differ */
static unsigned long n_inputs, n_mutants, n_agree_accept, n_agree_reject, n_disagree;
static unsigned long code_pairs[8][8]; /* [library][refdec] status of refused mutants */
static unsigned long cover_flags[32], cover_v1, cover_escapes, cover_multiseg, cover_const,
    cover_stored, cover_rans, cover_tail, cover_empty;

static int code_index(int rc)
{
    return rc == 0 ? 0 : rc == -2 ? 1 : rc == -3 ? 2 : rc == -4 ? 3 : rc == -5 ? 4 : rc == -6 ? 5 : 6;
}

static void hexdump(const uint8_t *b, size_t n, size_t max)
{
    for (size_t i = 0; i < n && i < max; i++)
        fprintf(stderr, "%02X%s", b[i], i % 32 == 31 ? "\n" : " ");
    if (n > max)
        fprintf(stderr, "... (%zu bytes)", n);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------ inputs */

static void fill(uint8_t *b, size_t n, unsigned kind, uint64_t *s)
{
    switch (kind) {
    case 0: /* random */
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)tu_next(s);
        break;
    case 1: /* zeros */
        memset(b, 0, n);
        break;
    case 2: /* runs, periods, copies */
        tu_fill_matchy(b, n, s);
        break;
    case 3: { /* u8 codes from a small alphabet with skew */
        unsigned k = 2 + (unsigned)tu_below(s, 30);
        uint8_t alpha[32];
        for (unsigned a = 0; a < k; a++)
            alpha[a] = (uint8_t)tu_next(s);
        for (size_t i = 0; i < n; i++) {
            unsigned a = 0;
            while (a + 1 < k && tu_below(s, 3))
                a++;
            b[i] = alpha[a];
        }
        break;
    }
    case 4: { /* u16 codes (both bytes random) with skew: whole symbols pay */
        unsigned k = 2 + (unsigned)tu_below(s, 40);
        uint16_t alpha[42];
        for (unsigned a = 0; a < k; a++)
            alpha[a] = (uint16_t)tu_next(s);
        for (size_t i = 0; i + 1 < n; i += 2) {
            unsigned a = 0;
            while (a + 1 < k && tu_below(s, 4))
                a++;
            b[i] = (uint8_t)alpha[a];
            b[i + 1] = (uint8_t)(alpha[a] >> 8);
        }
        if (n % 2)
            b[n - 1] = (uint8_t)tu_next(s);
        break;
    }
    case 5: { /* sorted integers, 4 or 8 bytes, with duplicates */
        unsigned w = tu_below(s, 2) ? 4 : 8;
        uint64_t v = tu_next(s) >> (tu_below(s, 2) ? 40 : 8), step = 1 + tu_below(s, 50);
        for (size_t i = 0; i < n; i += w) {
            v += tu_below(s, step);
            for (unsigned j = 0; j < w && i + j < n; j++)
                b[i + j] = (uint8_t)(v >> (8 * j));
        }
        break;
    }
    case 6: { /* float-like: doubles of a smooth curve with noise in the low bits */
        double x = (double)tu_below(s, 1000);
        for (size_t i = 0; i < n; i += 8) {
            x += 0.01 * (double)tu_below(s, 100);
            uint64_t bits;
            memcpy(&bits, &x, 8);
            bits &= ~(uint64_t)0 << (8 * tu_below(s, 5));
            for (unsigned j = 0; j < 8 && i + j < n; j++)
                b[i + j] = (uint8_t)(bits >> (8 * j));
        }
        break;
    }
    case 7: { /* text-like: words from a small list */
        static const char *const words[] = {"alpha ", "beta ", "gamma ", "chunk ", "the ",
                                            "of ", "a ", "stream ", "lane ", "HDF5 ", "\n",
                                            "value=", "42, ", "-1, "};
        size_t i = 0;
        while (i < n) {
            const char *w = words[tu_below(s, sizeof words / sizeof *words)];
            for (size_t j = 0; w[j] && i < n; j++)
                b[i++] = (uint8_t)w[j];
        }
        break;
    }
    case 8: { /* rare values among common ones: escapes (u = 1 and u = 2) */
        unsigned w = tu_below(s, 2) ? 1 : 2;
        for (size_t i = 0; i + w <= n; i += w) {
            uint16_t v = tu_below(s, 50) ? (uint16_t)(0x4100 + tu_below(s, 6))
                                         : (uint16_t)tu_next(s);
            b[i] = (uint8_t)v;
            if (w == 2)
                b[i + 1] = (uint8_t)(v >> 8);
        }
        for (size_t i = n - n % w; i < n; i++)
            b[i] = 0x77;
        break;
    }
    case 9: { /* a repeated wide value, sometimes broken */
        uint64_t v = tu_next(s);
        unsigned w = 1u << tu_below(s, 4);
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)(v >> (8 * (i % w)));
        for (size_t i = 0; i < n; i++)
            if (tu_below(s, 300) == 0)
                b[i] ^= 0x10;
        break;
    }
    default: { /* ramps in 2-byte words: delta pays */
        uint16_t v = (uint16_t)tu_next(s);
        unsigned step = (unsigned)tu_below(s, 4);
        for (size_t i = 0; i + 1 < n; i += 2) {
            v = (uint16_t)(v + step + (tu_below(s, 8) == 0));
            b[i] = (uint8_t)v;
            b[i + 1] = (uint8_t)(v >> 8);
        }
        if (n % 2)
            b[n - 1] = 1;
        break;
    }
    }
}
#define KINDS 11

static size_t pick_size(uint64_t *s, unsigned S)
{
    switch (tu_below(s, 10)) {
    case 0:
        return (size_t)tu_below(s, 3 * S + 2); /* tiny: 0, under one symbol, a few */
    case 1:
    case 2:
        return (size_t)tu_below(s, 200);
    case 3:
    case 4:
    case 5:
        return 200 + (size_t)tu_below(s, 1800);
    case 6:
    case 7:
        return 2000 + (size_t)tu_below(s, 6000);
    case 8:
        return 8000 + (size_t)tu_below(s, 12000);
    default:
        /* now and then more than 16384 units in a stream: two segments */
        return tu_below(s, 8) ? (size_t)tu_below(s, 3000) : 16385 * S + (size_t)tu_below(s, 9000);
    }
}

/* ------------------------------------------------------------ checks */

/* What section 19 says the header of a chunk of this mode holds. */
static void check_header(const uint8_t *c, size_t len, const gpulz_params *p, size_t n,
                         const char *what)
{
    if (len < 28) {
        tu_fail("%s: a chunk of %zu bytes", what, len);
        return;
    }
    int ck = !(p->flags & GPULZ_FLAG_NO_CHECKSUM);
    if (c[4] == 1) {
        TU_CHECK(p->mode == GPULZ_MODE_AUTO && !ck,
                 "%s: version 1 written by mode %s (checksum %d)", what, mode_name[p->mode], ck);
        return;
    }
    if (c[4] != 2 || len < 32) {
        tu_fail("%s: version %u", what, c[4]);
        return;
    }
    unsigned fl = c[5];
    TU_CHECK(fl & 8, "%s: no ENTROPY", what);
    TU_CHECK(!!(fl & 16) == ck, "%s: CHECKSUM %d, asked %d", what, !!(fl & 16), ck);
    if (p->mode == GPULZ_MODE_FAST)
        TU_CHECK(!(fl & 4), "%s: mode fast with LZSS", what);
    if (p->mode == GPULZ_MODE_RATIO)
        TU_CHECK(fl & 4, "%s: mode ratio without LZSS", what);
    TU_CHECK(c[6] == p->symbol_size, "%s: S %u", what, c[6]);
    TU_CHECK(c[7] == (fl & 4 ? p->window : 0), "%s: W %u (LZSS %d)", what, c[7], !!(fl & 4));
    TU_CHECK((1u << c[8]) == p->block_symbols, "%s: log2 C %u", what, c[8]);
    TU_CHECK(c[9] == 14, "%s: g %u, section 19 says 14", what, c[9]);
    uint64_t hn = 0;
    for (int i = 7; i >= 0; i--)
        hn = hn << 8 | c[12 + i];
    TU_CHECK(hn == n, "%s: n %llu", what, (unsigned long long)hn);
    cover_flags[fl & 31]++;
}

/* Both decoders on one chunk; returns 1 when they agree. */
typedef struct outcome {
    int lib_rc, ref_rc;
    size_t lib_len, ref_len;
    uint8_t *lib_out, *ref_out;
    refdec_info info;
    char err[256];
} outcome;

static void run_both(const uint8_t *chunk, size_t len, size_t cap, unsigned threads, outcome *o)
{
    /* exact copies, so ASan and valgrind see any read past len */
    uint8_t *src = tu_xmalloc(len);
    memcpy(src, chunk, len);
    o->lib_out = tu_xmalloc(cap + GUARD);
    o->ref_out = tu_xmalloc(cap + GUARD);
    memset(o->lib_out, 0x5A, cap + GUARD);
    memset(o->ref_out, 0x5A, cap + GUARD);
    gpulz_params p;
    tu_params(&p, 1, 128, 256, threads);
    o->lib_len = o->ref_len = 0;
    o->lib_rc = gpulz_decompress(src, len, o->lib_out, cap, &o->lib_len, &p);
    memset(&o->info, 0, sizeof o->info);
    o->ref_rc = refdec_decode(src, len, o->ref_out, cap, &o->ref_len, &o->info, o->err,
                              sizeof o->err);
    for (size_t i = cap; i < cap + GUARD; i++) {
        if (o->lib_out[i] != 0x5A) {
            tu_fail("gpulz_decompress wrote past dst_cap (%zu)", cap);
            break;
        }
        if (o->ref_out[i] != 0x5A) {
            tu_fail("refdec wrote past dst_cap (%zu)", cap);
            break;
        }
    }
    free(src);
}

static void free_outcome(outcome *o)
{
    free(o->lib_out);
    free(o->ref_out);
}

/* ------------------------------------------------------------ damage */

static uint64_t rd_le(const uint8_t *p, unsigned k)
{
    uint64_t v = 0;
    for (unsigned i = k; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void wr_le(uint8_t *p, uint64_t v, unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Damage a copy of ch; returns its new length and describes it in what. */
static size_t mutate(const uint8_t *ch, size_t len, uint8_t *x, const refdec_info *info,
                     uint64_t *s, char *what, size_t wl)
{
    memcpy(x, ch, len);
    unsigned how = (unsigned)tu_below(s, 10);
    if (how == 0 || len == 0) { /* truncate (or extend an empty one) */
        size_t l = len ? (size_t)tu_below(s, len) : 1;
        if (!len)
            x[0] = 0;
        snprintf(what, wl, "cut to %zu of %zu bytes", l, len);
        return l;
    }
    if (how == 1) {
        x[len] = (uint8_t)tu_next(s);
        snprintf(what, wl, "byte %02X appended", x[len]);
        return len + 1;
    }
    if (how <= 4) { /* one bit anywhere, or near the front */
        size_t at = how == 2 && len > 32 ? 32 + (size_t)tu_below(s, len - 32 < 200 ? len - 32 : 200)
                                         : (size_t)tu_below(s, len);
        unsigned bit = (unsigned)tu_below(s, 8);
        x[at] ^= (uint8_t)(1u << bit);
        snprintf(what, wl, "bit %u of byte %zu flipped", bit, at);
        return len;
    }
    if (how == 5) { /* a byte overwritten */
        size_t at = (size_t)tu_below(s, len);
        uint8_t v = (uint8_t)tu_next(s);
        snprintf(what, wl, "byte %zu %02X -> %02X", at, x[at], v);
        x[at] = v;
        return len;
    }
    if (how == 6 && len >= 32) { /* a header field */
        static const struct {
            unsigned at, len;
            const char *name;
        } hf[] = {{5, 1, "flags"}, {6, 1, "S"},   {7, 1, "W"},   {8, 1, "log2 C"},
                  {9, 1, "g"},     {10, 2, "reserved"}, {12, 8, "n"}, {20, 8, "nb"},
                  {28, 4, "checksum"}};
        unsigned f = (unsigned)tu_below(s, sizeof hf / sizeof *hf);
        if (ch[4] == 1 && hf[f].at + hf[f].len > 28)
            f = 0;
        uint64_t old = rd_le(x + hf[f].at, hf[f].len), v;
        switch (tu_below(s, 5)) {
        case 0: v = old + 1; break;
        case 1: v = old - 1; break;
        case 2: v = old ^ ((uint64_t)1 << tu_below(s, 8 * hf[f].len)); break;
        case 3: v = tu_below(s, 20); break;
        default: v = tu_next(s); break;
        }
        wr_le(x + hf[f].at, v, hf[f].len);
        snprintf(what, wl, "header %s %llu -> %llu", hf[f].name, (unsigned long long)old,
                 (unsigned long long)rd_le(x + hf[f].at, hf[f].len));
        return len;
    }
    if (info->nfields) { /* a field the reference decoder found */
        const struct refdec_field *f = &info->field[tu_below(s, info->nfields)];
        if (f->pos + f->len <= len) {
            uint64_t old = rd_le(x + f->pos, f->len), v;
            switch (tu_below(s, 6)) {
            case 0: v = old + 1; break;
            case 1: v = old - 1; break;
            case 2: v = old ^ ((uint64_t)1 << tu_below(s, 8 * f->len)); break;
            case 3: v = tu_below(s, 4); break;
            case 4: v = old + 2 + tu_below(s, 1000); break;
            default: v = tu_next(s); break;
            }
            wr_le(x + f->pos, v, f->len);
            snprintf(what, wl, "%s at %llu: %llu -> %llu", f->what, (unsigned long long)f->pos,
                     (unsigned long long)old, (unsigned long long)rd_le(x + f->pos, f->len));
            return len;
        }
    }
    size_t at = (size_t)tu_below(s, len);
    x[at] ^= 0x80;
    snprintf(what, wl, "bit 7 of byte %zu flipped", at);
    return len;
}

static void damage(const uint8_t *in, size_t n, const uint8_t *ch, size_t len,
                   const refdec_info *info, const gpulz_params *p, uint64_t *s, unsigned count,
                   const char *ctxt)
{
    uint8_t *x = tu_xmalloc(len + 2);
    int had_ck = len >= 32 && ch[4] == 2 && (ch[5] & 16);
    for (unsigned k = 0; k < count; k++) {
        char what[160];
        size_t xl = mutate(ch, len, x, info, s, what, sizeof what);
        size_t cap = tu_below(s, 2) ? n : n + 100;
        outcome o;
        run_both(x, xl, cap, p->threads, &o);
        n_mutants++;
        int lib_ok = o.lib_rc == GPULZ_OK, ref_ok = o.ref_rc == REFDEC_OK;
        if (lib_ok != ref_ok) {
            n_disagree++;
            tu_fail("%s, %s: gpulz_decompress %s (%s), refdec %s (%s)", ctxt, what,
                    gpulz_strerror(o.lib_rc), lib_ok ? "" : gpulz_last_error(),
                    refdec_strerror(o.ref_rc), o.err);
            if (n_disagree <= 5) {
                fprintf(stderr, "the damaged chunk (dst_cap %zu):\n", cap);
                hexdump(x, xl, 512);
            }
        } else if (lib_ok) {
            n_agree_accept++;
            TU_CHECK(o.lib_len == o.ref_len && !memcmp(o.lib_out, o.ref_out, o.lib_len),
                     "%s, %s: both accept, and decode to different bytes", ctxt, what);
            int has_ck = xl >= 32 && x[4] == 2 && (x[5] & 16);
            if (had_ck && has_ck)
                TU_CHECK(o.ref_len == n && !memcmp(o.ref_out, in, n),
                         "%s, %s: a damaged chunk with the checksum decodes to other bytes",
                         ctxt, what);
        } else {
            n_agree_reject++;
            code_pairs[code_index(o.lib_rc)][code_index(o.ref_rc)]++;
            /* §20: TRUNCATED where the chunk ends before what it declares,
             * CORRUPT for every other broken rule (a stream whose own size
             * ends inside its table, say): the two decoders name it alike */
            TU_CHECK(!((o.lib_rc == GPULZ_ERR_TRUNCATED && o.ref_rc == REFDEC_CORRUPT) ||
                       (o.lib_rc == GPULZ_ERR_CORRUPT && o.ref_rc == REFDEC_TRUNCATED)),
                     "%s, %s: gpulz %s (%s), refdec %s (%s)", ctxt, what, gpulz_strerror(o.lib_rc),
                     gpulz_last_error(), refdec_strerror(o.ref_rc), o.err);
            if (verbose && o.lib_rc != o.ref_rc)
                printf("status differs: %s, %s: gpulz %s (%s), refdec %s (%s)\n", ctxt, what,
                       gpulz_strerror(o.lib_rc), gpulz_last_error(), refdec_strerror(o.ref_rc),
                       o.err);
        }
        free_outcome(&o);
    }
    free(x);
}

/* ------------------------------------------------------------ one input */

static void one(uint64_t *s, unsigned iter, unsigned mutants)
{
    static const unsigned Ss[] = {1, 2, 4, 8};
    unsigned S = Ss[tu_below(s, 4)];
    unsigned C = 256u << tu_below(s, 7);
    unsigned W = tu_below(s, 3) ? 128 : 1 + (unsigned)tu_below(s, 255);
    unsigned kind = (unsigned)tu_below(s, KINDS);
    size_t n = pick_size(s, S);
    gpulz_params p;
    tu_params(&p, S, W, C, 1 + (unsigned)tu_below(s, 2));
    p.mode = (gpulz_mode)(1 + tu_below(s, 3));
    if (tu_below(s, 3) == 0)
        p.flags |= GPULZ_FLAG_NO_CHECKSUM;
    uint8_t *in = tu_xmalloc(n);
    fill(in, n, kind, s);
    char ctxt[200];
    snprintf(ctxt, sizeof ctxt, "input %u (kind %u, n %zu, S %u, W %u, C %u, mode %s, checksum %d)",
             iter, kind, n, S, W, C, mode_name[p.mode], !(p.flags & GPULZ_FLAG_NO_CHECKSUM));
    size_t len = 0;
    uint8_t *ch = tu_compress(in, n, &p, &len);
    if (!ch) {
        fprintf(stderr, "  (%s)\n", ctxt);
        free(in);
        return;
    }
    n_inputs++;
    check_header(ch, len, &p, n, ctxt);
    outcome o;
    run_both(ch, len, n, p.threads, &o);
    TU_CHECK(o.ref_rc == REFDEC_OK && o.ref_len == n && !memcmp(o.ref_out, in, n),
             "%s: the reference decoder: %s (%s)", ctxt, refdec_strerror(o.ref_rc), o.err);
    TU_CHECK(o.lib_rc == GPULZ_OK && o.lib_len == n && !memcmp(o.lib_out, in, n),
             "%s: gpulz_decompress: %s (%s)", ctxt, gpulz_strerror(o.lib_rc),
             gpulz_last_error());
    if (o.ref_rc == REFDEC_OK) {
        cover_v1 += o.info.version == 1;
        cover_escapes += o.info.escapes > 0;
        cover_multiseg += o.info.segments > (uint64_t)o.info.streams_rans;
        cover_const += o.info.streams_constant > 0;
        cover_stored += o.info.streams_stored > 0;
        cover_rans += o.info.streams_rans > 0;
        cover_tail += n % S != 0;
        cover_empty += n == 0;
        if (n && o.ref_rc == REFDEC_OK) { /* one byte short of room */
            size_t got;
            int rc = refdec_decode(ch, len, o.ref_out, n - 1, &got, NULL, NULL, 0);
            TU_CHECK(rc == REFDEC_DST_SIZE, "%s: refdec with dst_cap n - 1: %s", ctxt,
                     refdec_strerror(rc));
        }
        damage(in, n, ch, len, &o.info, &p, s, n > 20000 ? mutants / 4 + 1 : mutants, ctxt);
    }
    free_outcome(&o);
    free(ch);
    free(in);
}

/* ------------------------------------------------------------ command modes */

static int decode_files(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        size_t len;
        uint8_t *ch = tu_read_file(argv[i], &len);
        if (!ch) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 2;
        }
        uint64_t n = 0;
        for (int b = 7; len >= 20 && b >= 0; b--)
            n = n << 8 | ch[12 + b];
        size_t cap = n < ((uint64_t)1 << 30) ? (size_t)n : 0;
        outcome o;
        run_both(ch, len, cap, 1, &o);
        /* FILE.in, where there is one, is what the chunk must decode to */
        char inpath[4096];
        snprintf(inpath, sizeof inpath, "%s.in", argv[i]);
        size_t in_len = 0;
        uint8_t *in = tu_read_file(inpath, &in_len);
        const char *vs_in = !in || o.ref_rc ? ""
                            : in_len == o.ref_len && !memcmp(in, o.ref_out, in_len)
                                ? "; input same"
                                : "; input DIFFERENT";
        printf("%s: gpulz_decompress %s (%s); refdec %s (%s)%s%s\n", argv[i],
               gpulz_strerror(o.lib_rc), o.lib_rc ? gpulz_last_error() : "",
               refdec_strerror(o.ref_rc), o.err,
               o.lib_rc == 0 && o.ref_rc == 0
                   ? (o.lib_len == o.ref_len && !memcmp(o.lib_out, o.ref_out, o.lib_len)
                          ? "; same bytes"
                          : "; DIFFERENT bytes")
                   : "",
               vs_in);
        free(in);
        free_outcome(&o);
        free(ch);
    }
    return 0;
}

static int compress_file(char **a)
{
    gpulz_params p;
    unsigned mode = 0;
    while (mode < 4 && strcmp(a[0], mode_name[mode]))
        mode++;
    if (mode == 4)
        return 2;
    tu_params(&p, (unsigned)atoi(a[1]), (unsigned)atoi(a[2]), (unsigned)atoi(a[3]), 1);
    p.mode = (gpulz_mode)mode;
    if (!(atoi(a[4]) & 1))
        p.flags |= GPULZ_FLAG_NO_CHECKSUM;
    if (atoi(a[4]) & 2)
        p.flags |= GPULZ_FLAG_ADAPTIVE;
    size_t n, len;
    uint8_t *in = tu_read_file(a[5], &n);
    if (!in)
        return 2;
    uint8_t *out = tu_compress(in, n, &p, &len);
    if (!out)
        return 1;
    FILE *f = fopen(a[6], "wb");
    if (!f || fwrite(out, 1, len, f) != len || fclose(f))
        return 2;
    free(in);
    free(out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "--decode"))
        return decode_files(argc - 2, argv + 2);
    if (argc == 9 && !strcmp(argv[1], "--compress"))
        return compress_file(argv + 2);
    verbose = getenv("CODEC_REFDEC_VERBOSE") != NULL;
    unsigned iters = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 8000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x2F0A11CEull;
    uint64_t s = seed;
    for (unsigned i = 0; i < iters; i++)
        one(&s, i, 16);
    printf("seed %#llx: %lu inputs, %lu damaged chunks: both accept %lu, both refuse %lu, "
           "disagree %lu\n",
           (unsigned long long)seed, n_inputs, n_mutants, n_agree_accept, n_agree_reject,
           n_disagree);
    printf("covered: version 1 %lu, escapes %lu, several segments %lu, constant %lu, stored %lu, "
           "rANS %lu, tails %lu, empty %lu\n",
           cover_v1, cover_escapes, cover_multiseg, cover_const, cover_stored, cover_rans,
           cover_tail, cover_empty);
    printf("stage flags written (DELTA 1, SPLIT 2, LZSS 4, ENTROPY 8, CHECKSUM 16):");
    for (unsigned f = 0; f < 32; f++)
        if (cover_flags[f])
            printf(" %02x:%lu", f, cover_flags[f]);
    printf("\n");
    static const char *const cn[] = {"ok", "dst", "corrupt", "truncated", "version", "nomem",
                                     "other"};
    printf("refusals, gpulz/refdec status:");
    for (unsigned a = 0; a < 7; a++)
        for (unsigned b = 0; b < 7; b++)
            if (code_pairs[a][b])
                printf(" %s/%s:%lu", cn[a], cn[b], code_pairs[a][b]);
    printf("\n");
    /* every shape must have been reached, or the test proves less than it says */
    TU_CHECK(iters < 1000 || (cover_escapes && cover_multiseg && cover_const && cover_stored &&
                              cover_rans && cover_tail && cover_empty),
             "some shapes were never produced");
    return tu_finish("codec_refdec_test");
}
