/* SPDX-License-Identifier: BSD-3-Clause */
/* auto's candidates per chunk: fast's and ratio's sizes and one-core CPU times (the least of three), and cheap statistics of the chunk.  Usage: [STUDY_S=S] autostudy CHUNK_MIB FILE... > CSV (header: analyze.py's columns; S = 2 default; the entropies only for S = 2, -1 otherwise) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static unsigned S_ = 2;
static double cpu_us(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static size_t csize(const unsigned char *x, size_t n, gpulz_mode mode, unsigned char *out, size_t cap) {
    gpulz_params p; gpulz_params_init(&p); p.symbol_size = S_; p.mode = mode; p.backend = GPULZ_BACKEND_CPU; p.threads = 1;
    size_t len = 0; if (gpulz_compress(x, n, out, cap, &len, &p) != GPULZ_OK) { fprintf(stderr, "%s\n", gpulz_last_error()); exit(1); }
    return len;
}
int main(int argc, char **argv) {
    static unsigned hist[65536], dh[65536];
    if (getenv("STUDY_S")) S_ = (unsigned)atoi(getenv("STUDY_S"));
    for (int a = 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb"); fseek(f, 0, SEEK_END); size_t n = ftell(f); rewind(f);
        unsigned char *x = malloc(n); if (fread(x, 1, n, f) != n) return 1; fclose(f);
        size_t chunk = (size_t)atoi(argv[1]) << 20; unsigned char *out = malloc(2 * chunk + 4096);
        for (size_t o = 0; o < n; o += chunk) {
            size_t c = n - o < chunk ? n - o : chunk; const unsigned short *s = (const unsigned short *)(x + o); size_t m = c / 2;
            if (S_ != 2) {
                size_t ms = c / S_, z = 0;
                for (size_t i = 1; i < ms; i++) z += !memcmp(x + o + i * S_, x + o + (i - 1) * S_, S_);
                double tf = 1e30, tr = 1e30; size_t fs = 0, rs = 0;
                for (int rep = 0; rep < 3; rep++) {
                    double t0 = cpu_us(); fs = csize(x + o, c, GPULZ_MODE_FAST, out, 2 * chunk + 4096);
                    double t1 = cpu_us(); rs = csize(x + o, c, GPULZ_MODE_RATIO, out, 2 * chunk + 4096);
                    double t2 = cpu_us(); if (t1 - t0 < tf) tf = t1 - t0; if (t2 - t1 < tr) tr = t2 - t1;
                }
                printf("%s,%s,%zu,%zu,%zu,%zu,%.6f,0,-1,-1,%.0f,%.0f\n", argv[a], argv[1], o, c, fs, rs, ms ? (double)z / ms : 0, tf, tr);
                continue;
            }
            memset(hist, 0, sizeof hist); memset(dh, 0, sizeof dh); size_t z = 0, z2 = 0;
            for (size_t i = 0; i < m; i++) { hist[s[i]]++; unsigned short d = i ? s[i] - s[i - 1] : s[i]; dh[d]++; z += i && s[i] == s[i - 1]; z2 += i >= 2 && s[i] == s[i - 2] && s[i-1]==s[i-2]; }
            double H = 0, Hd = 0; for (int v = 0; v < 65536; v++) { if (hist[v]) H -= hist[v] * log2((double)hist[v] / m); if (dh[v]) Hd -= dh[v] * log2((double)dh[v] / m); }
            double tf = 1e30, tr = 1e30; size_t fs = 0, rs = 0;
            for (int rep = 0; rep < 3; rep++) { /* the least CPU time of three */
                double t0 = cpu_us(); fs = csize(x + o, c, GPULZ_MODE_FAST, out, 2 * chunk + 4096);
                double t1 = cpu_us(); rs = csize(x + o, c, GPULZ_MODE_RATIO, out, 2 * chunk + 4096);
                double t2 = cpu_us(); if (t1 - t0 < tf) tf = t1 - t0; if (t2 - t1 < tr) tr = t2 - t1;
            }
            printf("%s,%s,%zu,%zu,%zu,%zu,%.6f,%.6f,%.1f,%.1f,%.0f,%.0f\n", argv[a], argv[1], o, c, fs, rs, (double)z / m, (double)z2 / m, H / 8, Hd / 8, tf, tr);
        }
        free(x); free(out);
    }
    return 0;
}
