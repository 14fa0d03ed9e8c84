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

/* Dynamic shared memory of the decoder: symbols and two pointer arrays. */
static inline size_t gpulz_dec_smem(unsigned C, unsigned S)
{
    return (size_t)C * S + 4u * C;
}

/*
 * Table entries to sizes (size[nb] = 0, so that an exclusive scan of nb + 1
 * sizes ends with the total), each entry checked against its block's raw
 * size (FORMAT.md §3).
 */
__global__ void __launch_bounds__(256) gpulz_table_sizes_kernel(const uint8_t *table, uint64_t nb,
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

/* The sizes must add up to the chunk (FORMAT.md §3); then the tail bytes. */
__global__ void gpulz_dec_finish_kernel(gpulz_dec_args a, uint64_t nb, unsigned S)
{
    const uint64_t end = a.table_end + a.off[nb];
    if (end > a.n || a.n - end != a.tail) {
        if (threadIdx.x == 0)
            gpulz_dev_error(a.err, GPULZ_DEV_ERR_CORRUPT);
        return;
    }
    for (unsigned j = threadIdx.x; j < a.tail; j += blockDim.x)
        a.dst[a.m * S + j] = a.src[end + j];
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

/*
 * Decode the encoded block b of size bytes into out (c symbols).  Returns
 * false, for the whole block alike, on any breach of FORMAT.md §5.
 */
template <typename Sym>
__device__ bool gpulz_decode_block(const uint8_t *b, unsigned size, uint8_t *out, unsigned c,
                                   unsigned C, unsigned W, uint8_t *smem)
{
    typedef cub::BlockScan<unsigned, GPULZ_DEC_THREADS> Scan;
    __shared__ typename Scan::TempStorage scan_tmp;
    const unsigned S = sizeof(Sym), NT = GPULZ_DEC_THREADS, tid = threadIdx.x;
    const unsigned lmin = gpulz_min_match(S);
    Sym *val = (Sym *)smem;
    uint16_t *cur = (uint16_t *)(smem + (size_t)C * S), *nxt = cur + C;

    /* the token count and the flag area (size >= 2 was checked with the table) */
    const unsigned T = gpulz_get_u16(b), fb = gpulz_flag_bytes(T);
    if (T == 0 || T > c || GPULZ_TOKEN_COUNT_SIZE + fb > size)
        return false;
    const uint8_t *fl = b + GPULZ_TOKEN_COUNT_SIZE;
    if ((T & 7) && (fl[fb - 1] >> (T & 7)))
        return false;

    /* each thread takes a run of tokens [t0, t1) and finds where it starts */
    const unsigned tpt = (T + NT - 1) / NT;
    const unsigned t0 = min(T, tid * tpt), t1 = min(T, t0 + tpt);
    unsigned nm = 0;
    for (unsigned t = t0; t < t1; t++)
        nm += fl[t >> 3] >> (t & 7) & 1;
    unsigned mb;
    Scan(scan_tmp).ExclusiveSum(nm, mb);
    const unsigned p_start = GPULZ_TOKEN_COUNT_SIZE + fb + (t0 - mb) * S + mb * GPULZ_MATCH_SIZE;

    /* pass 1: every token inside the block's bytes, lengths, symbol counts */
    bool bad = false;
    unsigned p = p_start, cnt = 0;
    for (unsigned t = t0; t < t1 && !bad; t++) {
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
    /* the last token ends exactly at the block's end */
    if (t0 < t1 && t1 == T && p != size)
        bad = true;
    __syncthreads(); /* scan_tmp is reused */
    unsigned o0, total;
    Scan(scan_tmp).ExclusiveSum(cnt, o0, total);
    if (total != c)
        bad = true;
    if (__syncthreads_or(bad))
        return false;

    /* pass 2: literals and source pointers; total == c with every token
     * producing >= 1 symbol keeps [o, o + L) inside [0, c) */
    p = p_start;
    unsigned o = o0;
    for (unsigned t = t0; t < t1; t++) {
        if (fl[t >> 3] >> (t & 7) & 1) {
            unsigned L = b[p], D = b[p + 1];
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
            p += S;
            o++;
        }
    }
    if (__syncthreads_or(bad))
        return false;

    /* pointer jumping: a literal points to itself; every pointer goes to an
     * earlier symbol of the same value, so the jumps end at literals, and
     * doubling the distance each round takes at most log2(c) + 1 rounds */
    for (;;) {
        int changed = 0;
        for (unsigned q = tid; q < c; q += NT) {
            unsigned r = cur[q], r2 = cur[r];
            nxt[q] = (uint16_t)r2;
            changed |= r2 != r;
        }
        uint16_t *t = cur;
        cur = nxt;
        nxt = t;
        if (!__syncthreads_or(changed))
            break;
    }

    if (((uintptr_t)out & (S - 1)) == 0) {
        Sym *o = (Sym *)out;
        for (unsigned q = tid; q < c; q += NT)
            o[q] = val[cur[q]];
    } else {
        for (unsigned q = tid; q < c; q += NT) {
            Sym v = val[cur[q]];
#pragma unroll
            for (unsigned j = 0; j < S; j++)
                out[(size_t)q * S + j] = (uint8_t)((uint64_t)v >> (8 * j));
        }
    }
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
