/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_golden.c - the golden vectors, the .hex files of h5tests/golden/: for each,
 * gpulz_compress must write exactly the recorded bytes, gpulz_decompress
 * must give back the input, and the brute-force encoder of codec_refenc.c
 * must agree too.  The vectors were derived by hand from docs/FORMAT.md
 * (the §10 example among them) or written by codec_golden_gen from the
 * brute-force encoder, never from gpulz's own output: a change in the
 * bytes gpulz writes fails here until the format version says otherwise.
 */

#include "codec_golden.h"
#include "codec_refenc.h"
#include "codec_testutil.h"

/* Vectors that must be present, whatever else the folder holds. */
static const char *const required[] = {"format-example.hex", "empty.hex", "s1-tie-nearest.hex",
                                       "s1-zeros-blocks.hex", "gen-text-s1-w32.hex"};

static void check_one(const char *dir, const char *name)
{
    char path[8192 + 512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    golden g;
    char err[200];
    if (golden_load(path, &g, err, sizeof err)) {
        tu_fail("%s: %s", path, err);
        return;
    }

    gpulz_params p;
    for (unsigned threads = 1; threads <= 2; threads++) {
        tu_params(&p, g.S, g.W, g.C, threads);
        size_t len = 0;
        uint8_t *c = tu_compress(g.in, g.in_len, &p, &len);
        if (c && (len != g.out_len || memcmp(c, g.out, len))) {
            size_t i = 0;
            while (i < len && i < g.out_len && c[i] == g.out[i])
                i++;
            tu_fail("%s: gpulz writes %zu bytes, the vector has %zu; first difference at byte %zu",
                    name, len, g.out_len, i);
        }
        free(c);
    }
    size_t rlen = 0;
    uint8_t *r = ref_compress(g.in, g.in_len, g.S, g.W, g.C, &rlen, NULL);
    TU_CHECK(rlen == g.out_len && !memcmp(r, g.out, rlen),
             "%s: the brute-force encoder disagrees with the vector", name);
    free(r);

    uint8_t *d = tu_xmalloc(g.in_len + 16);
    memset(d, 0xA5, g.in_len + 16);
    size_t got = 0;
    int rc = gpulz_decompress(g.out, g.out_len, d, g.in_len, &got, &p);
    TU_CHECK(rc == GPULZ_OK && got == g.in_len && !memcmp(d, g.in, g.in_len),
             "%s: decompress: %s (%s)", name, gpulz_strerror(rc), gpulz_last_error());
    for (size_t i = 0; i < 16; i++)
        TU_CHECK(d[g.in_len + i] == 0xA5, "%s: decompress wrote past dst", name);
    free(d);
    printf("%-24s S=%u W=%-3u C=%-5u %5zu -> %5zu bytes: ok\n", name, g.S, g.W, g.C, g.in_len,
           g.out_len);
    golden_free(&g);
}

int main(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/h5tests/golden", tu_srcdir());
    char *names[256];
    size_t count = 0;
    const char *missing;
    if (golden_list(dir, names, 256, &count, required, sizeof required / sizeof *required, &missing)) {
        fprintf(stderr, "cannot open %s (set top_srcdir)\n", dir);
        return 99;
    }
    TU_CHECK(!missing, "golden vector %s is missing", missing);
    for (size_t i = 0; i < count; i++) {
        check_one(dir, names[i]);
        free(names[i]);
    }
    printf("%zu golden vectors\n", count);
    return tu_finish("codec_golden");
}
