/*
 * gpu_encode.cuh - the GPU encoder of docs/FORMAT.md §6: one thread block per
 * data block, writing exactly the bytes of the CPU reference encoder
 * (cpu_encode.c).  Internal; included by gpu_launch.cu (and the emulator) only.
 *
 * A block's life: its symbols are loaded into shared memory once; the warps
 * compute the canonical match key of every position (below); one thread walks
 * the greedy parse over the keys, marking where tokens start; one warp writes
 * [T][flags][tokens] into the block's slot of the scratch area (or the block
 * is stored raw), and gpulz_compact_kernel moves the slots to their final
 * offsets once a device-wide scan of the sizes has placed them.
 */
#ifndef GPULZ_GPU_ENCODE_CUH
#define GPULZ_GPU_ENCODE_CUH

#include "gpu_common.cuh"

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
 * symbols (see gpulz_find_keys), 1 to 8. */
#define GPULZ_ENC_SEGMENT_DEFAULT 2048
static inline unsigned gpulz_enc_warps(unsigned C, unsigned seg)
{
    unsigned w = C / seg;
    return w < 1 ? 1 : w > 8 ? 8 : w;
}

/* Dynamic shared memory of the encoder: symbols, keys, token starts (a bit
 * per position), flag bits (a bit per token). */
static inline size_t gpulz_enc_smem(unsigned C, unsigned S)
{
    return (size_t)C * S + 2u * C + C / 4;
}

__device__ __forceinline__ unsigned gpulz_warp_max(unsigned v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(0xFFFFFFFFu, v);
#else
    for (int o = 16; o > 0; o >>= 1)
        v = max(v, __shfl_xor_sync(0xFFFFFFFFu, v, o));
    return v;
#endif
}

/*
 * The match key of every position i of the block (c symbols, window W):
 *
 *   key[i] = Lbest(i) << 8 | (255 - dbest(i))
 *
 * with Lbest, dbest as FORMAT.md §6 step 2 defines them (Lbest may be 0).
 *
 * Why this is the canonical match.  For an offset d, len(d) at i is the
 * number of consecutive positions p = i, i+1, ... with x[p] == x[p-d], capped
 * at min(255, c-i); for d > i it is 0 (the offset is not allowed).  Call
 * run_d(i) that count capped at 255: run_d(i) = 0 if x[i] != x[i-d], else
 * min(run_d(i+1) + 1, 255), and run_d(c) = 0, which also applies the c-i cap
 * since a run can only count positions below c.  So a backward sweep over i
 * keeps run_d for every d in registers: lane l of group g owns d = 32g+l+1,
 * and holds k = run_d << 8 | (255 - d) (0 for d > W, never a match).  The
 * largest k over all d has the largest run and, among equal runs, the largest
 * 255-d, i.e. the smallest d: exactly (Lbest, dbest).  A lane keeps the max
 * of its groups, and a warp reduction gives the max over all lanes.
 *
 * Parallelism: the block's positions are split into one segment per warp.
 * A warp whose segment ends at b < c starts its sweep at p0 = min(c, b+255)
 * with all runs 0: its count at i < b is then min(true run, p0 - i), and
 * since p0 - i >= 256 the 255 cap makes it exact.  The 255 extra positions
 * are the price of independence; segments of >= 1024 positions keep it low.
 */
/*
 * One step of the sweep, at position i, for positions i >= W (every offset
 * allowed).  pg[g] points at sym[i - d[g]]; a lane beyond the window has
 * d = 1 (so its load stays inside the block) and cap = lo = 0, so its k stays
 * 0.  Branch-free: the lanes disagree on every comparison.
 */
template <typename Sym, int G>
__host__ __device__ __forceinline__ unsigned gpulz_key_step(Sym s, const Sym *const (&pg)[G], unsigned (&k)[G],
                                                   const unsigned (&lo)[G], const unsigned (&cap)[G])
{
    unsigned best = 0;
GPULZ_UNROLL
    for (int g = 0; g < G; g++) {
        const unsigned longer = min(k[g] + 256u, cap[g]);
        k[g] = *pg[g] == s ? longer : lo[g];
        best = max(best, k[g]);
    }
    return best;
}

/* The same for positions i < W, where an offset d > i is not allowed. */
template <typename Sym, int G>
__host__ __device__ __forceinline__ unsigned gpulz_key_step_near(const Sym *sym, unsigned i, const unsigned (&d)[G],
                                                        unsigned (&k)[G], const unsigned (&lo)[G],
                                                        const unsigned (&cap)[G])
{
    const Sym s = sym[i];
    unsigned best = 0;
GPULZ_UNROLL
    for (int g = 0; g < G; g++) {
        const bool inside = i >= d[g];
        const unsigned longer = min(k[g] + 256u, cap[g]);
        k[g] = inside && sym[inside ? i - d[g] : i] == s ? longer : lo[g];
        best = max(best, k[g]);
    }
    return best;
}

template <typename Sym, int G>
__device__ void gpulz_find_keys(const Sym *sym, uint16_t *key, unsigned c, unsigned W)
{
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const unsigned seg = (c + nw - 1) / nw;
    const unsigned a = warp * seg;
    if (a >= c)
        return;
    const unsigned b = min(c, a + seg);
    const unsigned p0 = min(c, b + 255u);
    unsigned k[G], d[G], lo[G], cap[G];
#pragma unroll
    for (int g = 0; g < G; g++) {
        unsigned dg = 32u * g + lane + 1;
        bool act = dg <= W;
        d[g] = act ? dg : 1u;
        lo[g] = act ? 255u - dg : 0u;
        cap[g] = act ? 0xFF00u | lo[g] : 0u;
        k[g] = lo[g];
    }
    /* positions i >= W: the far sweep, with a pointer per offset */
    unsigned i = p0;
    if (i > W && i > a) {
        const Sym *pg[G];
#pragma unroll
        for (int g = 0; g < G; g++)
            pg[g] = sym + (i - 1) - d[g];
        const Sym *x = sym + (i - 1);
        for (; i > b && i > W; i--) {
            (void)gpulz_key_step<Sym, G>(*x--, pg, k, lo, cap);
#pragma unroll
            for (int g = 0; g < G; g++)
                pg[g]--;
        }
#pragma unroll 4
        for (; i > a && i > W; i--) {
            unsigned best = gpulz_warp_max(gpulz_key_step<Sym, G>(*x--, pg, k, lo, cap));
#pragma unroll
            for (int g = 0; g < G; g++)
                pg[g]--;
            if (lane == 0)
                key[i - 1] = (uint16_t)best;
        }
    }
    for (; i > b; i--)
        (void)gpulz_key_step_near<Sym, G>(sym, i - 1, d, k, lo, cap);
    for (; i > a; i--) {
        unsigned best = gpulz_warp_max(gpulz_key_step_near<Sym, G>(sym, i - 1, d, k, lo, cap));
        if (lane == 0)
            key[i - 1] = (uint16_t)best;
    }
}

/*
 * The greedy parse of FORMAT.md §6 over the keys, by one thread: it only
 * marks where tokens start (bit i of starts) and counts tokens and matches;
 * gpulz_emit writes the tokens with a whole warp.  Every instruction here
 * runs on one lane while 31 wait, so the loop is kept to the chain
 * i -> key[i] -> i and a few counters.  Unlike the CPU encoder it does not
 * stop once the encoding is too long: the caller decides from the counts
 * (FORMAT.md §6 step 3), with the same result.
 */
__host__ __device__ __forceinline__ void gpulz_walk(const uint16_t *key, uint32_t *starts, unsigned c,
                                           unsigned lmin, unsigned *tokens, unsigned *matches)
{
    unsigned i = 0, T = 0, M = 0;
    while (i < c) {
        const unsigned L = key[i] >> 8;
        const bool m = L >= lmin;
        starts[i >> 5] |= 1u << (i & 31);
        i += m ? L : 1;
        T++;
        M += m;
    }
    *tokens = T;
    *matches = M;
}

/*
 * Write the T tokens of the block into out (the encoded block: token count,
 * flag bits, tokens), with one warp, 32 positions at a time.  A position that
 * starts a token learns its token index t and the matches M before it from
 * the popcounts of the warp's ballots; the token's bytes start at
 * 2 + ceil(T/8) + S*(t - M) + 2*M (a literal takes S bytes, a match 2).
 * Flag bits are gathered in shared memory (flags32, zeroed) by token index.
 */
template <typename Sym>
__device__ void gpulz_emit(const Sym *sym, const uint16_t *key, const uint32_t *starts, uint32_t *flags32,
                           unsigned c, unsigned T, unsigned lmin, uint8_t *out)
{
    const unsigned S = sizeof(Sym), lane = threadIdx.x & 31;
    const unsigned fb = gpulz_flag_bytes(T);
    const unsigned below = (1u << lane) - 1; /* lanes before this one */
    unsigned t0 = 0, m0 = 0;
    for (unsigned base = 0; base < c; base += 32) {
        const unsigned p = base + lane;
        const bool st = p < c && (starts[base >> 5] >> lane & 1);
        const unsigned kk = p < c ? key[p] : 0;
        const bool m = st && (kk >> 8) >= lmin;
        const unsigned bs = __ballot_sync(0xFFFFFFFFu, st), bm = __ballot_sync(0xFFFFFFFFu, m);
        if (st) {
            const unsigned t = t0 + __popc(bs & below), mb = m0 + __popc(bm & below);
            uint8_t *o = out + GPULZ_TOKEN_COUNT_SIZE + fb + S * (t - mb) + GPULZ_MATCH_SIZE * mb;
            if (m) {
                o[0] = (uint8_t)(kk >> 8);
                o[1] = (uint8_t)(255u - (kk & 255u));
                atomicOr(&flags32[t >> 5], 1u << (t & 31));
            } else {
                const Sym v = sym[p];
#pragma unroll
                for (unsigned j = 0; j < S; j++)
                    o[j] = (uint8_t)((uint64_t)v >> (8 * j));
            }
        }
        t0 += __popc(bs);
        m0 += __popc(bm);
    }
    __syncwarp();
    if (lane == 0) {
        out[0] = (uint8_t)T;
        out[1] = (uint8_t)(T >> 8);
    }
    /* flag bytes, little-endian from the words: bit i of byte i/8 is token i */
    for (unsigned j = lane; j < fb; j += 32)
        out[GPULZ_TOKEN_COUNT_SIZE + j] = (uint8_t)(flags32[j >> 2] >> (8 * (j & 3)));
}

/* STOP < 9 ends the kernel after a phase (1 load, 2 match keys, 3 walk):
 * for timing the phases only (bench/gpu_kernel_bench.cu). */
template <typename Sym, int G, int STOP = 9>
__global__ void __launch_bounds__(256) gpulz_encode_kernel(gpulz_enc_args a)
{
    extern __shared__ __align__(16) uint8_t gpulz_smem[];
    __shared__ unsigned s_T, s_M;
    const unsigned S = sizeof(Sym), C = a.C;
    const unsigned lmin = gpulz_min_match(S);
    const uint64_t k = a.k0 + blockIdx.x;
    const unsigned c = gpulz_raw_size(k, a.m, C, S) / S, raw = c * S;
    Sym *sym = (Sym *)gpulz_smem;
    uint16_t *key = (uint16_t *)(gpulz_smem + (size_t)C * S);
    uint32_t *starts = (uint32_t *)(key + C);
    uint32_t *flags32 = starts + C / 32;

    gpulz_block_copy((uint8_t *)sym, a.src + k * C * S, raw);
    for (unsigned j = threadIdx.x; j < C / 16; j += blockDim.x)
        starts[j] = 0; /* and flags32 */
    __syncthreads();
    if (STOP == 1) {
        if (threadIdx.x == 0)
            a.size[k] = (uint64_t)sym[0];
        return;
    }
    gpulz_find_keys<Sym, G>(sym, key, c, a.W);
    __syncthreads();
    if (STOP == 2) {
        if (threadIdx.x == 0)
            a.size[k] = key[0] + key[c / 2];
        return;
    }
    if (threadIdx.x == 0) {
        unsigned T, M;
        gpulz_walk(key, starts, c, lmin, &T, &M);
        s_T = T;
        s_M = M;
    }
    __syncthreads();
    const unsigned T = s_T, M = s_M;
    if (STOP == 3) {
        if (threadIdx.x == 0)
            a.size[k] = T + M;
        return;
    }
    const unsigned E = gpulz_encoded_size(T, M, S);
    if (E >= raw) { /* stored raw: the compaction copies it from the input */
        if (threadIdx.x == 0) {
            a.entry[k] = GPULZ_RAW_BIT | raw;
            a.size[k] = raw;
        }
        return;
    }
    if (threadIdx.x < 32)
        gpulz_emit<Sym>(sym, key, starts, flags32, c, T, lmin, a.slot + k * C * S);
    if (threadIdx.x == 0) {
        a.entry[k] = E;
        a.size[k] = E;
    }
}

/*
 * Move every block to its place in the chunk (off[k] after the table) and
 * write its table entry: encoded blocks from their slots, raw ones straight
 * from the input.  Nothing is written when the chunk would pass dst_cap.
 */
__global__ void __launch_bounds__(256) gpulz_compact_kernel(const uint8_t *src, const uint8_t *slot,
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
__global__ void gpulz_finish_kernel(gpulz_header_bytes h, const uint8_t *src, const uint64_t *off,
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
