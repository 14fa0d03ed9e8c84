/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec.c - the public host-buffer API: parameters, the CPU backend's
 * compression and decompression over blocks, the backend choice, and the
 * host side of the chunk driver (chunk.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cpu_codec.h"
#include "gpulz_chunk.h"
#include "gpulz_env.h"
#include "gpulz_gpu.h"
#include "gpulz_parallel.h"
#include "gpulz_v2.h"

void gpulz_params_init(gpulz_params *p)
{
    p->symbol_size = 1;
    p->window = GPULZ_WINDOW_DEFAULT;
    p->block_symbols = GPULZ_BLOCK_DEFAULT;
    p->flags = 0;
    p->threads = 0;
    p->backend = GPULZ_BACKEND_AUTO;
    p->mode = GPULZ_MODE_DEFAULT;
}

const char *gpulz_mode_name(gpulz_mode mode)
{
    static const char *const names[GPULZ_MODE_COUNT] = {"lz", "fast", "ratio", "auto"};
    return (unsigned)mode < GPULZ_MODE_COUNT ? names[mode] : NULL;
}

unsigned gpulz_level_window(int level)
{
    static const unsigned windows[] = {32, 64, 128, 255};
    return level >= GPULZ_LEVEL_MIN && level <= GPULZ_LEVEL_MAX ? windows[level - 1] : 0;
}

/* The fields that say where the work runs: all that decompression reads. */
static int run_params_check(const gpulz_params *p)
{
    /* each thread costs a stack and an encoder scratch: an unchecked count
     * (a negative int cast to unsigned) would mean gigabytes of them */
    int rc = gpulz_threads_check(p->threads);
    if (rc != GPULZ_OK)
        return rc;
    if (!gpulz_backend_name(p->backend))
        return gpulz_fail(GPULZ_ERR_PARAM, "backend %d is not auto, cpu or gpu", (int)p->backend);
    return GPULZ_OK;
}

int gpulz_params_check(const gpulz_params *p)
{
    if (!p)
        return gpulz_fail(GPULZ_ERR_PARAM, "no parameters given");
    unsigned S = p->symbol_size, C = p->block_symbols;
    if (S != 1 && S != 2 && S != 4 && S != 8)
        return gpulz_fail(GPULZ_ERR_PARAM, "symbol size %u is not 1, 2, 4 or 8", S);
    if (p->window < GPULZ_WINDOW_MIN || p->window > GPULZ_WINDOW_MAX)
        return gpulz_fail(GPULZ_ERR_PARAM, "window %u is out of %d..%d", p->window,
                          GPULZ_WINDOW_MIN, GPULZ_WINDOW_MAX);
    if (C < GPULZ_BLOCK_MIN || C > GPULZ_BLOCK_MAX || (C & (C - 1)))
        return gpulz_fail(GPULZ_ERR_PARAM, "block size %u is not a power of two in %d..%d symbols",
                          C, GPULZ_BLOCK_MIN, GPULZ_BLOCK_MAX);
    if (p->flags & ~GPULZ_FLAGS_KNOWN)
        return gpulz_fail(GPULZ_ERR_PARAM, "unknown encoder flags 0x%x", p->flags & ~GPULZ_FLAGS_KNOWN);
    if (!gpulz_mode_name(p->mode))
        return gpulz_fail(GPULZ_ERR_PARAM, "mode %d is not lz, fast, ratio or auto", (int)p->mode);
    return run_params_check(p);
}

size_t gpulz_compress_bound(size_t n, const gpulz_params *p)
{
    gpulz_layout L;
    if (gpulz_params_check(p) != GPULZ_OK || gpulz_layout_make(&L, n, p->symbol_size, p->window,
                                                                p->block_symbols) != GPULZ_OK)
        return 0;
    if (L.table_end > SIZE_MAX - n)
        return 0;
    if (p->mode != GPULZ_MODE_LZ) {
        /* S = 1 has the most blocks and symbols, so the largest bound */
        uint64_t b = gpulz_v2_bound(n, p->symbol_size, p->block_symbols);
        uint64_t b1 = p->flags & GPULZ_FLAG_ADAPTIVE ? gpulz_v2_bound(n, 1, p->block_symbols) : b;
        if (!b || !b1 || b > SIZE_MAX || b1 > SIZE_MAX)
            return 0;
        return (size_t)(b > b1 ? b : b1);
    }
    size_t bound = (size_t)L.table_end + n;
    if (p->flags & GPULZ_FLAG_ADAPTIVE) {
        /* S = 1 has the most blocks, so the largest table */
        gpulz_layout L1;
        gpulz_layout_make(&L1, n, 1, p->window, p->block_symbols);
        if (L1.table_end > SIZE_MAX - n)
            return 0;
        if ((size_t)L1.table_end + n > bound)
            bound = (size_t)L1.table_end + n;
    }
    return bound;
}

/* ---- compression on the CPU ------------------------------------------ */

typedef struct encode_job {
    const uint8_t *src;
    uint8_t *dst;               /* capacity table_end + n */
    const gpulz_layout *L;
    gpulz_cpu_scratch **scratch; /* one per worker */
} encode_job;

/* A worker's encoder scratch (gpulz_workers_alloc): a thread count beyond
 * what memory allows then means fewer workers, not a failure. */
static int encode_init(void *ctx, unsigned worker)
{
    encode_job *J = ctx;
    if (!(J->scratch[worker] = gpulz_cpu_scratch_new()))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate encoder scratch");
    return GPULZ_OK;
}

/* The stages the CPU backend implements; a chunk needing another is refused
 * once, before any block (the list of format 1 is LZSS alone, so a block
 * is LZSS-coded or stored raw, FORMAT.md §6 step 3). */
static const gpulz_stage_id cpu_stages[] = {GPULZ_STAGE_LZSS, GPULZ_STAGE_DELTA, GPULZ_STAGE_RANS,
                                            GPULZ_STAGE_CHECKSUM, GPULZ_STAGE_TOKENS};
#define CPU_STAGE_COUNT (sizeof cpu_stages / sizeof cpu_stages[0])

static int cpu_stages_check(const gpulz_layout *L)
{
    return gpulz_stages_supported(L, cpu_stages, CPU_STAGE_COUNT, "CPU");
}

/* Encode block k into its raw-size slot; compaction squeezes the gaps later. */
static int encode_one(void *ctx, unsigned worker, uint64_t k)
{
    encode_job *J = ctx;
    const gpulz_layout *L = J->L;
    uint64_t off = k * L->block_symbols * L->symbol_size;
    unsigned c = gpulz_block_raw_size(L, k) / L->symbol_size;
    uint32_t e = gpulz_cpu_encode_block(J->src + off, c, L->symbol_size, L->window,
                                        J->dst + L->table_end + off, J->scratch[worker]);
    gpulz_put_u32(J->dst + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k, e);
    return 0;
}

/* dst has room for table_end + n bytes. */
static int cpu_compress(const uint8_t *src, const gpulz_layout *L, uint8_t *dst, size_t *dst_len,
                        unsigned threads)
{
    int rc = cpu_stages_check(L);
    if (rc != GPULZ_OK)
        return rc;
    unsigned workers = gpulz_worker_count(threads, L->blocks);
    gpulz_cpu_scratch **scratch = calloc(workers, sizeof *scratch);
    if (!scratch)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate encoder scratch");
    gpulz_header_write(dst, L);
    encode_job J = {src, dst, L, scratch};
    if ((rc = gpulz_workers_alloc(&workers, encode_init, &J)) != GPULZ_OK ||
        (rc = gpulz_parallel_for(L->blocks, workers, GPULZ_BLOCK_GRAIN, NULL, encode_one, &J)) != GPULZ_OK)
        goto done;
    /* Each block sits in a slot of its raw size; move them together.  A
     * block never grows, so every destination is at or before its source. */
    uint64_t pos = L->table_end, slot = L->table_end;
    for (uint64_t k = 0; k < L->blocks; k++) {
        uint32_t size = gpulz_get_u32(dst + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k) &
                        GPULZ_SIZE_MASK;
        if (pos != slot)
            memmove(dst + pos, dst + slot, size);
        pos += size;
        slot += gpulz_block_raw_size(L, k);
    }
    if (L->tail) /* src may be NULL when n is 0 */
        memcpy(dst + pos, src + L->symbols * L->symbol_size, L->tail);
    *dst_len = pos + L->tail;
done:
    for (unsigned w = 0; w < workers; w++)
        gpulz_cpu_scratch_free(scratch[w]);
    free(scratch);
    return rc;
}

static _Thread_local gpulz_backend last_backend = GPULZ_BACKEND_CPU;
static _Thread_local char last_why[200] = "requested";

gpulz_backend gpulz_last_backend(const char **why)
{
    if (why)
        *why = last_why;
    return last_backend;
}

static void note_backend(gpulz_backend b, const char *why, const char *detail)
{
    last_backend = b;
    snprintf(last_why, sizeof last_why, "%s%s%s", why, detail ? ": " : "", detail ? detail : "");
}

/* Whether to try the GPU first; notes the CPU's reason when not. */
static int want_gpu(const gpulz_params *p, size_t n)
{
    if (p->backend == GPULZ_BACKEND_GPU)
        return 1;
    /* a GPU known to be missing comes first: "below the GPU threshold"
     * would promise a GPU to larger inputs; only an input that would run
     * there pays for starting CUDA to find out */
    if (p->backend == GPULZ_BACKEND_CPU)
        note_backend(GPULZ_BACKEND_CPU, "requested", NULL);
    else if (!gpulz_gpu_maybe_usable())
        note_backend(GPULZ_BACKEND_CPU, "no usable GPU", NULL);
    else if (n < gpulz_gpu_min_bytes())
        note_backend(GPULZ_BACKEND_CPU, "below the GPU threshold", NULL);
    else if (!gpulz_gpu_usable())
        note_backend(GPULZ_BACKEND_CPU, "no usable GPU", NULL);
    else
        return 1;
    return 0;
}

/* After a GPU attempt: 1 if its result stands, 0 to run the CPU instead. */
static int gpu_result_stands(const gpulz_params *p, int rc)
{
    if (rc == GPULZ_OK) {
        char why[48];
        snprintf(why, sizeof why, "%s, device %d", p->backend == GPULZ_BACKEND_GPU ? "requested" : "auto",
                 gpulz_gpu_last_device());
        note_backend(GPULZ_BACKEND_GPU, why, NULL);
        return 1;
    }
    if (p->backend == GPULZ_BACKEND_GPU || rc == GPULZ_ERR_CORRUPT)
        return 1;
    note_backend(GPULZ_BACKEND_CPU, "GPU failed, CPU fallback", gpulz_last_error());
    return 0;
}

/* The host API's side of the chunk driver: the input in host memory, work
 * in dst when it holds the worst case, else in buffers of our own. */
typedef struct host_job {
    const uint8_t *src;
    const gpulz_params *p;
    uint8_t *dst;
    size_t dst_cap, bound;
    uint8_t *own[2];
} host_job;

static int host_buffer(void *ctx, int i, size_t need, uint8_t **out, size_t *cap)
{
    host_job *J = ctx;
    (void)need; /* the bound covers both encodings */
    if (i == 0 && J->dst && J->dst_cap >= J->bound) {
        *out = J->dst;
        *cap = J->dst_cap;
        return GPULZ_OK;
    }
    if (!(J->own[i] = malloc(J->bound)))
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate %zu bytes", J->bound);
    *out = J->own[i];
    *cap = J->bound;
    return GPULZ_OK;
}

/* One encoding: on the GPU where wanted (auto falls back to the CPU, which
 * writes the same bytes), else on the CPU. */
static int host_encode(void *ctx, const gpulz_layout *L, uint8_t *out, size_t cap, size_t *len)
{
    host_job *J = ctx;
    int rc;
    (void)cap; /* at least the bound */
    if (want_gpu(J->p, (size_t)L->n)) {
        rc = gpulz_gpu_compress_host(J->src, L, out, len);
        if (gpu_result_stands(J->p, rc))
            return rc;
    }
    return cpu_compress(J->src, L, out, len, J->p->threads);
}

static int host_move(void *ctx, uint8_t *dst, const uint8_t *src, size_t len)
{
    (void)ctx;
    memcpy(dst, src, len);
    return GPULZ_OK;
}

static void host_release(void *ctx)
{
    host_job *J = ctx;
    free(J->own[0]);
    free(J->own[1]);
}

static const gpulz_chunk_ops host_ops = {host_buffer, host_encode, host_move, host_release};

/* ---- format 2 on the host ------------------------------------------------- */

/* A candidate's room: the caller's output (room) when it is free
 * (*room_used 0) and holds cap bytes, else a buffer of its own. */
static int v2_room(size_t cap, uint8_t *room, size_t room_cap, int *room_used, uint8_t **out)
{
    if (room && !*room_used && room_cap >= cap) {
        *out = room;
        *room_used = 1;
    } else if (!(*out = malloc(cap))) {
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate %zu bytes", cap);
    }
    return GPULZ_OK;
}

/* One candidate on the CPU: a format 2 chunk of mode with symbol size S, or
 * with mode lz format 1 through the driver (on the GPU where it would run). */
static int v2_candidate(const uint8_t *src, size_t n, unsigned S, gpulz_mode mode, const gpulz_params *p,
                        size_t beat, uint8_t *room, size_t room_cap, int *room_used, uint8_t **out, size_t *len)
{
    gpulz_params q = *p;
    q.symbol_size = S;
    q.mode = mode;
    q.flags &= ~GPULZ_FLAG_ADAPTIVE; /* the caller applies the rule once, to the best */
    size_t cap = gpulz_compress_bound(n, &q);
    int rc;
    if (!cap)
        return gpulz_fail(GPULZ_ERR_PARAM, "input of %zu bytes is too large", n);
    if ((rc = v2_room(cap, room, room_cap, room_used, out)) != GPULZ_OK)
        return rc;
    if (mode == GPULZ_MODE_LZ) {
        host_job J = {src, &q, NULL, 0, cap, {NULL, NULL}};
        return gpulz_chunk_compress(&host_ops, &J, n, &q, *out, cap, len);
    }
    /* want_gpu or the GPU's failure noted why this runs on the CPU */
    return gpulz_v2_encode_beat(src, n, S, mode, &q, beat, *out, len);
}

/* A candidate's buffer given up: room becomes free again, a buffer of its
 * own is freed. */
static void v2_drop(uint8_t *buf, const uint8_t *room, int *room_used)
{
    if (buf && buf == room)
        *room_used = 0;
    else
        free(buf);
}

/* The backend of the best chunk so far, and why, for gpulz_last_backend. */
typedef struct v2_origin {
    gpulz_backend backend;
    char why[sizeof last_why];
} v2_origin;

static void v2_origin_take(v2_origin *o)
{
    o->backend = last_backend;
    memcpy(o->why, last_why, sizeof o->why);
}

/* Keep out (len bytes) when it is the first or strictly shorter than *best
 * (FORMAT.md §19: the first of the shortest). */
static void v2_keep(uint8_t *out, size_t len, uint8_t *room, int *room_used, uint8_t **best, size_t *best_len,
                    v2_origin *origin)
{
    if (!*best || len < *best_len) {
        v2_drop(*best, room, room_used);
        *best = out;
        *best_len = len;
        v2_origin_take(origin);
    } else {
        v2_drop(out, room, room_used);
    }
}

/* FORMAT.md §19: the candidates of a mode for symbol size S, the shortest
 * kept.  The format 2 ones run on the GPU where it would, the input sent
 * once for all of them; the CPU runs them where it would not, or failed.
 * Candidates are written into room (the caller's output) while it is free
 * and large enough, so that the usual case copies nothing; *best may be room. */
static int v2_best(const uint8_t *src, size_t n, unsigned S, const gpulz_params *p, uint8_t *room,
                   size_t room_cap, int *room_used, uint8_t **best, size_t *best_len, v2_origin *origin)
{
    gpulz_mode list[GPULZ_V2_CANDIDATES_MAX];
    const unsigned count = gpulz_v2_candidates(p, list);
    unsigned i = 0, v2 = 0;
    int rc = GPULZ_OK;
    gpulz_params q = *p;
    q.symbol_size = S;
    q.flags &= ~GPULZ_FLAG_ADAPTIVE;
    *best = NULL;
    while (v2 < count && list[v2] != GPULZ_MODE_LZ)
        v2++;
    if (v2 && want_gpu(&q, n)) {
        uint8_t *out = NULL;
        size_t len = 0, cap = gpulz_compress_bound(n, &q);
        if (!cap)
            return gpulz_fail(GPULZ_ERR_PARAM, "input of %zu bytes is too large", n);
        if ((rc = v2_room(cap, room, room_cap, room_used, &out)) != GPULZ_OK)
            return rc;
        rc = gpulz_gpu_compress_v2_host(src, n, &q, list, v2, out, cap, &len);
        if (gpu_result_stands(&q, rc)) {
            if (rc != GPULZ_OK) {
                v2_drop(out, room, room_used);
                return rc;
            }
            v2_keep(out, len, room, room_used, best, best_len, origin);
            i = v2;
        } else {
            v2_drop(out, room, room_used);
        }
    }
    for (; i < count; i++) {
        uint8_t *out = NULL;
        size_t len = 0;
        rc = v2_candidate(src, n, S, list[i], p, *best ? *best_len : 0, room, room_cap, room_used, &out, &len);
        if (rc == GPULZ_NOT_SHORTER) {
            v2_drop(out, room, room_used);
            rc = GPULZ_OK;
            continue;
        }
        if (rc != GPULZ_OK) {
            v2_drop(out, room, room_used);
            v2_drop(*best, room, room_used);
            *best = NULL;
            return rc;
        }
        v2_keep(out, len, room, room_used, best, best_len, origin);
    }
    return GPULZ_OK;
}

static int host_compress_v2(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap, size_t *dst_len,
                            const gpulz_params *p)
{
    uint8_t *best = NULL, *best1 = NULL;
    size_t len = 0, len1 = 0;
    int room_used = 0;
    v2_origin origin, origin1;
    memset(&origin, 0, sizeof origin);
    int rc = v2_best(src, n, p->symbol_size, p, dst, dst_cap, &room_used, &best, &len, &origin);
    if (rc == GPULZ_OK && gpulz_adaptive_retry(p, n, len)) {
        if ((rc = v2_best(src, n, 1, p, dst, dst_cap, &room_used, &best1, &len1, &origin1)) == GPULZ_OK &&
            len1 < len) {
            v2_drop(best, dst, &room_used);
            best = best1;
            len = len1;
            best1 = NULL;
            origin = origin1;
        }
    }
    if (rc == GPULZ_OK) {
        /* a chunk written in dst fits it: its bound did */
        if (best != dst && (len > dst_cap || !dst)) {
            rc = gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %zu exceeds the output capacity %zu", len,
                            dst_cap);
        } else {
            if (best != dst)
                memcpy(dst, best, len);
            *dst_len = len;
        }
        /* the backend of the chunk kept, not of the last candidate */
        note_backend(origin.backend, origin.why, NULL);
    }
    v2_drop(best, dst, &room_used);
    v2_drop(best1, dst, &room_used);
    return rc;
}

/* Whether [a, a + an) and [b, b + bn) share a byte: an encoder reads its
 * input after it has written output, so in-place calls wrote chunks of
 * overwritten data, auto's with a checksum to match. */
static int buffers_overlap(const void *a, size_t an, const void *b, size_t bn)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return an && bn && a && b && x < y + bn && y < x + an;
}

int gpulz_compress(const void *src, size_t n, void *dst, size_t dst_cap, size_t *dst_len,
                   const gpulz_params *p)
{
    int rc = gpulz_params_check(p);
    if (rc != GPULZ_OK)
        return rc;
    if ((!src && n) || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    if (buffers_overlap(src, n, dst, dst_cap))
        return gpulz_fail(GPULZ_ERR_PARAM, "src and dst overlap");
    size_t bound = gpulz_compress_bound(n, p);
    if (bound == 0)
        return gpulz_fail(GPULZ_ERR_PARAM, "input of %zu bytes is too large", n);
    if (p->mode != GPULZ_MODE_LZ)
        return host_compress_v2(src, n, dst, dst_cap, dst_len, p);
    host_job J = {src, p, dst, dst_cap, bound, {NULL, NULL}};
    return gpulz_chunk_compress(&host_ops, &J, n, p, dst, dst_cap, dst_len);
}

/* ---- decompression ---------------------------------------------------- */

int gpulz_chunk_info_get(const void *src, size_t n, gpulz_chunk_info *info)
{
    gpulz_layout L;
    uint64_t raw = 0;
    if (!src || !info)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    int rc = gpulz_header_parse(src, n, &L, &raw);
    /* format 2 has no table of sizes: its streams' headers say how long it is */
    if (rc == GPULZ_OK && L.version == 2)
        rc = gpulz_v2_span_check(src, n, &L);
    /* a table of 2-byte blocks adds up, yet no block of 2 bytes decodes to
     * its symbols: callers (gpulz info --verify) allocate the declared size */
    if (rc == GPULZ_OK)
        rc = gpulz_blocks_fit(&L, n, GPULZ_ERR_CORRUPT);
    if (rc != GPULZ_OK)
        return rc;
    const uint8_t *h = src;
    info->format_version = h[4];
    info->flags = h[5];
    info->symbol_size = L.symbol_size;
    info->window = L.window;
    info->block_symbols = L.block_symbols;
    info->uncompressed_size = L.n;
    info->block_count = L.blocks;
    info->raw_blocks = raw;
    info->header_size = (size_t)L.table_end;
    info->compressed_size = n;
    return GPULZ_OK;
}

int gpulz_declared_size(const void *src, size_t n, gpulz_layout *L)
{
    int rc = gpulz_header_read(src, n, L);
    /* format 2's n against its streams' headers (a few of them, not the
     * streams): callers allocate what this returns, and a header that lies
     * about n would otherwise have them allocate it before any decoder
     * looked further */
    if (rc == GPULZ_OK && L->version == 2)
        rc = gpulz_v2_span_check(src, n, L);
    return rc;
}

int gpulz_decompressed_size(const void *src, size_t n, uint64_t *size)
{
    if (!src || !size)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    gpulz_layout L;
    int rc = gpulz_declared_size(src, n, &L);
    /* format 1's n against its blocks at their fewest bytes, the table not
     * walked (which would cost every read through the filter O(nb)): the
     * chunk ends before what its header declares */
    if (rc == GPULZ_OK)
        rc = gpulz_blocks_fit(&L, n, GPULZ_ERR_TRUNCATED);
    if (rc == GPULZ_OK)
        *size = L.n;
    return rc;
}

/* The host API's side of the decompression driver: the chunk in host
 * memory, decoded on the CPU or by the GPU's host path. */
typedef struct host_chunk {
    const uint8_t *src;
    size_t n;
    unsigned threads;
} host_chunk;

static int host_header(void *ctx, const uint8_t **bytes)
{
    *bytes = ((host_chunk *)ctx)->src;
    return GPULZ_OK;
}

typedef struct decode_job {
    const uint8_t *src;
    uint8_t *dst;
    const gpulz_layout *L;
    const uint64_t *start; /* where each block starts in src */
} decode_job;

static int decode_one(void *ctx, unsigned worker, uint64_t k)
{
    (void)worker;
    decode_job *J = ctx;
    const gpulz_layout *L = J->L;
    uint32_t e = gpulz_get_u32(J->src + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k);
    uint32_t raw = gpulz_block_raw_size(L, k);
    uint8_t *out = J->dst + k * L->block_symbols * L->symbol_size;
    if (e & GPULZ_RAW_BIT) { /* stored: no stage ran */
        memcpy(out, J->src + J->start[k], raw);
        return GPULZ_OK;
    }
    return gpulz_cpu_decode_block(J->src + J->start[k], e & GPULZ_SIZE_MASK, out,
                                  raw / L->symbol_size, L->symbol_size, L->window, k);
}

/* The table was checked by the driver: every entry fits its block. */
static int cpu_decode(void *ctx, const gpulz_layout *L, uint8_t *dst)
{
    const host_chunk *C = ctx;
    if (L->version == 2)
        return gpulz_v2_decode(C->src, C->n, L, dst, C->threads);
    uint64_t *start = malloc((L->blocks ? L->blocks : 1) * sizeof *start);
    if (!start)
        return gpulz_fail(GPULZ_ERR_NOMEM, "cannot allocate the offsets of %llu blocks",
                          (unsigned long long)L->blocks);
    uint64_t pos = L->table_end;
    for (uint64_t k = 0; k < L->blocks; k++) {
        start[k] = pos;
        pos += gpulz_get_u32(C->src + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k) & GPULZ_SIZE_MASK;
    }
    decode_job J = {C->src, dst, L, start};
    int rc = gpulz_parallel_for(L->blocks, gpulz_worker_count(C->threads, L->blocks), GPULZ_BLOCK_GRAIN,
                                NULL, decode_one, &J);
    /* only with a tail: dst may be NULL for an empty chunk, and NULL + 0 is undefined */
    if (rc == GPULZ_OK && L->tail)
        memcpy(dst + L->symbols * L->symbol_size, C->src + pos, L->tail);
    free(start);
    return rc;
}

static int gpu_decode(void *ctx, const gpulz_layout *L, uint8_t *dst)
{
    const host_chunk *C = ctx;
    return gpulz_gpu_decompress_host(C->src, C->n, L, dst);
}

static const gpulz_chunk_dec_ops cpu_dec_ops = {"CPU", cpu_stages, CPU_STAGE_COUNT, 0, host_header,
                                                cpu_decode};
static const gpulz_chunk_dec_ops gpu_dec_ops = {"GPU", gpulz_gpu_stages, GPULZ_GPU_STAGE_COUNT, 0,
                                                host_header, gpu_decode};

int gpulz_decompress(const void *src, size_t n, void *dst, size_t dst_cap, size_t *dst_len,
                     const gpulz_params *p)
{
    gpulz_params defaults;
    if (!p) {
        gpulz_params_init(&defaults);
        p = &defaults;
    }
    /* an empty chunk may be NULL, as an empty input may be compressing and
     * a batch's src[i] where src_len[i] is 0: it is then truncated */
    if ((!src && n) || !dst_len)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    if (buffers_overlap(src, n, dst, dst_cap))
        return gpulz_fail(GPULZ_ERR_PARAM, "src and dst overlap");
    int rc = run_params_check(p);
    if (rc != GPULZ_OK)
        return rc;
    /* the backend goes by the uncompressed size: the driver in two halves,
     * the layout read once (both backends read the chunk from host memory) */
    host_chunk C = {src, n, p->threads};
    gpulz_layout L;
    rc = gpulz_chunk_read_layout(&cpu_dec_ops, &C, n, dst, dst_cap, &L, dst_len);
    if (rc != GPULZ_OK)
        return rc;
    /* a chunk whose stages the GPU lacks goes to the CPU unless the GPU was
     * required (which then fails with the stage it lacks) */
    if (want_gpu(p, (size_t)L.n) &&
        (p->backend == GPULZ_BACKEND_GPU ||
         gpulz_stages_supported(&L, gpulz_gpu_stages, GPULZ_GPU_STAGE_COUNT, "GPU") == GPULZ_OK ||
         (note_backend(GPULZ_BACKEND_CPU, "no GPU stage", gpulz_last_error()), 0))) {
        rc = gpulz_chunk_decode_blocks(&gpu_dec_ops, &C, &L, dst, dst_len);
        if (gpu_result_stands(p, rc))
            return rc;
    }
    return gpulz_chunk_decode_blocks(&cpu_dec_ops, &C, &L, dst, dst_len);
}
