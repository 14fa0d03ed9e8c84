/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mode_speed - encode and decode speed of the CPU codec per mode and array,
 * on the benchmark corpus, by default on one core (gpulz_params.threads 1);
 * with --backend gpu, of the GPU through the host API, one call per chunk
 * from pageable buffers, as the HDF5 filter calls it (wall clock).
 *
 * Each array is cut into chunks as mode_ratio and h5bench cut it (whole
 * trailing dims and a slab of the leading ones, at most --chunk-mib MiB).
 * Per mode every chunk is compressed and decompressed once (a warm-up, and a
 * check that the bytes come back), then --repeats times all chunks are
 * compressed, and --repeats times all decompressed; the median of those
 * passes is reported as MB/s (10^6 bytes of the array per second).  The
 * clock is wall time, or with --clock cpu the calling thread's CPU time,
 * which another process on a shared core disturbs less (with threads 1 the
 * codec runs in the calling thread).
 *
 * Output: a markdown table, one row per array, encode and decode MB/s per
 * mode and the ratio; last row: all arrays' bytes over all their medians.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus.h"
#include "gpulz.h"

#define MIB (1024.0 * 1024.0)
#define MAX_MODES GPULZ_MODE_COUNT

static void die(const char *what)
{
    fprintf(stderr, "mode_speed: %s\n", what);
    exit(1);
}

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void)
{
    struct timespec t;
    clock_gettime(clock_id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mode_speed [options]\n"
            "  --manifest FILE    corpus list (default bench/data/MANIFEST)\n"
            "  --data DIR         folder of the arrays (default: the manifest's folder)\n"
            "  --only A,B,...     only these arrays\n"
            "  --modes M,N,...    modes to time (default fast,ratio,auto; lz also known)\n"
            "  --chunk-mib X      chunk size in MiB (default 4)\n"
            "  --max-mib X        time only the first X MiB of each array (default: all)\n"
            "  --repeats N        timed passes per direction, median taken (default 5)\n"
            "  --threads N        gpulz_params.threads (default 1)\n"
            "  --backend cpu|gpu  the codec's backend (default cpu; gpu exits 77 where no GPU\n"
            "                     is usable)\n"
            "  --clock wall|cpu   wall time or the thread's CPU time (default wall)\n"
            "  --time enc|dec|both  which direction to time (default both; for profiles)\n");
}

int main(int argc, char **argv)
{
    const char *manifest = "bench/data/MANIFEST", *data = NULL, *only = NULL;
    const char *modes = "fast,ratio,auto";
    double chunk_mib = 4, max_mib = 0;
    int repeats = 5;
    unsigned threads = 1;
    gpulz_backend backend = GPULZ_BACKEND_CPU;
    int time_enc = 1, time_dec = 1;
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
        else if (!strcmp(arg, "--modes"))
            modes = val;
        else if (!strcmp(arg, "--chunk-mib"))
            chunk_mib = atof(val);
        else if (!strcmp(arg, "--max-mib"))
            max_mib = atof(val);
        else if (!strcmp(arg, "--repeats"))
            repeats = atoi(val);
        else if (!strcmp(arg, "--threads"))
            threads = (unsigned)strtoul(val, NULL, 10);
        else if (!strcmp(arg, "--backend") && (!strcmp(val, "cpu") || !strcmp(val, "gpu")))
            backend = strcmp(val, "gpu") ? GPULZ_BACKEND_CPU : GPULZ_BACKEND_GPU;
        else if (!strcmp(arg, "--clock") && (!strcmp(val, "wall") || !strcmp(val, "cpu")))
            clock_id = strcmp(val, "cpu") ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
        else if (!strcmp(arg, "--time") && (!strcmp(val, "enc") || !strcmp(val, "dec") || !strcmp(val, "both"))) {
            time_enc = strcmp(val, "dec") != 0;
            time_dec = strcmp(val, "enc") != 0;
        } else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!(chunk_mib > 0) || repeats < 1 || max_mib < 0) {
        usage(stderr);
        return 2;
    }
    gpulz_mode mode[MAX_MODES];
    int nmodes = 0;
    for (int m = 0; m < GPULZ_MODE_COUNT; m++)
        if (corpus_in_list(modes, gpulz_mode_name((gpulz_mode)m)))
            mode[nmodes++] = (gpulz_mode)m;
    if (!nmodes)
        die("no known mode in --modes");

    corpus c;
    if (corpus_open(&c, "mode_speed", manifest, data, only) != 0)
        return 1;
    double *enc_t = malloc((size_t)repeats * sizeof *enc_t), *dec_t = malloc((size_t)repeats * sizeof *dec_t);
    if (!enc_t || !dec_t)
        die("out of memory");
    double tot_bytes = 0, tot_enc[MAX_MODES] = {0}, tot_dec[MAX_MODES] = {0}, tot_out[MAX_MODES] = {0};
    int bad = 0, header = 0;
    corpus_array a;
    int got;
    if (backend == GPULZ_BACKEND_GPU && !gpulz_gpu_available()) {
        fprintf(stderr, "mode_speed: no usable GPU: skipped\n");
        return 77;
    }
    while ((got = corpus_next(&c, &a)) != 0) {
        if (got < 0) {
            bad = 1;
            continue;
        }
        size_t bytes = a.bytes;
        if (max_mib > 0 && (double)bytes > max_mib * MIB)
            bytes = (size_t)(max_mib * MIB);
        const size_t cb = chunk_bytes_of(&a, chunk_mib * MIB);
        const size_t nchunks = bytes ? (bytes + cb - 1) / cb : 0;
        if (!header) {
            printf("gpulz %s, %s, chunks of at most %g MiB, S = element size, %u thread(s), median of %d "
                   "passes (%s clock) after one warm-up; MB/s = 10^6 array bytes per second.\n\n",
                   gpulz_version_string(), backend == GPULZ_BACKEND_GPU ? "GPU backend" : "CPU backend",
                   chunk_mib, threads, repeats, clock_id == CLOCK_MONOTONIC ? "wall" : "thread CPU");
            printf("| array | dtype | MB |");
            for (int k = 0; k < nmodes; k++)
                printf(" %s enc | %s dec | %s ratio |", gpulz_mode_name(mode[k]), gpulz_mode_name(mode[k]),
                       gpulz_mode_name(mode[k]));
            printf("\n|---|---|---:|");
            for (int k = 0; k < nmodes; k++)
                printf("---:|---:|---:|");
            printf("\n");
            fflush(stdout);
            header = 1;
        }
        printf("| %s | %s | %.1f |", a.name, a.dtype, bytes / 1e6);
        tot_bytes += (double)bytes;
        for (int k = 0; k < nmodes; k++) {
            gpulz_params p;
            gpulz_params_init(&p);
            p.symbol_size = a.elsize;
            p.threads = threads;
            p.backend = backend;
            p.mode = mode[k];
            if (gpulz_params_check(&p) != GPULZ_OK)
                die(gpulz_last_error());
            const size_t cap = gpulz_compress_bound(cb, &p);
            unsigned char **out = calloc(nchunks ? nchunks : 1, sizeof *out);
            size_t *len = calloc(nchunks ? nchunks : 1, sizeof *len);
            unsigned char *back = malloc(cb ? cb : 1), *scratch = malloc(cap ? cap : 1);
            if (!out || !len || !back || !scratch)
                die("out of memory");
            const unsigned char *src = a.data;
            size_t total = 0;
            for (size_t i = 0; i < nchunks; i++) {
                size_t off = i * cb, n = bytes - off < cb ? bytes - off : cb, dlen = 0;
                if (!(out[i] = malloc(cap)))
                    die("out of memory");
                if (gpulz_compress(src + off, n, out[i], cap, &len[i], &p) != GPULZ_OK)
                    die(gpulz_last_error());
                if (gpulz_decompress(out[i], len[i], back, n, &dlen, &p) != GPULZ_OK || dlen != n ||
                    memcmp(back, src + off, n) != 0) {
                    fprintf(stderr, "mode_speed: %s mode %s chunk %zu: round trip FAILED\n", a.name,
                            gpulz_mode_name(mode[k]), i);
                    abort();
                }
                total += len[i];
            }
            for (int r = 0; r < repeats; r++) {
                double t0 = now();
                for (size_t i = 0; i < (time_enc ? nchunks : 0); i++) {
                    size_t off = i * cb, n = bytes - off < cb ? bytes - off : cb, l;
                    if (gpulz_compress(src + off, n, scratch, cap, &l, &p) != GPULZ_OK)
                        die(gpulz_last_error());
                }
                enc_t[r] = now() - t0;
                t0 = now();
                for (size_t i = 0; i < (time_dec ? nchunks : 0); i++) {
                    size_t off = i * cb, n = bytes - off < cb ? bytes - off : cb, dlen;
                    if (gpulz_decompress(out[i], len[i], back, n, &dlen, &p) != GPULZ_OK)
                        die(gpulz_last_error());
                }
                dec_t[r] = now() - t0;
            }
            double te = median(enc_t, repeats), td = median(dec_t, repeats);
            tot_enc[k] += te;
            tot_dec[k] += td;
            tot_out[k] += (double)total;
            if (time_enc)
                printf(" %.0f |", bytes / te / 1e6);
            else
                printf(" - |");
            if (time_dec)
                printf(" %.0f |", bytes / td / 1e6);
            else
                printf(" - |");
            printf(" %.3f |", total ? (double)bytes / (double)total : 0.0);
            fflush(stdout);
            for (size_t i = 0; i < nchunks; i++)
                free(out[i]);
            free(out);
            free(len);
            free(back);
            free(scratch);
        }
        printf("\n");
        free(a.data);
    }
    corpus_close(&c);
    if (!header)
        die("no arrays");
    printf("| **all arrays** | | %.1f |", tot_bytes / 1e6);
    for (int k = 0; k < nmodes; k++) {
        printf(time_enc ? " %.0f |" : " - |", tot_bytes / tot_enc[k] / 1e6);
        printf(time_dec ? " %.0f |" : " - |", tot_bytes / tot_dec[k] / 1e6);
        printf(" %.3f |", tot_out[k] ? tot_bytes / tot_out[k] : 0.0);
    }
    printf("\n");
    free(enc_t);
    free(dec_t);
    return bad;
}
