/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_golden_gen.c - writes the generated golden vectors gen-*.hex into a
 * folder: inputs from this file's own generator, outputs from the
 * brute-force encoder of codec_refenc.c (never from gpulz itself).
 * Usage: codec_golden_gen DIR    (the vectors live in h5tests/golden/)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_refenc.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void hex_lines(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02X%s", b[i], i % 16 == 15 || i == n - 1 ? "\n" : " ");
}

static int write_vector(const char *dir, const char *name, const char *about, const uint8_t *in,
                        size_t n, unsigned S, unsigned W, unsigned C)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t len;
    uint8_t *out = ref_compress(in, n, S, W, C, &len, NULL);
    fprintf(f, "# Written by h5tests/codec_golden_gen from the brute-force encoder\n"
               "# (h5tests/codec_refenc.c): %s\n",
            about);
    fprintf(f, "symbol_size %u\nwindow %u\nblock_symbols %u\ninput\n", S, W, C);
    hex_lines(f, in, n);
    size_t nb = (n / S + C - 1) / C, pos = 28 + 4 * nb;
    fprintf(f, "output\n# header\n");
    hex_lines(f, out, 28);
    fprintf(f, "# block table\n");
    hex_lines(f, out + 28, 4 * nb);
    for (size_t k = 0; k < nb; k++) {
        uint32_t e = (uint32_t)out[28 + 4 * k] | (uint32_t)out[29 + 4 * k] << 8 |
                     (uint32_t)out[30 + 4 * k] << 16 | (uint32_t)out[31 + 4 * k] << 24;
        fprintf(f, "# block %zu: %s, %u bytes\n", k, e >> 31 ? "stored" : "encoded",
                e & 0x7FFFFFFFu);
        hex_lines(f, out + pos, e & 0x7FFFFFFFu);
        pos += e & 0x7FFFFFFFu;
    }
    if (pos < len) {
        fprintf(f, "# tail\n");
        hex_lines(f, out + pos, len - pos);
    }
    free(out);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    static uint8_t b[4096];
    int bad = 0;
    uint64_t s = 1;

    /* words of a small vocabulary: byte-level repeats at every distance */
    static const char *const words[] = {"the ", "chunk ", "block ", "symbol ", "window ",
                                        "match ", "literal ", "of ", "a ", "gpulz "};
    size_t n = 0;
    while (n < 700) {
        const char *w = words[next(&s) % 10];
        size_t l = strlen(w);
        memcpy(b + n, w, n + l > 700 ? 700 - n : l);
        n += l;
    }
    bad |= write_vector(dir, "gen-text-s1-w32.hex", "700 bytes of text, S 1, W 32, C 256",
                        b, 700, 1, 32, 256);

    /* sorted int32 keys each repeated 1-4 times, 530 of them, and 3 tail bytes */
    uint32_t key = 1000;
    for (size_t i = 0; i < 530;) {
        unsigned reps = 1 + (unsigned)(next(&s) % 4);
        for (unsigned r = 0; r < reps && i < 530; r++, i++)
            memcpy(b + 4 * i, &key, 4);
        key += 1 + (uint32_t)(next(&s) % 3);
    }
    b[2120] = 0xAB, b[2121] = 0xCD, b[2122] = 0xEF;
    bad |= write_vector(dir, "gen-int-s4-w128.hex",
                        "530 sorted int32 keys + 3 tail bytes, S 4, W 128, C 256 (3 blocks)", b,
                        2123, 4, 128, 256);

    /* 8-byte symbols from an alphabet of 3, sometimes a fresh one, 7 tail bytes */
    uint64_t alpha[3] = {next(&s), next(&s), next(&s)};
    for (size_t i = 0; i < 300; i++) {
        uint64_t v = next(&s) % 8 == 0 ? next(&s) : alpha[next(&s) % 3];
        memcpy(b + 8 * i, &v, 8);
    }
    for (size_t i = 0; i < 7; i++)
        b[2400 + i] = (uint8_t)i;
    bad |= write_vector(dir, "gen-alpha-s8-w255.hex",
                        "300 symbols from a 3-symbol alphabet + 7 tail bytes, S 8, W 255, C 256", b,
                        2407, 8, 255, 256);

    /* 2-byte symbols with period 3 and rare noise, W 3, C 512 (3 blocks) */
    uint16_t per[3] = {0x1111, 0x2222, 0x3333};
    for (size_t i = 0; i < 1100; i++) {
        uint16_t v = next(&s) % 50 == 0 ? (uint16_t)next(&s) : per[i % 3];
        memcpy(b + 2 * i, &v, 2);
    }
    bad |= write_vector(dir, "gen-periodic-s2-w3.hex",
                        "1100 2-byte symbols of period 3 with noise, S 2, W 3, C 512", b, 2200, 2,
                        3, 512);

    /* random bytes: two stored blocks */
    for (size_t i = 0; i < 300; i++)
        b[i] = (uint8_t)next(&s);
    bad |= write_vector(dir, "gen-random-s1-w64.hex", "300 random bytes, S 1, W 64, C 256", b, 300,
                        1, 64, 256);
    return bad;
}
