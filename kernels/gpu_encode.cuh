/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_encode.cuh - the GPU encoder of docs/FORMAT.md §6: one thread block per
 * data block, writing exactly the bytes of the CPU reference encoder
 * (cpu_encode.c).  Internal; included by gpu_launch.cu (and the emulator) only.
 *
 * A block's life: its symbols are loaded into shared memory once; the warps
 * compute the canonical match key of every position (below); one warp walks
 * the greedy parse over the keys, marking where tokens start; one warp writes
 * [T][flags][tokens] into the block's slot of the scratch area (or the block
 * is stored raw), and gpulz_compact_kernel moves the slots to their final
 * offsets once a device-wide scan of the sizes has placed them.
 */
#ifndef GPULZ_GPU_ENCODE_CUH
#define GPULZ_GPU_ENCODE_CUH

#include "gpu_common.cuh"
#include "gpu_match.cuh"

struct gpulz_enc_args {
    const uint8_t *src; /* the input */
    uint8_t *slot;      /* block k's encoding goes to slot + k*C*S */
    uint32_t *entry;    /* block table entry of each block */
    uint64_t *size;     /* block size in the chunk, scanned into offsets later */
    uint64_t m;         /* whole symbols of the input */
    uint64_t k0;        /* first block of this launch */
    unsigned C, W;
};

/* Warps the encoder uses for a block of C symbols: one per segment of seg
 * symbols (gpulz_segment), 1 to 8 (the kernel's launch bound). */
static inline unsigned gpulz_enc_warps(unsigned C, unsigned seg)
{
    unsigned w = C / seg;
    return w < 1 ? 1 : w > 8 ? 8 : w;
}

/*
 * The encoder's dynamic shared memory, one layout for the launch (total), the
 * kernel and the emulator: the block's symbols at 0, then a match key per
 * position, a bit per position marking token starts, a bit per token for the
 * flags (at most one token per position).  Byte offsets; the bit areas are
 * 32-bit words, zeroed together before the walk.
 */
struct gpulz_enc_smem {
    size_t key, starts, flags, total;
};

GPULZ_HDI gpulz_enc_smem gpulz_enc_smem_layout(unsigned C, unsigned S)
{
    gpulz_enc_smem m;
    m.key = (size_t)C * S;
    m.starts = m.key + sizeof(uint16_t) * C;
    m.flags = m.starts + C / 8;
    m.total = m.flags + C / 8;
    return m;
}

/*
 * Write the T tokens of the block into out (the encoded block: token count,
 * flag bits, tokens), with one warp, 32 positions at a time.  A position that
 * starts a token learns its token index t and the matches M before it from
 * the popcounts of the warp's ballots; the token's bytes start at
 * 2 + ceil(T/8) + S*(t - M) + 2*M (a literal takes S bytes, a match 2).
 * Flag bits are gathered in shared memory (flags32, zeroed) by token index.
 */
template <typename Sym, class Warp>
GPULZ_HDI void gpulz_emit(const Sym *sym, const uint16_t *key, const uint32_t *starts, uint32_t *flags32,
                          unsigned c, unsigned T, unsigned lmin, uint8_t *out, const Warp &wp)
{
    const int NL = Warp::lanes;
    const unsigned S = sizeof(Sym);
    const unsigned fb = gpulz_flag_bytes(T);
    unsigned t0 = 0, m0 = 0;
    for (unsigned base = 0; base < c; base += 32) {
        bool st[NL], m[NL];
        unsigned kk[NL];
GPULZ_UNROLL
        for (int j = 0; j < NL; j++) {
            const unsigned p = base + wp.lane(j);
            st[j] = p < c && (starts[base >> 5] >> wp.lane(j) & 1);
            kk[j] = p < c ? key[p] : 0;
            m[j] = st[j] && gpulz_key_matches(kk[j], lmin);
        }
        const unsigned bs = wp.ballot(st), bm = wp.ballot(m);
GPULZ_UNROLL
        for (int j = 0; j < NL; j++) {
            if (!st[j])
                continue;
            const unsigned below = (1u << wp.lane(j)) - 1; /* lanes before this one */
            const unsigned t = t0 + gpulz_popc(bs & below), mb = m0 + gpulz_popc(bm & below);
            uint8_t *o = out + gpulz_token_pos(T, t, mb, S);
            if (m[j]) {
                o[0] = (uint8_t)(kk[j] >> 8);
                o[1] = (uint8_t)(255u - (kk[j] & 255u));
                wp.set_bits(&flags32[t >> 5], 1u << (t & 31));
            } else {
                const Sym v = sym[base + wp.lane(j)];
GPULZ_UNROLL
                for (unsigned q = 0; q < S; q++)
                    o[q] = (uint8_t)((uint64_t)v >> (8 * q));
            }
        }
        t0 += gpulz_popc(bs);
        m0 += gpulz_popc(bm);
    }
    wp.sync();
    if (wp.leader())
        gpulz_put_u16(out, T);
    /* flag bytes, little-endian from the words: bit i of byte i/8 is token i */
GPULZ_UNROLL
    for (int j = 0; j < NL; j++)
        for (unsigned q = wp.lane(j); q < fb; q += 32)
            out[GPULZ_TOKEN_COUNT_SIZE + q] = (uint8_t)(flags32[q >> 2] >> (8 * (q & 3)));
}

/*
 * The steps of the encode kernel, one thread block per data block k: load the
 * symbols and clear the bit areas; the match keys (a segment per warp); the
 * walk (one warp); then emit the tokens (one warp) or leave the block to be
 * stored raw.  Split so that bench/gpu_kernel_bench.cu can time each.
 */

/* Load: the block's symbols into shared memory, the bit areas cleared;
 * returns the block's symbol count c. */
template <typename Sym>
__device__ __forceinline__ unsigned gpulz_enc_load(const gpulz_enc_args &a, uint64_t k, uint8_t *smem,
                                                   const gpulz_enc_smem &lay)
{
    const unsigned S = sizeof(Sym), raw = gpulz_raw_size(k, a.m, a.C, S);
    uint32_t *bits = (uint32_t *)(smem + lay.starts);
    gpulz_block_copy(smem, a.src + k * a.C * S, raw);
    for (unsigned j = threadIdx.x; j < (lay.total - lay.starts) / 4; j += blockDim.x)
        bits[j] = 0;
    __syncthreads();
    return raw / S;
}

/* Match keys: each warp sweeps its segment of the block. */
template <typename Sym, int G>
__device__ __forceinline__ void gpulz_enc_keys(const Sym *sym, uint16_t *key, unsigned c, unsigned W)
{
    unsigned a, b;
    gpulz_segment(c, blockDim.x >> 5, threadIdx.x >> 5, &a, &b);
    if (a < c)
        gpulz_sweep<Sym, G>(sym, key, c, W, a, b, gpulz_device_warp());
    __syncthreads();
}

/* Walk: warp 0 parses; every thread gets the token and match counts. */
__device__ __forceinline__ void gpulz_enc_walk(const uint16_t *key, uint32_t *starts, unsigned c,
                                               unsigned lmin, unsigned *T, unsigned *M)
{
    __shared__ unsigned s_T, s_M;
    if (threadIdx.x < 32) {
        unsigned t, m;
        (void)gpulz_walk_warp(key, starts, c, lmin, &t, &m, gpulz_device_warp());
        if (threadIdx.x == 0) {
            s_T = t;
            s_M = m;
        }
    }
    __syncthreads();
    *T = s_T;
    *M = s_M;
}

/* Store: the tokens into the block's slot, or the block marked raw (the
 * compaction copies it from the input); its entry and size either way. */
template <typename Sym>
__device__ __forceinline__ void gpulz_enc_store(const gpulz_enc_args &a, uint64_t k, uint8_t *smem,
                                                const gpulz_enc_smem &lay, unsigned c, unsigned T,
                                                unsigned M, unsigned lmin)
{
    const unsigned S = sizeof(Sym), raw = c * S, E = gpulz_encoded_size(T, M, S);
    const bool coded = gpulz_block_shrinks(E, raw);
    if (coded && threadIdx.x < 32)
        gpulz_emit<Sym>((const Sym *)smem, (const uint16_t *)(smem + lay.key),
                        (const uint32_t *)(smem + lay.starts), (uint32_t *)(smem + lay.flags), c, T, lmin,
                        a.slot + k * a.C * S, gpulz_device_warp());
    if (threadIdx.x == 0) {
        a.entry[k] = coded ? E : GPULZ_RAW_BIT | raw;
        a.size[k] = coded ? E : raw;
    }
}

template <typename Sym, int G>
__global__ void __launch_bounds__(256) gpulz_encode_kernel(gpulz_enc_args a)
{
    extern __shared__ __align__(16) uint8_t gpulz_smem[];
    const gpulz_enc_smem lay = gpulz_enc_smem_layout(a.C, sizeof(Sym));
    const unsigned lmin = gpulz_min_match(sizeof(Sym));
    const uint64_t k = a.k0 + blockIdx.x;
    const unsigned c = gpulz_enc_load<Sym>(a, k, gpulz_smem, lay);
    gpulz_enc_keys<Sym, G>((const Sym *)gpulz_smem, (uint16_t *)(gpulz_smem + lay.key), c, a.W);
    unsigned T, M;
    gpulz_enc_walk((const uint16_t *)(gpulz_smem + lay.key), (uint32_t *)(gpulz_smem + lay.starts), c, lmin,
                   &T, &M);
    gpulz_enc_store<Sym>(a, k, gpulz_smem, lay, c, T, M, lmin);
}

/*
 * Move every block to its place in the chunk (off[k] after the table) and
 * write its table entry: encoded blocks from their slots, raw ones straight
 * from the input.  Nothing is written when the chunk would pass dst_cap.
 */
static __global__ void __launch_bounds__(256) gpulz_compact_kernel(const uint8_t *src, const uint8_t *slot,
                                                            const uint32_t *entry, const uint64_t *off,
                                                            uint8_t *dst, uint64_t dst_cap,
                                                            uint64_t table_end, uint64_t nb,
                                                            uint64_t tail, unsigned C, unsigned S)
{
    if (table_end + off[nb] + tail > dst_cap)
        return; /* gpulz_finish_kernel reports it */
    for (uint64_t k = blockIdx.x; k < nb; k += gridDim.x) {
        uint32_t e = entry[k];
        if (threadIdx.x == 0)
            gpulz_put_u32(dst + GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * k, e);
        const uint8_t *from = (e & GPULZ_RAW_BIT ? src : slot) + k * C * S;
        gpulz_block_copy(dst + table_end + off[k], from, e & GPULZ_SIZE_MASK);
    }
}

struct gpulz_header_bytes {
    uint8_t b[GPULZ_HEADER_SIZE];
};

/*
 * The header (built on the host by gpulz_header_write), the tail bytes and
 * the chunk's length; or the capacity error.  One block.
 */
static __global__ void gpulz_finish_kernel(gpulz_header_bytes h, const uint8_t *src, const uint64_t *off,
                                    uint8_t *dst, uint64_t dst_cap, uint64_t table_end, uint64_t nb,
                                    uint64_t m_bytes, uint64_t tail, uint64_t *len, unsigned *err)
{
    const uint64_t total = table_end + off[nb] + tail;
    if (total > dst_cap) {
        if (threadIdx.x == 0) {
            gpulz_dev_error(err, GPULZ_DEV_ERR_DST);
            *len = total;
        }
        return;
    }
    for (unsigned j = threadIdx.x; j < GPULZ_HEADER_SIZE; j += blockDim.x)
        dst[j] = h.b[j];
    for (unsigned j = threadIdx.x; j < tail; j += blockDim.x)
        dst[table_end + off[nb] + j] = src[m_bytes + j];
    if (threadIdx.x == 0)
        *len = total;
}

#endif
