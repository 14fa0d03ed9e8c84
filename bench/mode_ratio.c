/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mode_ratio - compression ratio of every gpulz encoder mode beside the CPU
 * codecs users compare it with, on the benchmark corpus.
 *
 * Each array of the corpus (bench/data/MANIFEST) is cut into chunks as
 * h5bench cuts it for HDF5 (whole trailing dims and a slab of the leading
 * ones, at most --chunk-mib MiB, so each chunk is one contiguous run of the
 * array; the last chunk holds what is left, unpadded).  Every chunk is
 * compressed with gpulz in modes lz, fast, ratio and auto (symbol size = the
 * element size, default window and block, CPU backend) and decompressed
 * again: a chunk that does not come back byte for byte stops the program.
 * Beside them, over the same chunks: deflate level 6 (zlib's compress2, as
 * HDF5's deflate filter calls it), HDF5-style byte shuffle then deflate-6
 * for multi-byte types, and zstd level 3 (ZSTD_compress) where libzstd was
 * found at configure time.
 *
 * Output: a markdown table, one row per array, ratio = array bytes / the sum
 * of the compressed chunks; the geometric mean over the arrays; per row the
 * best gpulz mode (bold: every mode at the best ratio), and whether auto's ratio is at least deflate-6's and
 * zstd-3's (if not, by how much it is lower).  Ratios only: nothing is timed,
 * and the bytes do not depend on the thread count or the device.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "corpus.h"
#include "gpulz.h"

#define MIB (1024.0 * 1024.0)
#define NMODES GPULZ_MODE_COUNT
#define MAX_ARRAYS 256

enum { C_DEFLATE, C_SHUF_DEFLATE, C_ZSTD, NCPU };
static const char *cpu_names[NCPU] = {"deflate-6", "shuffle+deflate-6", "zstd-3"};

typedef struct row {
    char name[128];
    char dtype[16];
    size_t bytes, chunk_bytes, nchunks;
    double gz[NMODES];  /* ratio per gpulz mode */
    double cpu[NCPU];   /* ratio per CPU codec; 0 = not run */
} row;

static void die(const char *what)
{
    fprintf(stderr, "mode_ratio: %s\n", what);
    exit(1);
}

/* h5bench's chunk_dims: whole trailing dims, a slab of the leading ones. */
static size_t chunk_bytes_of(const corpus_array *a, double target)
{
    size_t inner = a->elsize;
    for (int i = a->rank - 1; i >= 0; i--)
        inner *= (size_t)a->dims[i];
    size_t bytes = inner;
    for (int i = 0; i < a->rank; i++) {
        inner /= (size_t)a->dims[i];
        if ((double)inner * (double)a->dims[i] <= target)
            break;
        uint64_t k = (uint64_t)(target / (double)inner);
        bytes = inner * (size_t)(k < 1 ? 1 : k);
        if (k >= 1)
            break;
    }
    return bytes;
}

/* HDF5's shuffle filter: byte plane b of every element, plane after plane;
 * a tail of n % el bytes is copied as it is. */
static void shuffle(const unsigned char *src, unsigned char *dst, size_t n, unsigned el)
{
    size_t m = n / el;
    for (unsigned b = 0; b < el; b++)
        for (size_t i = 0; i < m; i++)
            dst[b * m + i] = src[i * el + b];
    memcpy(dst + m * el, src + m * el, n - m * el);
}

static size_t deflate6(const void *src, size_t n, unsigned char *dst, size_t cap)
{
    uLongf len = (uLongf)cap;
    if (compress2(dst, &len, (const Bytef *)src, (uLong)n, 6) != Z_OK)
        die("compress2 failed");
    return (size_t)len;
}

static void fmt_cmp(char *buf, size_t cap, double a, double b)
{
    if (b <= 0)
        snprintf(buf, cap, "-");
    else if (a >= b)
        snprintf(buf, cap, "yes");
    else
        snprintf(buf, cap, "**no** (%.1f%%)", 100.0 * (a / b - 1.0));
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mode_ratio [options]\n"
            "  --manifest FILE    corpus list: name dtype shape bytes sha256 (default "
            "bench/data/MANIFEST)\n"
            "  --data DIR         folder of the arrays (default: the manifest's folder)\n"
            "  --only A,B,...     only these arrays\n"
            "  --chunk-mib X      chunk size in MiB (default 4)\n"
            "  --threads N        gpulz_params.threads (default 2)\n"
            "  --csv FILE         also write the ratios as CSV\n");
}

int main(int argc, char **argv)
{
    const char *manifest = "bench/data/MANIFEST", *data = NULL, *only = NULL, *csv = NULL;
    double chunk_mib = 4;
    unsigned threads = 2;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!val) {
            usage(stderr);
            return 2;
        }
        if (!strcmp(arg, "--manifest"))
            manifest = val;
        else if (!strcmp(arg, "--data"))
            data = val;
        else if (!strcmp(arg, "--only"))
            only = val;
        else if (!strcmp(arg, "--chunk-mib"))
            chunk_mib = atof(val);
        else if (!strcmp(arg, "--threads"))
            threads = (unsigned)strtoul(val, NULL, 10);
        else if (!strcmp(arg, "--csv"))
            csv = val;
        else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!(chunk_mib > 0)) {
        usage(stderr);
        return 2;
    }

    corpus c;
    if (corpus_open(&c, "mode_ratio", manifest, data, only) != 0)
        return 1;
    static row rows[MAX_ARRAYS];
    int nrows = 0, bad = 0;
    corpus_array a;
    int got;
    while ((got = corpus_next(&c, &a)) != 0) {
        if (got < 0) {
            bad = 1;
            continue;
        }
        if (nrows == MAX_ARRAYS)
            die("too many arrays");
        row *r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", a.name);
        snprintf(r->dtype, sizeof r->dtype, "%s", a.dtype);
        r->bytes = a.bytes;
        size_t cb = chunk_bytes_of(&a, chunk_mib * MIB);
        r->chunk_bytes = cb;

        gpulz_params p[NMODES];
        size_t cap = 0;
        for (int m = 0; m < NMODES; m++) {
            gpulz_params_init(&p[m]);
            p[m].symbol_size = a.elsize;
            p[m].threads = threads;
            p[m].backend = GPULZ_BACKEND_CPU;
            p[m].mode = (gpulz_mode)m;
            if (gpulz_params_check(&p[m]) != GPULZ_OK)
                die(gpulz_last_error());
            size_t b = gpulz_compress_bound(cb, &p[m]);
            if (b > cap)
                cap = b;
        }
        size_t zcap = compressBound((uLong)cb);
        if (zcap > cap)
            cap = zcap;
#ifdef HAVE_ZSTD
        if (ZSTD_compressBound(cb) > cap)
            cap = ZSTD_compressBound(cb);
#endif
        unsigned char *out = malloc(cap), *back = malloc(cb), *shuf = malloc(cb);
        if (!out || !back || !shuf)
            die("out of memory");

        uint64_t gsum[NMODES] = {0}, csum[NCPU] = {0};
        const unsigned char *src = a.data;
        for (size_t off = 0; off < a.bytes; off += cb) {
            size_t n = a.bytes - off < cb ? a.bytes - off : cb;
            r->nchunks++;
            for (int m = 0; m < NMODES; m++) {
                size_t len = 0, dlen = 0;
                int rc = gpulz_compress(src + off, n, out, cap, &len, &p[m]);
                if (rc != GPULZ_OK) {
                    fprintf(stderr, "mode_ratio: %s mode %s chunk at %zu: compress: %s\n", a.name,
                            gpulz_mode_name((gpulz_mode)m), off, gpulz_last_error());
                    return 1;
                }
                rc = gpulz_decompress(out, len, back, n, &dlen, &p[m]);
                if (rc != GPULZ_OK || dlen != n || memcmp(back, src + off, n) != 0) {
                    fprintf(stderr, "mode_ratio: %s mode %s chunk at %zu: round trip FAILED (%d, %zu of %zu bytes)\n",
                            a.name, gpulz_mode_name((gpulz_mode)m), off, rc, dlen, n);
                    abort();
                }
                gsum[m] += len;
            }
            csum[C_DEFLATE] += deflate6(src + off, n, out, cap);
            if (a.elsize > 1) {
                shuffle(src + off, shuf, n, a.elsize);
                csum[C_SHUF_DEFLATE] += deflate6(shuf, n, out, cap);
            }
#ifdef HAVE_ZSTD
            size_t z = ZSTD_compress(out, cap, src + off, n, 3);
            if (ZSTD_isError(z))
                die(ZSTD_getErrorName(z));
            csum[C_ZSTD] += z;
#endif
        }
        for (int m = 0; m < NMODES; m++)
            r->gz[m] = (double)a.bytes / (double)gsum[m];
        for (int k = 0; k < NCPU; k++)
            r->cpu[k] = csum[k] ? (double)a.bytes / (double)csum[k] : 0;
        /* shuffle of one-byte elements changes nothing: shuffle+deflate-6 = deflate-6 */
        if (a.elsize == 1)
            r->cpu[C_SHUF_DEFLATE] = r->cpu[C_DEFLATE];
        fprintf(stderr, "mode_ratio: %-22s %zu chunks of %zu B: lz %.3f fast %.3f ratio %.3f auto %.3f | deflate-6 %.3f zstd-3 %.3f\n",
                r->name, r->nchunks, cb, r->gz[0], r->gz[1], r->gz[2], r->gz[3], r->cpu[C_DEFLATE],
                r->cpu[C_ZSTD]);
        free(out);
        free(back);
        free(shuf);
        free(a.data);
    }
    corpus_close(&c);
    if (nrows == 0)
        die("no arrays");

    int have_zstd = rows[0].cpu[C_ZSTD] > 0;
    printf("gpulz %s, chunks of at most %g MiB (whole trailing dims), S = element size, W = %u, C = %u; "
           "ratio = array bytes / compressed bytes; every gpulz chunk decompressed and compared.\n\n",
           gpulz_version_string(), chunk_mib, GPULZ_WINDOW_DEFAULT, GPULZ_BLOCK_DEFAULT);
    printf("| array | dtype | MB | lz | fast | ratio | auto | best mode | deflate-6 | shuffle+deflate-6 | zstd-3 "
           "| auto >= deflate-6 | auto >= zstd-3 |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|\n");
    double lg[NMODES] = {0}, lc[NCPU] = {0};
    int best_count[NMODES] = {0}, ge_def = 0, ge_zstd = 0;
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        int best = 0;
        for (int m = 1; m < NMODES; m++)
            if (r->gz[m] > r->gz[best])
                best = m;
        best_count[best]++;
        printf("| %s | %s | %.1f |", r->name, r->dtype, r->bytes / 1e6);
        for (int m = 0; m < NMODES; m++) {
            lg[m] += log(r->gz[m]);
            printf(r->gz[m] == r->gz[best] ? " **%.3f** |" : " %.3f |", r->gz[m]);
        }
        printf(" %s |", gpulz_mode_name((gpulz_mode)best));
        for (int k = 0; k < NCPU; k++) {
            if (r->cpu[k] > 0) {
                lc[k] += log(r->cpu[k]);
                printf(" %.3f |", r->cpu[k]);
            } else
                printf(" - |");
        }
        char b1[64], b2[64];
        fmt_cmp(b1, sizeof b1, r->gz[GPULZ_MODE_AUTO], r->cpu[C_DEFLATE]);
        fmt_cmp(b2, sizeof b2, r->gz[GPULZ_MODE_AUTO], r->cpu[C_ZSTD]);
        ge_def += r->gz[GPULZ_MODE_AUTO] >= r->cpu[C_DEFLATE];
        ge_zstd += have_zstd && r->gz[GPULZ_MODE_AUTO] >= r->cpu[C_ZSTD];
        printf(" %s | %s |\n", b1, b2);
    }
    printf("| **geometric mean (%d arrays)** | | |", nrows);
    for (int m = 0; m < NMODES; m++)
        printf(" %.3f |", exp(lg[m] / nrows));
    printf(" |");
    for (int k = 0; k < NCPU; k++)
        printf(k == C_ZSTD && !have_zstd ? " - |" : " %.3f |", exp(lc[k] / nrows));
    printf(" %d of %d | %s%d of %d |\n\n", ge_def, nrows, have_zstd ? "" : "no zstd: ", ge_zstd, nrows);
    printf("Best gpulz mode per array: lz %d, fast %d, ratio %d, auto %d (a tie goes to the first listed; every mode at the best ratio is in bold).\n",
           best_count[0], best_count[1], best_count[2], best_count[3]);
    printf("shuffle+deflate-6 of one-byte arrays is deflate-6 (the shuffle changes nothing).\n");

    if (csv) {
        FILE *f = fopen(csv, "w");
        if (!f)
            die("cannot write the CSV");
        fprintf(f, "array,dtype,bytes,chunk_bytes,chunks");
        for (int m = 0; m < NMODES; m++)
            fprintf(f, ",gpulz-%s", gpulz_mode_name((gpulz_mode)m));
        for (int k = 0; k < NCPU; k++)
            fprintf(f, ",%s", cpu_names[k]);
        fprintf(f, "\n");
        for (int i = 0; i < nrows; i++) {
            row *r = &rows[i];
            fprintf(f, "%s,%s,%zu,%zu,%zu", r->name, r->dtype, r->bytes, r->chunk_bytes, r->nchunks);
            for (int m = 0; m < NMODES; m++)
                fprintf(f, ",%.6f", r->gz[m]);
            for (int k = 0; k < NCPU; k++)
                fprintf(f, ",%.6f", r->cpu[k]);
            fprintf(f, "\n");
        }
        fclose(f);
    }
    return bad;
}
