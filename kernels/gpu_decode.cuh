/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_decode.cuh - the GPU decoder of docs/FORMAT.md §5, with every check of
 * §9: one thread block of GPULZ_DEC_THREADS threads per compressed block.
 * Internal; included by gpu_launch.cu (and the emulator) only.
 *
 * Decoding in parallel: a token's byte position follows from the flag bits
 * alone (a literal takes S bytes, a match 2), so a block-wide scan of the
 * match counts of each thread's run of tokens places every thread in the
 * input; a second scan of the symbols each run produces (1 per literal, L per
 * match) places it in the output.  Literal symbols go to shared memory; every
 * output symbol gets a pointer to its source (itself for a literal, p - D for
 * a symbol of a match), and pointer jumping (p <- ptr[ptr[p]], a round at a
 * time) leads each one to the literal it copies.
 */
#ifndef GPULZ_GPU_DECODE_CUH
#define GPULZ_GPU_DECODE_CUH

#include <cub/block/block_scan.cuh>

#include "gpu_common.cuh"

#define GPULZ_DEC_THREADS 256

struct gpulz_dec_args {
    const uint8_t *src;   /* the whole chunk */
    uint64_t n;           /* its length */
    const uint64_t *off;  /* block k starts at table_end + off[k] */
    uint8_t *dst;
    unsigned *err;
    uint64_t table_end, m, tail, k0;
    unsigned C, W;
};

/* The decoder's dynamic shared memory, one layout for the launch and the
 * kernel: the literal symbols at 0, then two arrays of a source position per
 * output symbol, which pointer jumping swaps. */
struct gpulz_dec_smem {
    size_t cur, nxt, total;
};

GPULZ_HDI gpulz_dec_smem gpulz_dec_smem_layout(unsigned C, unsigned S)
{
    gpulz_dec_smem m;
    m.cur = (size_t)C * S;
    m.nxt = m.cur + sizeof(uint16_t) * C;
    m.total = m.nxt + sizeof(uint16_t) * C;
    return m;
}

/*
 * Table entries to sizes (size[nb] = 0, so that an exclusive scan of nb + 1
 * sizes ends with the total), each entry checked against its block's raw
 * size (FORMAT.md §3).
 */
static __global__ void __launch_bounds__(256) gpulz_table_sizes_kernel(const uint8_t *table, uint64_t nb,
                                                                uint64_t m, unsigned C, unsigned S,
                                                                uint64_t *size, unsigned *err)
{
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k <= nb;
         k += (uint64_t)gridDim.x * blockDim.x) {
        if (k == nb) {
            size[k] = 0;
            continue;
        }
        uint32_t e = gpulz_get_u32(table + GPULZ_TABLE_ENTRY_SIZE * k);
        uint32_t sz = e & GPULZ_SIZE_MASK;
        if (!gpulz_table_entry_ok(e, gpulz_raw_size(k, m, C, S))) {
            gpulz_dev_error(err, GPULZ_DEV_ERR_CORRUPT);
            sz = 0;
        }
        size[k] = sz;
    }
}

/* The sizes must add up to the chunk (FORMAT.md §3); then the tail bytes.
 * Blocks and tail that end past the chunk are GPULZ_DEV_ERR_TRUNCATED, as
 * gpulz_header_parse says GPULZ_ERR_TRUNCATED: a damaged table entry, found
 * by the kernel before this one, stays first (the CPU checks the entries
 * before their sum), and the decode kernel, which stops where the error
 * word is set, cannot turn it into CORRUPT. */
static __global__ void gpulz_dec_finish_kernel(gpulz_dec_args a, uint64_t nb, unsigned S)
{
    const uint64_t end = a.table_end + a.off[nb];
    if (end > a.n || a.n - end != a.tail) {
        if (threadIdx.x == 0)
            gpulz_dev_error(a.err, end > a.n || a.n - end < a.tail ? GPULZ_DEV_ERR_TRUNCATED : GPULZ_DEV_ERR_CORRUPT);
        return;
    }
    for (unsigned j = threadIdx.x; j < a.tail; j += blockDim.x)
        a.dst[a.m * S + j] = a.src[end + j];
}

/*
 * The steps of decoding one encoded block b of size bytes into c symbols,
 * each over all GPULZ_DEC_THREADS threads: locate each thread's run of
 * tokens in b, validate every token against FORMAT.md §5, link every output
 * symbol to its source, resolve the links to literals, store the symbols.
 * A step that finds a breach returns false for the whole block alike.
 */
typedef cub::BlockScan<unsigned, GPULZ_DEC_THREADS> gpulz_dec_scan;

/* A thread's run of tokens [t0, t1): where its tokens start in the block
 * (p) and where its symbols start in the output (o). */
struct gpulz_dec_run {
    unsigned t0, t1, p, o;
};

/* Locate: the token count and the flag area (size >= 2 was checked with the
 * table), then each thread's run and, from a scan of the matches before it,
 * its first byte. */
__device__ __forceinline__ bool gpulz_dec_locate(const uint8_t *b, unsigned size, unsigned c, unsigned S,
                                                 gpulz_dec_scan::TempStorage &tmp, gpulz_dec_run *r)
{
    const unsigned NT = GPULZ_DEC_THREADS;
    const unsigned T = gpulz_get_u16(b), fb = gpulz_flag_bytes(T);
    if (T == 0 || T > c || GPULZ_TOKEN_COUNT_SIZE + fb > size)
        return false;
    const uint8_t *fl = b + GPULZ_TOKEN_COUNT_SIZE;
    if ((T & 7) && (fl[fb - 1] >> (T & 7)))
        return false;
    const unsigned tpt = (T + NT - 1) / NT;
    r->t0 = min(T, threadIdx.x * tpt);
    r->t1 = min(T, r->t0 + tpt);
    unsigned nm = 0, mb;
    for (unsigned t = r->t0; t < r->t1; t++)
        nm += fl[t >> 3] >> (t & 7) & 1;
    gpulz_dec_scan(tmp).ExclusiveSum(nm, mb);
    r->p = gpulz_token_pos(T, r->t0, mb, S);
    return true;
}

/* Validate: every token of the run inside the block's bytes with a legal
 * length, the last token ending at the block's end, and the symbols of all
 * runs adding up to c; a scan of the runs' symbol counts places each run's
 * output (r->o). */
__device__ __forceinline__ bool gpulz_dec_validate(const uint8_t *b, unsigned size, unsigned c, unsigned S,
                                                   unsigned lmin, gpulz_dec_scan::TempStorage &tmp,
                                                   gpulz_dec_run *r)
{
    const uint8_t *fl = b + GPULZ_TOKEN_COUNT_SIZE;
    const unsigned T = gpulz_get_u16(b);
    bool bad = false;
    unsigned p = r->p, cnt = 0;
    for (unsigned t = r->t0; t < r->t1; t++) {
        if (fl[t >> 3] >> (t & 7) & 1) {
            if (p > size || size - p < GPULZ_MATCH_SIZE || b[p] < lmin) {
                bad = true;
                break;
            }
            cnt += b[p];
            p += GPULZ_MATCH_SIZE;
        } else {
            if (p > size || size - p < S) {
                bad = true;
                break;
            }
            cnt += 1;
            p += S;
        }
    }
    if (r->t0 < r->t1 && r->t1 == T && p != size)
        bad = true;
    __syncthreads(); /* the scan storage is reused */
    unsigned total;
    gpulz_dec_scan(tmp).ExclusiveSum(cnt, r->o, total);
    if (total != c)
        bad = true;
    return !__syncthreads_or(bad);
}

template <typename Sym>
__device__ __forceinline__ Sym gpulz_load_sym(const uint8_t *p)
{
    Sym v = 0;
#pragma unroll
    for (unsigned j = 0; j < sizeof(Sym); j++)
        v |= (Sym)p[j] << (8 * j);
    return v;
}

/* Link: literal symbols into val, and for every output symbol its source (a
 * literal itself, a match's symbol the one D before it).  The validated
 * total c, with every token producing >= 1 symbol, keeps [o, o + L) inside
 * [0, c); an offset is checked here, against the window and the output so
 * far. */
template <typename Sym>
__device__ __forceinline__ bool gpulz_dec_link(const uint8_t *b, unsigned W, const gpulz_dec_run &r, Sym *val,
                                               uint16_t *cur)
{
    const uint8_t *fl = b + GPULZ_TOKEN_COUNT_SIZE;
    bool bad = false;
    unsigned p = r.p, o = r.o;
    for (unsigned t = r.t0; t < r.t1; t++) {
        if (fl[t >> 3] >> (t & 7) & 1) {
            const unsigned L = b[p], D = b[p + 1];
            p += GPULZ_MATCH_SIZE;
            if (D == 0 || D > W || D > o) {
                bad = true;
                break;
            }
            for (unsigned q = o; q < o + L; q++)
                cur[q] = (uint16_t)(q - D);
            o += L;
        } else {
            val[o] = gpulz_load_sym<Sym>(b + p);
            cur[o] = (uint16_t)o;
            p += sizeof(Sym);
            o++;
        }
    }
    return !__syncthreads_or(bad);
}

/* Resolve: pointer jumping.  A literal points to itself and every other
 * pointer to an earlier symbol of the same value, so the jumps end at
 * literals, and doubling the distance each round takes at most log2(c) + 1
 * rounds.  Returns the array holding the final links. */
__device__ __forceinline__ uint16_t *gpulz_dec_resolve(uint16_t *cur, uint16_t *nxt, unsigned c)
{
    for (;;) {
        int changed = 0;
        for (unsigned q = threadIdx.x; q < c; q += GPULZ_DEC_THREADS) {
            unsigned r = cur[q], r2 = cur[r];
            nxt[q] = (uint16_t)r2;
            changed |= r2 != r;
        }
        uint16_t *t = cur;
        cur = nxt;
        nxt = t;
        if (!__syncthreads_or(changed))
            return cur;
    }
}

/* Store: each output symbol from its literal, as whole symbols where out is
 * aligned for them. */
template <typename Sym>
__device__ __forceinline__ void gpulz_dec_store(const Sym *val, const uint16_t *src, unsigned c, uint8_t *out)
{
    const unsigned S = sizeof(Sym);
    if (((uintptr_t)out & (S - 1)) == 0) {
        Sym *o = (Sym *)out;
        for (unsigned q = threadIdx.x; q < c; q += GPULZ_DEC_THREADS)
            o[q] = val[src[q]];
    } else {
        for (unsigned q = threadIdx.x; q < c; q += GPULZ_DEC_THREADS) {
            const Sym v = val[src[q]];
#pragma unroll
            for (unsigned j = 0; j < S; j++)
                out[(size_t)q * S + j] = (uint8_t)((uint64_t)v >> (8 * j));
        }
    }
}

template <typename Sym>
__device__ bool gpulz_decode_block(const uint8_t *b, unsigned size, uint8_t *out, unsigned c, unsigned C,
                                   unsigned W, uint8_t *smem)
{
    __shared__ typename gpulz_dec_scan::TempStorage scan_tmp;
    const unsigned S = sizeof(Sym);
    const gpulz_dec_smem lay = gpulz_dec_smem_layout(C, S);
    Sym *val = (Sym *)smem;
    gpulz_dec_run r;
    if (!gpulz_dec_locate(b, size, c, S, scan_tmp, &r) ||
        !gpulz_dec_validate(b, size, c, S, gpulz_min_match(S), scan_tmp, &r) ||
        !gpulz_dec_link<Sym>(b, W, r, val, (uint16_t *)(smem + lay.cur)))
        return false;
    const uint16_t *src = gpulz_dec_resolve((uint16_t *)(smem + lay.cur), (uint16_t *)(smem + lay.nxt), c);
    gpulz_dec_store<Sym>(val, src, c, out);
    return true;
}

template <typename Sym>
__global__ void __launch_bounds__(GPULZ_DEC_THREADS) gpulz_decode_kernel(gpulz_dec_args a)
{
    extern __shared__ __align__(16) uint8_t gpulz_smem[];
    const unsigned S = sizeof(Sym), C = a.C;
    /* the table already known to be bad: stop (the test is block-uniform) */
    if (__syncthreads_or(threadIdx.x == 0 && *(volatile unsigned *)a.err))
        return;
    const uint64_t k = a.k0 + blockIdx.x;
    const unsigned raw = gpulz_raw_size(k, a.m, C, S);
    const uint32_t e = gpulz_get_u32(a.src + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k);
    const uint32_t size = e & GPULZ_SIZE_MASK;
    const uint64_t start = a.table_end + a.off[k];
    /* checked again here, so that no table can make this kernel stray */
    if (!gpulz_table_entry_ok(e, raw) || start > a.n || a.n - start < size) {
        if (threadIdx.x == 0)
            gpulz_dev_error(a.err, GPULZ_DEV_ERR_CORRUPT);
        return;
    }
    uint8_t *out = a.dst + k * C * S;
    if (e & GPULZ_RAW_BIT) {
        gpulz_block_copy(out, a.src + start, raw);
        return;
    }
    if (!gpulz_decode_block<Sym>(a.src + start, size, out, raw / S, C, a.W, gpulz_smem) && threadIdx.x == 0)
        gpulz_dev_error(a.err, GPULZ_DEV_ERR_CORRUPT);
}

#endif
