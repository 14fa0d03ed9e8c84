/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_canonical.c - the CPU encoder against the brute-force encoder of
 * codec_refenc.c (docs/FORMAT.md §6) on thousands of small random inputs:
 * every chunk must be byte-identical.  The reference also counts which
 * rules the inputs exercised (ties, window-edge offsets, overlapping and
 * maximal matches, raw and encoded blocks), and the test insists each one
 * was met, so that a narrow input mix cannot pass by not asking.
 *
 * Most inputs are small (blocks of 256 or 512 symbols, up to ~3000 bytes);
 * one in 64 is up to 40000 bytes in blocks of 1024 to 16384 symbols.
 *
 * Usage: codec_canonical [iterations [seed]]
 */
#include "codec_refenc.h"
#include "codec_testutil.h"
#include "datagen.h"

static void describe_diff(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t i = 0;
    while (i < alen && i < blen && a[i] == b[i])
        i++;
    fprintf(stderr, "  lengths gpulz %zu, reference %zu; first difference at byte %zu\n", alen,
            blen, i);
    size_t lo = i > 8 ? i - 8 : 0;
    fprintf(stderr, "  gpulz:    ");
    for (size_t j = lo; j < alen && j < i + 8; j++)
        fprintf(stderr, " %02x", a[j]);
    fprintf(stderr, "\n  reference:");
    for (size_t j = lo; j < blen && j < i + 8; j++)
        fprintf(stderr, " %02x", b[j]);
    fputc('\n', stderr);
}

static unsigned pick_window(uint64_t *s)
{
    static const unsigned edges[] = {1, 2, 3, 4, 8, 32, 64, 127, 128, 254, 255};
    if (tu_below(s, 2))
        return edges[tu_below(s, sizeof edges / sizeof *edges)];
    return 1 + (unsigned)tu_below(s, 255);
}

static size_t pick_size(uint64_t *s, unsigned S, unsigned C)
{
    switch (tu_below(s, 5)) {
    case 0:
        return tu_below(s, 40); /* tiny: 0, 1, tails only */
    case 1: { /* near a block boundary */
        size_t k = 1 + tu_below(s, 3);
        return k * C * S + tu_below(s, 2 * S + 1) - S;
    }
    default:
        return tu_below(s, 3001);
    }
}

int main(int argc, char **argv)
{
    unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261122;
    static const unsigned sizes[] = {1, 2, 4, 8};
    ref_stats st = {0};
    unsigned long compared = 0, bytes = 0;
    uint8_t *in = tu_xmalloc(40001);

    for (unsigned long it = 0; it < iters && tu_failures < 5; it++) {
        uint64_t s = seed * 1000003u + it;
        unsigned S = sizes[tu_below(&s, 4)];
        unsigned C = tu_below(&s, 2) ? 256 : 512;
        unsigned W = pick_window(&s);
        size_t n = pick_size(&s, S, C);
        if (it % 64 == 63) { /* now and then large blocks, where positions pass 255 and 65535 bytes */
            C = 1024u << tu_below(&s, 5);
            n = tu_below(&s, 40001);
        }
        if (tu_below(&s, 8) == 0) {
            const char *kind = gpulz_gen_kinds[tu_below(&s, 8)];
            if (n)
                gpulz_gen(kind, in, n, s);
        } else {
            tu_fill_matchy(in, n, &s);
        }
        size_t rlen;
        uint8_t *ref = ref_compress(in, n, S, W, C, &rlen, &st);
        gpulz_params p;
        tu_params(&p, S, W, C, it % 3 == 0 ? 2 : 1);
        size_t glen = 0;
        uint8_t *got = tu_compress(in, n, &p, &glen);
        if (got && (glen != rlen || memcmp(got, ref, rlen) != 0)) {
            tu_fail("iteration %lu (seed %llu): n=%zu S=%u W=%u C=%u: gpulz differs from the "
                    "brute-force encoding",
                    it, (unsigned long long)seed, n, S, W, C);
            describe_diff(got, glen, ref, rlen);
        }
        compared++;
        bytes += n;
        free(got);
        free(ref);
    }
    free(in);

    printf("compared %lu chunks (%lu input bytes)\n", compared, bytes);
    printf("blocks: %lu encoded, %lu raw; tokens: %lu literals, %lu matches\n", st.blocks_encoded,
           st.blocks_raw, st.literals, st.matches);
    printf("matches: %lu of length 255, %lu at offset W, %lu overlapping, %lu with a farther "
           "tie, %lu of length Lmin; %lu repeats too short to pay; %lu tails\n",
           st.match_max_len, st.match_at_window, st.match_overlap, st.match_tie, st.match_min_len,
           st.short_repeat, st.tails);
    if (iters >= 500) {
        TU_CHECK(st.blocks_encoded > 0 && st.blocks_raw > 0, "coverage: raw and encoded blocks");
        TU_CHECK(st.match_max_len > 0, "coverage: no match of length 255");
        TU_CHECK(st.match_at_window > 0, "coverage: no match at offset W");
        TU_CHECK(st.match_overlap > 0, "coverage: no overlapping match");
        TU_CHECK(st.match_tie > 0, "coverage: no tie between offsets");
        TU_CHECK(st.match_min_len > 0, "coverage: no match of length Lmin");
        TU_CHECK(st.short_repeat > 0, "coverage: no repeat shorter than Lmin");
        TU_CHECK(st.tails > 0, "coverage: no tail bytes");
    }
    return tu_finish("codec_canonical");
}
