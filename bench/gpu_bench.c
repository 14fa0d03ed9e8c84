/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_bench.c - throughput of the GPU codec.
 *
 * Device-resident: the input lives in device memory; compression and
 * decompression go through the device-buffer API and are timed with CUDA
 * events after a warm-up run, the median of several runs.
 *
 * Synthetic mode (positional arguments): the kinds quant, float and int
 * (tools/datagen), S = 1, 2, 4, W = 32, 64, 128, 255 and blocks of 2048, 4096
 * and 16384 bytes.  Every configuration's round trip is checked.
 * Host-buffer: gpulz_compress / gpulz_decompress with backend GPU on pageable
 * buffers of 1, 4, 16 MiB and the full size, copies included.
 *
 * Corpus mode (options): the arrays of the benchmark corpus (the MANIFEST of
 * bench/data/make_corpus.py, read as bench/nvcomp_bench does), each one
 * compressed whole as one chunk, over the paper's grid: S = 1, 2, 4 (8) where
 * S divides the element size, W = 32, 64, 128, 255, blocks of 2048, 4096, 8192
 * and 16384 bytes; CSV on stdout, one row per array and setting, the round
 * trip checked byte for byte.
 *
 * GB/s are 1e9 uncompressed bytes per second.
 * Mode fast: the same kinds at S = 1, 2, 4, 8 and 4096-byte blocks.
 * Usage: gpu_bench [MB (default 256)] [reps (default 5)] [quick | fast (mode fast alone) |
 *        v2 (modes fast, ratio and auto alone)]
 *        gpu_bench --csv [--fast | --v2] [--manifest FILE] [--data DIR] [--only A,B] [--repeats N]
 *                  [--first MIB] [--no-checksum]
 * --fast: mode fast instead of the grid (S dividing the element size, 4096-byte blocks);
 * --v2: modes fast, ratio and auto so; --no-checksum: those without format 2's checksum.
 */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus.h"
#include "datagen.h"
#include "gpu_tune.h"
#include "gpulz.h"

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(99);                                                                              \
        }                                                                                          \
    } while (0)

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return v[n / 2];
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The stream, events and per-run times of the synthetic tables. */
typedef struct trip_timer {
    cudaStream_t st;
    cudaEvent_t e0, e1;
    float *tc, *td;
    int reps;
} trip_timer;

/* Compress then decompress on the device, each timed after a warm-up run
 * (T->tc, T->td); the statuses or'ed together. */
static int time_trip(const trip_timer *T, const uint8_t *d_src, size_t n, uint8_t *d_cmp, size_t cap,
                     uint8_t *d_out, const gpulz_params *p, uint8_t *d_scr, size_t scr, size_t *len,
                     size_t *olen)
{
    int rc = 0;
    for (int r = -1; r < T->reps; r++) {
        CK(cudaEventRecord(T->e0, T->st));
        rc |= gpulz_compress_device(d_src, n, d_cmp, cap, len, p, T->st, d_scr, scr);
        CK(cudaEventRecord(T->e1, T->st));
        CK(cudaEventSynchronize(T->e1));
        if (r >= 0)
            CK(cudaEventElapsedTime(&T->tc[r], T->e0, T->e1));
    }
    for (int r = -1; r < T->reps; r++) {
        CK(cudaEventRecord(T->e0, T->st));
        rc |= gpulz_decompress_device(d_cmp, *len, d_out, n, olen, T->st, d_scr, scr);
        CK(cudaEventRecord(T->e1, T->st));
        CK(cudaEventSynchronize(T->e1));
        if (r >= 0)
            CK(cudaEventElapsedTime(&T->td[r], T->e0, T->e1));
    }
    return rc;
}

static int synthetic_main(int argc, char **argv)
{
    size_t n = (size_t)(argc > 1 ? atof(argv[1]) : 256) * 1000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int quick = argc > 3, v2_all = argc > 3 && strcmp(argv[3], "v2") == 0;
    int fast_only = v2_all || (argc > 3 && strcmp(argv[3], "fast") == 0);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("no usable GPU\n");
        return 77;
    }
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs; input %zu bytes; median of %d runs after a warm-up\n", prop.name,
           prop.multiProcessorCount, n, reps);

    static const char *kinds[] = {"quant", "float", "int"};
    static const unsigned sizes[] = {1, 2, 4}, windows[] = {32, 64, 128, 255},
                          blocks[] = {2048, 4096, 16384};
    uint8_t *h = malloc(n), *back = malloc(n);
    uint8_t *d_src, *d_cmp, *d_out, *d_scr;
    gpulz_params p;
    gpulz_params_init(&p);
    p.mode = GPULZ_MODE_LZ; /* format 1, as its recorded results */
    p.symbol_size = 1;
    p.block_symbols = 256;
    size_t bound = gpulz_compress_bound(n, &p);
    size_t scr = gpulz_compress_device_scratch_size(n, &p);
    size_t dscr = gpulz_decompress_device_scratch_size(bound);
    if (dscr > scr)
        scr = dscr;
    CK(cudaMalloc((void **)&d_src, n));
    CK(cudaMalloc((void **)&d_cmp, bound));
    CK(cudaMalloc((void **)&d_out, n));
    CK(cudaMalloc((void **)&d_scr, scr));
    cudaStream_t st;
    cudaEvent_t e0, e1;
    CK(cudaStreamCreate(&st));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float *tc = malloc(sizeof(float) * (size_t)reps), *td = malloc(sizeof(float) * (size_t)reps);
    const trip_timer T = {st, e0, e1, tc, td, reps};
    int bad = 0;

    printf("\n%-6s %2s %4s %6s %7s %10s %10s\n", "kind", "S", "W", "block", "ratio", "comp GB/s",
           "decomp GB/s");
    for (int ki = 0; ki < 3; ki++) {
        gpulz_gen(kinds[ki], h, n, 42 + ki);
        CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
        for (int si = 0; si < 3; si++)
            for (int wi = 0; wi < 4; wi++)
                for (int bi = 0; bi < 3; bi++) {
                    if (fast_only || (quick && !(sizes[si] == 2 && windows[wi] == 128 && blocks[bi] == 4096) &&
                        !(sizes[si] == 4 && windows[wi] == 32)))
                        continue;
                    gpulz_params_init(&p);
                    p.mode = GPULZ_MODE_LZ; /* the lz grid; --fast, --v2 time the others */
                    p.symbol_size = sizes[si];
                    p.window = windows[wi];
                    p.block_symbols = blocks[bi] / sizes[si];
                    p.backend = GPULZ_BACKEND_GPU;
                    size_t len = 0, olen = 0;
                    int rc = time_trip(&T, d_src, n, d_cmp, bound, d_out, &p, d_scr, scr, &len, &olen);
                    CK(cudaMemcpy(back, d_out, n, cudaMemcpyDeviceToHost));
                    int ok = rc == GPULZ_OK && olen == n && memcmp(back, h, n) == 0;
                    bad += !ok;
                    printf("%-6s %2u %4u %6u %7.3f %10.1f %10.1f%s\n", kinds[ki], sizes[si], windows[wi],
                           blocks[bi], (double)n / len, n / (median(tc, reps) * 1e6),
                           n / (median(td, reps) * 1e6), ok ? "" : "  ROUND TRIP FAILED");
                    fflush(stdout);
                }
    }

    /* the format 2 modes, 4096-byte blocks: fast (transform and rANS, no
     * matching), and with v2 also ratio (LZSS too) and auto */
    for (int mode = GPULZ_MODE_FAST; mode <= (v2_all ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST); mode++) {
        printf("\nmode %s, 4096-byte blocks\n%-6s %2s %7s %10s %10s\n", gpulz_mode_name((gpulz_mode)mode), "kind",
               "S", "ratio", "comp GB/s", "decomp GB/s");
        gpulz_params_init(&p);
        p.mode = (gpulz_mode)mode;
        p.symbol_size = 1;
        p.block_symbols = 4096;
        size_t fbound = gpulz_compress_bound(n, &p), fscr = 0;
        for (unsigned S = 1; S <= 8; S *= 2) {
            p.symbol_size = S;
            size_t a = gpulz_compress_device_scratch_size(n, &p);
            fscr = a > fscr ? a : fscr;
        }
        size_t b = gpulz_decompress_device_scratch_size(fbound);
        fscr = b > fscr ? b : fscr;
        uint8_t *f_cmp, *f_scr;
        CK(cudaMalloc((void **)&f_cmp, fbound));
        CK(cudaMalloc((void **)&f_scr, fscr));
        for (int ki = 0; ki < 3; ki++) {
            gpulz_gen(kinds[ki], h, n, 42 + ki);
            CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
            for (unsigned S = 1; S <= 8; S *= 2) {
                p.symbol_size = S;
                p.block_symbols = 4096 / S;
                size_t len = 0, olen = 0;
                int rc = time_trip(&T, d_src, n, f_cmp, fbound, d_out, &p, f_scr, fscr, &len, &olen);
                CK(cudaMemcpy(back, d_out, n, cudaMemcpyDeviceToHost));
                int ok = rc == GPULZ_OK && olen == n && memcmp(back, h, n) == 0;
                bad += !ok;
                printf("%-6s %2u %7.3f %10.1f %10.1f%s\n", kinds[ki], S, (double)n / len,
                       n / (median(tc, reps) * 1e6), n / (median(td, reps) * 1e6), ok ? "" : "  ROUND TRIP FAILED");
                fflush(stdout);
            }
        }
        CK(cudaFree(f_cmp));
        CK(cudaFree(f_scr));
    }
    if (fast_only) {
        printf("\n%s\n", bad ? "SOME ROUND TRIPS FAILED" : "all round trips exact");
        return bad ? 1 : 0;
    }

    /* the encoder's warps per block (symbols per warp, gpu_tune.h) */
    printf("\nencoder segment (symbols per warp), quant\n%2s %4s %6s %8s %10s\n", "S", "W", "block", "segment",
           "comp GB/s");
    gpulz_gen("quant", h, n, 42);
    CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
    static const unsigned tune[][3] = {{2, 128, 4096}, {4, 32, 4096}, {2, 32, 4096}, {1, 128, 16384}};
    for (int ti = 0; ti < 4; ti++)
        for (unsigned seg = 256; seg <= 4096; seg *= 2) {
            if (gpu_tune_enc_segment(seg) != GPULZ_OK)
                bad++;
            gpulz_params_init(&p);
            p.mode = GPULZ_MODE_LZ; /* format 1, as its recorded results */
            p.symbol_size = tune[ti][0];
            p.window = tune[ti][1];
            p.block_symbols = tune[ti][2] / tune[ti][0];
            size_t len = 0;
            for (int r = -1; r < reps; r++) {
                CK(cudaEventRecord(e0, st));
                if (gpulz_compress_device(d_src, n, d_cmp, bound, &len, &p, st, d_scr, scr) != GPULZ_OK)
                    bad++;
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                if (r >= 0)
                    CK(cudaEventElapsedTime(&tc[r], e0, e1));
            }
            printf("%2u %4u %6u %8u %10.1f\n", tune[ti][0], tune[ti][1], tune[ti][2], seg,
                   n / (median(tc, reps) * 1e6));
        }
    gpu_tune_enc_segment(0);

    /* host buffers: pageable memory, copies included */
    printf("\nhost buffers (pageable), quant, S=2 W=128 4096-byte blocks\n%12s %10s %10s\n", "bytes",
           "comp GB/s", "decomp GB/s");
    gpulz_gen("quant", h, n, 42);
    gpulz_params_init(&p);
    p.mode = GPULZ_MODE_LZ; /* format 1, as its recorded results */
    p.symbol_size = 2;
    p.window = 128;
    p.block_symbols = 2048;
    p.backend = GPULZ_BACKEND_GPU;
    uint8_t *cmp = malloc(gpulz_compress_bound(n, &p));
    size_t hs[] = {1u << 20, 4u << 20, 16u << 20, n};
    for (int i = 0; i < 4; i++) {
        size_t m = hs[i] < n ? hs[i] : n, len = 0, olen = 0;
        int rc = 0;
        for (int r = -1; r < reps; r++) {
            double t0 = now();
            rc |= gpulz_compress(h, m, cmp, gpulz_compress_bound(m, &p), &len, &p);
            if (r >= 0)
                tc[r] = (float)(now() - t0) * 1000;
        }
        for (int r = -1; r < reps; r++) {
            double t0 = now();
            rc |= gpulz_decompress(cmp, len, back, n, &olen, &p);
            if (r >= 0)
                td[r] = (float)(now() - t0) * 1000;
        }
        int ok = rc == GPULZ_OK && olen == m && memcmp(back, h, m) == 0;
        bad += !ok;
        printf("%12zu %10.1f %10.1f%s\n", m, m / (median(tc, reps) * 1e6), m / (median(td, reps) * 1e6),
               ok ? "" : "  ROUND TRIP FAILED");
    }
    printf("\n%s\n", bad ? "SOME ROUND TRIPS FAILED" : "all round trips exact");
    return bad ? 1 : 0;
}

/* ---- corpus mode ---- */

typedef struct corpus_options {
    const char *manifest, *datadir, *only;
    int repeats;
} corpus_options;

/* Device buffers and timers of one array, sized for its largest setting. */
typedef struct corpus_run {
    uint8_t *d_src, *d_cmp, *d_out, *d_scr;
    size_t cmp_cap, scr_cap;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    float *tc, *td;
    int reps;
} corpus_run;

/*
 * The settings of one array, the grid of the paper: S = 1, 2, 4, 8 where S
 * divides the element size, W = 32, 64, 128, 255, blocks of 2048, 4096, 8192
 * and 16384 bytes (block_symbols = bytes / S, within 256..16384).
 */
#define MAX_SETTINGS 64
/* --fast: mode fast instead, S dividing the element size, 4096-byte blocks;
 * --v2: modes fast, ratio and auto so */
static int corpus_fast, corpus_v2;
/* --no-checksum: fast, ratio and auto without format 2's checksum, as
 * nvCOMP's codecs carry none */
static unsigned corpus_flags;
static int corpus_settings(unsigned elsize, gpulz_params *out)
{
    if (corpus_fast || corpus_v2) {
        int k = 0;
        for (int mode = GPULZ_MODE_FAST; mode <= (corpus_v2 ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST); mode++)
            for (unsigned S = 1; S <= 8; S *= 2)
                if (elsize % S == 0) {
                    gpulz_params_init(&out[k]);
                    out[k].mode = (gpulz_mode)mode;
                    out[k].flags |= corpus_flags;
                    out[k].symbol_size = S;
                    out[k].block_symbols = 4096 / S;
                    out[k].backend = GPULZ_BACKEND_GPU;
                    k++;
                }
        return k;
    }
    static const unsigned sizes[] = {1, 2, 4, 8}, windows[] = {32, 64, 128, 255},
                          blocks[] = {2048, 4096, 8192, 16384};
    int k = 0;
    for (unsigned si = 0; si < 4; si++) {
        if (elsize % sizes[si] != 0)
            continue;
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned bi = 0; bi < 4; bi++) {
                unsigned c = blocks[bi] / sizes[si];
                gpulz_params_init(&out[k]);
                out[k].mode = GPULZ_MODE_LZ; /* the lz grid; --fast, --v2 time the others */
                out[k].symbol_size = sizes[si];
                out[k].window = windows[wi];
                out[k].block_symbols = c < 256 ? 256 : c > 16384 ? 16384 : c;
                out[k].backend = GPULZ_BACKEND_GPU;
                k++;
            }
    }
    return k;
}

/* A status for the CSV: the words of a failure, commas and line breaks replaced. */
static void set_status(char *status, size_t cap, const char *what, int rc)
{
    snprintf(status, cap, "%s: %s (%s)", what, gpulz_strerror(rc), gpulz_last_error());
    for (char *c = status; *c; c++)
        if (*c == ',' || *c == '\n' || *c == '\r')
            *c = ';';
}

/*
 * Time one setting on the n bytes at r->d_src (host copy h) and check the
 * round trip through back.  Returns 1 when it is exact, else 0 with the
 * reason in status.
 */
static int corpus_setting(const corpus_run *r, const uint8_t *h, uint8_t *back, size_t n,
                          const gpulz_params *p, double *ratio, double *cgbs, double *dgbs,
                          char *status, size_t cap)
{
    size_t len = 0, first = 0, olen = 0, diff = 0;
    int rc = GPULZ_OK, ok = 0;
    for (int k = -1; k < r->reps; k++) {
        CK(cudaEventRecord(r->e0, r->st));
        rc = gpulz_compress_device(r->d_src, n, r->d_cmp, r->cmp_cap, &len, p, r->st, r->d_scr,
                                   r->scr_cap);
        CK(cudaEventRecord(r->e1, r->st));
        CK(cudaEventSynchronize(r->e1));
        if (rc != GPULZ_OK) {
            set_status(status, cap, "compress", rc);
            goto done;
        }
        if (k >= 0 && len != first) {
            snprintf(status, cap, "compressed size differs between runs (%zu; %zu)", first, len);
            goto done;
        }
        first = len;
        if (k >= 0)
            CK(cudaEventElapsedTime(&r->tc[k], r->e0, r->e1));
    }
    for (int k = -1; k < r->reps; k++) {
        /* poisoned before every run, outside the timed span, so that a run
         * that writes nothing cannot pass the check */
        CK(cudaMemsetAsync(r->d_out, 0x5a, n, r->st));
        CK(cudaEventRecord(r->e0, r->st));
        rc = gpulz_decompress_device(r->d_cmp, len, r->d_out, n, &olen, r->st, r->d_scr,
                                     r->scr_cap);
        CK(cudaEventRecord(r->e1, r->st));
        CK(cudaEventSynchronize(r->e1));
        if (rc != GPULZ_OK) {
            set_status(status, cap, "decompress", rc);
            goto done;
        }
        if (olen != n) {
            snprintf(status, cap, "decompressed %zu bytes of %zu", olen, n);
            goto done;
        }
        if (k >= 0)
            CK(cudaEventElapsedTime(&r->td[k], r->e0, r->e1));
    }
    CK(cudaMemcpy(back, r->d_out, n, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        diff += back[i] != h[i];
    if (diff) {
        snprintf(status, cap, "MISMATCH: %zu bytes differ", diff);
        goto done;
    }
    *ratio = (double)n / (double)len;
    *cgbs = (double)n / (median(r->tc, r->reps) * 1e6);
    *dgbs = (double)n / (median(r->td, r->reps) * 1e6);
    snprintf(status, cap, "ok");
    ok = 1;
done:
    return ok;
}

/* Every setting on one array already in host memory; returns the number of failed rows. */
static int corpus_array_run(corpus_run *r, const char *name, const char *dtype, unsigned elsize,
                            const uint8_t *h, size_t n)
{
    gpulz_params set[MAX_SETTINGS];
    int ns = corpus_settings(elsize, set), failures = 0;
    uint8_t *back = malloc(n);
    r->cmp_cap = r->scr_cap = 0;
    for (int i = 0; i < ns; i++) {
        size_t bound = gpulz_compress_bound(n, &set[i]);
        size_t cs = gpulz_compress_device_scratch_size(n, &set[i]);
        size_t ds = gpulz_decompress_device_scratch_size(bound);
        if (bound > r->cmp_cap)
            r->cmp_cap = bound;
        if (cs > r->scr_cap)
            r->scr_cap = cs;
        if (ds > r->scr_cap)
            r->scr_cap = ds;
    }
    if (!back || r->cmp_cap == 0) {
        fprintf(stderr, "gpu_bench: %s: no memory or no valid setting\n", name);
        free(back);
        return ns;
    }
    CK(cudaMalloc((void **)&r->d_src, n));
    CK(cudaMalloc((void **)&r->d_cmp, r->cmp_cap));
    CK(cudaMalloc((void **)&r->d_out, n));
    CK(cudaMalloc((void **)&r->d_scr, r->scr_cap ? r->scr_cap : 1));
    CK(cudaMemcpy(r->d_src, h, n, cudaMemcpyHostToDevice));
    for (int i = 0; i < ns; i++) {
        char status[256];
        double ratio = 0, cgbs = 0, dgbs = 0;
        int ok = corpus_setting(r, h, back, n, &set[i], &ratio, &cgbs, &dgbs, status, sizeof status);
        if (set[i].mode != GPULZ_MODE_LZ)
            printf("%s,%s,%zu,gpulz,%s S%u B%u%s,", name, dtype, n, gpulz_mode_name(set[i].mode),
                   set[i].symbol_size, set[i].block_symbols * set[i].symbol_size,
                   set[i].flags & GPULZ_FLAG_NO_CHECKSUM ? " no-checksum" : "");
        else
            printf("%s,%s,%zu,gpulz,S%u W%u B%u,", name, dtype, n, set[i].symbol_size, set[i].window,
                   set[i].block_symbols * set[i].symbol_size);
        if (ok)
            printf("%.4f,%.3f,%.3f,ok\n", ratio, cgbs, dgbs);
        else
            printf(",,,%s\n", status);
        fflush(stdout);
        failures += !ok;
    }
    CK(cudaFree(r->d_src));
    CK(cudaFree(r->d_cmp));
    CK(cudaFree(r->d_out));
    CK(cudaFree(r->d_scr));
    free(back);
    return failures;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gpu_bench [MB (default 256)] [reps (default 5)] [quick | fast | v2]\n"
               "       gpu_bench --csv [--fast | --v2] [--manifest FILE] [--data DIR] [--only A,B,...] [--repeats N]\n"
               "                 [--first MIB] [--no-checksum]\n"
               "The first form benchmarks generated data (a table); the second the corpus arrays of\n"
               "FILE (default $GPULZ_BENCH_MANIFEST, else bench/data/cache/MANIFEST; arrays in DIR,\n"
               "default FILE's folder; --only default $GPULZ_BENCH_ONLY), CSV on stdout; --first: only\n"
               "each array's first MIB MiB (whole elements), one chunk of that size; --no-checksum:\n"
               "--fast and --v2 without format 2's checksum (nvCOMP's codecs carry none).\n"
               "Exit status: 0 all exact, 1 a failure, 2 bad arguments, 77 no usable GPU.\n");
}

static int corpus_main(int argc, char **argv)
{
    corpus_options o = {getenv("GPULZ_BENCH_MANIFEST"), NULL, getenv("GPULZ_BENCH_ONLY"), 5};
    size_t first = 0; /* --first: bytes of each array coded, 0 all */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "--csv") == 0)
            continue;
        if (strcmp(a, "--fast") == 0) {
            corpus_fast = 1;
            continue;
        }
        if (strcmp(a, "--v2") == 0) {
            corpus_v2 = 1;
            continue;
        }
        if (strcmp(a, "--no-checksum") == 0) {
            corpus_flags |= GPULZ_FLAG_NO_CHECKSUM;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            usage(stderr);
            return 2;
        }
        i++;
        if (strcmp(a, "--manifest") == 0)
            o.manifest = v;
        else if (strcmp(a, "--data") == 0)
            o.datadir = v;
        else if (strcmp(a, "--only") == 0)
            o.only = v;
        else if (strcmp(a, "--repeats") == 0) {
            long n = strtol(v, &end, 10);
            o.repeats = *end || n < 1 || n > 1000 ? 0 : (int)n;
        } else if (strcmp(a, "--first") == 0) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 1 << 20) {
                fprintf(stderr, "gpu_bench: --first must be an integer from 1 to %d (MiB)\n", 1 << 20);
                return 2;
            }
            first = (size_t)n << 20;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (o.repeats < 1) {
        fprintf(stderr, "gpu_bench: --repeats must be an integer from 1 to 1000\n");
        return 2;
    }
    if (corpus_flags && !corpus_fast && !corpus_v2) {
        fprintf(stderr, "gpu_bench: --no-checksum goes with --fast or --v2 (lz's chunks carry none)\n");
        return 2;
    }
    if (!o.manifest || !*o.manifest)
        o.manifest = "bench/data/cache/MANIFEST";
    corpus cor;
    if (corpus_open(&cor, "gpu_bench", o.manifest, o.datadir, o.only) < 0)
        return 1;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "gpu_bench: no usable GPU\n");
        corpus_close(&cor);
        return 77;
    }
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "gpu_bench: %s, %d SMs; median of %d runs after a warm-up\n", prop.name,
            prop.multiProcessorCount, o.repeats);
    corpus_run r = {0};
    r.reps = o.repeats;
    r.tc = malloc(sizeof(float) * (size_t)r.reps);
    r.td = malloc(sizeof(float) * (size_t)r.reps);
    if (!r.tc || !r.td) {
        fprintf(stderr, "gpu_bench: out of memory\n");
        corpus_close(&cor);
        return 1;
    }
    CK(cudaStreamCreate(&r.st));
    CK(cudaEventCreate(&r.e0));
    CK(cudaEventCreate(&r.e1));
    printf("dataset,dtype,bytes,codec,params,ratio,comp_gbs,decomp_gbs,status\n");
    fflush(stdout);

    int failures = 0;
    corpus_array a;
    for (int got; (got = corpus_next(&cor, &a)) != 0;) {
        if (got < 0)
            failures++;
        else
            failures += corpus_array_run(&r, a.name, a.dtype, a.elsize, a.data,
                                         first && a.bytes > first ? first / a.elsize * a.elsize : a.bytes);
        free(a.data);
    }
    corpus_close(&cor);
    CK(cudaEventDestroy(r.e0));
    CK(cudaEventDestroy(r.e1));
    CK(cudaStreamDestroy(r.st));
    free(r.tc);
    free(r.td);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* options select the corpus mode; positional arguments (or none) the synthetic one */
    if (argc > 1 && argv[1][0] == '-')
        return corpus_main(argc, argv);
    return synthetic_main(argc, argv);
}
