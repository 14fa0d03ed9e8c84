/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2_lz.cuh - the kernels of ratio's tokens (docs/FORMAT.md §12, §18
 * step 2): every block parsed by the format 1 encoder's own steps (match
 * keys, greedy walk) over its transformed symbols, its tokens split into the
 * flags, literal, length and offset streams; and back, each block decoded
 * from those streams by the format 1 decoder's steps (locate, link, resolve,
 * store) with every check of §20.  Internal; included by gpu_v2_launch.cu.
 */
#ifndef GPULZ_GPU_V2_LZ_CUH
#define GPULZ_GPU_V2_LZ_CUH

#include "gpu_decode.cuh"
#include "gpu_encode.cuh"
#include "gpu_v2.cuh" /* v2_copy */
#include "gpu_v2.h"

/* Per block, in the plan's count arrays: flag bytes, literals, matches. */
struct gpu_v2_lz_counts {
    uint64_t *fb, *nl, *nm; /* nb + 1 each; scanned into places after the kernel */
};

struct gpu_v2_lz_slots {
    uint8_t *flags, *lits, *lens, *offs; /* block k's at k*C/8, k*C*S, k*C, k*C */
};

/* Load: the block's symbols into shared memory, with DELTA their differences
 * (each thread subtracts the symbol before its own, read from the input, so
 * no thread reads what another writes). */
template <typename Sym>
__device__ __forceinline__ unsigned gpu_v2_lz_load(const uint8_t *x, uint64_t m, unsigned C, uint64_t k,
                                                   int delta, uint8_t *smem, const gpulz_enc_smem &lay)
{
    const unsigned S = sizeof(Sym), raw = gpulz_raw_size(k, m, C, S), c = raw / S;
    const uint8_t *b = x + k * C * S;
    uint32_t *bits = (uint32_t *)(smem + lay.starts);
    gpulz_block_copy(smem, b, raw);
    for (unsigned j = threadIdx.x; j < (lay.total - lay.starts) / 4; j += blockDim.x)
        bits[j] = 0;
    __syncthreads();
    if (delta) {
        Sym *sym = (Sym *)smem;
        for (unsigned i = threadIdx.x + 1; i < c; i += blockDim.x)
            sym[i] = (Sym)(sym[i] - gpulz_load_sym<Sym>(b + (size_t)(i - 1) * S));
        __syncthreads();
    }
    return c;
}

/*
 * Emit, one warp, 32 positions at a time: a position that starts a token
 * learns its token index t and the matches mb before it from the ballots'
 * popcounts; a literal goes to literal t - mb, a match to length and offset
 * mb; flag bits are gathered in shared memory (flags32, zeroed) and written
 * as bytes.
 */
template <typename Sym>
__device__ __forceinline__ void gpu_v2_lz_emit(const Sym *sym, const uint16_t *key, const uint32_t *starts,
                                               uint32_t *flags32, unsigned c, unsigned T, unsigned lmin,
                                               uint8_t *fl, uint8_t *lit, uint8_t *len, uint8_t *off)
{
    const unsigned lane = threadIdx.x & 31, S = sizeof(Sym), below = (1u << lane) - 1;
    unsigned t0 = 0, m0 = 0;
    for (unsigned base = 0; base < c; base += 32) {
        const unsigned p = base + lane;
        const bool st = p < c && (starts[base >> 5] >> lane & 1);
        const unsigned kk = p < c ? key[p] : 0;
        const bool mt = st && gpulz_key_matches(kk, lmin);
        const unsigned bs = __ballot_sync(0xFFFFFFFFu, st), bm = __ballot_sync(0xFFFFFFFFu, mt);
        if (st) {
            const unsigned t = t0 + __popc(bs & below), mb = m0 + __popc(bm & below);
            if (mt) {
                len[mb] = (uint8_t)(kk >> 8);
                off[mb] = (uint8_t)(255u - (kk & 255u));
                atomicOr(&flags32[t >> 5], 1u << (t & 31));
            } else {
                const Sym v = sym[p];
                uint8_t *o = lit + (size_t)(t - mb) * S;
#pragma unroll
                for (unsigned q = 0; q < S; q++)
                    o[q] = (uint8_t)((uint64_t)v >> (8 * q));
            }
        }
        t0 += __popc(bs);
        m0 += __popc(bm);
    }
    __syncwarp();
    for (unsigned q = lane; q < gpulz_flag_bytes(T); q += 32)
        fl[q] = (uint8_t)(flags32[q >> 2] >> (8 * (q & 3)));
}

/* One thread block per data block: load, keys, walk, emit; every block is
 * tokenised (ratio never stores a block raw). */
template <typename Sym, int G>
__global__ void __launch_bounds__(256) gpu_v2_lz_kernel(const uint8_t *x, uint64_t m, uint64_t k0, unsigned C,
                                                        unsigned W, int delta, gpu_v2_lz_slots slots,
                                                        gpu_v2_lz_counts counts)
{
    v2_after_prior();
    extern __shared__ __align__(16) uint8_t gpulz_smem[];
    const unsigned S = sizeof(Sym), lmin = gpulz_min_match(S);
    const gpulz_enc_smem lay = gpulz_enc_smem_layout(C, S);
    const uint64_t k = k0 + blockIdx.x;
    const unsigned c = gpu_v2_lz_load<Sym>(x, m, C, k, delta, gpulz_smem, lay);
    gpulz_enc_keys<Sym, G>((const Sym *)gpulz_smem, (uint16_t *)(gpulz_smem + lay.key), c, W);
    unsigned T, M;
    gpulz_enc_walk((const uint16_t *)(gpulz_smem + lay.key), (uint32_t *)(gpulz_smem + lay.starts), c, lmin, &T,
                   &M);
    if (threadIdx.x < 32)
        gpu_v2_lz_emit<Sym>((const Sym *)gpulz_smem, (const uint16_t *)(gpulz_smem + lay.key),
                            (const uint32_t *)(gpulz_smem + lay.starts), (uint32_t *)(gpulz_smem + lay.flags), c,
                            T, lmin, slots.flags + k * (C / 8), slots.lits + k * C * S, slots.lens + k * C,
                            slots.offs + k * C);
    if (threadIdx.x == 0) {
        counts.fb[k] = gpulz_flag_bytes(T);
        counts.nl[k] = T - M;
        counts.nm[k] = M;
    }
}

/*
 * After the scans (counts now hold each block's places, entry nb the
 * totals): block k's tokens from its slots to their places in the streams,
 * and T_k into the token table; a warp per block.
 */
__global__ void __launch_bounds__(256) gpu_v2_gather_kernel(gpu_v2_lz_slots slots, gpu_v2_lz_counts at,
                                                            gpu_v2_lz_slots to, uint8_t *table, uint64_t nb,
                                                            unsigned C, unsigned S)
{
    v2_after_prior();
    const unsigned lane = threadIdx.x & 31, wpb = blockDim.x >> 5;
    for (uint64_t k = (uint64_t)blockIdx.x * wpb + (threadIdx.x >> 5); k < nb; k += (uint64_t)gridDim.x * wpb) {
        const uint64_t nl = at.nl[k + 1] - at.nl[k], nm = at.nm[k + 1] - at.nm[k];
        v2_copy(to.flags + at.fb[k], slots.flags + k * (C / 8), at.fb[k + 1] - at.fb[k], lane, 32);
        v2_copy(to.lits + at.nl[k] * S, slots.lits + k * C * S, nl * S, lane, 32);
        v2_copy(to.lens + at.nm[k], slots.lens + k * C, nm, lane, 32);
        v2_copy(to.offs + at.nm[k], slots.offs + k * C, nm, lane, 32);
        if (lane == 0)
            gpulz_put_u16(table + GPULZ_TOKEN_ENTRY_SIZE * k, (uint32_t)(nl + nm));
    }
}

/* ---- decoding ------------------------------------------------------------- */

/* Each block's flag bytes and token count from the token table (entry nb
 * 0, for the scans); the first block whose count is out of 1..c_k (§20) into
 * *bad. */
__global__ void __launch_bounds__(256) gpu_v2_token_count_kernel(const uint8_t *table, uint64_t nb, uint64_t m,
                                                                 unsigned C, uint64_t *fb, uint64_t *T,
                                                                 unsigned long long *bad)
{
    v2_after_prior();
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k <= nb; k += (uint64_t)gridDim.x * blockDim.x) {
        if (k == nb) {
            fb[nb] = T[nb] = 0;
            continue;
        }
        const uint32_t t = gpulz_get_u16(table + GPULZ_TOKEN_ENTRY_SIZE * k);
        if (t == 0 || t > gpulz_raw_size(k, m, C, 1))
            atomicMin(bad, (unsigned long long)k);
        fb[k] = gpulz_flag_bytes(t);
        T[k] = t;
    }
}

/* Each block's matches (mpos[k], nb + 1 entries, the last 0 for the scan),
 * one warp per block; a flag bit set past T_k is an error (§20). */
__global__ void __launch_bounds__(256) gpu_v2_flag_count_kernel(const uint8_t *table, const uint8_t *F,
                                                                const uint64_t *fpos, uint64_t nb, uint64_t *mpos,
                                                                unsigned *err)
{
    v2_after_prior();
    const uint64_t k = (uint64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const unsigned lane = threadIdx.x & 31;
    if (k > nb)
        return;
    if (k == nb) {
        if (lane == 0)
            mpos[nb] = 0;
        return;
    }
    const unsigned T = gpulz_get_u16(table + GPULZ_TOKEN_ENTRY_SIZE * k), fb = gpulz_flag_bytes(T);
    const uint8_t *f = F + fpos[k];
    unsigned ones = 0;
    for (unsigned q = lane; q < fb; q += 32)
        ones += __popc(f[q]);
    for (unsigned d = 16; d; d >>= 1)
        ones += __shfl_xor_sync(0xFFFFFFFFu, ones, d);
    if (lane == 0) {
        mpos[k] = ones;
        if ((T & 7) && (f[fb - 1] >> (T & 7)))
            gpulz_dev_error(err, GPULZ_DEV_ERR_CORRUPT);
    }
}

struct gpu_v2_lzdec_args {
    const uint8_t *table, *F, *lits, *lens, *offs;
    const uint64_t *fpos, *tpos, *mpos;
    uint8_t *y;
    unsigned *err;
    uint64_t m, k0;
    unsigned C, W;
};

/*
 * One thread block per data block, the format 1 decoder's steps over the
 * streams: each thread's run of tokens located by a scan of its matches,
 * every length checked (at least Lmin) and the symbols adding up to the
 * block's, every offset checked (1..W, within the output so far), the links
 * resolved and the symbols stored.
 */
template <typename Sym>
__global__ void __launch_bounds__(GPULZ_DEC_THREADS) gpu_v2_lzdec_kernel(gpu_v2_lzdec_args a)
{
    v2_after_prior();
    extern __shared__ __align__(16) uint8_t gpulz_smem[];
    __shared__ typename gpulz_dec_scan::TempStorage tmp;
    const unsigned S = sizeof(Sym), NT = GPULZ_DEC_THREADS, lmin = gpulz_min_match(S);
    const uint64_t k = a.k0 + blockIdx.x;
    const unsigned c = gpulz_raw_size(k, a.m, a.C, S) / S;
    const gpulz_dec_smem lay = gpulz_dec_smem_layout(a.C, S);
    Sym *val = (Sym *)gpulz_smem;
    uint16_t *cur = (uint16_t *)(gpulz_smem + lay.cur);
    /* T_k in 1..c was checked on the host, the flags' bits past it on the device */
    const unsigned T = gpulz_get_u16(a.table + GPULZ_TOKEN_ENTRY_SIZE * k);
    const uint8_t *fl = a.F + a.fpos[k];
    const uint64_t m0 = a.mpos[k], l0 = a.tpos[k] - a.mpos[k];
    const unsigned tpt = (T + NT - 1) / NT;
    const unsigned t0 = min(T, threadIdx.x * tpt), t1 = min(T, t0 + tpt);
    unsigned nm = 0, mb, cnt = 0, o, total;
    for (unsigned t = t0; t < t1; t++)
        nm += fl[t >> 3] >> (t & 7) & 1;
    gpulz_dec_scan(tmp).ExclusiveSum(nm, mb);
    bool bad = false;
    for (unsigned t = t0, j = mb; t < t1; t++) {
        if (fl[t >> 3] >> (t & 7) & 1) {
            const unsigned L = a.lens[m0 + j++];
            bad = bad || L < lmin;
            cnt += L;
        } else {
            cnt += 1;
        }
    }
    __syncthreads(); /* the scan storage is reused */
    gpulz_dec_scan(tmp).ExclusiveSum(cnt, o, total);
    if (__syncthreads_or(bad || total != c)) {
        if (threadIdx.x == 0)
            gpulz_dev_error(a.err, GPULZ_DEV_ERR_CORRUPT);
        return;
    }
    for (unsigned t = t0, j = mb; t < t1 && !bad; t++) {
        if (fl[t >> 3] >> (t & 7) & 1) {
            const unsigned L = a.lens[m0 + j], D = a.offs[m0 + j];
            j++;
            if (D == 0 || D > a.W || D > o) {
                bad = true;
                break;
            }
            for (unsigned q = o; q < o + L; q++)
                cur[q] = (uint16_t)(q - D);
            o += L;
        } else {
            val[o] = gpulz_load_sym<Sym>(a.lits + (l0 + (t - j)) * S);
            cur[o] = (uint16_t)o;
            o++;
        }
    }
    if (__syncthreads_or(bad)) {
        if (threadIdx.x == 0)
            gpulz_dev_error(a.err, GPULZ_DEV_ERR_CORRUPT);
        return;
    }
    const uint16_t *src = gpulz_dec_resolve(cur, (uint16_t *)(gpulz_smem + lay.nxt), c);
    gpulz_dec_store<Sym>(val, src, c, a.y + k * a.C * S);
}

#endif /* GPULZ_GPU_V2_LZ_CUH */
