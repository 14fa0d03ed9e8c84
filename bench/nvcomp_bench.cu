/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nvcomp_bench - nvCOMP's batched codecs on the benchmark corpus, device-resident.
 *
 * For each array of the corpus (bench/data/MANIFEST) and each nvCOMP codec
 * present at build time, the array is copied to the GPU once, cut into
 * --chunk byte chunks (nvCOMP recommends 64 KiB), and compressed and
 * decompressed with the low-level batched C API.  Only the Async calls are
 * timed, with CUDA events on one stream, after --warmup untimed runs; the
 * median of --repeats runs is reported.  Throughput is uncompressed bytes per
 * second (GB = 1e9 bytes); the ratio is the array size over the sum of the
 * compressed chunk sizes (nvCOMP's own convention: the chunk size table a
 * container would add is not counted).  Every decompression is checked on
 * the device against the input, with the per-chunk statuses and sizes.
 *
 * Output: CSV on stdout.  Build: configure --with-nvcomp=DIR (nvCOMP 5 or
 * newer, e.g. the nvidia-libnvcomp-cu13 wheel unpacked).
 */
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nvcomp/version.h>

#include "corpus.h"
#if NVCOMP_VER_MAJOR < 5
#error "nvcomp_bench needs nvCOMP 5 or newer (the batched API with options structs)"
#endif
#if __has_include(<nvcomp/lz4.h>)
#include <nvcomp/lz4.h>
#define NVB_LZ4 1
#endif
#if __has_include(<nvcomp/snappy.h>)
#include <nvcomp/snappy.h>
#define NVB_SNAPPY 1
#endif
#if __has_include(<nvcomp/cascaded.h>)
#include <nvcomp/cascaded.h>
#define NVB_CASCADED 1
#endif
#if __has_include(<nvcomp/bitcomp.h>)
#include <nvcomp/bitcomp.h>
#define NVB_BITCOMP 1
#endif
#if __has_include(<nvcomp/ans.h>)
#include <nvcomp/ans.h>
#define NVB_ANS 1
#endif
#if __has_include(<nvcomp/zstd.h>)
#include <nvcomp/zstd.h>
#define NVB_ZSTD 1
#endif
#if __has_include(<nvcomp/deflate.h>)
#include <nvcomp/deflate.h>
#define NVB_DEFLATE 1
#endif
#if __has_include(<nvcomp/gdeflate.h>)
#include <nvcomp/gdeflate.h>
#define NVB_GDEFLATE 1
#endif

#define CUDA_OK(call)                                                                      \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "nvcomp_bench: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,    \
                    cudaGetErrorString(e_));                                               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* The per-codec entry points, all of one shape in nvCOMP 5 and 6. */
template <class C, class D> struct Api {
    nvcompStatus_t (*calign)(C, nvcompAlignmentRequirements_t *);
    nvcompStatus_t (*ctemp)(size_t, size_t, C, size_t *, size_t, cudaStream_t);
    nvcompStatus_t (*cmax)(size_t, C, size_t *);
    nvcompStatus_t (*compress)(const void *const *, const size_t *, size_t, size_t, void *, size_t,
                               void *const *, size_t *, C, nvcompStatus_t *, cudaStream_t);
    nvcompStatus_t (*dalign)(D, nvcompAlignmentRequirements_t *);
    nvcompStatus_t (*dtemp)(size_t, size_t, D, size_t *, size_t, cudaStream_t);
    nvcompStatus_t (*decompress)(const void *const *, const size_t *, const size_t *, size_t *,
                                 size_t, void *, size_t, void *const *, D, nvcompStatus_t *,
                                 cudaStream_t);
};

#define NVB_API(X)                                                                         \
    Api<nvcompBatched##X##CompressOpts_t, nvcompBatched##X##DecompressOpts_t>{             \
        nvcompBatched##X##CompressGetRequiredAlignments,                                   \
        nvcompBatched##X##CompressGetTempSize,                                             \
        nvcompBatched##X##CompressGetMaxOutputChunkSize,                                   \
        nvcompBatched##X##CompressAsync,                                                   \
        nvcompBatched##X##DecompressGetRequiredAlignments,                                 \
        nvcompBatched##X##DecompressGetTempSize,                                           \
        nvcompBatched##X##DecompressAsync}

struct Options {
    std::string manifest = "bench/data/cache/MANIFEST", datadir, only, codecs;
    size_t chunk = 65536;
    int repeats = 5, warmup = 2;
};

static size_t round_up(size_t n, size_t a) { return a ? (n + a - 1) / a * a : n; }

static double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Count the bytes where a and b differ (into *bad, atomically). */
__global__ void count_mismatches(const unsigned char *a, const unsigned char *b, size_t n,
                                 unsigned long long *bad)
{
    unsigned long long local = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        local += a[i] != b[i];
    if (local)
        atomicAdd(bad, local);
}

struct Result {
    double ratio = 0, comp_gbs = 0, decomp_gbs = 0;
    std::string status = "ok";
};

/* Compress and decompress the device copy of one array with one codec. */
template <class C, class D>
static Result run_codec(const Api<C, D> &api, C copts, D dopts, const unsigned char *d_in,
                        size_t bytes, const Options &o, cudaStream_t s)
{
    Result r;
    const size_t chunk = o.chunk, n = (bytes + chunk - 1) / chunk;
    nvcompAlignmentRequirements_t ca{}, da{};
    size_t max_out = 0, ctemp = 0, dtemp = 0;
    if (api.calign(copts, &ca) != nvcompSuccess || api.dalign(dopts, &da) != nvcompSuccess ||
        api.cmax(chunk, copts, &max_out) != nvcompSuccess ||
        api.ctemp(n, chunk, copts, &ctemp, bytes, s) != nvcompSuccess ||
        api.dtemp(n, chunk, dopts, &dtemp, bytes, s) != nvcompSuccess) {
        r.status = "setup failed";
        return r;
    }
    if (chunk % std::max<size_t>(ca.input, 1) != 0) {
        r.status = "chunk size not aligned for this codec";
        return r;
    }
    size_t slot = round_up(max_out, std::max<size_t>(std::max(ca.output, da.input), 8));

    std::vector<const void *> h_in(n);
    std::vector<void *> h_comp(n), h_out(n);
    std::vector<size_t> h_sizes(n), h_csizes(n), h_dsizes(n);
    std::vector<nvcompStatus_t> h_stat(n);
    unsigned char *d_comp, *d_out, *d_ctemp = nullptr, *d_dtemp = nullptr;
    CUDA_OK(cudaMalloc(&d_comp, n * slot));
    CUDA_OK(cudaMalloc(&d_out, bytes));
    if (ctemp)
        CUDA_OK(cudaMalloc(&d_ctemp, ctemp));
    if (dtemp)
        CUDA_OK(cudaMalloc(&d_dtemp, dtemp));
    for (size_t i = 0; i < n; i++) {
        h_in[i] = d_in + i * chunk;
        h_out[i] = d_out + i * chunk;
        h_comp[i] = d_comp + i * slot;
        h_sizes[i] = std::min(chunk, bytes - i * chunk);
    }
    const void **d_inp;
    void **d_compp, **d_outp;
    size_t *d_sizes, *d_csizes, *d_dsizes;
    nvcompStatus_t *d_stat;
    unsigned long long *d_bad;
    CUDA_OK(cudaMalloc(&d_inp, n * sizeof(void *)));
    CUDA_OK(cudaMalloc(&d_compp, n * sizeof(void *)));
    CUDA_OK(cudaMalloc(&d_outp, n * sizeof(void *)));
    CUDA_OK(cudaMalloc(&d_sizes, n * sizeof(size_t)));
    CUDA_OK(cudaMalloc(&d_csizes, n * sizeof(size_t)));
    CUDA_OK(cudaMalloc(&d_dsizes, n * sizeof(size_t)));
    CUDA_OK(cudaMalloc(&d_stat, n * sizeof(nvcompStatus_t)));
    CUDA_OK(cudaMalloc(&d_bad, sizeof *d_bad));
    CUDA_OK(cudaMemcpy(d_inp, h_in.data(), n * sizeof(void *), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_compp, h_comp.data(), n * sizeof(void *), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_outp, h_out.data(), n * sizeof(void *), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_sizes, h_sizes.data(), n * sizeof(size_t), cudaMemcpyHostToDevice));

    cudaEvent_t t0, t1;
    CUDA_OK(cudaEventCreate(&t0));
    CUDA_OK(cudaEventCreate(&t1));
    std::vector<float> tc, td;
    size_t total_comp = 0;
    for (int k = 0; k < o.warmup + o.repeats && r.status == "ok"; k++) {
        float ms;
        CUDA_OK(cudaMemsetAsync(d_stat, 0xff, n * sizeof(nvcompStatus_t), s));
        CUDA_OK(cudaEventRecord(t0, s));
        nvcompStatus_t st = api.compress((const void *const *)d_inp, d_sizes, chunk, n, d_ctemp,
                                         ctemp, (void *const *)d_compp, d_csizes, copts, d_stat, s);
        CUDA_OK(cudaEventRecord(t1, s));
        CUDA_OK(cudaStreamSynchronize(s));
        if (st != nvcompSuccess) {
            r.status = "compress failed " + std::to_string((int)st);
            break;
        }
        CUDA_OK(cudaEventElapsedTime(&ms, t0, t1));
        if (k >= o.warmup)
            tc.push_back(ms);
        CUDA_OK(cudaMemcpy(h_stat.data(), d_stat, n * sizeof(nvcompStatus_t),
                           cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_csizes.data(), d_csizes, n * sizeof(size_t),
                           cudaMemcpyDeviceToHost));
        size_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (h_stat[i] != nvcompSuccess || h_csizes[i] > slot) {
                r.status = "compress: chunk " + std::to_string(i) + " failed";
                break;
            }
            sum += h_csizes[i];
        }
        if (k > 0 && sum != total_comp)
            r.status = "compressed size differs between runs";
        total_comp = sum;
    }
    for (int k = 0; k < o.warmup + o.repeats && r.status == "ok"; k++) {
        float ms;
        unsigned long long bad = 0;
        /* poison the output and the statuses, so that a run that wrote
         * nothing cannot pass the check */
        CUDA_OK(cudaMemsetAsync(d_out, 0x5a, bytes, s));
        CUDA_OK(cudaMemsetAsync(d_dsizes, 0, n * sizeof(size_t), s));
        CUDA_OK(cudaMemsetAsync(d_stat, 0xff, n * sizeof(nvcompStatus_t), s));
        CUDA_OK(cudaMemsetAsync(d_bad, 0, sizeof *d_bad, s));
        CUDA_OK(cudaEventRecord(t0, s));
        nvcompStatus_t st = api.decompress((const void *const *)d_compp, d_csizes, d_sizes,
                                           d_dsizes, n, d_dtemp, dtemp, (void *const *)d_outp,
                                           dopts, d_stat, s);
        CUDA_OK(cudaEventRecord(t1, s));
        count_mismatches<<<1024, 256, 0, s>>>(d_in, d_out, bytes, d_bad);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaStreamSynchronize(s));
        if (st != nvcompSuccess) {
            r.status = "decompress failed " + std::to_string((int)st);
            break;
        }
        CUDA_OK(cudaEventElapsedTime(&ms, t0, t1));
        if (k >= o.warmup)
            td.push_back(ms);
        CUDA_OK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_stat.data(), d_stat, n * sizeof(nvcompStatus_t),
                           cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_dsizes.data(), d_dsizes, n * sizeof(size_t),
                           cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n && r.status == "ok"; i++)
            if (h_stat[i] != nvcompSuccess || h_dsizes[i] != h_sizes[i])
                r.status = "decompress: chunk " + std::to_string(i) + " failed";
        if (bad && r.status == "ok")
            r.status = "MISMATCH: " + std::to_string(bad) + " bytes differ";
    }
    if (r.status == "ok") {
        r.ratio = (double)bytes / (double)total_comp;
        r.comp_gbs = (double)bytes / (median(tc) * 1e-3) / 1e9;
        r.decomp_gbs = (double)bytes / (median(td) * 1e-3) / 1e9;
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    for (void *p : {(void *)d_comp, (void *)d_out, (void *)d_ctemp, (void *)d_dtemp,
                    (void *)d_inp, (void *)d_compp, (void *)d_outp, (void *)d_sizes,
                    (void *)d_csizes, (void *)d_dsizes, (void *)d_stat, (void *)d_bad})
        cudaFree(p);
    return r;
}

static nvcompType_t int_type(size_t elsize)
{
    return elsize == 2 ? NVCOMP_TYPE_USHORT : elsize == 4 ? NVCOMP_TYPE_UINT
                                            : elsize == 8 ? NVCOMP_TYPE_ULONGLONG
                                                          : NVCOMP_TYPE_UCHAR;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: nvcomp_bench [--manifest FILE] [--data DIR] [--only A,B] [--codecs "
               "lz4,snappy,...] [--chunk BYTES] [--repeats N] [--warmup N] [--csv]\n"
               "Output: CSV on stdout (--csv is accepted for symmetry; CSV is the only format).\n");
}

int main(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--csv")
            continue;
        if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        }
        if (!v) {
            usage(stderr);
            return 2;
        }
        i++;
        if (a == "--manifest")
            o.manifest = v;
        else if (a == "--data")
            o.datadir = v;
        else if (a == "--only")
            o.only = v;
        else if (a == "--codecs")
            o.codecs = v;
        else if (a == "--chunk")
            o.chunk = strtoull(v, nullptr, 0);
        else if (a == "--repeats")
            o.repeats = atoi(v);
        else if (a == "--warmup")
            o.warmup = atoi(v);
        else {
            usage(stderr);
            return 2;
        }
    }
    if (o.chunk == 0 || o.chunk % 8 || o.repeats < 1 || o.warmup < 0) {
        fprintf(stderr, "nvcomp_bench: --chunk must be a positive multiple of 8, --repeats >= 1\n");
        return 2;
    }
    corpus cor;
    if (corpus_open(&cor, "nvcomp_bench", o.manifest.c_str(), o.datadir.empty() ? nullptr : o.datadir.c_str(),
                    o.only.c_str()) < 0)
        return 1;
    int dev = 0;
    cudaDeviceProp prop;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        fprintf(stderr, "nvcomp_bench: no usable GPU\n");
        return 77;
    }
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));
    fprintf(stderr, "nvcomp_bench: nvCOMP %d.%d.%d on %s\n", NVCOMP_VER_MAJOR, NVCOMP_VER_MINOR,
            NVCOMP_VER_PATCH, prop.name);
    printf("dataset,dtype,bytes,codec,chunk_bytes,ratio,comp_gbs,decomp_gbs,status\n");

    int failures = 0;
    corpus_array ds;
    for (int got; (got = corpus_next(&cor, &ds)) != 0; free(ds.data)) {
        if (got < 0) {
            failures++;
            continue;
        }
        const size_t bytes = ds.bytes;
        unsigned char *d_in;
        CUDA_OK(cudaMalloc(&d_in, bytes));
        CUDA_OK(cudaMemcpy(d_in, ds.data, bytes, cudaMemcpyHostToDevice));

        auto report = [&](const char *codec, const Result &r) {
            printf("%s,%s,%zu,%s,%zu,", ds.name, ds.dtype, bytes, codec, o.chunk);
            if (r.status == "ok")
                printf("%.4f,%.3f,%.3f,ok\n", r.ratio, r.comp_gbs, r.decomp_gbs);
            else
                printf(",,,%s\n", r.status.c_str());
            fflush(stdout);
            failures += r.status != "ok";
        };
        nvcompType_t it = int_type(ds.elsize);
        (void)it;
#ifdef NVB_LZ4
        if (corpus_in_list(o.codecs.c_str(), "lz4"))
            report("lz4", run_codec(NVB_API(LZ4), nvcompBatchedLZ4CompressDefaultOpts,
                                    nvcompBatchedLZ4DecompressDefaultOpts, d_in, bytes, o, s));
#endif
#ifdef NVB_SNAPPY
        if (corpus_in_list(o.codecs.c_str(), "snappy"))
            report("snappy",
                   run_codec(NVB_API(Snappy), nvcompBatchedSnappyCompressDefaultOpts,
                             nvcompBatchedSnappyDecompressDefaultOpts, d_in, bytes, o, s));
#endif
#ifdef NVB_CASCADED
        if (corpus_in_list(o.codecs.c_str(), "cascaded")) {
            nvcompBatchedCascadedCompressOpts_t c = nvcompBatchedCascadedCompressDefaultOpts;
            c.common_opts.data_type = it; /* run-length and delta on whole elements */
            report("cascaded", run_codec(NVB_API(Cascaded), c,
                                         nvcompBatchedCascadedDecompressDefaultOpts, d_in, bytes,
                                         o, s));
        }
#endif
#ifdef NVB_BITCOMP
        if (corpus_in_list(o.codecs.c_str(), "bitcomp")) {
            nvcompBatchedBitcompCompressOpts_t c = nvcompBatchedBitcompCompressDefaultOpts;
            c.data_type = it;
            report("bitcomp", run_codec(NVB_API(Bitcomp), c,
                                        nvcompBatchedBitcompDecompressDefaultOpts, d_in, bytes, o,
                                        s));
        }
#endif
#ifdef NVB_ANS
        if (corpus_in_list(o.codecs.c_str(), "ans"))
            report("ans", run_codec(NVB_API(ANS), nvcompBatchedANSCompressDefaultOpts,
                                    nvcompBatchedANSDecompressDefaultOpts, d_in, bytes, o, s));
#endif
#ifdef NVB_ZSTD
        if (corpus_in_list(o.codecs.c_str(), "zstd"))
            report("zstd", run_codec(NVB_API(Zstd), nvcompBatchedZstdCompressDefaultOpts,
                                     nvcompBatchedZstdDecompressDefaultOpts, d_in, bytes, o, s));
#endif
#ifdef NVB_DEFLATE
        if (corpus_in_list(o.codecs.c_str(), "deflate"))
            report("deflate",
                   run_codec(NVB_API(Deflate), nvcompBatchedDeflateCompressDefaultOpts,
                             nvcompBatchedDeflateDecompressDefaultOpts, d_in, bytes, o, s));
#endif
#ifdef NVB_GDEFLATE
        if (corpus_in_list(o.codecs.c_str(), "gdeflate"))
            report("gdeflate",
                   run_codec(NVB_API(Gdeflate), nvcompBatchedGdeflateCompressDefaultOpts,
                             nvcompBatchedGdeflateDecompressDefaultOpts, d_in, bytes, o, s));
#endif
        CUDA_OK(cudaFree(d_in));
    }
    corpus_close(&cor);
    cudaStreamDestroy(s);
    return failures ? 1 : 0;
}
