/*
 * gpu_bench.c - throughput of the GPU codec.
 *
 * Device-resident: the input lives in device memory; compression and
 * decompression go through the device-buffer API and are timed with CUDA
 * events after a warm-up run, the median of several runs, for the kinds
 * quant, float and int (tools/datagen), S = 1, 2, 4, W = 32, 64, 128, 255 and
 * blocks of 2048, 4096 and 16384 bytes.  Every configuration's round trip is
 * checked.  Host-buffer: gpulz_compress / gpulz_decompress with backend GPU on
 * pageable buffers of 1, 4, 16 MiB and the full size, copies included.
 *
 * GB/s are 1e9 uncompressed bytes per second.
 * Usage: gpu_bench [MB (default 256)] [reps (default 5)] [quick]
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datagen.h"
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

int main(int argc, char **argv)
{
    size_t n = (size_t)(argc > 1 ? atof(argv[1]) : 256) * 1000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int quick = argc > 3;
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
    int bad = 0;

    printf("\n%-6s %2s %4s %6s %7s %10s %10s\n", "kind", "S", "W", "block", "ratio", "comp GB/s",
           "decomp GB/s");
    for (int ki = 0; ki < 3; ki++) {
        gpulz_gen(kinds[ki], h, n, 42 + ki);
        CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
        for (int si = 0; si < 3; si++)
            for (int wi = 0; wi < 4; wi++)
                for (int bi = 0; bi < 3; bi++) {
                    if (quick && !(sizes[si] == 2 && windows[wi] == 128 && blocks[bi] == 4096) &&
                        !(sizes[si] == 4 && windows[wi] == 32))
                        continue;
                    gpulz_params_init(&p);
                    p.symbol_size = sizes[si];
                    p.window = windows[wi];
                    p.block_symbols = blocks[bi] / sizes[si];
                    p.backend = GPULZ_BACKEND_GPU;
                    size_t len = 0, olen = 0;
                    int rc = 0;
                    for (int r = -1; r < reps; r++) {
                        CK(cudaEventRecord(e0, st));
                        rc |= gpulz_compress_device(d_src, n, d_cmp, bound, &len, &p, st, d_scr, scr);
                        CK(cudaEventRecord(e1, st));
                        CK(cudaEventSynchronize(e1));
                        if (r >= 0)
                            CK(cudaEventElapsedTime(&tc[r], e0, e1));
                    }
                    for (int r = -1; r < reps; r++) {
                        CK(cudaEventRecord(e0, st));
                        rc |= gpulz_decompress_device(d_cmp, len, d_out, n, &olen, st, d_scr, scr);
                        CK(cudaEventRecord(e1, st));
                        CK(cudaEventSynchronize(e1));
                        if (r >= 0)
                            CK(cudaEventElapsedTime(&td[r], e0, e1));
                    }
                    CK(cudaMemcpy(back, d_out, n, cudaMemcpyDeviceToHost));
                    int ok = rc == GPULZ_OK && olen == n && memcmp(back, h, n) == 0;
                    bad += !ok;
                    printf("%-6s %2u %4u %6u %7.3f %10.1f %10.1f%s\n", kinds[ki], sizes[si], windows[wi],
                           blocks[bi], (double)n / len, n / (median(tc, reps) * 1e6),
                           n / (median(td, reps) * 1e6), ok ? "" : "  ROUND TRIP FAILED");
                    fflush(stdout);
                }
    }

    /* the encoder's warps per block (GPULZ_ENC_SEGMENT symbols per warp) */
    printf("\nencoder segment (symbols per warp), quant\n%2s %4s %6s %8s %10s\n", "S", "W", "block", "segment",
           "comp GB/s");
    gpulz_gen("quant", h, n, 42);
    CK(cudaMemcpy(d_src, h, n, cudaMemcpyHostToDevice));
    static const unsigned tune[][3] = {{2, 128, 4096}, {4, 32, 4096}, {2, 32, 4096}, {1, 128, 16384}};
    for (int ti = 0; ti < 4; ti++)
        for (unsigned seg = 256; seg <= 4096; seg *= 2) {
            char v[16];
            snprintf(v, sizeof v, "%u", seg);
            setenv("GPULZ_ENC_SEGMENT", v, 1);
            gpulz_params_init(&p);
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
    unsetenv("GPULZ_ENC_SEGMENT");

    /* host buffers: pageable memory, copies included */
    printf("\nhost buffers (pageable), quant, S=2 W=128 4096-byte blocks\n%12s %10s %10s\n", "bytes",
           "comp GB/s", "decomp GB/s");
    gpulz_gen("quant", h, n, 42);
    gpulz_params_init(&p);
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
