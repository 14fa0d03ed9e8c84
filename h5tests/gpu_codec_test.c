/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_codec_test.c - the GPU codec against the CPU reference: the same bytes
 * over many random inputs and parameter sets (adversarial ones included),
 * decoding across backends both ways, damaged chunks judged alike by both
 * decoders, the device-buffer API, and the fork rule.  Exits 77 where no GPU
 * is usable.
 *
 * GPULZ_TEST_QUICK=1 runs a short version for the sanitizer test's
 * memcheck, GPULZ_TEST_QUICK=2 a shorter one for its racecheck (format 2
 * inputs of at most 120 000 bytes, fewer of each kind, every kernel still
 * launched), whose tracking of shared memory runs the kernels far slower:
 * 36 format 2 inputs of up to 3 MB took it four minutes on an H200.  With
 * the parts added since, its run took 468 s there (2026-11-30), and the
 * parts up to v2_sampled's end alone 365 s (v2_sampled 67 s, 41 of them
 * its own run of v2_ranges; the adaptive device trials 31 s, the grid
 * 23 s); so the ranges, the sampled inputs and the format 2
 * trials' inputs are smaller again.
 * Each part prints its time.
 */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codec_pick.h"
#include "datagen.h"
#include "gpu_tune.h"
#include "gpu_v2.h"
#include "gpulz_entropy.h"
#include "gpulz_format2.h"
#include "gpu_testutil.h"
#include "crafted_chunks.h"

static int quick;

/* Each part's time in the log: under racecheck the parts take minutes, and
 * the sanitizer's time limit must know which. */
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#define TIMED(call)                                                                                \
    do {                                                                                           \
        const double t0_ = seconds();                                                              \
        call;                                                                                      \
        printf("  (%s: %.1f s)\n", #call, seconds() - t0_);                                       \
    } while (0)

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* An input of n bytes: a datagen kind, or a mix that puts long matches,
 * runs and noise next to each other within one block. */
static void make_input(uint8_t *b, size_t n, unsigned kind_pick)
{
    size_t nk = 0;
    while (gpulz_gen_kinds[nk])
        nk++;
    if (kind_pick < nk) {
        gpulz_gen(gpulz_gen_kinds[kind_pick], b, n, rnd());
        return;
    }
    unsigned alpha = 1 + (unsigned)(rnd() % 5);
    for (size_t i = 0; i < n;) {
        size_t len = 1 + rnd() % 700;
        if (len > n - i)
            len = n - i;
        unsigned mode = (unsigned)(rnd() % 4);
        size_t d = 1 + rnd() % 300;
        for (size_t j = 0; j < len; j++, i++) {
            if (mode == 0 || i < d)
                b[i] = (uint8_t)(rnd() % alpha);
            else if (mode == 1)
                b[i] = b[i - d];
            else if (mode == 2)
                b[i] = (uint8_t)rnd();
            else
                b[i] = 0;
        }
    }
}

static void params_for(gpulz_params *p, unsigned S, unsigned W, unsigned C, gpulz_backend b)
{
    gpulz_params_init(p);
    p->mode = GPULZ_MODE_LZ; /* format 1 on both; the other modes set theirs */
    p->symbol_size = S;
    p->window = W;
    p->block_symbols = C;
    p->backend = b;
}

/* CPU and GPU compress src alike; each decoder reads the other's chunk. */
static void compare_one(const uint8_t *src, size_t n, unsigned S, unsigned W, unsigned C, unsigned flags)
{
    gpulz_params pc, pg;
    params_for(&pc, S, W, C, GPULZ_BACKEND_CPU);
    params_for(&pg, S, W, C, GPULZ_BACKEND_GPU);
    pc.flags = pg.flags = flags;
    size_t bound = gpulz_compress_bound(n, &pc);
    uint8_t *a = malloc(bound), *b = malloc(bound), *o = malloc(n ? n : 1);
    size_t la = 0, lb = 0, lo = 0;
    int rc = gpulz_compress(src, n, a, bound, &la, &pc);
    CHECK(rc == GPULZ_OK, "cpu compress n=%zu S=%u W=%u C=%u: %d", n, S, W, C, rc);
    rc = gpulz_compress(src, n, b, bound, &lb, &pg);
    CHECK(rc == GPULZ_OK, "gpu compress n=%zu S=%u W=%u C=%u: %d", n, S, W, C, rc);
    CHECK(gpulz_last_backend(NULL) == GPULZ_BACKEND_GPU, "gpu compress did not run on the GPU");
    CHECK(la == lb && memcmp(a, b, la) == 0, "bytes differ n=%zu S=%u W=%u C=%u flags=%u: %zu vs %zu",
          n, S, W, C, flags, la, lb);
    if (rc == GPULZ_OK) {
        memset(o, 0xA5, n);
        rc = gpulz_decompress(a, la, o, n, &lo, &pg);
        CHECK(rc == GPULZ_OK && lo == n && memcmp(o, src, n) == 0,
              "gpu decode of the cpu chunk n=%zu S=%u W=%u C=%u: %d", n, S, W, C, rc);
        memset(o, 0x5A, n);
        rc = gpulz_decompress(b, lb, o, n, &lo, &pc);
        CHECK(rc == GPULZ_OK && lo == n && memcmp(o, src, n) == 0,
              "cpu decode of the gpu chunk n=%zu S=%u W=%u C=%u: %d", n, S, W, C, rc);
    }
    free(a);
    free(b);
    free(o);
}

/*
 * A device with less shared memory (gpu_tune_smem_most at an A100's 163
 * KiB): format 1 decoding with S = 8 and blocks of 16384 (192 KiB a block)
 * is refused after its first steps were queued, an error with backend gpu
 * and the CPU's bytes with auto.  Each refusal is followed at once by a GPU
 * compression of other data that must give the CPU's bytes: the refused
 * call's kernels may not run on in the context's scratch once it returned.
 */
static void smaller_device(void)
{
    /* the compressions after the refusals small in the sanitizer's runs,
     * as its other format 1 inputs are (at most 100 KB) */
    const size_t n = (size_t)4 << 20, m = quick ? (size_t)64 << 10 : (size_t)1 << 20;
    uint8_t *src = malloc(n), *other = malloc(m), *out = malloc(n);
    gpulz_params pc, pg, pa;
    params_for(&pc, 8, 128, 16384, GPULZ_BACKEND_CPU);
    pg = pc;
    pg.backend = GPULZ_BACKEND_GPU;
    pa = pc;
    pa.backend = GPULZ_BACKEND_AUTO;
    const size_t bound = gpulz_compress_bound(n, &pc);
    uint8_t *c = malloc(bound);
    size_t len = 0, got = 0;
    CHECK(src && other && out && c, "smaller device: out of memory");
    if (!src || !other || !out || !c)
        goto done;
    gpulz_gen("quant", src, n, 13);
    CHECK(gpulz_compress(src, n, c, bound, &len, &pc) == GPULZ_OK, "smaller device: cpu compress");
    gpu_tune_smem_most(166912);
    for (int t = 0; t < (quick ? 2 : 8); t++) {
        const int rc = gpulz_decompress(c, len, out, n, &got, &pg);
        CHECK(rc != GPULZ_OK, "smaller device: 192 KiB blocks decoded with 163 KiB (%d)", rc);
        gpulz_gen(t % 2 ? "random" : "quant", other, m, 40 + (unsigned)t);
        compare_one(other, m, 2, 128, 2048, 0);
    }
    memset(out, 0, n);
    CHECK(gpulz_decompress(c, len, out, n, &got, &pa) == GPULZ_OK && got == n && memcmp(out, src, n) == 0,
          "smaller device: backend auto did not fall back to the CPU's bytes: %s", gpulz_last_error());
    gpu_tune_smem_most(0);
    memset(out, 0, n);
    CHECK(gpulz_decompress(c, len, out, n, &got, &pg) == GPULZ_OK && got == n && memcmp(out, src, n) == 0 &&
              gpulz_last_backend(NULL) == GPULZ_BACKEND_GPU,
          "smaller device: the device's own room restored, no GPU decode: %s", gpulz_last_error());
    printf("smaller device: refused launches, the GPU's next bytes the CPU's, the CPU's fallback\n");
done:
    free(src);
    free(other);
    free(out);
    free(c);
}

static unsigned pick_window(void)
{
    static const unsigned common[] = {1, 2, 31, 32, 33, 64, 128, 254, 255};
    return rnd() % 2 ? common[rnd() % 9] : 1 + (unsigned)(rnd() % 255);
}

static void random_trials(int trials)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    uint8_t *buf = malloc(1u << 21);
    for (int t = 0; t < trials; t++) {
        unsigned S = sizes[rnd() % 4], W = pick_window(), C = 256u << (rnd() % 7);
        size_t bb = (size_t)C * S, n;
        switch (rnd() % 6) {
        case 0: n = rnd() % 16; break;                                  /* n = 0, n < S, tiny */
        case 1: n = bb * (1 + rnd() % 3) + (rnd() % 3) - 1; break;      /* around block ends */
        case 2: n = bb * (1 + rnd() % 2) + rnd() % (2 * S + 1); break;  /* tails */
        default: n = rnd() % (quick ? 20000 : 300000); break;
        }
        if (n > (1u << 21))
            n = 1u << 21;
        make_input(buf, n, (unsigned)(rnd() % 10));
        /* the encoder's split of a block among warps must not show */
        static const unsigned segs[] = {256, 512, 1024, 2048, 16384};
        CHECK(gpu_tune_enc_segment(384) == GPULZ_ERR_PARAM, "384 symbols per warp accepted");
        CHECK(gpu_tune_enc_segment(segs[rnd() % 5]) == GPULZ_OK, "gpu_tune_enc_segment");
        compare_one(buf, n, S, W, C, rnd() % 8 == 0 ? GPULZ_FLAG_ADAPTIVE : 0);
    }
    gpu_tune_enc_segment(0);
    free(buf);
}

/* Every S and C, the windows of the levels, on the realistic kinds. */
static void grid_trials(void)
{
    static const unsigned sizes[] = {1, 2, 4, 8}, windows[] = {32, 64, 128, 255};
    size_t n = quick ? 70000 : 600000;
    uint8_t *buf = malloc(n);
    const char *kinds[] = {"quant", "float", "int", "records"};
    for (unsigned si = 0; si < 4; si++)
        for (unsigned C = 256; C <= 16384; C *= 2)
            for (unsigned wi = 0; wi < 4; wi++) {
                if (quick && (C != 256 && C != 4096) && wi != si)
                    continue;
                /* racecheck's run: every window with the smallest blocks, one with C = 4096 */
                if (quick >= 2 && C == 4096 && wi != si)
                    continue;
                gpulz_gen(kinds[(si + wi + C / 256) % 4], buf, n, C * 31 + wi);
                compare_one(buf, n - (C % 7), sizes[si], windows[wi], C, 0);
            }
    free(buf);
}

/* A few inputs of many megabytes: the host path's pieces and copy threads. */
static void large_trials(void)
{
    size_t n = (size_t)40 << 20;
    uint8_t *buf = malloc(n);
    gpulz_gen("quant", buf, n, 7);
    compare_one(buf, n - 3, 2, 128, 2048, 0);
    gpulz_gen("random", buf, n, 8);
    compare_one(buf, n, 4, 32, 1024, 0);
    free(buf);
}

/* Damaged chunks: the GPU decoder must agree with the CPU one on whether a
 * chunk is valid, and on its content when it is; and never crash. */
static void corrupt_trials(int trials)
{
    uint8_t *src = malloc(200000), *chunk = malloc(300000), *bad = malloc(300000);
    uint8_t *o1 = malloc(200000), *o2 = malloc(200000);
    int rejected = 0;
    for (int t = 0; t < trials; t++) {
        unsigned S = 1u << (rnd() % 4), W = pick_window(), C = 256u << (rnd() % 4);
        size_t n = 1000 + rnd() % 150000, len = 0;
        gpulz_params pc, pg;
        params_for(&pc, S, W, C, GPULZ_BACKEND_CPU);
        params_for(&pg, S, W, C, GPULZ_BACKEND_GPU);
        make_input(src, n, 5 + (unsigned)(rnd() % 5));
        if (gpulz_compress(src, n, chunk, 300000, &len, &pc) != GPULZ_OK)
            continue;
        memcpy(bad, chunk, len);
        size_t blen = len;
        unsigned how = (unsigned)(rnd() % 5);
        if (how == 0) {
            blen = rnd() % len; /* truncated */
        } else if (how == 1) { /* a table entry */
            uint64_t nb = (len - 28) / 4 ? ((uint64_t)n / S + C - 1) / C : 0;
            if (nb)
                bad[28 + 4 * (rnd() % nb) + rnd() % 4] ^= (uint8_t)(1u << (rnd() % 8));
        } else {
            int flips = 1 + (int)(rnd() % 4);
            for (int f = 0; f < flips; f++)
                bad[28 + rnd() % (len - 28)] ^= (uint8_t)(1 + rnd() % 255);
        }
        size_t l1 = 0, l2 = 0;
        int r1 = gpulz_decompress(bad, blen, o1, 200000, &l1, &pc);
        int r2 = gpulz_decompress(bad, blen, o2, 200000, &l2, &pg);
        CHECK((r1 == GPULZ_OK) == (r2 == GPULZ_OK), "damaged chunk (how %u): cpu %d, gpu %d", how, r1, r2);
        if (r1 == GPULZ_OK && r2 == GPULZ_OK)
            CHECK(l1 == l2 && memcmp(o1, o2, l1) == 0, "damaged chunk decoded differently");
        else
            rejected++;
    }
    CHECK(rejected > trials / 4, "only %d of %d damaged chunks were rejected", rejected, trials);
    free(src);
    free(chunk);
    free(bad);
    free(o1);
    free(o2);
}

/* Compress and decompress device buffers, at odd addresses, with and without
 * the caller's scratch and stream; the bytes must equal the CPU's. */
static void device_trials(void)
{
    size_t n = quick ? 100000 : 3000000;
    uint8_t *src = malloc(n), *ref = NULL, *got = NULL, *back = malloc(n);
    uint8_t *d_src = NULL, *d_dst = NULL, *d_out = NULL, *d_scr = NULL;
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st) == cudaSuccess, "cudaStreamCreate");
    for (int t = 0; t < 8; t++) {
        unsigned S = 1u << (t % 4), W = t < 4 ? 128 : 32, C = t < 4 ? 2048 : 512;
        size_t m = n - (size_t)(rnd() % 100);
        gpulz_params pc, pg;
        params_for(&pc, S, W, C, GPULZ_BACKEND_CPU);
        params_for(&pg, S, W, C, GPULZ_BACKEND_GPU);
        gpulz_gen(t % 2 ? "quant" : "records", src, m, t);
        size_t bound = gpulz_compress_bound(m, &pc), lr = 0, lg = 0, lo = 0;
        ref = malloc(bound);
        got = malloc(bound);
        CHECK(gpulz_compress(src, m, ref, bound, &lr, &pc) == GPULZ_OK, "cpu compress");
        unsigned mis = (unsigned)(t % 4); /* misalign the device buffers */
        size_t scr = gpulz_compress_device_scratch_size(m, &pg);
        size_t dscr = gpulz_decompress_device_scratch_size(bound);
        CHECK(scr > 0 && dscr > 0, "scratch sizes %zu %zu", scr, dscr);
        cudaMalloc((void **)&d_src, m + 8);
        cudaMalloc((void **)&d_dst, bound + 8);
        cudaMalloc((void **)&d_out, m + 8);
        cudaMalloc((void **)&d_scr, (scr > dscr ? scr : dscr));
        cudaMemcpy(d_src + mis, src, m, cudaMemcpyHostToDevice);
        int rc = gpulz_compress_device(d_src + mis, m, d_dst + mis, bound, &lg, &pg, t % 2 ? st : NULL,
                                       t % 3 ? d_scr : NULL, scr);
        CHECK(rc == GPULZ_OK, "compress_device S=%u: %d", S, rc);
        cudaMemcpy(got, d_dst + mis, lg, cudaMemcpyDeviceToHost);
        CHECK(lg == lr && memcmp(got, ref, lr) == 0, "device bytes differ S=%u (%zu vs %zu)", S, lg, lr);
        rc = gpulz_decompress_device(d_dst + mis, lg, d_out + (3 - mis), m, &lo, t % 2 ? st : NULL,
                                     t % 3 ? NULL : d_scr, dscr);
        CHECK(rc == GPULZ_OK && lo == m, "decompress_device S=%u: %d", S, rc);
        cudaMemcpy(back, d_out + (3 - mis), m, cudaMemcpyDeviceToHost);
        CHECK(memcmp(back, src, m) == 0, "device round trip differs S=%u", S);
        /* a capacity below the result is refused, not overrun */
        if (lr > 40) {
            rc = gpulz_compress_device(d_src + mis, m, d_dst + mis, lr - 1, &lg, &pg, NULL, NULL, 0);
            CHECK(rc == GPULZ_ERR_DST_SIZE, "small capacity gave %d", rc);
            rc = gpulz_decompress_device(d_dst + mis, lr, d_out, m - 1, &lo, NULL, NULL, 0);
            CHECK(rc == GPULZ_ERR_DST_SIZE && lo == m, "small output gave %d, size %zu", rc, lo);
            lo = 0;
            rc = gpulz_decompress_device(d_dst + mis, lr, NULL, 0, &lo, NULL, NULL, 0);
            CHECK(rc == GPULZ_ERR_DST_SIZE && lo == m, "no output gave %d, size %zu", rc, lo);
        }
        /* a damaged table on the device */
        uint8_t junk = 0x7F;
        cudaMemcpy(d_dst + mis + 31, &junk, 1, cudaMemcpyHostToDevice);
        rc = gpulz_decompress_device(d_dst + mis, lr, d_out, m, &lo, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_CORRUPT, "damaged device table gave %d", rc);
        cudaFree(d_src);
        cudaFree(d_dst);
        cudaFree(d_out);
        cudaFree(d_scr);
        free(ref);
        free(got);
    }
    cudaStreamDestroy(st);
    /* pageable host memory is refused before any kernel could fault on it,
     * and the device API works on afterwards */
    {
        gpulz_params pg;
        params_for(&pg, 2, 128, 2048, GPULZ_BACKEND_GPU);
        size_t bound = gpulz_compress_bound(4096, &pg), len = 0;
        uint8_t *host = malloc(bound);
        cudaMalloc((void **)&d_src, 4096);
        cudaMalloc((void **)&d_dst, bound);
        cudaMemset(d_src, 0x5A, 4096);
        int rc = gpulz_compress_device(src, 4096, d_dst, bound, &len, &pg, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_PARAM, "host src to compress_device gave %d", rc);
        rc = gpulz_compress_device(d_src, 4096, host, bound, &len, &pg, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_PARAM, "host dst to compress_device gave %d", rc);
        rc = gpulz_decompress_device(host, bound, d_src, 4096, &len, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_PARAM, "host src to decompress_device gave %d", rc);
        rc = gpulz_compress_device(d_src, 4096, d_dst, bound, &len, &pg, NULL, NULL, 0);
        CHECK(rc == GPULZ_OK, "compress_device after the refusals gave %d", rc);
        cudaFree(d_src);
        cudaFree(d_dst);
        free(host);
    }
    free(src);
    free(back);
}

/* The adaptive flag on device buffers: the bytes of gpulz_compress() on the
 * CPU, whether S or S = 1 wins, with the caller's scratch of the queried
 * size, and a capacity of exactly the result (one byte less is refused). */
static void device_adaptive(void)
{
    static const unsigned sizes[] = {2, 4, 8};
    uint8_t *src = malloc(1u << 20), *ref = malloc((1u << 20) + 65536), *got = malloc((1u << 20) + 65536);
    uint8_t *d_src = NULL, *d_dst = NULL, *d_scr = NULL;
    int kept = 0, switched = 0;
    for (int t = 0; t < 24; t++) {
        unsigned S = sizes[t % 3];
        size_t n = (size_t)(100000 + rnd() % 900000) / S * S + (t % 4 == 3 ? 1 : 0);
        make_input(src, n, (unsigned)(t / 3) % 10); /* datagen kinds and mixes: some favour S = 1 */
        gpulz_params pc, pg;
        params_for(&pc, S, 1 + (unsigned)(rnd() % 255), 512u << (t % 3), GPULZ_BACKEND_CPU);
        pc.flags = GPULZ_FLAG_ADAPTIVE;
        pg = pc;
        pg.backend = GPULZ_BACKEND_GPU;
        size_t bound = gpulz_compress_bound(n, &pc), lr = 0, lg = 0;
        CHECK(gpulz_compress(src, n, ref, bound, &lr, &pc) == GPULZ_OK, "cpu adaptive compress");
        size_t scr = gpulz_compress_device_scratch_size(n, &pg);
        cudaMalloc((void **)&d_src, n);
        cudaMalloc((void **)&d_dst, bound);
        cudaMalloc((void **)&d_scr, scr);
        cudaMemcpy(d_src, src, n, cudaMemcpyHostToDevice);
        int rc = gpulz_compress_device(d_src, n, d_dst, lr, &lg, &pg, NULL, t % 2 ? d_scr : NULL, scr);
        CHECK(rc == GPULZ_OK, "adaptive compress_device S=%u n=%zu: %d", S, n, rc);
        cudaMemcpy(got, d_dst, lg, cudaMemcpyDeviceToHost);
        CHECK(lg == lr && memcmp(got, ref, lr) == 0, "adaptive device bytes differ S=%u n=%zu (%zu vs %zu)",
              S, n, lg, lr);
        rc = gpulz_compress_device(d_src, n, d_dst, lr - 1, &lg, &pg, NULL, NULL, 0);
        CHECK(rc == GPULZ_ERR_DST_SIZE, "adaptive, one byte short: %d", rc);
        if (ref[6] == 1)
            switched++;
        else
            kept++;
        cudaFree(d_src);
        cudaFree(d_dst);
        cudaFree(d_scr);
    }
    CHECK(kept > 0 && switched > 0, "adaptive trials never chose S = 1 (%d) or never kept S (%d)", switched,
          kept);
    printf("adaptive device trials: S kept %d times, S = 1 chosen %d times\n", kept, switched);
    free(src);
    free(ref);
    free(got);
}

static void CUDART_CB hold_stream(void *ms)
{
    usleep(1000u * *(unsigned *)ms);
}

/* A NULL stream is CUDA's default stream: work the caller queued there comes
 * first.  The input (or the chunk) reaches the device only after the default
 * stream has been held for 300 ms, so a call that ran on a stream of its own
 * would encode (decode) what the buffer held before. */
static void null_stream_order(void)
{
    const size_t n = 3u << 20;
    static unsigned hold_ms = 300;
    gpulz_params pc, pg;
    params_for(&pc, 4, 64, 1024, GPULZ_BACKEND_CPU);
    params_for(&pg, 4, 64, 1024, GPULZ_BACKEND_GPU);
    size_t bound = gpulz_compress_bound(n, &pc), lr = 0, lg = 0, lo = 0;
    uint8_t *h_src = NULL, *h_chunk = NULL, *ref = malloc(bound), *got = malloc(bound);
    uint8_t *d_src = NULL, *d_dst = NULL, *d_out = NULL;
    cudaMallocHost((void **)&h_src, n);
    cudaMallocHost((void **)&h_chunk, bound);
    cudaMalloc((void **)&d_src, n);
    cudaMalloc((void **)&d_dst, bound);
    cudaMalloc((void **)&d_out, n);
    gpulz_gen("quant", h_src, n, 11);
    CHECK(gpulz_compress(h_src, n, ref, bound, &lr, &pc) == GPULZ_OK, "cpu compress");
    cudaMemset(d_src, 0, n);
    cudaMemset(d_out, 0, n);
    cudaDeviceSynchronize();

    cudaLaunchHostFunc(0, hold_stream, &hold_ms);
    cudaMemcpyAsync(d_src, h_src, n, cudaMemcpyHostToDevice, 0);
    int rc = gpulz_compress_device(d_src, n, d_dst, bound, &lg, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_OK, "compress_device on the default stream: %d", rc);
    cudaMemcpy(got, d_dst, lg, cudaMemcpyDeviceToHost);
    CHECK(lg == lr && memcmp(got, ref, lr) == 0,
          "compress_device with a NULL stream did not wait for the default stream (%zu vs %zu bytes)", lg, lr);

    memcpy(h_chunk, ref, lr);
    cudaMemset(d_dst, 0, bound);
    cudaDeviceSynchronize();
    cudaLaunchHostFunc(0, hold_stream, &hold_ms);
    cudaMemcpyAsync(d_dst, h_chunk, lr, cudaMemcpyHostToDevice, 0);
    rc = gpulz_decompress_device(d_dst, lr, d_out, n, &lo, NULL, NULL, 0);
    CHECK(rc == GPULZ_OK && lo == n, "decompress_device on the default stream: %d (%zu bytes)", rc, lo);
    cudaMemcpy(got, d_out, n, cudaMemcpyDeviceToHost);
    CHECK(memcmp(got, h_src, n) == 0, "decompress_device with a NULL stream did not wait for the default stream");
    cudaFree(d_src);
    cudaFree(d_dst);
    cudaFree(d_out);
    cudaFreeHost(h_src);
    cudaFreeHost(h_chunk);
    free(ref);
    free(got);
}

/* Uploads of 64 MiB on a stream of their own until told to stop: the copy
 * engine they keep busy delays the uploads of the calls beside them. */
static int busy_stop;
static void *busy_uploads(void *unused)
{
    const size_t n = (size_t)64 << 20;
    void *h = NULL, *d = NULL;
    cudaStream_t st = NULL;
    (void)unused;
    if (cudaMallocHost(&h, n) == cudaSuccess && cudaMalloc(&d, n) == cudaSuccess &&
        cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) == cudaSuccess)
        while (!__atomic_load_n(&busy_stop, __ATOMIC_RELAXED)) {
            for (int k = 0; k < 4; k++)
                cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, st);
            cudaStreamSynchronize(st);
        }
    if (st)
        cudaStreamDestroy(st);
    cudaFree(d);
    cudaFreeHost(h);
    return NULL;
}

/*
 * Host compression of chunks whose last copy piece is only the tail (1 MiB
 * and 1..7 bytes at S = 8) or that are shorter than a symbol: no encoder
 * waits for that piece's upload, yet the finish copies the tail from the
 * device input.  Each input differs from the one before, so a tail read
 * before its upload gives the earlier chunk's bytes; the copy engine is kept
 * busy so that the upload comes late.
 */
static void tail_piece_trials(int rounds)
{
    const size_t most = ((size_t)1 << 20) + 8;
    gpulz_params pc, pg;
    params_for(&pc, 8, 32, 1024, GPULZ_BACKEND_CPU);
    params_for(&pg, 8, 32, 1024, GPULZ_BACKEND_GPU);
    const size_t bound = gpulz_compress_bound(most, &pc);
    uint8_t *src = malloc(most), *ref = malloc(bound), *got = malloc(bound);
    CHECK(src && ref && got, "malloc");
    pthread_t th;
    const int busy = pthread_create(&th, NULL, busy_uploads, NULL) == 0;
    for (int r = 0; r < rounds && src && ref && got; r++) {
        const size_t n = (r % 2 ? (size_t)1 << 20 : 0) + 1 + (size_t)(r % 7);
        for (size_t k = 0; k < n; k++)
            src[k] = (uint8_t)rnd();
        size_t lr = 0, lg = 0;
        CHECK(gpulz_compress(src, n, ref, bound, &lr, &pc) == GPULZ_OK, "cpu compress");
        int rc = gpulz_compress(src, n, got, bound, &lg, &pg);
        CHECK(rc == GPULZ_OK && lg == lr && memcmp(got, ref, lr) == 0,
              "round %d: %zu bytes at S=8 (a last piece of only the tail): GPU %d, %zu bytes, differs from the CPU",
              r, n, rc, lg);
    }
    __atomic_store_n(&busy_stop, 1, __ATOMIC_RELAXED);
    if (busy)
        pthread_join(th, NULL);
    free(src);
    free(ref);
    free(got);
}

/* A device allocation the device refuses (the scratch of a 4 TiB chunk)
 * leaves no CUDA error behind: the next call on the thread, and the
 * caller's own cudaGetLastError(), find none. */
static void refused_alloc_trial(void)
{
    const size_t n = 65536, huge = (size_t)1 << 42;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess || total_b >= huge / 2) {
        printf("refused allocation: skipped (the device's memory is not known or too large)\n");
        return;
    }
    gpulz_params pc, pg;
    params_for(&pc, 2, 64, 2048, GPULZ_BACKEND_CPU);
    params_for(&pg, 2, 64, 2048, GPULZ_BACKEND_GPU);
    const size_t bound = gpulz_compress_bound(n, &pc);
    uint8_t *src = malloc(n), *ref = malloc(bound), *got = malloc(bound), *d_src = NULL, *d_dst = NULL;
    size_t lr = 0, lg = 0;
    CHECK(src && ref && got, "malloc");
    gpulz_gen("quant", src, n, 5);
    CHECK(gpulz_compress(src, n, ref, bound, &lr, &pc) == GPULZ_OK, "cpu compress");
    CHECK(cudaMalloc((void **)&d_src, n) == cudaSuccess && cudaMalloc((void **)&d_dst, bound) == cudaSuccess,
          "cudaMalloc");
    CHECK(cudaMemcpy(d_src, src, n, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
    /* nothing of the chunk is read before its scratch is allocated */
    int rc = gpulz_compress_device(d_src, huge, d_dst, bound, &lg, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_ERR_CUDA, "a 4 TiB chunk's scratch: %d", rc);
    cudaError_t left = cudaGetLastError();
    CHECK(left == cudaSuccess, "the refused allocation left %s for the caller", cudaGetErrorString(left));
    rc = gpulz_compress_device(d_src, huge, d_dst, bound, &lg, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_ERR_CUDA, "a 4 TiB chunk's scratch again: %d", rc);
    rc = gpulz_compress_device(d_src, n, d_dst, bound, &lg, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_OK, "the next chunk after a refused allocation: %d", rc);
    CHECK(rc != GPULZ_OK || (cudaMemcpy(got, d_dst, lg, cudaMemcpyDeviceToHost) == cudaSuccess && lg == lr &&
                             memcmp(got, ref, lr) == 0),
          "the next chunk after a refused allocation differs from the CPU's");
    rc = gpulz_compress_device(d_src, huge, d_dst, bound, &lg, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_ERR_CUDA, "a 4 TiB chunk's scratch a third time: %d", rc);
    rc = gpulz_compress(src, n, got, bound, &lg, &pg);
    CHECK(rc == GPULZ_OK && lg == lr && memcmp(got, ref, lr) == 0,
          "host compression after a refused allocation: %d", rc);
    cudaFree(d_src);
    cudaFree(d_dst);
    free(src);
    free(ref);
    free(got);
}

/* A child forked after the GPU was used must not touch CUDA: backend GPU
 * says so, auto falls back to the CPU with the same bytes. */
static void fork_trial(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        uint8_t in[5000], out[6000];
        size_t len = 0;
        gpulz_params p;
        params_for(&p, 1, 64, 256, GPULZ_BACKEND_GPU);
        gpulz_gen("records", in, sizeof in, 3);
        if (gpulz_compress(in, sizeof in, out, sizeof out, &len, &p) != GPULZ_ERR_NO_GPU)
            _exit(1);
        p.backend = GPULZ_BACKEND_AUTO;
        setenv("GPULZ_GPU_MIN_BYTES", "0", 1);
        if (gpulz_compress(in, sizeof in, out, sizeof out, &len, &p) != GPULZ_OK ||
            gpulz_last_backend(NULL) != GPULZ_BACKEND_CPU)
            _exit(2);
        /* the device API says so too, before any CUDA call (the pointers are never looked at) */
        if (gpulz_compress_device(in, sizeof in, out, sizeof out, &len, &p, NULL, NULL, 0) != GPULZ_ERR_NO_GPU ||
            gpulz_decompress_device(out, sizeof out, in, sizeof in, &len, NULL, NULL, 0) != GPULZ_ERR_NO_GPU)
            _exit(3);
        _exit(0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "forked child: status %d", status);
}

/* One input in a format 2 mode: the GPU's chunk (host API and device API)
 * is the CPU's, and the GPU decodes the CPU's chunk both ways. */
static void v2_one(const uint8_t *src, size_t n, unsigned S, unsigned W, unsigned C, unsigned flags, gpulz_mode mode)
{
    gpulz_params pc, pg;
    params_for(&pc, S, W, C, GPULZ_BACKEND_CPU);
    pc.mode = mode;
    pc.flags = flags;
    pg = pc;
    pg.backend = GPULZ_BACKEND_GPU;
    const char *name = gpulz_mode_name(mode);
    size_t bound = gpulz_compress_bound(n, &pc), lc = 0, lg = 0, ld = 0, got = 0;
    uint8_t *c = malloc(bound), *g = malloc(bound), *out = malloc(n + 1);
    uint8_t *d_src = NULL, *d_c = NULL, *d_out = NULL;
    int rc = gpulz_compress(src, n, c, bound, &lc, &pc);
    CHECK(rc == GPULZ_OK, "%s cpu compress S=%u n=%zu: %d", name, S, n, rc);
    rc = gpulz_compress(src, n, g, bound, &lg, &pg);
    CHECK(rc == GPULZ_OK && lg == lc && memcmp(g, c, lc) == 0,
          "%s: GPU bytes differ S=%u W=%u C=%u n=%zu flags=%u (%d, %zu vs %zu)", name, S, W, C, n, flags, rc, lg, lc);
    CHECK(rc != GPULZ_OK || gpulz_last_backend(NULL) == GPULZ_BACKEND_GPU, "%s: the GPU backend noted the CPU", name);
    CHECK(gpulz_decompress(c, lc, out, n, &got, &pg) == GPULZ_OK && got == n && memcmp(out, src, n) == 0,
          "%s: GPU host decode S=%u n=%zu: %s", name, S, n, gpulz_last_error());
    cudaMalloc((void **)&d_src, n ? n : 1);
    cudaMalloc((void **)&d_c, bound);
    cudaMalloc((void **)&d_out, n ? n : 1);
    cudaMemcpy(d_src, src, n, cudaMemcpyHostToDevice);
    rc = gpulz_compress_device(d_src, n, d_c, lc, &ld, &pg, NULL, NULL, 0);
    CHECK(rc == GPULZ_OK && ld == lc, "%s compress_device S=%u n=%zu: %d, %zu vs %zu", name, S, n, rc, ld, lc);
    cudaMemcpy(g, d_c, lc, cudaMemcpyDeviceToHost);
    CHECK(memcmp(g, c, lc) == 0, "%s compress_device bytes differ S=%u n=%zu", name, S, n);
    if (lc > GPULZ_V2_HEADER_SIZE)
        CHECK(gpulz_compress_device(d_src, n, d_c, lc - 1, &ld, &pg, NULL, NULL, 0) == GPULZ_ERR_DST_SIZE,
              "%s compress_device one byte short", name);
    /* from an address the kernels cannot read whole words or vectors at */
    const size_t skew = 1 + (size_t)(rnd() % 15);
    uint8_t *d_skew = NULL;
    cudaMalloc((void **)&d_skew, n + skew);
    cudaMemcpy(d_skew + skew, src, n, cudaMemcpyHostToDevice);
    ld = 0;
    rc = gpulz_compress_device(d_skew + skew, n, d_c, lc, &ld, &pg, NULL, NULL, 0);
    cudaMemcpy(g, d_c, ld <= lc ? ld : lc, cudaMemcpyDeviceToHost);
    CHECK(rc == GPULZ_OK && ld == lc && memcmp(g, c, lc) == 0, "%s compress_device at offset %zu S=%u n=%zu: %d",
          name, skew, S, n, rc);
    cudaFree(d_skew);
    cudaMemcpy(d_c, c, lc, cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0xA5, n ? n : 1);
    rc = gpulz_decompress_device(d_c, lc, d_out, n, &got, NULL, NULL, 0);
    cudaMemcpy(out, d_out, n, cudaMemcpyDeviceToHost);
    CHECK(rc == GPULZ_OK && got == n && memcmp(out, src, n) == 0, "%s decompress_device S=%u n=%zu: %d (%s)", name,
          S, n, rc, gpulz_last_error());
    cudaFree(d_src);
    cudaFree(d_c);
    cudaFree(d_out);
    free(c);
    free(g);
    free(out);
}

/* chunk decoded by the device API into out (room for n bytes, *got of
 * them written): its status */
static int device_decode(const uint8_t *chunk, size_t len, uint8_t *out, size_t n, size_t *got)
{
    uint8_t *d_c = NULL, *d_out = NULL;
    *got = 0;
    cudaMalloc((void **)&d_c, len ? len : 1);
    cudaMalloc((void **)&d_out, n ? n : 1);
    cudaMemcpy(d_c, chunk, len, cudaMemcpyHostToDevice);
    int rc = gpulz_decompress_device(d_c, len, d_out, n, got, NULL, NULL, 0);
    if (rc == GPULZ_OK)
        cudaMemcpy(out, d_out, *got, cudaMemcpyDeviceToHost);
    cudaFree(d_c);
    cudaFree(d_out);
    return rc;
}

/* A damaged format 2 chunk: the GPU decoders give the CPU's status, and
 * where it decodes, the same bytes. */
static void v2_damaged(const uint8_t *chunk, size_t len, size_t n)
{
    gpulz_params pc, pg;
    params_for(&pc, 1, 128, 256, GPULZ_BACKEND_CPU);
    pg = pc;
    pg.backend = GPULZ_BACKEND_GPU;
    uint8_t *a = malloc(n + 1), *b = malloc(n + 1);
    size_t ga = 0, gb = 0;
    int rc = gpulz_decompress(chunk, len, a, n, &ga, &pc);
    int rg = gpulz_decompress(chunk, len, b, n, &gb, &pg);
    CHECK(rc == rg && (rc != GPULZ_OK || (ga == gb && memcmp(a, b, ga) == 0)),
          "damaged chunk (flags %02x): CPU %d, GPU host path %d (%s)", len > 5 ? chunk[5] : 0, rc, rg,
          gpulz_last_error());
    rg = device_decode(chunk, len, b, n, &gb);
    CHECK(rc == rg && (rc != GPULZ_OK || (ga == gb && memcmp(a, b, ga) == 0)),
          "damaged chunk (flags %02x): CPU %d, device API %d (%s)", len > 5 ? chunk[5] : 0, rc, rg,
          gpulz_last_error());
    free(a);
    free(b);
}

/* Damage one chunk of mode over and over: a byte changed (often in the
 * header, the token table and the first stream headers), or cut short. */
static void v2_damage_trials(uint8_t *src, gpulz_mode mode, unsigned S, unsigned C, int flips)
{
    size_t n = 200000, len = 0;
    gpulz_gen("quant", src, n, 5);
    gpulz_params p;
    params_for(&p, S, 128, C, GPULZ_BACKEND_CPU);
    p.mode = mode;
    size_t bound = gpulz_compress_bound(n, &p);
    uint8_t *c = malloc(bound), *bad = malloc(bound);
    CHECK(gpulz_compress(src, n, c, bound, &len, &p) == GPULZ_OK, "%s compress for damage", gpulz_mode_name(mode));
    for (int t = 0; t < flips; t++) {
        memcpy(bad, c, len);
        size_t at = t % 4 == 0 ? (size_t)(rnd() % 600) : (size_t)(rnd() % len);
        if (at >= len)
            at = len - 1;
        bad[at] ^= (uint8_t)(1 + rnd() % 255);
        v2_damaged(bad, len, n);
    }
    for (size_t cut = 0; cut < len; cut += 1 + len / 37)
        v2_damaged(c, cut, n);
    free(c);
    free(bad);
}

/*
 * A stream worth coding whose last segment codes to more words than its
 * units' bytes (noise after a long quiet stretch, which sets the model): the
 * GPU's one coding pass keeps only a segment's units' bytes of words, so it
 * codes that stream a second time in place, and must still write the CPU's
 * bytes.  For S = 1 the chunk is checked to have such a segment.
 */
static void v2_outgrown(uint8_t *src)
{
    const size_t G = (size_t)1 << GPULZ_SEG_LOG2_DEFAULT;
    for (unsigned S = 1; S <= 2; S++) {
        const size_t n = 4 * G * S;
        for (size_t i = 0; i < n; i++)
            src[i] = i < 3 * G * S ? (uint8_t)(rnd() % 2) : (uint8_t)rnd();
        v2_one(src, n, S, 128, 1024, 0, GPULZ_MODE_FAST);
        v2_one(src, n, S, 128, 1024, 0, GPULZ_MODE_RATIO);
        if (S != 1)
            continue;
        gpulz_params p;
        params_for(&p, S, 128, 1024, GPULZ_BACKEND_CPU);
        p.mode = GPULZ_MODE_FAST;
        size_t bound = gpulz_compress_bound(n, &p), len = 0;
        uint8_t *c = malloc(bound);
        gpulz_stream_view V;
        memset(&V, 0, sizeof V);
        int outgrown = 0;
        if (gpulz_compress(src, n, c, bound, &len, &p) == GPULZ_OK &&
            gpulz_stream_open(c + GPULZ_V2_HEADER_SIZE, len - GPULZ_V2_HEADER_SIZE, n / S, 1,
                              GPULZ_SEG_LOG2_DEFAULT, "symbols", &V) == GPULZ_OK &&
            V.kind == GPULZ_STREAM_RANS)
            for (uint64_t k = 0; k < V.nseg; k++)
                outgrown |= (uint64_t)V.words[k] * GPULZ_RANS_WORD_BYTES > G;
        CHECK(outgrown, "the outgrown-segment input (S=1) has no rANS segment longer than its units");
        gpulz_stream_close(&V);
        free(c);
    }
}

/* 16-bit symbols whose values (or deltas) lie in a range of a given width,
 * around the ends or not: the GPU counts a range of up to 8192 values in
 * shared memory and a wider one otherwise, and both must count as the CPU. */
static void v2_ranges(uint8_t *src)
{
    static const unsigned widths[] = {1, 2, 63, 64, 621, 2048, 4095, 4096, 4097, 8191, 8192, 8193, 20000, 65536};
    /* racecheck's run: 1, 64, 4095, 8191 and 20000 (walks at 64 and 8191) */
    for (unsigned w = 0; w < sizeof widths / sizeof *widths; w += quick >= 2 ? 3 : 1) {
        const size_t m = 1000 + (size_t)(rnd() % (quick >= 2 ? 40000 : 200000));
        const unsigned base = rnd() % 2 ? 65536 - widths[w] / 2 : (unsigned)(rnd() % 65536);
        for (size_t i = 0; i < m; i++) {
            const unsigned v = (base + (unsigned)(rnd() % widths[w])) & 0xFFFFu;
            src[2 * i] = (uint8_t)v;
            src[2 * i + 1] = (uint8_t)(v >> 8);
        }
        /* and a slow walk: narrow deltas over a wide range */
        if (w % 2) {
            unsigned v = base;
            for (size_t i = 0; i < m; i++) {
                v = (v + (unsigned)(rnd() % widths[w])) & 0xFFFFu;
                src[2 * i] = (uint8_t)v;
                src[2 * i + 1] = (uint8_t)(v >> 8);
            }
        }
        v2_one(src, 2 * m + (size_t)(rnd() % 2), 2, 128, 256u << (rnd() % 4), rnd() % 3 ? 0 : GPULZ_FLAG_NO_CHECKSUM,
               rnd() % 2 ? GPULZ_MODE_FAST : GPULZ_MODE_AUTO);
    }
}

/* A peak of 16-bit values over a wide spread, as integer coordinates are:
 * the models keep hundreds of values and escape the rest, where the range
 * is too wide to pack (the device finds the models' candidates and sums
 * the byte planes; the host reads no counter) and the device builds the
 * coder's entries from the models' values. */
static void v2_wide_models(void)
{
    static const unsigned spreads[] = {20000, 65536};
    /* k 0-3: a peak over each spread; k 4-5: a high byte over 64 values
     * (around the end where base is high) and a random low byte (16384
     * values, each too rare to keep), which SPLIT codes as byte planes: the
     * device's plane counts are then the coded streams' own.  Even k in
     * mode fast, odd in auto (with a tail byte). */
    for (unsigned k = 0; k < 6; k++) {
        /* racecheck's run: fewer symbols, still thousands of values escaped */
        const size_t m = quick >= 2 ? 60000 + (size_t)(rnd() % 60000) : 300000 + (size_t)(rnd() % 300000);
        uint8_t *src = malloc(2 * m + 1);
        if (!src) {
            CHECK(0, "cannot allocate %zu bytes", 2 * m + 1);
            return;
        }
        const unsigned base = (unsigned)(rnd() % 65536), spread = spreads[k / 2 % 2];
        for (size_t i = 0; i < m; i++) {
            const unsigned v =
                k >= 4 ? ((base >> 8) + (unsigned)(rnd() % 64)) << 8 | (unsigned)(rnd() % 256)
                       : base + (rnd() % 10 ? (unsigned)(rnd() % 256 + rnd() % 256) : (unsigned)(rnd() % spread));
            src[2 * i] = (uint8_t)v;
            src[2 * i + 1] = (uint8_t)(v >> 8 & 0xFFu);
        }
        src[2 * m] = (uint8_t)rnd();
        v2_one(src, 2 * m + k % 2, 2, 128, 2048, 0, k == 1 || k == 3 || k == 5 ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST);
        free(src);
    }
}

/*
 * S = 2's statistics as a device without room for hist2's shared counters
 * counts them (gpu_tune_unranged): every transform's 2^16 counts fetched
 * whole, narrow and wide ranges alike, in fast and auto.
 */
static void v2_unranged(uint8_t *src)
{
    gpu_ctx *c = NULL;
    int prev = -1;
    gpu_tune_unranged(1);
    const int got = gpu_ctx_acquire(&c, &prev, -1);
    CHECK(got == GPULZ_OK, "gpu_ctx_acquire: %s", gpulz_last_error());
    if (got == GPULZ_OK) {
        CHECK(!gpu_v2_hist_ranged(c, 1000, 2), "gpu_tune_unranged(1): the statistics are still ranged");
        gpu_ctx_release(c, prev);
    }
    /* racecheck's run: two inputs, a narrow range and a wide one */
    if (quick < 2)
        v2_wide_models();
    for (unsigned k = quick >= 2 ? 1 : 0; k < (quick >= 2 ? 3u : 4u); k++) {
        const size_t n = 2 * (5000 + (size_t)(rnd() % 400000)) + k % 2;
        gpulz_gen(k < 2 ? "quant" : "float", src, n, 20 + k);
        v2_one(src, n, 2, 128, 256u << (rnd() % 4), 0, k % 2 ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST);
    }
    gpu_tune_unranged(0);
    printf("unranged statistics done, %d failures\n", failures);
}

/* The range words (gpu_v2.h) of the values that h (2^16 counts) holds. */
static void range_words(const uint64_t *h, unsigned *r)
{
    r[0] = r[1] = r[2] = r[3] = 0;
    for (unsigned v = 0; v < 65536u; v++)
        if (h[v]) {
            const unsigned w[4] = {v, 0xFFFFu - v, v ^ 0x8000u, 0xFFFFu - (v ^ 0x8000u)};
            for (unsigned j = 0; j < 4; j++)
                r[j] = w[j] > r[j] ? w[j] : r[j];
        }
}

/* One input's statistics on the device (gpu_v2_hist, the symbols and their
 * deltas in blocks of C) against the host's counts; and where a transform's
 * window was counted in shared memory, its own range as found there. */
static void hist_one(gpu_ctx *c, const uint8_t *src, size_t m, unsigned C, const char *what)
{
    const size_t bins = 65536;
    uint64_t *want = calloc(2 * bins, sizeof *want), *got = malloc(2 * bins * sizeof *got);
    unsigned area[GPU_V2_RANGE_AREA];
    for (size_t i = 0; i < m; i++) {
        const unsigned v = src[2 * i] | (unsigned)src[2 * i + 1] << 8;
        const unsigned b = i % C ? (src[2 * i - 2] | (unsigned)src[2 * i - 1] << 8) : 0;
        want[v]++;
        want[bins + ((v - b) & 0xFFFFu)]++;
    }
    uint8_t *d_src = NULL, *d_hist = NULL, *d_range = NULL;
    cudaMalloc((void **)&d_src, 2 * m);
    cudaMalloc((void **)&d_hist, 2 * bins * sizeof *got);
    cudaMalloc((void **)&d_range, sizeof area);
    cudaMemcpy(d_src, src, 2 * m, cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, 2 * bins * sizeof *got);
    cudaMemset(d_range, 0, sizeof area); /* gpu_v2_hist's caller zeroes both */
    int rc = gpu_v2_hist(c, d_src, m, 2, C, 1, (uint64_t *)d_hist, bins, (unsigned *)d_range, NULL, NULL);
    CHECK(rc == GPULZ_OK && cudaDeviceSynchronize() == cudaSuccess, "%s: gpu_v2_hist %d", what, rc);
    cudaMemcpy(got, d_hist, 2 * bins * sizeof *got, cudaMemcpyDeviceToHost);
    cudaMemcpy(area, d_range, sizeof area, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < 2; t++) {
        size_t bad = bins;
        for (size_t v = 0; v < bins && bad == bins; v++)
            if (got[t * bins + v] != want[t * bins + v])
                bad = v;
        CHECK(bad == bins, "%s: transform %u counts value %zu %llu times, not %llu", what, t, bad,
              bad < bins ? (unsigned long long)got[t * bins + bad] : 0ull,
              bad < bins ? (unsigned long long)want[t * bins + bad] : 0ull);
        unsigned r[4], lo = 0, span = 0, wlo = 0, wspan = 0, own_lo = 0, own_span = 0;
        range_words(want + t * bins, r);
        gpu_v2_range_of(r, 0, &lo, &span);
        gpu_v2_range_of(area, t, &wlo, &wspan);
        gpu_v2_range_of(area + GPU_V2_RANGE_WORDS, t, &own_lo, &own_span);
        if (wspan <= GPU_V2_SPAN_MAX)
            CHECK(own_lo == lo && own_span == span, "%s: transform %u's own range [%u, +%u), the values' [%u, +%u)",
                  what, t, own_lo, own_span, lo, span);
        else
            CHECK(own_span > GPU_V2_SPAN_MAX, "%s: transform %u left to hist2 with a range of %u", what, t, own_span);
    }
    cudaFree(d_src);
    cudaFree(d_hist);
    cudaFree(d_range);
    free(want);
    free(got);
}

/*
 * S = 2's statistics with their window from a sample (gpu_tune_sample_groups
 * lowered so that small inputs are sampled): values the sample misses, rows
 * whose start differs from the rest, rare extremes, ranges around
 * GPU_V2_SPAN_MAX.  Every count and the values' own range as the host finds
 * them, and the chunks the CPU's bytes.
 */
static void v2_sampled(uint8_t *src)
{
    gpu_ctx *c = NULL;
    int prev = -1;
    static const unsigned most[] = {1, 7, 64, 1000};
    /* racecheck's run: each kind once */
    for (unsigned r = 0; r < (quick >= 2 ? 4u : 16u); r++) {
        gpu_tune_sample_groups(most[r % 4]);
        const size_t m = 5000 + (size_t)(rnd() % (quick >= 2 ? 60000 : 300000));
        const unsigned kind = r % 4, base = (unsigned)(rnd() % 65536), row = 256u << (rnd() % 5);
        const char *names[] = {"rows", "rare extremes", "wide tail", "drift"};
        for (size_t i = 0; i < m; i++) {
            unsigned v = base + (unsigned)(rnd() % 40);
            switch (kind) {
            case 0: v += i % row < 64 ? 0 : 3000 + (unsigned)(i % row); break; /* rows: a margin, then the rest */
            case 1: v = rnd() % 997 ? v : (rnd() % 2 ? 0 : 65535); break;
            case 2: v += rnd() % 50 ? 0 : (unsigned)(rnd() % (r < 8 ? 8100 : 12000)); break;
            default: v += (unsigned)(i / 40); break; /* a slow drift: the deltas narrow, the values not */
            }
            v &= 0xFFFFu;
            src[2 * i] = (uint8_t)v;
            src[2 * i + 1] = (uint8_t)(v >> 8);
        }
        char what[96];
        snprintf(what, sizeof what, "sampled (%u groups) %s, %zu symbols", most[r % 4], names[kind], m);
        const int got = gpu_ctx_acquire(&c, &prev, -1);
        CHECK(got == GPULZ_OK, "gpu_ctx_acquire: %s", gpulz_last_error());
        if (got == GPULZ_OK) {
            hist_one(c, src, m, 256u << (rnd() % 4), what);
            gpu_ctx_release(c, prev);
        }
        v2_one(src, 2 * m + (size_t)(rnd() % 2), 2, 128, 256u << (rnd() % 4), rnd() % 3 ? 0 : GPULZ_FLAG_NO_CHECKSUM,
               rnd() % 2 ? GPULZ_MODE_FAST : GPULZ_MODE_AUTO);
    }
    v2_ranges(src);
    gpu_tune_sample_groups(0);
    printf("sampled statistics done, %d failures\n", failures);
}

/*
 * The sample's pick (FORMAT.md §19) a transform too wide for the shared
 * counters, more than GPU_V2_SPAN_MAX values, whose model then comes from
 * the device's summary: none, for a peak with a tail over 20 000 values
 * (mode fast), and DELTA, for a walk whose steps reach 6 000 either way
 * (auto).  The CPU's chunk must show the pick meant, and the transform its
 * width, or the trial would not test what it is for.
 */
static void picked_wide(uint8_t *in)
{
    const unsigned C = 2048;
    uint8_t *seen = malloc(65536), *c = NULL;
    for (int delta = 0; delta < 2 && seen; delta++) {
        const unsigned base = (unsigned)(rnd() % 65536);
        unsigned v = base, prev = 0, distinct = 0;
        memset(seen, 0, 65536);
        for (size_t i = 0; i < PICK_SYMBOLS; i++) {
            if (delta)
                v += rnd() % 10 ? (unsigned)(rnd() % 17) - 8u : (unsigned)(rnd() % 12001) - 6000u;
            else
                v = base + (rnd() % 10 ? (unsigned)(rnd() % 256 + rnd() % 256) : (unsigned)(rnd() % 20000));
            v &= 0xFFFFu;
            in[2 * i] = (uint8_t)v;
            in[2 * i + 1] = (uint8_t)(v >> 8);
            /* the transform's value: DELTA is block-local (§10) */
            const unsigned t = delta ? (v - (i % C ? prev : 0)) & 0xFFFFu : v;
            distinct += !seen[t];
            seen[t] = 1;
            prev = v;
        }
        CHECK(distinct > GPU_V2_SPAN_MAX, "picked %s: only %u values", delta ? "DELTA" : "none", distinct);
        gpulz_params p;
        params_for(&p, 2, 128, C, GPULZ_BACKEND_CPU);
        p.mode = GPULZ_MODE_FAST;
        const size_t n = 2 * PICK_SYMBOLS, bound = gpulz_compress_bound(n, &p);
        size_t len = 0;
        gpulz_chunk_info info;
        c = c ? c : malloc(bound);
        CHECK(c && gpulz_compress(in, n, c, bound, &len, &p) == GPULZ_OK &&
                  gpulz_chunk_info_get(c, len, &info) == GPULZ_OK &&
                  !(info.flags & GPULZ_V2_FLAG_DELTA) == !delta,
              "the sample did not pick %s", delta ? "DELTA" : "none");
        v2_one(in, n, 2, 128, C, 0, delta ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST);
    }
    free(seen);
    free(c);
}

/*
 * Fast's DELTA from the sample (FORMAT.md §19) on inputs where the sample
 * and the whole chunk disagree (codec_pick.h), with the window's sample the
 * pick's and (a test's) another; values too wide for the shared counters
 * and narrow deltas; quantization codes, which take no DELTA: the CPU's
 * bytes from the device's pick.
 */
static void v2_picked(void)
{
    uint8_t *in = malloc(2 * PICK_SYMBOLS);
    for (int t = 0; t < (quick ? 2 : 5) && in; t++) {
        if (t < 4) {
            CHECK(pick_input(in, t & 1) == 0, "the sampled DELTA's input: out of memory");
        } else {
            unsigned v = (unsigned)rnd();
            for (size_t i = 0; i < PICK_SYMBOLS; i++) {
                v = (v + (unsigned)(rnd() % 37)) & 0xFFFFu;
                in[2 * i] = (uint8_t)v;
                in[2 * i + 1] = (uint8_t)(v >> 8);
            }
        }
        gpu_tune_sample_groups(t == 2 || t == 3 ? 1000 : 0);
        v2_one(in, 2 * PICK_SYMBOLS - (t == 1), 2, 128, 256u << (rnd() % 7), t == 2 ? GPULZ_FLAG_NO_CHECKSUM : 0,
               t == 3 ? GPULZ_MODE_AUTO : GPULZ_MODE_FAST);
    }
    gpu_tune_sample_groups(0);
    if (in && !quick) {
        gpulz_gen("quant", in, 2 * PICK_SYMBOLS, 3);
        v2_one(in, 2 * PICK_SYMBOLS, 2, 128, 4096, 0, GPULZ_MODE_AUTO);
        /* a size whose sample's last run starts past the last group: no part of it counts */
        const uint64_t G = pick_edge_groups(1);
        CHECK(G > 0, "no chunk size whose sample's last run starts past its end");
        if (G)
            v2_one(in, 2 * (8 * G + 5), 2, 128, 4096, 0, GPULZ_MODE_FAST);
        picked_wide(in);
        /* the last of them (DELTA over a wide range) picked unranged */
        gpu_tune_unranged(1);
        v2_one(in, 2 * PICK_SYMBOLS, 2, 128, 2048, 0, GPULZ_MODE_FAST);
        gpu_tune_unranged(0);
    }
    free(in);
    printf("sampled DELTA done, %d failures\n", failures);
}

/*
 * Format 2's scans of per-block counts and segment sizes (gpu_v2_scans):
 * arrays up to GPU_V2_SCAN_BLOCK_MOST items are scanned a block each, in
 * rounds carried one into the next, longer ones by CUB.  Lengths around a
 * round's end and the threshold, one to GPU_V2_SCANS arrays at once, against
 * the host's sums.
 */
static void scan_trials(void)
{
    static const uint64_t lens[] = {1, 2, 31, 4095, 4096, 4097, 12289, GPU_V2_SCAN_BLOCK_MOST,
                                    GPU_V2_SCAN_BLOCK_MOST + 1, 70001};
    const uint64_t most = lens[sizeof lens / sizeof *lens - 1];
    uint64_t *h = malloc(GPU_V2_SCANS * most * sizeof *h), *got = malloc(most * sizeof *got);
    uint64_t *d = NULL;
    uint8_t *temp = NULL;
    const size_t temp_bytes = gpu_v2_scan_temp(most);
    cudaMalloc((void **)&d, GPU_V2_SCANS * most * sizeof *d);
    cudaMalloc((void **)&temp, temp_bytes);
    for (unsigned t = 0; t < sizeof lens / sizeof *lens; t++) {
        const uint64_t len = lens[t];
        const unsigned count = 1 + t % GPU_V2_SCANS;
        uint64_t *a[GPU_V2_SCANS];
        for (uint64_t i = 0; i < count * len; i++)
            h[i] = rnd() % 3 ? rnd() >> 24 : 0;
        cudaMemcpy(d, h, count * len * sizeof *h, cudaMemcpyHostToDevice);
        for (unsigned j = 0; j < count; j++)
            a[j] = d + j * len;
        int rc = gpu_v2_scans(a, count, len, temp, temp_bytes, NULL);
        CHECK(rc == GPULZ_OK && cudaDeviceSynchronize() == cudaSuccess, "scan of %u x %llu items: %d", count,
              (unsigned long long)len, rc);
        for (unsigned j = 0; j < count; j++) {
            uint64_t sum = 0, bad = len;
            cudaMemcpy(got, d + j * len, len * sizeof *got, cudaMemcpyDeviceToHost);
            for (uint64_t i = 0; i < len && bad == len; i++) {
                if (got[i] != sum)
                    bad = i;
                sum += h[j * len + i];
            }
            CHECK(bad == len, "scan of %u x %llu items: array %u wrong at item %llu", count, (unsigned long long)len,
                  j, (unsigned long long)bad);
        }
    }
    cudaFree(d);
    cudaFree(temp);
    free(h);
    free(got);
    printf("scan trials done, %d failures\n", failures);
}

/*
 * The checksum summed by the passes that put the decoded bytes down (the
 * decoder's, where the one stream is the symbols as they are; the inverse
 * delta's) and by its own pass (gpu_tune_ck_apart): the chunk decodes both
 * ways, and a changed checksum field or tail byte (and, where the decoder
 * sums it, a coded word) is refused both ways, as the CPU refuses it.
 * Partial last blocks, rows and tails; rare values, so that rows take
 * escapes; block sizes on both sides of GPU_V2_CK_FUSED_C_LEAST.  *cover counts the chunks that took the decoder's
 * way ([0]) and the inverse delta's ([1]).
 */
static void v2_ck_trial(uint8_t *src, size_t n, unsigned S, unsigned C, gpulz_mode mode, unsigned cover[2])
{
    gpulz_params p;
    params_for(&p, S, 128, C, GPULZ_BACKEND_CPU);
    p.mode = mode;
    gpulz_params pg = p;
    pg.backend = GPULZ_BACKEND_GPU;
    size_t bound = gpulz_compress_bound(n, &p), len = 0, got = 0;
    uint8_t *c = malloc(bound), *bad = malloc(bound), *out = malloc(n + 1);
    CHECK(gpulz_compress(src, n, c, bound, &len, &p) == GPULZ_OK, "checksum trial: compress S=%u n=%zu", S, n);
    v2_one(src, n, S, 128, C, 0, mode);
    const unsigned flags = c[5], tail = (unsigned)(n % S);
    const int fused = !(flags & GPULZ_V2_FLAG_DELTA) && S == 2 &&
                      !(flags & (GPULZ_V2_FLAG_SPLIT | GPULZ_V2_FLAG_LZSS)) && C >= GPU_V2_CK_FUSED_C_LEAST &&
                      n / S > (size_t)GPU_V2_FEW_SEGS_PER_SM << GPULZ_SEG_LOG2_DEFAULT;
    if ((flags & GPULZ_V2_FLAG_DELTA))
        cover[1]++;
    else if (fused)
        cover[0]++; /* a stream of rANS segments, more of them than few if the device has an SM */
    for (int apart = 0; apart <= 1; apart++) {
        gpu_tune_ck_apart(apart);
        int rc = device_decode(c, len, out, n, &got);
        CHECK(rc == GPULZ_OK && got == n && memcmp(out, src, n) == 0,
              "checksum trial (apart %d, flags %02x, S=%u C=%u n=%zu): %d", apart, flags, S, C, n, rc);
        for (int what = 0; what < 3; what++) {
            if ((what == 1 && !tail) || (what == 2 && !fused))
                continue;
            memcpy(bad, c, len);
            if (what == 0)
                bad[28 + rnd() % 4] ^= (uint8_t)(1u << (rnd() % 8)); /* the checksum field */
            else if (what == 1)
                bad[len - 1 - rnd() % tail] ^= (uint8_t)(1 + rnd() % 255); /* a tail byte, the chunk's last */
            else /* a byte of the last quarter's coded words, which the decoder or the sum refuses */
                bad[len - tail - 1 - rnd() % (len / 4)] ^= (uint8_t)(1 + rnd() % 255);
            const int rcpu = gpulz_decompress(bad, len, out, n, &got, &p);
            const int rhost = gpulz_decompress(bad, len, out, n, &got, &pg);
            const int rdev = device_decode(bad, len, out, n, &got);
            CHECK(rcpu == GPULZ_ERR_CORRUPT && rhost == rcpu && rdev == rcpu,
                  "changed %s (apart %d, flags %02x, S=%u C=%u n=%zu): CPU %d, GPU host path %d, device API %d",
                  what == 2 ? "coded word" : what ? "tail" : "checksum", apart, flags, S, C, n, rcpu, rhost, rdev);
        }
    }
    gpu_tune_ck_apart(0);
    free(c);
    free(bad);
    free(out);
}

/* One input of m S-byte symbols and a tail: quant codes or a ramp (which
 * fast codes with DELTA), some with rare values among the common ones, so
 * that rows take escapes. */
static size_t v2_ck_input(uint8_t *src, size_t m, unsigned S, int ramp, int rare)
{
    const size_t n = m * S + (size_t)(rnd() % S);
    gpulz_gen("quant", src, n, rnd());
    /* a ramp of S-byte symbols, whose deltas are one value: fast takes DELTA */
    for (size_t i = 0, v = (size_t)rnd(), step = 1 + (size_t)(rnd() % 7); ramp && i < m; i++, v += step)
        for (unsigned j = 0; j < S; j++)
            src[i * S + j] = (uint8_t)(v >> (8 * j));
    if (rare)
        for (size_t i = 0; i < n; i += 1 + rnd() % 600)
            src[i] = (uint8_t)rnd();
    return n;
}

static void v2_ck_trials(uint8_t *src)
{
    static const unsigned blocks[] = {256, 1024, 2048, 8192, 16384};
    const size_t G = (size_t)1 << GPULZ_SEG_LOG2_DEFAULT;
    unsigned cover[2] = {0, 0};
    const int trials = quick ? 12 : 40;
    for (int t = 0; t < trials; t++) {
        const unsigned S = 1 + t % 2, C = blocks[rnd() % 5];
        const int ramp = t % 4 == 3;
        const size_t n = v2_ck_input(src, 1 + (size_t)(rnd() % (5 * G)), S, ramp, t % 3 == 1);
        v2_ck_trial(src, n, S, C, ramp && t % 8 == 7 ? GPULZ_MODE_RATIO : GPULZ_MODE_FAST, cover);
    }
    /* the decoder sums only where the segments are many for the device
     * (gpu_v2_dec_many): a few dozen more than that, the last one partial */
    int sms = 0, big = quick >= 2 ? 0 : quick ? 1 : 3;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const size_t segs = (size_t)GPU_V2_FEW_SEGS_PER_SM * (size_t)sms + 40;
    uint8_t *b = big ? malloc(2 * segs * G + 2) : NULL;
    for (int t = 0; t < big && b; t++) {
        const unsigned S = t == 1 ? 1 : 2, C = t == 2 ? 16384 : 2048;
        const size_t n = v2_ck_input(b, (segs - 1) * G + 1 + (size_t)(rnd() % (G - 1)), S, 0, t != 1);
        v2_ck_trial(b, n, S, C, GPULZ_MODE_FAST, cover);
    }
    free(b);
    CHECK(cover[1] > 0 && (!big || cover[0] > 0),
          "checksum trials: %u chunks took the decoder's sums, %u the inverse delta's", cover[0], cover[1]);
    printf("checksum trials: %d chunks, %u summed by the decoder, %u by the inverse delta\n", trials + big, cover[0],
           cover[1]);
}

/* Format 2: modes fast, ratio and auto on the GPU against the CPU over
 * kinds, sizes, symbol, window and block sizes, with and without the
 * checksum and the adaptive flag; damaged chunks of each shape. */
static void format2_trials(void)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const gpulz_mode modes[] = {GPULZ_MODE_FAST, GPULZ_MODE_RATIO, GPULZ_MODE_AUTO};
    /* 12: every S in every mode */
    const int trials = quick >= 2 ? 12 : quick ? 36 : 240;
    const uint32_t most = quick >= 2 ? 120000u : 3u << 20;
    uint8_t *src = malloc(3u << 20);
    /* sound ratio chunks decode with their streams at once, never again in
     * the CPU decoder's order (gpu_v2_ratio.c) */
    const unsigned long long redone0 = gpu_tune_ratio_redone();
    for (int t = 0; t < trials; t++) {
        const unsigned S = sizes[t % 4], C = 256u << (rnd() % 7), W = pick_window();
        const gpulz_mode mode = modes[(t / 4) % 3];
        size_t n;
        switch (t % 5) {
        case 0: n = rnd() % 300; break;           /* tiny: stored and constant streams */
        case 1: n = rnd() % 40000; break;         /* a few segments */
        default: n = (size_t)(rnd() % most); break;
        }
        make_input(src, n, (unsigned)(rnd() % 12));
        unsigned flags = (rnd() % 3 ? 0 : GPULZ_FLAG_NO_CHECKSUM) | (rnd() % 4 ? 0 : GPULZ_FLAG_ADAPTIVE);
        v2_one(src, n, S, W, C, flags, mode);
    }
    CHECK(gpu_tune_ratio_redone() == redone0, "%llu sound ratio chunks were decoded again in the CPU's order",
          gpu_tune_ratio_redone() - redone0);
    /* that order, which a damaged chunk falls back to, decodes sound ones too */
    gpu_tune_ratio_careful(1);
    for (int t = 0; t < (quick ? 8 : 40); t++) {
        const unsigned S = sizes[t % 4], C = 256u << (rnd() % 7);
        const size_t n = t % 3 ? (size_t)(rnd() % most) : (size_t)(rnd() % 40000);
        make_input(src, n, (unsigned)(rnd() % 12));
        v2_one(src, n, S, pick_window(), C, rnd() % 3 ? 0 : GPULZ_FLAG_NO_CHECKSUM, GPULZ_MODE_RATIO);
    }
    gpu_tune_ratio_careful(0);
    CHECK(gpu_tune_ratio_redone() == redone0, "the careful order counted as a fallback");
    TIMED(v2_outgrown(src));
    TIMED(v2_ranges(src));
    TIMED(v2_wide_models());
    TIMED(v2_unranged(src));
    TIMED(v2_sampled(src));
    if (quick < 2)
        v2_picked();
    TIMED(v2_ck_trials(src));
    /* 12 288 pieces for the checksum, more than its grid's warps
     * (GPU_V2_CK_BLOCKS_MOST blocks of 8): each warp sums several (its
     * shared memory is used alike with one, so racecheck's run skips it) */
    if (quick < 2) {
        gpulz_gen("quant", src, 3u << 20, 5);
        v2_one(src, (3u << 20) - 5, 1, 128, 256, 0, GPULZ_MODE_FAST);
    }
    if (!quick) {
        /* 2 560 segments, more than GPU_V2_FEW_SEGS_PER_SM an SM of an
         * H100 or H200: the decoder's blocks of GPU_V2_DEC_WARPS_MANY */
        const size_t big = (size_t)40 << 20;
        uint8_t *b = malloc(big);
        gpulz_gen("quant", b, big, 7);
        v2_one(b, big - 3, 2, 128, 2048, 0, GPULZ_MODE_FAST);
        free(b);
    }
    printf("format 2 trials: %d inputs, modes fast, ratio and auto\n", trials);

    TIMED(v2_damage_trials(src, GPULZ_MODE_FAST, 2, 1024, quick >= 2 ? 12 : quick ? 40 : 400));
    const unsigned long long redone1 = gpu_tune_ratio_redone();
    TIMED(v2_damage_trials(src, GPULZ_MODE_RATIO, 2, 1024, quick >= 2 ? 16 : quick ? 60 : 600));
    TIMED(v2_damage_trials(src, GPULZ_MODE_RATIO, 4, 256, quick >= 2 ? 8 : quick ? 30 : 300));
    CHECK(gpu_tune_ratio_redone() > redone1, "no damaged ratio chunk fell back to the CPU's order");
    printf("format 2 damaged chunks done, %d failures\n", failures);

    /* above the threshold, backend auto: every mode runs on the GPU and says so */
    size_t n = 2 << 20, len = 0, got = 0; /* above the GPU threshold's default */
    uint8_t *out = malloc(n);
    gpulz_gen("quant", src, n, 9);
    gpulz_params p;
    params_for(&p, 2, 128, 2048, GPULZ_BACKEND_AUTO);
    size_t bound = gpulz_compress_bound(n, &p);
    uint8_t *c = malloc(bound);
    const char *why = NULL;
    for (unsigned i = 0; i < 3; i++) {
        p.mode = modes[i];
        CHECK(gpulz_compress(src, n, c, bound, &len, &p) == GPULZ_OK && gpulz_last_backend(&why) == GPULZ_BACKEND_GPU,
              "mode %s above the threshold ran on %d (%s)", gpulz_mode_name(p.mode), (int)gpulz_last_backend(NULL),
              why);
        CHECK(gpulz_decompress(c, len, out, n, &got, &p) == GPULZ_OK && got == n && !memcmp(out, src, n) &&
                  gpulz_last_backend(&why) == GPULZ_BACKEND_GPU,
              "mode %s decoded through the host API: backend %d (%s)", gpulz_mode_name(p.mode),
              (int)gpulz_last_backend(NULL), why);
    }
    /* a chunk shorter than format 2's header, on the device */
    uint8_t *d_c = NULL, *d_out = NULL;
    cudaMalloc((void **)&d_c, len);
    cudaMalloc((void **)&d_out, n);
    cudaMemcpy(d_c, c, len, cudaMemcpyHostToDevice);
    int rc = gpulz_decompress_device(d_c, 30, d_out, n, &got, NULL, NULL, 0);
    CHECK(rc == GPULZ_ERR_TRUNCATED, "a 30-byte format 2 chunk on the device: %d (%s)", rc, gpulz_last_error());
    cudaFree(d_c);
    cudaFree(d_out);
    free(c);
    free(src);
    free(out);
}

/* Bytes after the output's end that a decoder must leave alone. */
#define CRAFT_GUARD 256
#define CRAFT_GUARD_BYTE 0xA5

/* Whether the CRAFT_GUARD bytes after out[cap] are as they were put. */
static int guard_intact(const uint8_t *out, size_t cap)
{
    for (size_t i = cap; i < cap + CRAFT_GUARD; i++)
        if (out[i] != CRAFT_GUARD_BYTE)
            return 0;
    return 1;
}

/*
 * One crafted chunk through the device API: the chunk in an allocation of
 * exactly its length (memcheck sees a read past it), the output in one of
 * cap + CRAFT_GUARD bytes whose guard must come back untouched, and, with
 * own_scratch, the scratch of exactly the size the API asks for (the
 * context's may be larger from earlier calls and hide an overrun).  Returns
 * the status; out receives cap + CRAFT_GUARD bytes.
 */
static int crafted_device(const cc_case *c, int own_scratch, uint8_t *out, size_t *got)
{
    uint8_t *d_c = NULL, *d_out = NULL, *d_scr = NULL;
    const size_t need = own_scratch ? gpulz_decompress_device_scratch_size(c->len) : 0;
    *got = 0;
    cudaMalloc((void **)&d_c, c->len);
    cudaMalloc((void **)&d_out, c->cap + CRAFT_GUARD);
    if (need)
        cudaMalloc((void **)&d_scr, need);
    cudaMemcpy(d_c, c->bytes, c->len, cudaMemcpyHostToDevice);
    cudaMemset(d_out, CRAFT_GUARD_BYTE, c->cap + CRAFT_GUARD);
    int rc = gpulz_decompress_device(d_c, c->len, d_out, c->cap, got, NULL, d_scr, need);
    cudaMemcpy(out, d_out, c->cap + CRAFT_GUARD, cudaMemcpyDeviceToHost);
    cudaFree(d_c);
    cudaFree(d_out);
    cudaFree(d_scr);
    return rc;
}

/*
 * The crafted chunks of crafted_chunks.h: each passes the host's checks of
 * the header, tables and streams, and carries a fault only a kernel meets
 * (a match before its block or past its end, W, Lmin, T and the flag bits
 * against the token streams, segment words moved between segments, states,
 * words left over, a table rewritten), or is a control.  The CPU decoder
 * gives the status the case was built for; the GPU host path and the
 * device API (the context's scratch and an exact one) give the same status,
 * the same bytes where it decodes, and write nothing past dst_cap.  Run at
 * every level: the quick one is memcheck's (gpu_sanitizer.sh).  The alarm
 * turns a kernel that never ends into a failure of the test.
 */
static void crafted_trials(void)
{
    cc_list L;
    cc_build(&L);
    CHECK(!L.broken, "crafted chunks: an encoder chunk lacks the streams its rewrites need");
    const int before = failures;
    unsigned bad = 0;
    alarm(600);
    /* the second time in the CPU decoder's order from the start, where
     * ratio chunks otherwise decode their streams at once first */
    for (size_t i = 0; i < 2 * L.count; i++) {
        const cc_case *c = &L.c[i % L.count];
        gpu_tune_ratio_careful(i >= L.count);
        const int f0 = failures;
        gpulz_params pc, pg;
        params_for(&pc, 1, 128, 256, GPULZ_BACKEND_CPU);
        pg = pc;
        pg.backend = GPULZ_BACKEND_GPU;
        uint8_t *a = malloc(c->cap + CRAFT_GUARD), *b = malloc(c->cap + CRAFT_GUARD);
        size_t ga = 0, gb = 0;
        int rc = gpulz_decompress(c->bytes, c->len, a, c->cap, &ga, &pc);
        CHECK(c->want == CC_ANY ? rc == GPULZ_OK || rc == GPULZ_ERR_CORRUPT : rc == c->want,
              "crafted %s: CPU %d, want %d", c->name, rc, c->want);
        CHECK(rc != GPULZ_OK || !c->expect || (ga == c->expect_len && !memcmp(a, c->expect, ga)),
              "crafted %s: the CPU decodes it to other bytes", c->name);
        memset(b, CRAFT_GUARD_BYTE, c->cap + CRAFT_GUARD);
        int rg = gpulz_decompress(c->bytes, c->len, b, c->cap, &gb, &pg);
        CHECK(rg == rc && (rc != GPULZ_OK || (gb == ga && !memcmp(a, b, ga))),
              "crafted %s: CPU %d, GPU host path %d", c->name, rc, rg);
        CHECK(guard_intact(b, c->cap), "crafted %s: the GPU host path wrote past dst_cap", c->name);
        for (int own = 0; own < 2; own++) {
            rg = crafted_device(c, own, b, &gb);
            CHECK(rg == rc && (rc != GPULZ_OK || (gb == ga && !memcmp(a, b, ga))),
                  "crafted %s: CPU %d, device API %d (%s scratch)", c->name, rc, rg, own ? "exact" : "the context's");
            CHECK(guard_intact(b, c->cap), "crafted %s: the device API wrote past dst_cap (%s scratch)", c->name,
                  own ? "exact" : "the context's");
        }
        bad += failures != f0;
        free(a);
        free(b);
    }
    gpu_tune_ratio_careful(0);
    alarm(0);
    printf("crafted chunks: %zu cases twice, %u failed (%d failures)\n", L.count, bad, failures - before);
    cc_free(&L);
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("no usable GPU: skipped\n");
        return 77;
    }
    if (getenv("GPULZ_TEST_QUICK"))
        quick = atoi(getenv("GPULZ_TEST_QUICK")) >= 2 ? 2 : 1;
    /* another sequence of inputs than the default one, for longer runs */
    if (getenv("GPULZ_TEST_SEED"))
        rng ^= strtoull(getenv("GPULZ_TEST_SEED"), NULL, 0) * 0x9E3779B97F4A7C15ull;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut by a time limit shows how far it got */
    TIMED(random_trials(quick >= 2 ? 12 : quick ? 40 : 3000));
    printf("random trials done, %d failures\n", failures);
    TIMED(grid_trials());
    printf("grid trials done, %d failures\n", failures);
    if (!quick)
        TIMED(large_trials());
    TIMED(corrupt_trials(quick ? 30 : 1500));
    printf("corruption trials done, %d failures\n", failures);
    TIMED(crafted_trials());
    TIMED(device_trials());
    TIMED(device_adaptive());
    TIMED(null_stream_order());
    TIMED(tail_piece_trials(quick ? 40 : 400));
    /* not under compute-sanitizer (the quick runs), which counts the refusal as an error */
    if (!quick)
        TIMED(refused_alloc_trial());
    TIMED(scan_trials());
    TIMED(smaller_device());
    TIMED(format2_trials());
    printf("device trials done, %d failures\n", failures);
    if (!quick)
        fork_trial();
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
