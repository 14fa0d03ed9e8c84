/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_batch_test.c - the batched API and direct chunk I/O on the GPU: host
 * chunks through the pinned pipeline and device chunks through the device
 * API give the CPU's bytes one call per chunk, with per-chunk failures;
 * gpulz_h5_write_direct_device() stores the chunks H5Dwrite stores and
 * gpulz_h5_read_direct_device() reads them back into device memory, for
 * 1-D to 3-D shapes with edge chunks, and more chunks than one batch holds
 * (batches pipelined).  With two GPUs or more, host batches spread over
 * them by GPULZ_DEVICE give those bytes and statuses too.  Exits 77 where
 * no GPU is usable.
 */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu_tune.h"
#include "gpulz.h"
#include "h5_util.h"

#define CHUNKS 24

static size_t chunk_size(size_t i)
{
    static const size_t sizes[] = {0, 1, 100, 4096, 65536, 1 << 20, 3000001, 262147};
    return sizes[i % (sizeof sizes / sizeof sizes[0])];
}

static void chunk_fill(uint8_t *b, size_t n, size_t i)
{
    if (i % 3 == 0)
        memset(b, 0, n);
    else if (i % 3 == 1)
        h5u_random(b, n, i);
    else
        for (size_t k = 0; k < n; k++)
            b[k] = (uint8_t)((k / 8) % 13 + (k % 2));
}

/* The device scratch a test hands the batch: what the batch calls ask for
 * (room for the queued lanes), none (the library's), or only the largest
 * per-chunk scratch (no room for lanes: the device API per chunk). */
typedef enum { SCRATCH_BATCH, SCRATCH_NONE, SCRATCH_ONE } scratch_kind;

static size_t scratch_for(scratch_kind kind, int compress, const size_t *len, const gpulz_params *p)
{
    size_t most = 0;
    if (kind == SCRATCH_NONE)
        return 0;
    if (kind == SCRATCH_BATCH)
        return compress ? gpulz_compress_batch_scratch_size(CHUNKS, len, p)
                        : gpulz_decompress_batch_scratch_size(CHUNKS, len);
    for (size_t i = 0; i < CHUNKS; i++) {
        size_t s = compress ? gpulz_compress_device_scratch_size(len[i], p)
                            : gpulz_decompress_device_scratch_size(len[i]);
        most = s > most ? s : most;
    }
    return most;
}

/* The same parameters on the GPU (*gpu) and on the CPU (*cpu). */
static void gpu_and_cpu(gpulz_params *gpu, gpulz_params *cpu, gpulz_mode mode, unsigned S, unsigned flags)
{
    gpulz_params_init(gpu);
    gpu->mode = mode;
    gpu->symbol_size = S;
    gpu->flags = flags;
    gpu->backend = GPULZ_BACKEND_GPU;
    *cpu = *gpu;
    cpu->backend = GPULZ_BACKEND_CPU;
}

/* Batch on host or device memory against one CPU call per chunk; the
 * caller's stream is made on device stream_dev.  Chunks 5 and 21 get too
 * little room, chunks 3 and 19 are damaged for decoding: one failure in
 * each half, so that with two devices each run has one and the call still
 * names the first. */
static void batch_on(gpulz_memory memory, gpulz_mode mode, unsigned S, unsigned flags, scratch_kind kind,
                     int stream_dev)
{
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, mode, S, flags);
    uint8_t *in[CHUNKS], *want[CHUNKS], *host_out[CHUNKS];
    void *src[CHUNKS], *dst[CHUNKS], *dec[CHUNKS];
    size_t len[CHUNKS], cap[CHUNKS], got[CHUNKS], want_len[CHUNKS], dec_len[CHUNKS];
    int st[CHUNKS];
    for (size_t i = 0; i < CHUNKS; i++) {
        len[i] = chunk_size(i);
        in[i] = malloc(len[i] ? len[i] : 1);
        CHECK(in[i]);
        chunk_fill(in[i], len[i], i);
    }
    CHECK(gpulz_compress_batch_bound(CHUNKS, len, &p, cap) > 0);
    cap[5] = cap[21] = 16; /* chunks 5 and 21 cannot fit */
    for (size_t i = 0; i < CHUNKS; i++) {
        size_t b = gpulz_compress_bound(len[i], &cpu);
        want[i] = malloc(b);
        host_out[i] = malloc(cap[i]);
        CHECK(want[i] && host_out[i]);
        CHECK(gpulz_compress(in[i], len[i], want[i], b, &want_len[i], &cpu) == GPULZ_OK);
        if (memory == GPULZ_MEMORY_DEVICE) {
            CHECK(cudaMalloc(&src[i], len[i] ? len[i] : 1) == cudaSuccess);
            CHECK(cudaMalloc(&dst[i], cap[i]) == cudaSuccess);
            CHECK(cudaMalloc(&dec[i], len[i] ? len[i] : 1) == cudaSuccess);
            CHECK(cudaMemcpy(src[i], in[i], len[i], cudaMemcpyHostToDevice) == cudaSuccess);
        } else {
            src[i] = in[i];
            dst[i] = host_out[i];
            dec[i] = malloc(len[i] ? len[i] : 1);
            CHECK(dec[i]);
        }
    }
    cudaStream_t st_caller;
    int cur = 0;
    CHECK(cudaGetDevice(&cur) == cudaSuccess && cudaSetDevice(stream_dev) == cudaSuccess);
    CHECK(cudaStreamCreate(&st_caller) == cudaSuccess);
    CHECK(cudaSetDevice(cur) == cudaSuccess);
    size_t scratch_size = memory == GPULZ_MEMORY_DEVICE ? scratch_for(kind, 1, len, &p) : 0;
    CHECK(memory != GPULZ_MEMORY_DEVICE ||
          gpulz_compress_batch_scratch_size(CHUNKS, len, &p) >= scratch_for(SCRATCH_ONE, 1, len, &p));
    void *scratch = NULL;
    if (scratch_size)
        CHECK(cudaMalloc(&scratch, scratch_size) == cudaSuccess);
    int rc = gpulz_compress_batch(CHUNKS, (const void *const *)src, len, dst, cap, got, st, &p, memory, st_caller,
                                  scratch, scratch_size);
    CHECKF(rc == GPULZ_ERR_DST_SIZE && !strncmp(gpulz_last_error(), "chunk 5 of 24:", 14),
           "memory %d mode %d: call status %d (%s)", memory, mode, rc, gpulz_last_error());
    for (size_t i = 0; i < CHUNKS; i++) {
        if (i == 5 || i == 21) {
            CHECKF(st[i] == GPULZ_ERR_DST_SIZE, "tight chunk status %d", st[i]);
            continue;
        }
        CHECKF(st[i] == GPULZ_OK, "chunk %zu (%zu bytes): %d (%s)", i, len[i], st[i], gpulz_last_error());
        if (memory == GPULZ_MEMORY_DEVICE)
            CHECK(cudaMemcpy(host_out[i], dst[i], got[i], cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECKF(got[i] == want_len[i] && memcmp(host_out[i], want[i], got[i]) == 0,
               "memory %d mode %d S %u chunk %zu (%zu bytes): GPU batch bytes differ from the CPU's", memory,
               mode, S, i, len[i]);
    }
    /* and back, chunk 5 replaced by the CPU's and chunk 3 damaged */
    size_t clen[CHUNKS];
    for (size_t i = 0; i < CHUNKS; i++) {
        clen[i] = want_len[i];
        if (memory == GPULZ_MEMORY_DEVICE) {
            cudaFree(dst[i]);
            CHECK(cudaMalloc(&dst[i], clen[i]) == cudaSuccess);
            CHECK(cudaMemcpy(dst[i], want[i], clen[i], cudaMemcpyHostToDevice) == cudaSuccess);
        } else {
            dst[i] = want[i];
        }
    }
    for (size_t i = 3; i < CHUNKS; i += 16) {
        uint8_t bad[1] = {want[i][0]};
        bad[0] ^= 0x7f;
        if (memory == GPULZ_MEMORY_DEVICE)
            CHECK(cudaMemcpy(dst[i], bad, 1, cudaMemcpyHostToDevice) == cudaSuccess);
        else
            want[i][0] ^= 0x7f;
    }
    size_t dscratch = memory == GPULZ_MEMORY_DEVICE ? scratch_for(kind, 0, clen, &p) : 0;
    void *dscr = NULL;
    if (dscratch)
        CHECK(cudaMalloc(&dscr, dscratch) == cudaSuccess);
    rc = gpulz_decompress_batch(CHUNKS, (const void *const *)dst, clen, dec, len, dec_len, st, &p, memory,
                                st_caller, dscr, dscratch);
    CHECKF(rc != GPULZ_OK && st[3] != GPULZ_OK && st[19] != GPULZ_OK, "damaged chunks 3 and 19 decode: %d %d",
           st[3], st[19]);
    CHECKF(!strncmp(gpulz_last_error(), "chunk 3 of 24:", 14), "the decode's first failure: %s",
           gpulz_last_error());
    for (size_t i = 0; i < CHUNKS; i++) {
        if (i == 3 || i == 19)
            continue;
        CHECKF(st[i] == GPULZ_OK && dec_len[i] == len[i], "decode chunk %zu: %d, %zu bytes", i, st[i], dec_len[i]);
        uint8_t *back = malloc(len[i] ? len[i] : 1);
        CHECK(back);
        if (memory == GPULZ_MEMORY_DEVICE)
            CHECK(cudaMemcpy(back, dec[i], len[i], cudaMemcpyDeviceToHost) == cudaSuccess);
        else
            memcpy(back, dec[i], len[i]);
        CHECKF(memcmp(back, in[i], len[i]) == 0, "decode chunk %zu differs", i);
        free(back);
    }
    for (size_t i = 0; i < CHUNKS; i++) {
        if (memory == GPULZ_MEMORY_DEVICE) {
            cudaFree(src[i]);
            cudaFree(dst[i]);
            cudaFree(dec[i]);
        } else {
            free(dec[i]);
        }
        free(in[i]);
        free(want[i]);
        free(host_out[i]);
    }
    cudaFree(scratch);
    cudaFree(dscr);
    CHECK(cudaSetDevice(stream_dev) == cudaSuccess);
    cudaStreamDestroy(st_caller);
    CHECK(cudaSetDevice(cur) == cudaSuccess);
    const char *devices = getenv("GPULZ_DEVICE");
    printf("batch on %s memory, mode %d, S %u, flags %u, scratch %d, GPULZ_DEVICE %s, stream on device %d: "
           "the CPU's bytes, failures per chunk\n",
           memory == GPULZ_MEMORY_DEVICE ? "device" : "host", mode, S, flags, (int)kind,
           devices ? devices : "unset", stream_dev);
}

static void batch(gpulz_memory memory, gpulz_mode mode, unsigned S, unsigned flags, scratch_kind kind)
{
    batch_on(memory, mode, S, flags, kind, 0);
}

/* One host batch on the GPU of n chunks of len bytes (seed: their content)
 * against one CPU call per chunk; 1 where the bytes agree. */
static int host_batch_same(size_t n, size_t len, uint64_t seed)
{
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, GPULZ_MODE_LZ, 2, 0);
    size_t bound = gpulz_compress_bound(len, &p), want_len = 0;
    uint8_t *in = malloc(n * len), *out = malloc(n * bound), *want = malloc(bound);
    const void **src = calloc(n, sizeof *src);
    void **dst = calloc(n, sizeof *dst);
    size_t *lens = calloc(n, sizeof *lens), *caps = calloc(n, sizeof *caps), *got = calloc(n, sizeof *got);
    int *st = calloc(n, sizeof *st), same = in && out && want && src && dst && lens && caps && got && st;
    for (size_t i = 0; same && i < n; i++) {
        h5u_random(in + i * len, len, seed + i);
        for (size_t k = 0; k < len; k += 3)
            in[i * len + k] = 7; /* something to find */
        src[i] = in + i * len;
        dst[i] = out + i * bound;
        lens[i] = len;
        caps[i] = bound;
    }
    same = same && gpulz_compress_batch(n, src, lens, dst, caps, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) ==
                       GPULZ_OK;
    for (size_t i = 0; same && i < n; i++)
        same = gpulz_compress(src[i], len, want, bound, &want_len, &cpu) == GPULZ_OK && got[i] == want_len &&
               memcmp(dst[i], want, want_len) == 0;
    free(in);
    free(out);
    free(want);
    free(src);
    free(dst);
    free(lens);
    free(caps);
    free(got);
    free(st);
    return same;
}

static void *host_batch_thread(void *arg)
{
    return (void *)(intptr_t)host_batch_same(6, (size_t)3 << 20, (uint64_t)(intptr_t)arg);
}

/*
 * Host outputs larger than the download ring go through it a piece at a
 * time.  With pieces of 4 KiB (gpu_tune_ring_piece) the ring holds 16 KiB:
 * outputs of just over that to 3 MB wrap it from once to hundreds of times
 * and end at many offsets in a piece, one lane taking them all in turn or
 * eight lanes a few each.  Host batches give the CPU's bytes and statuses
 * (one chunk damaged for decoding), and the chunks counted through the ring
 * are exactly those whose output is larger than the ring and did not fail.
 * The damaged chunk keeps its header: its room is its whole size, so its
 * lane sets the ring up and its kernels write its slot's output before the
 * checksum refuses it; that output must not reach the caller's buffer.
 */
#define RING_CHUNKS 12
static void ring_pieces(const char *lanes)
{
    static const size_t sizes[RING_CHUNKS] = {16384, 16385, 20479, 20480, 0, 65537, 4096 * 7 + 1,
                                              1 << 20, 100, 3000001, 262147, 16383};
    const size_t ring = 4 * 4096;
    CHECK(gpu_tune_ring_piece(255) == GPULZ_ERR_PARAM && gpu_tune_ring_piece(4096) == GPULZ_OK);
    setenv("GPULZ_GPU_LANES", lanes, 1);
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, GPULZ_MODE_AUTO, 2, 0);
    size_t len[RING_CHUNKS], cap[RING_CHUNKS], got[RING_CHUNKS], want_len[RING_CHUNKS], dec_len[RING_CHUNKS];
    uint8_t *in[RING_CHUNKS], *out[RING_CHUNKS], *want[RING_CHUNKS], *dec[RING_CHUNKS];
    int st[RING_CHUNKS];
    unsigned long long expect = 0;
    for (int i = 0; i < RING_CHUNKS; i++) {
        len[i] = sizes[i];
        in[i] = malloc(len[i] ? len[i] : 1);
        dec[i] = malloc(len[i] ? len[i] : 1);
        CHECK(in[i] && dec[i]);
        chunk_fill(in[i], len[i], (size_t)i + 1); /* random, runs or zeros: large and small outputs */
    }
    CHECK(gpulz_compress_batch_bound(RING_CHUNKS, len, &p, cap) > 0);
    for (int i = 0; i < RING_CHUNKS; i++) {
        out[i] = malloc(cap[i]);
        want[i] = malloc(cap[i]);
        CHECK(out[i] && want[i] &&
              gpulz_compress(in[i], len[i], want[i], cap[i], &want_len[i], &cpu) == GPULZ_OK);
        expect += want_len[i] > ring;
    }
    unsigned long long before = gpu_tune_ring_chunks();
    CHECK(gpulz_compress_batch(RING_CHUNKS, (const void *const *)in, len, (void *const *)out, cap, got, st, &p,
                               GPULZ_MEMORY_HOST, NULL, NULL, 0) == GPULZ_OK);
    for (int i = 0; i < RING_CHUNKS; i++)
        CHECKF(st[i] == GPULZ_OK && got[i] == want_len[i] && memcmp(out[i], want[i], got[i]) == 0,
               "ring, lanes %s: chunk %d (%zu bytes) compressed unlike the CPU", lanes, i, len[i]);
    CHECKF(gpu_tune_ring_chunks() - before == expect, "ring, lanes %s: %llu compressed chunks through it, not %llu",
           lanes, gpu_tune_ring_chunks() - before, expect);
    CHECK(expect > 0);
    const int bad = 9; /* 3000001 bytes, damaged mid-stream (the CPU: GPULZ_ERR_CORRUPT) */
    out[bad][got[bad] / 2] ^= 0x7f;
    expect = 0;
    for (int i = 0; i < RING_CHUNKS; i++) {
        memset(dec[i], 0xA5, len[i]);
        expect += i != bad && len[i] > ring;
    }
    before = gpu_tune_ring_chunks();
    CHECK(gpulz_decompress_batch(RING_CHUNKS, (const void *const *)out, got, (void *const *)dec, len, dec_len, st,
                                 &p, GPULZ_MEMORY_HOST, NULL, NULL, 0) != GPULZ_OK);
    for (int i = 0; i < RING_CHUNKS; i++) {
        if (i == bad) {
            size_t kept = 0;
            while (kept < len[i] && dec[i][kept] == 0xA5)
                kept++;
            CHECKF(st[i] == GPULZ_ERR_CORRUPT && kept == len[i],
                   "ring, lanes %s: the damaged chunk: status %d, %zu of its output's bytes kept", lanes, st[i], kept);
            continue;
        }
        CHECKF(st[i] == GPULZ_OK && dec_len[i] == len[i] && memcmp(dec[i], in[i], len[i]) == 0,
               "ring, lanes %s: chunk %d (%zu bytes) decoded wrong", lanes, i, len[i]);
    }
    CHECKF(gpu_tune_ring_chunks() - before == expect, "ring, lanes %s: %llu decoded chunks through it, not %llu",
           lanes, gpu_tune_ring_chunks() - before, expect);
    for (int i = 0; i < RING_CHUNKS; i++) {
        free(in[i]);
        free(out[i]);
        free(want[i]);
        free(dec[i]);
    }
    unsetenv("GPULZ_GPU_LANES");
    CHECK(gpu_tune_ring_piece(0) == GPULZ_OK);
    printf("download ring of 4 KiB pieces, %s lane(s): the CPU's bytes and statuses, outputs over the ring "
           "and only those through it\n",
           lanes);
}

/*
 * The staging a device keeps for host batches: grown for larger chunks,
 * kept for smaller ones, and two batches at once on one device (one takes
 * the kept slots, the other makes its own) both give the CPU's bytes.
 */
static void staging_reuse(void)
{
    CHECKF(host_batch_same(8, 65536, 1), "small chunks");
    CHECKF(host_batch_same(4, (size_t)9 << 20, 2), "larger chunks: the staging grows");
    CHECKF(host_batch_same(8, 65536, 3), "small chunks again in the grown staging");
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        CHECK(pthread_create(&th[t], NULL, host_batch_thread, (void *)(intptr_t)(10 + t)) == 0);
    for (int t = 0; t < 2; t++) {
        void *same = NULL;
        CHECK(pthread_join(th[t], &same) == 0);
        CHECKF(same, "two host batches at once: thread %d", t);
    }
    printf("host batches reuse their device's staging, grow it, and share the device\n");
}

/*
 * Host chunks in pinned memory are copied in place, the rest through the
 * slots, with the same bytes and statuses.  Chunks 0-3 lie in one
 * cudaHostAlloc block, 4 and 5 in malloc'd memory registered by
 * cudaHostRegister, 6 is pageable, and 7 starts in registered pages and
 * ends in unregistered ones (it must be staged).  Compressed, chunk 2's
 * pinned output gets too little room; decoded, chunk 2 is damaged, and its
 * pinned output must keep its old bytes.  The in-place copies counted are
 * the uploads of non-empty pinned inputs and the downloads of non-empty
 * outputs into pinned memory of the chunks that did not fail.
 */
#define PIN_CHUNKS 8
static void pinned_host(gpulz_mode mode)
{
    static const size_t sizes[PIN_CHUNKS] = {1 << 20, 0, 100, 3000001, 65536, 262147, 4096, 70000};
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, mode, 2, 0);
    size_t len[PIN_CHUNKS], cap[PIN_CHUNKS], got[PIN_CHUNKS], want_len[PIN_CHUNKS], dec_len[PIN_CHUNKS];
    size_t block = 0, bound_sum = 0;
    int st[PIN_CHUNKS];
    for (int i = 0; i < PIN_CHUNKS; i++) {
        len[i] = sizes[i];
        block += i < 4 ? len[i] : 0;
    }
    CHECK(gpulz_compress_batch_bound(PIN_CHUNKS, len, &p, cap) > 0);
    for (int i = 0; i < PIN_CHUNKS; i++)
        bound_sum += cap[i];
    /* the inputs: a pinned block, a registered buffer, pageable memory and
     * a mapping whose first pages only are registered */
    uint8_t *pin_in = NULL, *reg = malloc(len[4] + len[5]), *pageable = malloc(len[6]);
    CHECK(cudaHostAlloc((void **)&pin_in, block, cudaHostAllocDefault) == cudaSuccess && reg && pageable);
    CHECK(cudaHostRegister(reg, len[4] + len[5], cudaHostRegisterDefault) == cudaSuccess);
    const size_t map_len = 8 * ((len[7] + page - 1) / page) * page;
    uint8_t *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(map != MAP_FAILED);
    CHECK(cudaHostRegister(map, map_len / 2, cudaHostRegisterDefault) == cudaSuccess);
    uint8_t *in[PIN_CHUNKS];
    for (int i = 0, at = 0; i < 4; at += (int)len[i], i++)
        in[i] = pin_in + at;
    in[4] = reg;
    in[5] = reg + len[4];
    in[6] = pageable;
    in[7] = map + map_len / 2 - len[7] / 2; /* across the registered pages' end */
    for (int i = 0; i < PIN_CHUNKS; i++)
        chunk_fill(in[i], len[i], (size_t)i + 1);
    /* the outputs: chunks 0-3 in one pinned block, the rest pageable */
    uint8_t *pin_out = NULL, *want[PIN_CHUNKS];
    void *dst[PIN_CHUNKS];
    CHECK(cudaHostAlloc((void **)&pin_out, bound_sum, cudaHostAllocDefault) == cudaSuccess);
    for (int i = 0, at = 0; i < PIN_CHUNKS; at += (int)cap[i], i++) {
        dst[i] = i < 4 ? (void *)(pin_out + at) : malloc(cap[i]);
        want[i] = malloc(cap[i]);
        CHECK(dst[i] && want[i]);
        CHECK(gpulz_compress(in[i], len[i], want[i], cap[i], &want_len[i], &cpu) == GPULZ_OK);
    }
    cap[2] = 16; /* chunk 2 cannot fit */
    unsigned long long before = gpu_tune_in_place_copies(), expect = 0;
    int rc = gpulz_compress_batch(PIN_CHUNKS, (const void *const *)in, len, dst, cap, got, st, &p,
                                  GPULZ_MEMORY_HOST, NULL, NULL, 0);
    CHECKF(rc == GPULZ_ERR_DST_SIZE && st[2] == GPULZ_ERR_DST_SIZE, "pinned, mode %d: call %d, chunk 2 %d", mode,
           rc, st[2]);
    for (int i = 0; i < PIN_CHUNKS; i++) {
        expect += (i < 6 && len[i]) + (i < 4 && i != 2); /* uploads, downloads (never empty) */
        if (i == 2)
            continue;
        CHECKF(st[i] == GPULZ_OK && got[i] == want_len[i] && memcmp(dst[i], want[i], got[i]) == 0,
               "pinned, mode %d: chunk %d (%zu bytes) is not the CPU's: %d", mode, i, len[i], st[i]);
    }
    unsigned long long copies = gpu_tune_in_place_copies() - before;
    CHECKF(copies == expect, "pinned, mode %d: %llu chunk copies in place, %llu expected", mode, copies, expect);
    /* and back: the CPU's chunks, in pinned memory for 0-3 (chunk 2
     * damaged), into the inputs' memory */
    const void *csrc[PIN_CHUNKS];
    void *out[PIN_CHUNKS];
    for (int i = 0, at = 0; i < PIN_CHUNKS; at += (int)want_len[i], i++) {
        if (i < 4) {
            memcpy(pin_out + at, want[i], want_len[i]);
            csrc[i] = pin_out + at;
        } else {
            csrc[i] = want[i];
        }
        out[i] = in[i];
        memset(in[i], 0xA5, len[i]);
    }
    uint8_t *damaged = (uint8_t *)csrc[2];
    damaged[0] ^= 0x7f;
    before = gpu_tune_in_place_copies();
    rc = gpulz_decompress_batch(PIN_CHUNKS, csrc, want_len, out, len, dec_len, st, &p, GPULZ_MEMORY_HOST, NULL,
                                NULL, 0);
    CHECKF(rc != GPULZ_OK && st[2] != GPULZ_OK, "pinned, mode %d: damaged chunk 2 decodes (%d)", mode, st[2]);
    size_t kept = 0;
    while (kept < len[2] && in[2][kept] == 0xA5)
        kept++;
    CHECKF(kept == len[2], "pinned, mode %d: the damaged chunk's output was written", mode);
    expect = 0;
    for (int i = 0; i < PIN_CHUNKS; i++) {
        expect += (i < 4) + (i < 6 && i != 2 && len[i]); /* uploads (never empty), downloads */
        if (i == 2)
            continue;
        uint8_t *back = malloc(len[i] ? len[i] : 1);
        CHECK(back);
        chunk_fill(back, len[i], (size_t)i + 1);
        CHECKF(st[i] == GPULZ_OK && dec_len[i] == len[i] && memcmp(out[i], back, len[i]) == 0,
               "pinned, mode %d: chunk %d decodes wrong (%d)", mode, i, st[i]);
        free(back);
    }
    copies = gpu_tune_in_place_copies() - before;
    CHECKF(copies == expect, "pinned, mode %d: %llu chunk copies in place decoding, %llu expected", mode, copies,
           expect);
    for (int i = 0; i < PIN_CHUNKS; i++) {
        if (i >= 4)
            free(dst[i]);
        free(want[i]);
    }
    CHECK(cudaHostUnregister(reg) == cudaSuccess && cudaHostUnregister(map) == cudaSuccess);
    munmap(map, map_len);
    free(reg);
    free(pageable);
    cudaFreeHost(pin_in);
    cudaFreeHost(pin_out);
    printf("pinned host chunks, mode %d: copied in place, the CPU's bytes, failures per chunk\n", mode);
}

/*
 * Decoding into one large buffer, each chunk given the rest of it as its
 * room (dst_cap up to 64 GiB, a mapping whose pages are backed only where
 * written): the staging slots are sized by what the chunks declare, not by
 * the rooms, which asked for three times 64 GiB of pinned memory a lane and
 * failed the call.  A chunk with a damaged header gets the CPU's status.
 */
static void generous_caps(void)
{
    enum { chunks = 6, bad = 4 };
    const size_t len = (size_t)1 << 20, total = (size_t)64 << 30;
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, GPULZ_MODE_FAST, 2, 0);
    uint8_t *in = malloc(chunks * len), *big = mmap(NULL, total, PROT_READ | PROT_WRITE,
                                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (big == MAP_FAILED) {
        printf("generous rooms: skipped (no 64 GiB mapping: %s)\n", strerror(errno));
        free(in);
        return;
    }
    const size_t bound = gpulz_compress_bound(len, &cpu);
    uint8_t *z = malloc(chunks * bound);
    const void *src[chunks];
    void *dst[chunks];
    size_t zlen[chunks], cap[chunks], got[chunks];
    int st[chunks];
    CHECK(in && z);
    for (int i = 0; i < chunks; i++) {
        chunk_fill(in + i * len, len, (size_t)i + 2);
        CHECK(gpulz_compress(in + i * len, len, z + i * bound, bound, &zlen[i], &cpu) == GPULZ_OK);
        src[i] = z + i * bound;
        dst[i] = big + i * len;
        cap[i] = total - i * len;
    }
    z[bad * bound + 5] ^= 0x40; /* a header field: refused before any decoding */
    size_t cpu_len = 0;
    const int cpu_st = gpulz_decompress(src[bad], zlen[bad], in + bad * len, len, &cpu_len, &cpu);
    CHECK(cpu_st != GPULZ_OK);
    chunk_fill(in + bad * len, len, (size_t)bad + 2);
    int rc = gpulz_decompress_batch(chunks, src, zlen, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0);
    CHECKF(rc == cpu_st && st[bad] == cpu_st, "generous rooms: call %d, damaged chunk %d, the CPU's %d (%s)", rc,
           st[bad], cpu_st, gpulz_last_error());
    for (int i = 0; i < chunks; i++)
        if (i != bad)
            CHECKF(st[i] == GPULZ_OK && got[i] == len && memcmp(dst[i], in + i * len, len) == 0,
                   "generous rooms: chunk %d: %d, %zu bytes", i, st[i], got[i]);
    munmap(big, total);
    free(in);
    free(z);
    printf("decoding into rooms of up to 64 GiB: staging by the chunks' sizes, the CPU's statuses\n");
}

/*
 * NULL buffers in a host batch on the GPU: a NULL src of a nonzero length,
 * and a NULL dst with room declared, get the CPU's statuses and sizes (the
 * GPU's staging copied from NULL, and downloaded into it), and the chunks
 * beside them their bytes.
 */
static void null_buffers(void)
{
    enum { chunks = 4 };
    const size_t len = (size_t)1 << 20;
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, GPULZ_MODE_FAST, 2, 0);
    const size_t bound = gpulz_compress_bound(len, &cpu);
    uint8_t *in = malloc(chunks * len), *z = malloc(chunks * bound), *out = malloc(chunks * len);
    CHECK(in && z && out);
    for (int compress = 1; compress >= 0; compress--) {
        const void *src[chunks];
        void *dst[chunks];
        size_t slen[chunks], cap[chunks], got[2][chunks];
        int st[2][chunks], rc[2];
        for (int i = 0; i < chunks; i++) {
            chunk_fill(in + i * len, len, (size_t)i + 7);
            if (!compress)
                CHECK(gpulz_compress(in + i * len, len, z + i * bound, bound, &slen[i], &cpu) == GPULZ_OK);
        }
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < chunks; i++) {
                src[i] = compress ? (const void *)(in + i * len) : (const void *)(z + i * bound);
                dst[i] = compress ? (void *)(z + i * bound) : (void *)(out + i * len);
                cap[i] = compress ? bound : len;
                if (compress)
                    slen[i] = len;
            }
            src[1] = NULL; /* a length, no buffer */
            dst[2] = NULL; /* room declared, no buffer */
            const gpulz_params *q = b ? &p : &cpu;
            rc[b] = compress ? gpulz_compress_batch(chunks, src, slen, dst, cap, got[b], st[b], q, GPULZ_MEMORY_HOST,
                                                    NULL, NULL, 0)
                             : gpulz_decompress_batch(chunks, src, slen, dst, cap, got[b], st[b], q,
                                                      GPULZ_MEMORY_HOST, NULL, NULL, 0);
        }
        CHECKF(rc[1] == rc[0], "null buffers (%s): the GPU's call %d, the CPU's %d",
               compress ? "compress" : "decompress", rc[1], rc[0]);
        for (int i = 0; i < chunks; i++) {
            CHECKF(st[1][i] == st[0][i], "null buffers (%s): chunk %d: the GPU's %d, the CPU's %d",
                   compress ? "compress" : "decompress", i, st[1][i], st[0][i]);
            if (st[0][i] == GPULZ_OK || (!compress && st[0][i] == GPULZ_ERR_DST_SIZE))
                CHECKF(got[1][i] == got[0][i], "null buffers: chunk %d: %zu bytes, the CPU's %zu", i, got[1][i],
                       got[0][i]);
        }
        CHECKF(st[0][1] == GPULZ_ERR_PARAM && st[0][2] != GPULZ_OK && st[0][0] == GPULZ_OK && st[0][3] == GPULZ_OK,
               "null buffers: the CPU's statuses %d %d %d %d", st[0][0], st[0][1], st[0][2], st[0][3]);
        if (!compress)
            CHECK(memcmp(out, in, len) == 0 && memcmp(out + 3 * len, in + 3 * len, len) == 0);
    }
    free(in);
    free(z);
    free(out);
    printf("NULL buffers in a host batch: the CPU's statuses and sizes\n");
}

/*
 * The auto backend sends host chunks to the GPU by their sizes, decoded
 * chunks by the sizes they declare: small chunks given rooms of up to 64
 * GiB stay on the CPU, chunks at GPULZ_GPU_MIN_BYTES go to the GPU, and
 * both decode to the CPU's bytes.
 */
static void auto_by_declared(void)
{
    enum { chunks = 4 };
    const size_t small = 4096, large = (size_t)1 << 20, total = (size_t)64 << 30;
    gpulz_params p, cpu;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_AUTO;
    cpu = p;
    cpu.backend = GPULZ_BACKEND_CPU;
    uint8_t *big = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (big == MAP_FAILED) {
        printf("auto by declared sizes: skipped (no 64 GiB mapping: %s)\n", strerror(errno));
        return;
    }
    const size_t bound = gpulz_compress_bound(large, &cpu);
    uint8_t *in = malloc(chunks * large), *z = malloc(chunks * bound);
    CHECK(in && z);
    setenv("GPULZ_GPU_MIN_BYTES", "1048576", 1);
    for (int pass = 0; pass < 2; pass++) {
        const size_t len = pass ? large : small;
        const void *src[chunks];
        void *dst[chunks];
        size_t zlen[chunks], cap[chunks], got[chunks];
        int st[chunks];
        for (int i = 0; i < chunks; i++) {
            chunk_fill(in + i * len, len, (size_t)i + 1);
            CHECK(gpulz_compress(in + i * len, len, z + i * bound, bound, &zlen[i], &cpu) == GPULZ_OK);
            src[i] = z + i * bound;
            dst[i] = big + i * len;
            cap[i] = pass ? len : total - i * len;
        }
        const unsigned long long before = gpu_tune_host_batches();
        const int rc = gpulz_decompress_batch(chunks, src, zlen, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL,
                                              NULL, 0);
        const unsigned long long ran = gpu_tune_host_batches() - before;
        CHECKF(rc == GPULZ_OK && ran == (unsigned long long)pass,
               "auto by declared sizes, %zu-byte chunks: call %d, %llu batches on the GPU (%d expected)", len, rc, ran,
               pass);
        for (int i = 0; i < chunks; i++)
            CHECKF(st[i] == GPULZ_OK && got[i] == len && memcmp(dst[i], in + i * len, len) == 0,
                   "auto by declared sizes: chunk %d of %zu bytes: %d, %zu bytes", i, len, st[i], got[i]);
    }
    unsetenv("GPULZ_GPU_MIN_BYTES");
    munmap(big, total);
    free(in);
    free(z);
    printf("auto backend: 4 KB chunks with 64 GiB rooms decoded on the CPU, 1 MiB chunks on the GPU\n");
}

/*
 * Host chunks spread over several GPUs (GPULZ_DEVICE a list): the bytes
 * and statuses of one CPU call per chunk, whatever the order of the list;
 * the caller's stream is used on its own device only.  And the first of
 * the list is the device of a single-chunk call and of device buffers'
 * batches (which stay on their buffers' device).
 */
static void multi_device(int count)
{
    char list[16];
    setenv("GPULZ_DEVICE", "all", 1);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_LZ, 1, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_FAST, 4, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_AUTO, 2, GPULZ_FLAG_ADAPTIVE, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 2, 0, SCRATCH_BATCH);
    /* the list's order; the stream on the first device satisfies either
     * rule for it (CUDA before 12.8 cannot tell a stream's device) */
    snprintf(list, sizeof list, "%d,0", count - 1);
    setenv("GPULZ_DEVICE", list, 1);
    batch_on(GPULZ_MEMORY_HOST, GPULZ_MODE_LZ, 2, 0, SCRATCH_NONE, count - 1);
    batch_on(GPULZ_MEMORY_HOST, GPULZ_MODE_RATIO, 1, 0, SCRATCH_NONE, count - 1);
#if CUDART_VERSION >= 12080
    /* a stream of the second device: used there, not on the first */
    setenv("GPULZ_DEVICE", "0,1", 1);
    batch_on(GPULZ_MEMORY_HOST, GPULZ_MODE_LZ, 4, 0, SCRATCH_NONE, 1);
    /* a stream of a device not in the list: used nowhere */
    setenv("GPULZ_DEVICE", "1", 1);
    batch_on(GPULZ_MEMORY_HOST, GPULZ_MODE_FAST, 2, 0, SCRATCH_NONE, 0);
#endif
    /* a list that names no device fails the GPU backend's batch */
    setenv("GPULZ_DEVICE", "0,0", 1);
    gpulz_params p;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_GPU;
    uint8_t in[4096] = {0}, out[8192];
    const void *src[1] = {in};
    void *dst[1] = {out};
    size_t len[1] = {sizeof in}, cap[1] = {sizeof out}, got[1];
    int st[1];
    int rc = gpulz_compress_batch(1, src, len, dst, cap, got, st, &p, GPULZ_MEMORY_HOST, NULL, NULL, 0);
    CHECKF(rc == GPULZ_ERR_NO_GPU && st[0] == GPULZ_ERR_NO_GPU && strstr(gpulz_last_error(), "named twice"),
           "GPULZ_DEVICE=0,0: %d (%s)", rc, gpulz_last_error());
    unsetenv("GPULZ_DEVICE");
    printf("host batches over %d GPUs: the CPU's bytes, failures per chunk, the caller's stream on its device\n",
           count);
}

/*
 * One device batch of chunks of both formats (lz and fast, the CPU's bytes)
 * decoded at once: format 1 chunks are queued, format 2 ones go through the
 * device API; a chunk shorter than a header, one given too little room and
 * one whose output is host memory fail alone.
 */
static void mixed_decode(void)
{
    enum { truncated = 4, tight = 7, host_dst = 10 };
    gpulz_params p;
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_CPU;
    p.symbol_size = 2;
    uint8_t *in[CHUNKS], *host_dst_buf = malloc(1 << 20);
    void *src[CHUNKS], *dst[CHUNKS];
    size_t len[CHUNKS], clen[CHUNKS], cap[CHUNKS], got[CHUNKS];
    int st[CHUNKS];
    CHECK(host_dst_buf);
    for (size_t i = 0; i < CHUNKS; i++) {
        len[i] = chunk_size(i);
        in[i] = malloc(len[i] ? len[i] : 1);
        CHECK(in[i]);
        chunk_fill(in[i], len[i], i);
        p.mode = i % 2 ? GPULZ_MODE_FAST : GPULZ_MODE_LZ;
        size_t b = gpulz_compress_bound(len[i], &p);
        uint8_t *c = malloc(b);
        CHECK(c && gpulz_compress(in[i], len[i], c, b, &clen[i], &p) == GPULZ_OK);
        if (i == truncated)
            clen[i] = 20;
        CHECK(cudaMalloc(&src[i], clen[i]) == cudaSuccess);
        CHECK(cudaMemcpy(src[i], c, clen[i], cudaMemcpyHostToDevice) == cudaSuccess);
        free(c);
        cap[i] = i == tight ? len[i] / 2 : len[i];
        if (i == host_dst)
            dst[i] = host_dst_buf;
        else
            CHECK(cudaMalloc(&dst[i], len[i] ? len[i] : 1) == cudaSuccess);
    }
    /* no room: each sound chunk's size from its header, the truncated one's
     * own status (its 20 bytes hold no whole header) */
    size_t no_cap[CHUNKS] = {0};
    void *no_dst[CHUNKS] = {NULL};
    int rc = gpulz_decompress_batch(CHUNKS, (const void *const *)src, clen, no_dst, no_cap, got, st, NULL,
                                    GPULZ_MEMORY_DEVICE, NULL, NULL, 0);
    CHECKF(rc != GPULZ_OK && st[truncated] == GPULZ_ERR_TRUNCATED, "sizes asked: call %d, truncated chunk %d", rc,
           st[truncated]);
    for (size_t i = 0; i < CHUNKS; i++)
        CHECKF(i == truncated || (len[i] ? st[i] == GPULZ_ERR_DST_SIZE && got[i] == len[i] : st[i] == GPULZ_OK),
               "sizes asked, chunk %zu: %d, %zu of %zu bytes", i, st[i], got[i], len[i]);
    rc = gpulz_decompress_batch(CHUNKS, (const void *const *)src, clen, dst, cap, got, st, NULL, GPULZ_MEMORY_DEVICE,
                                NULL, NULL, 0);
    CHECKF(rc == GPULZ_ERR_TRUNCATED, "mixed decode: call status %d (%s)", rc, gpulz_last_error());
    CHECKF(st[truncated] == GPULZ_ERR_TRUNCATED && st[tight] == GPULZ_ERR_DST_SIZE && st[host_dst] == GPULZ_ERR_PARAM,
           "mixed decode: failures %d %d %d", st[truncated], st[tight], st[host_dst]);
    for (size_t i = 0; i < CHUNKS; i++) {
        if (i == truncated || i == tight || i == host_dst)
            continue;
        CHECKF(st[i] == GPULZ_OK && got[i] == len[i], "mixed decode chunk %zu: %d, %zu bytes", i, st[i], got[i]);
        uint8_t *back = malloc(len[i] ? len[i] : 1);
        CHECK(back && cudaMemcpy(back, dst[i], len[i], cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECKF(memcmp(back, in[i], len[i]) == 0, "mixed decode chunk %zu differs", i);
        free(back);
    }
    for (size_t i = 0; i < CHUNKS; i++) {
        cudaFree(src[i]);
        if (i != host_dst)
            cudaFree(dst[i]);
        free(in[i]);
    }
    free(host_dst_buf);
    printf("device batch of lz and fast chunks decoded at once, failures per chunk; sizes asked with no room\n");
}

/* Device chunks whose dsts overlap (whole caps: the host reads no device
 * header) fail the whole call before any chunk runs; apart, they decode. */
static void device_overlap(void)
{
    enum { N = 3, LEN = 100000 };
    gpulz_params p, cpu;
    gpu_and_cpu(&p, &cpu, GPULZ_MODE_FAST, 2, 0);
    uint8_t *in = malloc(N * LEN), *z = malloc(N * 2 * LEN), *back = malloc(N * LEN);
    void *d_z, *d_out;
    CHECK(in && z && back && cudaMalloc(&d_z, N * 2 * LEN) == cudaSuccess &&
          cudaMalloc(&d_out, N * LEN) == cudaSuccess);
    const void *src[N];
    void *dst[N];
    size_t zlen[N], cap[N], got[N];
    int st[N];
    for (int i = 0; i < N; i++) {
        chunk_fill(in + i * LEN, LEN, (size_t)i + 1);
        CHECK(gpulz_compress(in + i * LEN, LEN, z + i * 2 * LEN, 2 * LEN, &zlen[i], &cpu) == GPULZ_OK);
        src[i] = (uint8_t *)d_z + i * 2 * LEN;
        dst[i] = (uint8_t *)d_out + i * LEN;
        cap[i] = LEN;
    }
    CHECK(cudaMemcpy(d_z, z, N * 2 * LEN, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemset(d_out, 0xA5, N * LEN) == cudaSuccess);
    dst[2] = dst[1];
    int rc = gpulz_decompress_batch(N, src, zlen, dst, cap, got, st, &p, GPULZ_MEMORY_DEVICE, NULL, NULL, 0);
    CHECKF(rc == GPULZ_ERR_PARAM && st[0] == GPULZ_ERR_PARAM && strstr(gpulz_last_error(), "chunk 2's dst"),
           "device dsts shared: %d (%s)", rc, gpulz_last_error());
    CHECK(cudaMemcpy(back, d_out, N * LEN, cudaMemcpyDeviceToHost) == cudaSuccess);
    int untouched = 1;
    for (size_t k = 0; k < (size_t)N * LEN; k++)
        untouched &= back[k] == 0xA5;
    CHECKF(untouched, "device dsts shared: a chunk was decoded");
    dst[2] = (uint8_t *)d_out + 2 * LEN;
    rc = gpulz_decompress_batch(N, src, zlen, dst, cap, got, st, &p, GPULZ_MEMORY_DEVICE, NULL, NULL, 0);
    CHECK(rc == GPULZ_OK && cudaMemcpy(back, d_out, N * LEN, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECKF(memcmp(back, in, N * LEN) == 0, "device dsts apart: bytes differ");
    cudaFree(d_z);
    cudaFree(d_out);
    free(in);
    free(z);
    free(back);
    printf("device batch whose dsts overlap refused whole, nothing decoded; apart, decoded\n");
}

/* Direct chunk I/O from and into device memory against H5Dwrite. */
static void direct_device(hid_t file, const char *tag, int rank, const hsize_t *dims, const hsize_t *chunk)
{
    size_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    int32_t *v = malloc(n * 4), *back = malloc(n * 4);
    CHECK(v && back);
    for (size_t i = 0; i < n; i++)
        v[i] = (int32_t)((i / 5) % 300);
    void *d_v, *d_back;
    CHECK(cudaMalloc(&d_v, n * 4) == cudaSuccess && cudaMalloc(&d_back, n * 4) == cudaSuccess);
    CHECK(cudaMemcpy(d_v, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    hid_t dcpl = h5u_dcpl(rank, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t space = H5Screate_simple(rank, dims, NULL);
    char na[64], nb[64];
    snprintf(na, sizeof na, "%s_pipeline", tag);
    snprintf(nb, sizeof nb, "%s_device", tag);
    hid_t a = H5Dcreate2(file, na, H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t b = H5Dcreate2(file, nb, H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(a >= 0 && b >= 0);
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    int direct = -1;
    CHECK(gpulz_h5_write_direct_device(b, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, d_v, NULL, &direct) >= 0);
    CHECKF(direct == 1, "%s: the chunk path was not taken", tag);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    hid_t sa = H5Dget_space(a);
    hsize_t nchunks = 0;
    CHECK(H5Dget_num_chunks(a, sa, &nchunks) >= 0);
    for (hsize_t i = 0; i < nchunks; i++) {
        hsize_t off[3], size_a, size_b;
        unsigned mask_a, mask_b;
        haddr_t addr;
        uint32_t f;
        CHECK(H5Dget_chunk_info(a, sa, i, off, &mask_a, &addr, &size_a) >= 0);
        CHECK(H5Dget_chunk_info_by_coord(b, off, &mask_b, &addr, &size_b) >= 0);
        CHECKF(size_a == size_b && mask_a == mask_b, "%s chunk %llu: sizes %llu and %llu", tag,
               (unsigned long long)i, (unsigned long long)size_a, (unsigned long long)size_b);
        uint8_t *ca = malloc(size_a), *cb = malloc(size_b);
        CHECK(ca && cb && gpulz_h5_read_chunk(a, H5P_DEFAULT, off, &f, ca, (size_t)size_a) >= 0 &&
              gpulz_h5_read_chunk(b, H5P_DEFAULT, off, &f, cb, (size_t)size_b) >= 0);
        CHECKF(memcmp(ca, cb, size_a) == 0, "%s chunk %llu: bytes differ", tag, (unsigned long long)i);
        free(ca);
        free(cb);
    }
    CHECK(cudaMemset(d_back, 0xA5, n * 4) == cudaSuccess);
    direct = -1;
    CHECK(gpulz_h5_read_direct_device(a, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, d_back, NULL, &direct) >= 0 &&
          direct == 1);
    CHECK(cudaMemcpy(back, d_back, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECKF(memcmp(back, v, n * 4) == 0, "%s: device read differs", tag);
    /* no device buffer: refused on HDF5's stack, nothing decoded into NULL
     * nor written from it, the dataset as it was */
    H5E_BEGIN_TRY
    {
        direct = -1;
        CHECKF(gpulz_h5_read_direct_device(b, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, NULL, NULL, &direct) < 0 &&
                   direct == 0,
               "%s: a read into no device buffer was taken (direct %d)", tag, direct);
        direct = -1;
        CHECKF(gpulz_h5_write_direct_device(b, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, NULL, NULL, &direct) < 0 &&
                   direct == 0,
               "%s: a write from no device buffer was taken (direct %d)", tag, direct);
    }
    H5E_END_TRY;
    memset(back, 0, n * 4);
    CHECK(H5Dread(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, v, n * 4) == 0, "%s: the dataset changed after the refused write", tag);
    printf("direct %-8s device buffers: chunks identical to H5Dwrite's, read back exact; no buffer refused\n", tag);
    H5Sclose(sa);
    H5Sclose(space);
    H5Dclose(a);
    H5Dclose(b);
    H5Pclose(dcpl);
    cudaFree(d_v);
    cudaFree(d_back);
    free(v);
    free(back);
}

/*
 * Where HDF5 writes no fill value (the fill time never, or no fill value
 * defined), reading leaves the caller's elements of unallocated chunks as
 * they were, and a direct read into device memory must too: on the device's
 * chunk path (fill time never), and through host memory where the selection
 * goes HDF5's way (an undefined fill value), whose staging once carried
 * uninitialised host bytes into those elements.
 */
static void direct_device_unfilled(hid_t file)
{
    enum { CH = 1024, N = 4 * CH };
    static int32_t part[CH], back[N];
    for (int i = 0; i < CH; i++)
        part[i] = 3 * i + 1;
    void *d_back;
    CHECK(cudaMalloc(&d_back, sizeof back) == cudaSuccess);
    for (int undefined = 0; undefined < 2; undefined++) {
        hsize_t dims[1] = {N}, chunk[1] = {CH}, start[1] = {CH}, count[1] = {CH};
        const int32_t fv = 5;
        hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
        CHECK(H5Pset_fill_value(dcpl, H5T_NATIVE_INT32, undefined ? NULL : &fv) >= 0 &&
              H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0);
        hid_t space = H5Screate_simple(1, dims, NULL), ms = H5Screate_simple(1, count, NULL);
        hid_t d = H5Dcreate2(file, undefined ? "unfilled_undefined" : "unfilled_never", H5T_NATIVE_INT32, space,
                             H5P_DEFAULT, dcpl, H5P_DEFAULT);
        CHECK(d >= 0 && H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT32, ms, space, H5P_DEFAULT, part) >= 0);
        CHECK(cudaMemset(d_back, 0xA5, sizeof back) == cudaSuccess);
        int direct = -1;
        CHECK(gpulz_h5_read_direct_device(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, d_back, NULL, &direct) >= 0);
        CHECKF(direct == !undefined, "unfilled %s: direct %d", undefined ? "undefined" : "never", direct);
        CHECK(cudaMemcpy(back, d_back, sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
        for (int i = 0; i < N; i++) {
            const int32_t want = i >= CH && i < 2 * CH ? part[i - CH] : (int32_t)0xA5A5A5A5;
            CHECKF(back[i] == want, "unfilled %s: element %d is %d, not %d", undefined ? "undefined" : "never", i,
                   back[i], want);
        }
        H5Sclose(ms);
        H5Sclose(space);
        H5Dclose(d);
        H5Pclose(dcpl);
    }
    cudaFree(d_back);
    printf("direct device reads leave unallocated chunks' elements where no fill value is written "
           "(chunk path and HDF5's)\n");
}

int main(void)
{
    if (!gpulz_gpu_available()) {
        printf("no usable GPU: %s\n", gpulz_last_error());
        return 77;
    }
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_LZ, 1, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_FAST, 4, 0, SCRATCH_NONE);
    /* device chunks: queued (format 1) with the batch's scratch and the
     * library's, per chunk where the scratch has no room for a lane, and
     * adaptive chunks that take the S = 1 encoding after the queue */
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 2, 0, SCRATCH_BATCH);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 4, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 2, 0, SCRATCH_ONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 2, GPULZ_FLAG_ADAPTIVE, SCRATCH_BATCH);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_LZ, 8, GPULZ_FLAG_ADAPTIVE, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_FAST, 1, 0, SCRATCH_BATCH);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_RATIO, 2, GPULZ_FLAG_ADAPTIVE, SCRATCH_NONE);
    /* a device's lanes: one (chunks one after another) and the most, for
     * host batches and for device chunks without the caller's scratch */
    setenv("GPULZ_GPU_LANES", "1", 1);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_AUTO, 2, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_FAST, 2, 0, SCRATCH_NONE);
    setenv("GPULZ_GPU_LANES", "8", 1);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_AUTO, 2, GPULZ_FLAG_ADAPTIVE, SCRATCH_NONE);
    batch(GPULZ_MEMORY_HOST, GPULZ_MODE_LZ, 4, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_AUTO, 2, 0, SCRATCH_NONE);
    batch(GPULZ_MEMORY_DEVICE, GPULZ_MODE_RATIO, 4, GPULZ_FLAG_ADAPTIVE, SCRATCH_NONE);
    unsetenv("GPULZ_GPU_LANES");
    generous_caps();
    null_buffers();
    auto_by_declared();
    pinned_host(GPULZ_MODE_LZ);
    pinned_host(GPULZ_MODE_AUTO);
    setenv("GPULZ_GPU_LANES", "1", 1);
    pinned_host(GPULZ_MODE_FAST);
    unsetenv("GPULZ_GPU_LANES");
    mixed_decode();
    device_overlap();
    staging_reuse();
    ring_pieces("1");
    ring_pieces("8");
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count >= 2)
        multi_device(count);
    else
        printf("one GPU: host batches over several are not checked here (gpu_multidev_test needs two)\n");
    hid_t file = H5Fcreate("h5_gpu_batch.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    hsize_t d1[1] = {1000003}, c1[1] = {65536};
    direct_device(file, "1d", 1, d1, c1);
    hsize_t d2[2] = {1000, 777}, c2[2] = {256, 128};
    direct_device(file, "2d", 2, d2, c2);
    hsize_t d3[3] = {40, 21, 37}, c3[3] = {16, 16, 16};
    direct_device(file, "3d", 3, d3, c3);
    /* more chunks than a batch (1024): batches pipelined, edge chunks in each */
    hsize_t d4[2] = {2500, 70}, c4[2] = {1, 64};
    direct_device(file, "many_batches", 2, d4, c4);
    direct_device_unfilled(file);
    CHECK(H5Fclose(file) >= 0);
    remove("h5_gpu_batch.h5");
    return 0;
}
