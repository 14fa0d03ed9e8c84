/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_corpus.c - writes the seed corpus of the decoder's fuzz target: small
 * valid chunks over every symbol size, windows, block sizes, stored and
 * encoded blocks and tails.  Usage: gen_corpus DIR  (h5tests/fuzz/corpus)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "gpulz.h"

static int emit_mode(const char *dir, const char *kind, size_t n, unsigned S, unsigned W, unsigned C,
                     gpulz_mode mode)
{
    uint8_t *in = malloc(n ? n : 1);
    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = S;
    p.window = W;
    p.block_symbols = C;
    p.threads = 1;
    p.backend = GPULZ_BACKEND_CPU;
    p.mode = mode;
    size_t cap = gpulz_compress_bound(n, &p), len = 0;
    uint8_t *out = malloc(cap);
    if (!in || !out)
        return 1;
    if (n)
        gpulz_gen(kind, in, n, n * 31 + S);
    int rc = gpulz_compress(in, n, out, cap, &len, &p);
    char path[4096];
    /* format 1 seeds keep their names; format 2 ones name the mode */
    snprintf(path, sizeof path, "%s/%s-n%zu-s%u-w%u-c%u%s%s.gplz", dir, kind, n, S, W, C,
             mode == GPULZ_MODE_LZ ? "" : "-", mode == GPULZ_MODE_LZ ? "" : gpulz_mode_name(mode));
    FILE *f = rc == GPULZ_OK ? fopen(path, "wb") : NULL;
    int bad = !f || fwrite(out, 1, len, f) != len;
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "%s: cannot write (%s)\n", path, gpulz_strerror(rc));
    free(in);
    free(out);
    return bad;
}

static int emit(const char *dir, const char *kind, size_t n, unsigned S, unsigned W, unsigned C)
{
    return emit_mode(dir, kind, n, S, W, C, GPULZ_MODE_LZ);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *d = argv[1];
    int bad = 0;
    bad |= emit(d, "zeros", 0, 1, 128, 256);
    bad |= emit(d, "random", 3, 4, 128, 256);
    bad |= emit(d, "runs", 700, 1, 128, 256);
    bad |= emit(d, "records", 1500, 4, 64, 256);
    bad |= emit(d, "zeros", 1025, 2, 255, 512);
    bad |= emit(d, "quant", 1200, 2, 32, 256);
    bad |= emit(d, "int", 2051, 8, 2, 256);
    bad |= emit(d, "float", 1030, 4, 255, 256);
    bad |= emit(d, "random", 600, 1, 1, 256);
    bad |= emit(d, "ramp", 1100, 4, 128, 256);
    /* format 2: both shapes, whole symbols and byte planes, delta, stored
     * and constant streams, escapes, two segments */
    bad |= emit_mode(d, "quant", 3000, 2, 128, 256, GPULZ_MODE_FAST);
    bad |= emit_mode(d, "quant", 3001, 2, 64, 512, GPULZ_MODE_RATIO);
    bad |= emit_mode(d, "int", 4000, 4, 128, 256, GPULZ_MODE_FAST);
    bad |= emit_mode(d, "float", 2050, 4, 128, 256, GPULZ_MODE_RATIO);
    bad |= emit_mode(d, "text", 1500, 1, 255, 256, GPULZ_MODE_RATIO);
    bad |= emit_mode(d, "zeros", 900, 8, 128, 256, GPULZ_MODE_FAST);
    bad |= emit_mode(d, "random", 700, 2, 128, 256, GPULZ_MODE_FAST);
    bad |= emit_mode(d, "runs", 40000, 1, 128, 2048, GPULZ_MODE_FAST);
    return bad;
}
