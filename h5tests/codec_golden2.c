/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_golden2.c - the golden vectors of chunk format version 2, the .hex
 * files of h5tests/golden2/, written by h5tests/v2_refenc.py (an encoder
 * from docs/FORMAT.md alone, never from gpulz's output).  For each vector:
 *
 *   - the independent decoder (codec_refdec.c) gives back the input, and
 *     refuses an output buffer one byte short;
 *   - gpulz_decompress gives back the input, writing nothing past it;
 *   - unless the vector is "mode decode" (stage choices forced by the
 *     generator, or a chunk made by hand: valid chunks that no mode writes),
 *     gpulz_compress with the vector's mode, symbol size, window, block size
 *     and checksum setting writes exactly the recorded bytes, with 1 and 2
 *     threads;
 *   - a "mode reject" vector (reject-*.hex) is a chunk made by hand that
 *     breaks one rule of section 20, named in its comment: both decoders
 *     must refuse it.
 *
 * The file format: that of h5tests/golden/ (codec_golden.h) plus the keys
 * "mode fast|ratio|auto|decode" and "checksum 1|0"; see v2_refenc.py.
 *
 * Usage: codec_golden2 [FILE.hex...]   (default: every vector of the folder)
 */
#include <ctype.h>

#include "codec_golden.h"
#include "codec_refdec.h"
#include "codec_testutil.h"

/* Vectors that must be present, whatever else the folder holds: one of each shape. */
static const char *const required[] = {
    "empty-fast.hex",         "fast-s1-text.hex",       "fast-s2-whole.hex",
    "fast-s2-split.hex",      "fast-s4-sorted-delta.hex", "fast-s8-floats.hex",
    "fast-s1-zeros.hex",      "fast-s1-random-stored.hex", "fast-s1-escape.hex",
    "fast-s2-escape.hex",     "fast-s1-2seg.hex",       "ratio-s1-text.hex",
    "ratio-s2-split.hex",     "ratio-s2-whole.hex",     "ratio-s4-sorted.hex",
    "ratio-s1-2seg-nock.hex", "auto-random-lz.hex",     "tail-only-s8.hex",
    "decode-force-g10-3seg.hex", "decode-force-k0-all-escaped.hex"};

/* The mode a vector names, by the library's own names; -1 for none. */
static int mode_of(const char *s)
{
    for (int m = 0; m < GPULZ_MODE_COUNT; m++)
        if (!strcmp(s, gpulz_mode_name((gpulz_mode)m)))
            return m;
    return -1;
}

static unsigned long vectors, compared;

static void check_one(const char *path, const char *name)
{
    golden v;
    char err[256];
    int prc = golden_load(path, &v, err, sizeof err);
    if (prc) { /* golden_load leaves nothing allocated */
        tu_fail("%s: %s", name, err);
        return;
    }
    vectors++;
    if (!strcmp(v.mode, "reject")) {
        /* room for what the header says, so that the refusal is not for lack of it */
        uint64_t hn = 0;
        for (int i = 7; v.out_len >= 20 && i >= 0; i--)
            hn = hn << 8 | v.out[12 + i];
        size_t cap = hn < ((uint64_t)1 << 24) ? (size_t)hn + 16 : 4096;
        uint8_t *d = tu_xmalloc(cap);
        size_t got = 0;
        int rrc = refdec_decode(v.out, v.out_len, d, cap, &got, NULL, err, sizeof err);
        TU_CHECK(rrc != REFDEC_OK, "%s: the reference decoder accepts it", name);
        gpulz_params p;
        tu_params(&p, 1, 128, 256, 1);
        int lrc = gpulz_decompress(v.out, v.out_len, d, cap, &got, &p);
        TU_CHECK(lrc != GPULZ_OK, "%s: gpulz_decompress accepts it", name);
        TU_CHECK(lrc == GPULZ_OK || lrc == GPULZ_ERR_CORRUPT || lrc == GPULZ_ERR_TRUNCATED ||
                     lrc == GPULZ_ERR_VERSION,
                 "%s: gpulz_decompress returns %d", name, lrc);
        printf("%-36s reject: refdec %s (%s); gpulz %s (%s)\n", name, refdec_strerror(rrc), err,
               gpulz_strerror(lrc), lrc ? gpulz_last_error() : "");
        free(d);
        free(v.in);
        free(v.out);
        return;
    }

    /* the independent decoder */
    uint8_t *d = tu_xmalloc(v.in_len + 16);
    memset(d, 0xA5, v.in_len + 16);
    size_t got = 0;
    refdec_info info;
    memset(&info, 0, sizeof info);
    int rc = refdec_decode(v.out, v.out_len, d, v.in_len, &got, &info, err, sizeof err);
    TU_CHECK(rc == REFDEC_OK && got == v.in_len && !memcmp(d, v.in, v.in_len),
             "%s: the reference decoder: %s (%s)", name, refdec_strerror(rc), err);
    for (size_t i = 0; i < 16; i++)
        TU_CHECK(d[v.in_len + i] == 0xA5, "%s: the reference decoder wrote past dst", name);
    if (v.in_len) {
        rc = refdec_decode(v.out, v.out_len, d, v.in_len - 1, &got, NULL, err, sizeof err);
        TU_CHECK(rc == REFDEC_DST_SIZE, "%s: the reference decoder with a short dst: %s", name,
                 refdec_strerror(rc));
    }

    /* gpulz_decompress */
    gpulz_params p;
    tu_params(&p, v.S, v.W ? v.W : GPULZ_WINDOW_DEFAULT, v.C, 1);
    memset(d, 0xA5, v.in_len + 16);
    got = 0;
    rc = gpulz_decompress(v.out, v.out_len, d, v.in_len, &got, &p);
    TU_CHECK(rc == GPULZ_OK && got == v.in_len && !memcmp(d, v.in, v.in_len),
             "%s: gpulz_decompress: %s (%s)", name, gpulz_strerror(rc), gpulz_last_error());
    for (size_t i = 0; i < 16; i++)
        TU_CHECK(d[v.in_len + i] == 0xA5, "%s: gpulz_decompress wrote past dst", name);
    free(d);

    /* gpulz_compress writes exactly these bytes */
    int mode = mode_of(v.mode);
    if (strcmp(v.mode, "decode") != 0) {
        TU_CHECK(mode >= 0, "%s: unknown mode '%s'", name, v.mode);
        for (unsigned threads = 1; mode >= 0 && threads <= 2; threads++) {
            tu_params(&p, v.S, v.W, v.C, threads);
            p.mode = (gpulz_mode)mode;
            p.flags = v.checksum ? 0 : GPULZ_FLAG_NO_CHECKSUM;
            size_t cap = gpulz_compress_bound(v.in_len, &p), len = 0;
            if (cap < v.out_len)
                tu_fail("%s: gpulz_compress_bound %zu is below the vector's %zu bytes", name,
                        cap, v.out_len);
            cap = cap > v.out_len ? cap : v.out_len;
            uint8_t *c = tu_xmalloc(cap);
            rc = gpulz_compress(v.in, v.in_len, c, cap, &len, &p);
            if (rc != GPULZ_OK) {
                tu_fail("%s: gpulz_compress (mode %s, %u threads): %s (%s)", name, v.mode,
                        threads, gpulz_strerror(rc), gpulz_last_error());
            } else if (len != v.out_len || memcmp(c, v.out, len)) {
                size_t i = 0;
                while (i < len && i < v.out_len && c[i] == v.out[i])
                    i++;
                tu_fail("%s: gpulz writes %zu bytes, the vector has %zu; first difference at "
                        "byte %zu",
                        name, len, v.out_len, i);
            } else {
                compared++;
            }
            free(c);
        }
    }
    printf("%-36s %-6s ck=%d S=%u C=%-5u %6zu -> %6zu  v%u flags=%02x g=%u stored=%u "
               "const=%u rans=%u seg=%llu esc=%llu matches=%llu\n",
           name, v.mode, v.checksum, v.S, v.C, v.in_len, v.out_len, info.version, info.flags,
           info.g, info.streams_stored, info.streams_constant, info.streams_rans,
           (unsigned long long)info.segments, (unsigned long long)info.escapes,
           (unsigned long long)info.matches);
    free(v.in);
    free(v.out);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            check_one(argv[i], argv[i]);
        return tu_finish("codec_golden2");
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/h5tests/golden2", tu_srcdir());
    char *names[512];
    size_t count = 0;
    const char *missing;
    if (golden_list(dir, names, 512, &count, required, sizeof required / sizeof *required, &missing)) {
        fprintf(stderr, "cannot open %s (set top_srcdir)\n", dir);
        return 99;
    }
    TU_CHECK(!missing, "golden vector %s is missing", missing);
    for (size_t i = 0; i < count; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        check_one(path, names[i]);
        free(names[i]);
    }
    printf("%lu vectors, %lu compressions compared byte for byte\n", vectors, compared);
    return tu_finish("codec_golden2");
}
