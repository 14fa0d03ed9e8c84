/* SPDX-License-Identifier: BSD-3-Clause */
/* time of opening a format 2 chunk's first stream on the host (table + directory), per chunk size */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
#include "gpulz_entropy.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    size_t cap = (size_t)300 << 20;
    uint8_t *x = malloc(cap);
    size_t n = fread(x, 1, cap, f);
    fclose(f);
    for (int a = 2; a < argc; a++) {
        size_t mb = (size_t)atoi(argv[a]) << 20;
        if (mb > n) mb = n;
        gpulz_params p;
        gpulz_params_init(&p);
        p.mode = GPULZ_MODE_FAST;
        p.symbol_size = 2;
        p.block_symbols = 2048;
        size_t bound = gpulz_compress_bound(mb, &p), len = 0;
        uint8_t *c = malloc(bound);
        if (gpulz_compress(x, mb, c, bound, &len, &p) != GPULZ_OK) { printf("compress failed: %s\n", gpulz_last_error()); return 1; }
        unsigned flags = c[5], u = (flags & 2) ? 1 : 2;
        uint64_t N = (mb / 2);
        gpulz_dec_table *t = malloc(sizeof *t * 2);
        uint64_t segs = N / 16384 + 2;
        uint64_t *start = malloc(segs * 8);
        uint32_t *words = malloc(segs * 4);
        gpulz_stream_room room = {t, start, words, segs};
        double v[3][101];
        size_t haves[3] = {65536 - 32, len - 32, 0};
        for (int h = 0; h < 2; h++)
            for (int r = 0; r < 101; r++) {
                gpulz_stream_view V;
                double t0 = now();
                int rc = gpulz_stream_open_into(c + 32, haves[h] < len - 32 ? haves[h] : len - 32, len - 32, N, u, 14, "p", &room, &V);
                v[h][r] = now() - t0;
                if (r == 0 && rc != GPULZ_OK) printf("  open rc %d (have %zu) %s\n", rc, haves[h], gpulz_last_error());
                gpulz_stream_close(&V);
            }
        qsort(v[0], 101, sizeof(double), cmpd);
        qsort(v[1], 101, sizeof(double), cmpd);
        printf("%zu MB flags %02x len %zu nseg %llu: open on 64 KB prefix median %.1f us (min %.1f), on whole %.1f us (min %.1f); sizeof dec_table %zu\n",
               mb >> 20, flags, len, (unsigned long long)(N + 16383) / 16384, v[0][50], v[0][0], v[1][50], v[1][0], sizeof(gpulz_dec_table));
        free(c); free(t); free(start); free(words);
    }
    return 0;
}
