/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2.cuh - the kernels of format 2's symbol streams (docs/FORMAT.md
 * §13-17): histograms of the symbols and their deltas, the checksum, the
 * rANS segments coded and decoded by one warp each, the stored streams, and
 * the inverse delta.  The transform is applied as the units are read, so
 * the transformed symbols are never written.  Internal; included by
 * gpu_v2_launch.cu only.
 *
 * A warp codes a segment as the CPU simulates it (entropy.c): lane l holds
 * the state of lane l, rows run last to first when coding and first to last
 * when decoding, and the words a row emits or takes are numbered by the
 * ballot of the lanes that emit or take one, in the order of §16.
 */
#ifndef GPULZ_GPU_V2_CUH
#define GPULZ_GPU_V2_CUH

#include <cub/block/block_scan.cuh>

#include "gpu_common.cuh"
#include "gpu_v2.h"

#define GPU_V2_WARPS 4 /* segments per thread block */
/* Rounds of a segment whose units are loaded at once: on a device full of
 * segments, and (more registers, fewer waits) where few segments leave it
 * idle (gpu_v2_enc_batch) */
#define GPU_V2_ENC_BATCH 8
#define GPU_V2_ENC_BATCH_FEW 32
#define GPU_V2_UNDELTA_THREADS 256
#define GPU_V2_PUT_THREADS 256 /* per segment placed */
#define GPU_V2_CK_THREADS 256
/* the checksum's grid at most: about one resident wave of an H100's or
 * H200's warps, so that a large chunk's warps take several pieces each */
#define GPU_V2_CK_BLOCKS_MOST 1024

/*
 * The first step of the kernels that launch_chained (gpu_v2_launch.cu)
 * launches: wait until the kernel before this one in the stream has ended
 * and its writes show, and only then touch global memory; then let the
 * kernel after this one launch.  On sm_90 and later such a kernel may
 * start while the one before it ends (programmatic dependent launch), so
 * that a chunk's steps do not each wait a launch; elsewhere, and when
 * launched plainly, both are no-ops.
 */
__device__ __forceinline__ void v2_after_prior()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Symbol i of the input, S bytes little-endian, from any alignment. */
template <unsigned S>
__device__ __forceinline__ uint64_t v2_sym(const uint8_t *x, uint64_t i)
{
    const uint8_t *p = x + i * S;
    uint64_t v = 0;
#pragma unroll
    for (unsigned q = 0; q < S; q++)
        v |= (uint64_t)p[q] << (8 * q);
    return v;
}

/* The symbol at p, S bytes little-endian, p aligned to S: one load. */
template <unsigned S>
__device__ __forceinline__ uint64_t v2_sym_here(const uint8_t *p)
{
    if (S == 1)
        return *p;
    if (S == 2)
        return *(const uint16_t *)p;
    if (S == 4)
        return *(const uint32_t *)p;
    return *(const uint64_t *)p;
}

/* Symbol i of x, S bytes little-endian, where x is aligned to S: one load. */
template <unsigned S>
__device__ __forceinline__ uint64_t v2_sym_aligned(const uint8_t *x, uint64_t i)
{
    return v2_sym_here<S>(x + i * S);
}

/* Where a stream's units come from, read out of the job once, before a
 * kernel's loop (not from its parameters in every pass). */
struct v2_src {
    const uint8_t *x;
    uint64_t cmask;  /* C - 1: DELTA restarts where (i & cmask) == 0 */
    unsigned shift;  /* SPLIT: the plane's byte, 8 * plane */
    bool bytes, delta, split, aligned;
};

__device__ __forceinline__ v2_src v2_src_of(const gpu_v2_job &J, const gpu_v2_stream &st, unsigned S)
{
    v2_src q;
    q.x = st.x;
    q.cmask = J.C - 1;
    q.shift = 8 * st.plane;
    q.bytes = st.bytes != 0;
    q.delta = J.delta != 0;
    q.split = J.split != 0;
    q.aligned = ((uintptr_t)st.x & (S - 1)) == 0;
    return q;
}

/*
 * §13-14, the one copy of the transform, over one unit whose symbols are
 * already loaded, so that v2_units can issue a batch's loads before any of
 * this runs.  Two steps: DELTA's, called under the caller's test of q.delta
 * (where it loaded p), then SPLIT's.  DELTA's works in place: one that
 * returned the difference took the S = 1 encoder from 56 to 64 registers
 * (nvcc 13, sm_90), and as two steps the encoder's code is what it was.
 */

/* DELTA: symbol i becomes its difference from p, the symbol before it,
 * except where its block starts (cmask = C - 1, C a power of two). */
template <unsigned S>
__device__ __forceinline__ void v2_delta(uint64_t cmask, uint64_t i, uint64_t &y, uint64_t p)
{
    if (i & cmask)
        y = (y - p) & gpulz_symbol_mask(S);
}

/* SPLIT: the unit is the plane's byte of the (transformed) symbol. */
__device__ __forceinline__ uint32_t v2_plane(const v2_src &q, uint64_t y)
{
    return q.split ? (uint32_t)(y >> q.shift) & 255u : (uint32_t)y;
}

/* Unit i of a stream, loaded as v2_units loads a batch's. */
template <unsigned S>
__device__ __forceinline__ uint32_t v2_unit(const v2_src &q, uint64_t i)
{
    if (q.bytes)
        return q.x[i];
    const uint64_t before = i ? i - 1 : 0;
    uint64_t y = q.aligned ? v2_sym_aligned<S>(q.x, i) : v2_sym<S>(q.x, i);
    if (q.delta)
        v2_delta<S>(q.cmask, i, y, q.aligned ? v2_sym_aligned<S>(q.x, before) : v2_sym<S>(q.x, before));
    return v2_plane(q, y);
}

/* Where a stream's decoded units go, read out of the job once: unit i of u
 * bytes at out + i * stride, the inverse of v2_src's reading (a byte
 * stream's bytes, the symbols, or with SPLIT the plane's byte of each). */
struct v2_dst {
    uint8_t *out;
    unsigned stride, u;
    bool aligned16; /* 16-bit units side by side from an even address: one store each */
};

__device__ __forceinline__ v2_dst v2_dst_of(const gpu_v2_job &J, const gpu_v2_stream &st)
{
    v2_dst d;
    d.stride = st.bytes ? 1 : J.S;
    d.out = st.out + (st.bytes || !J.split ? 0 : st.plane);
    d.u = st.u;
    d.aligned16 = d.u == 2 && d.stride == 2 && ((uintptr_t)d.out & 1) == 0;
    return d;
}

__device__ __forceinline__ uint8_t *v2_dst_at(const v2_dst &d, uint64_t i)
{
    return d.out + i * d.stride;
}

/* A unit of U bytes at p (the stream's d.u, known to the caller at compile
 * time, so that the decoder's loop of 1-byte units carries no 16-bit test).
 * A16: d.aligned16 where the caller knows it at compile time too (1 or 0),
 * -1 to test it here; the decoder's rows had both stores, predicated. */
template <unsigned U, int A16 = -1>
__device__ __forceinline__ void v2_unit_store(const v2_dst &d, uint8_t *p, uint32_t v)
{
    if (U == 2 && (A16 < 0 ? d.aligned16 : A16 > 0)) {
        *(uint16_t *)p = (uint16_t)v;
    } else {
        p[0] = (uint8_t)v;
        if (U == 2)
            p[1] = (uint8_t)(v >> 8);
    }
}

/* Unit i of U bytes. */
template <unsigned U>
__device__ __forceinline__ void v2_unit_put(const v2_dst &d, uint64_t i, uint32_t v)
{
    v2_unit_store<U>(d, v2_dst_at(d, i), v);
}

/* ---- statistics ----------------------------------------------------------- */

/*
 * The histograms of fast's choice (§19), bins per transform: S = 1 the
 * bytes, S = 2 the 16-bit symbols (the planes are derived on the host),
 * S >= 4 the S byte planes, 256 bins each; the deltas' only with delta_too
 * (ratio's streams have none).  Small alphabets count in shared memory; the
 * 2^16 bins of S = 2 go to global memory, one atomic per value a warp holds.
 * Grid y: the input (ratio's three byte streams in one launch).
 */
template <unsigned S>
__global__ void __launch_bounds__(256) gpu_v2_hist_kernel(gpu_v2_hist_inputs in, unsigned C, bool delta_too,
                                                          size_t bins)
{
    v2_after_prior();
    const uint8_t *const x = in.x[blockIdx.y];
    const uint64_t m = in.m[blockIdx.y];
    unsigned long long *const hist = (unsigned long long *)in.hist[blockIdx.y];
    constexpr bool shared = S != 2;
    constexpr unsigned SB = S == 1 ? 256 : S * 256;
    __shared__ unsigned sh[shared ? 2 * SB : 1];
    if (shared) {
        for (unsigned j = threadIdx.x; j < 2 * SB; j += blockDim.x)
            sh[j] = 0;
        __syncthreads();
    }
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const uint64_t v0 = v2_sym<S>(x, i);
        uint64_t v1 = v0;
        v2_delta<S>(C - 1, i, v1, v2_sym<S>(x, i ? i - 1 : 0));
        if (S == 2) {
            const unsigned act = __activemask(), lane = threadIdx.x & 31;
            unsigned peers = __match_any_sync(act, (unsigned)v0);
            if ((unsigned)__ffs(peers) - 1 == lane)
                atomicAdd(&hist[v0], (unsigned long long)__popc(peers));
            if (!delta_too)
                continue;
            peers = __match_any_sync(act, (unsigned)v1);
            if ((unsigned)__ffs(peers) - 1 == lane)
                atomicAdd(&hist[bins + v1], (unsigned long long)__popc(peers));
        } else {
#pragma unroll
            for (unsigned q = 0; q < S; q++) {
                atomicAdd(&sh[q * 256 + (unsigned)(v0 >> (8 * q) & 255)], 1u);
                if (delta_too)
                    atomicAdd(&sh[SB + q * 256 + (unsigned)(v1 >> (8 * q) & 255)], 1u);
            }
        }
    }
    if (shared) {
        __syncthreads();
        for (unsigned j = threadIdx.x; j < 2 * SB; j += blockDim.x)
            if (sh[j])
                atomicAdd(&hist[j < SB ? j : bins + j - SB], (unsigned long long)sh[j]);
    }
}

/*
 * S = 2 where the values lie close together, as quantization codes do: the
 * window of each transform's values first, from a sample of them
 * (gpu_v2_range2_kernel), then the counts over that window in shared memory
 * and the values' own range (gpu_v2_count2_kernel), the data read once for
 * both transforms, or for the one fast picked from a sample on a large
 * chunk (gpu_v2_sample2_kernel).  The sample spares a whole pass: the
 * counts, bound by shared-memory atomics, take the extent's few
 * instructions in their shadow.  hist2 below counts the transforms whose
 * window is wider than GPU_V2_SPAN_MAX.  The bins handed back are the same 2^16 per transform
 * whichever kernel counted them; gpu_v2_pack2_kernel packs a narrow
 * transform's for the host.  The range area: gpu_v2.h.
 */
#define GPU_V2_COUNT2_THREADS 512
/* blocks an SM holds, their shared counters side by side: the registers
 * are held to what that many leave each thread */
#define GPU_V2_COUNT2_PER_SM 3
/* a transform's counters: GPU_V2_SPAN_MAX and the slot past the window's
 * last, where the values outside it are counted first */
#define GPU_V2_COUNT2_WORDS (GPU_V2_SPAN_MAX + 1u)
#define GPU_V2_COUNT2_SMEM (2u * GPU_V2_COUNT2_WORDS * 4u)

/* The symbols past the last whole group of 8 (m % 8 of them), one each to
 * the first threads of block 0. */
__device__ __forceinline__ bool v2_tail2(const uint8_t *x, uint64_t m, uint64_t cmask, uint32_t &v, uint32_t &dv)
{
    const uint64_t i = (m & ~(uint64_t)7) + threadIdx.x;
    if (blockIdx.x || i >= m)
        return false;
    v = (uint32_t)v2_sym<2>(x, i);
    uint64_t y = v;
    v2_delta<2>(cmask, i, y, i ? v2_sym<2>(x, i - 1) : 0);
    dv = (uint32_t)y;
    return true;
}

/* A transform's extremes, two values to a word, each half its own: the
 * largest and smallest as unsigned and as signed 16-bit values (signed
 * order is that of v ^ 0x8000).  sm_90 takes both halves and two words in
 * one instruction (VIMNMX3.U16x2 and .S16x2): counted one value at a time,
 * the range pass was bound by its 20 instructions per symbol. */
struct v2_extremes {
    uint32_t hi = 0, lo = 0xFFFFFFFFu, shi = 0x80008000u, slo = 0x7FFF7FFFu;
    __device__ __forceinline__ void add(uint32_t a, uint32_t b)
    {
        hi = __vimax3_u16x2(hi, a, b);
        lo = __vimin3_u16x2(lo, a, b);
        shi = __vimax3_s16x2(shi, a, b);
        slo = __vimin3_s16x2(slo, a, b);
    }
    /* range[4t .. 4t+3] of this thread's values (0 where it has none) */
    __device__ __forceinline__ void fold(uint32_t *r) const
    {
        const int sh = max((int)(int16_t)shi, (int)(int16_t)(shi >> 16));
        const int sl = min((int)(int16_t)slo, (int)(int16_t)(slo >> 16));
        r[0] = max(hi & 0xFFFFu, hi >> 16);
        r[1] = min(lo & 0xFFFFu, lo >> 16) ^ 0xFFFFu;
        r[2] = ((uint32_t)sh & 0xFFFFu) ^ 0x8000u;
        r[3] = ((uint32_t)sl & 0xFFFFu) ^ 0x7FFFu;
    }
};

/* Symbols 8k .. 8k+7 of x as four words of two, and their DELTAs (§13) as
 * four more: a block starts only where a group does (C >= 2^8). */
__device__ __forceinline__ void v2_group2_packed(const uint8_t *x, bool vec, uint64_t cmask, uint64_t k,
                                                 uint32_t (&q)[4], uint32_t (&d)[4])
{
    if (vec) {
        const uint4 w = ((const uint4 *)x)[k];
        q[0] = w.x;
        q[1] = w.y;
        q[2] = w.z;
        q[3] = w.w;
    } else {
#pragma unroll
        for (unsigned j = 0; j < 4; j++)
            q[j] = (uint32_t)v2_sym<2>(x, 8 * k + 2 * j) | (uint32_t)v2_sym<2>(x, 8 * k + 2 * j + 1) << 16;
    }
    /* the symbol before each, from the word before: the group's first
     * has 0 before it where its block starts */
    uint32_t before = (8 * k) & cmask ? (uint32_t)v2_sym<2>(x, 8 * k - 1) << 16 : 0;
#pragma unroll
    for (unsigned j = 0; j < 4; j++) {
        d[j] = __vsub2(q[j], __byte_perm(before, q[j], 0x5432));
        before = q[j];
    }
}

/* Transform t's extremes (the range words' form), block-wide, into range
 * by atomicMax. */
__device__ __forceinline__ void v2_extremes_put(const v2_extremes &e, unsigned *range)
{
    __shared__ uint32_t part[32][4];
    uint32_t r[4];
    e.fold(r);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads(); /* part may hold the last call's words */
#pragma unroll
    for (unsigned j = 0; j < 4; j++) {
        for (unsigned o = 16; o; o >>= 1)
            r[j] = max(r[j], __shfl_xor_sync(0xFFFFFFFFu, r[j], o));
        if (lane == 0)
            part[warp][j] = r[j];
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        uint32_t a = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            a = max(a, part[w][threadIdx.x]);
        atomicMax(&range[threadIdx.x], a);
    }
}

/* The window: the extremes of the sample's runs of groups (gpulz_sample_run,
 * about gpu_v2_sample_groups() of them), a warp to a run. */
__global__ void __launch_bounds__(256) gpu_v2_range2_kernel(const uint8_t *x, uint64_t m, uint64_t cmask,
                                                            uint64_t every, unsigned *range)
{
    v2_after_prior();
    v2_extremes e[2];
    const bool vec = ((uintptr_t)x & 15) == 0;
    const uint64_t groups = m / 8, picks = gpulz_sample_picks(groups, every);
    const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    const unsigned lane = threadIdx.x & 31;
    for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; w < picks; w += warps) {
        const uint64_t k = gpulz_sample_run(w, every) * GPULZ_SAMPLE_RUN + lane;
        if (k >= groups)
            continue;
        uint32_t q[4], d[4];
        v2_group2_packed(x, vec, cmask, k, q, d);
        e[0].add(q[0], q[1]);
        e[0].add(q[2], q[3]);
        e[1].add(d[0], d[1]);
        e[1].add(d[2], d[3]);
    }
    uint32_t v, dv;
    if (v2_tail2(x, m, cmask, v, dv)) {
        e[0].add(v * 0x10001u, v * 0x10001u);
        e[1].add(dv * 0x10001u, dv * 0x10001u);
    }
    v2_extremes_put(e[0], range);
    v2_extremes_put(e[1], range + 4);
}

/*
 * Counts of the transforms (ntrans: 1 the symbols alone, 2 with their
 * deltas) whose window (gpu_v2_window_of) fits GPU_V2_SPAN_MAX, in shared
 * memory of 32-bit counters, flushed once per block.  Two values to a word:
 * two instructions take both values' offsets into the window and clamp
 * them, a value outside it (which the sample missed) landing in the spare
 * slot past the window; a group of 8 with such a value is walked again, and its
 * outside values go to global memory, a warp's equal ones in one atomic.
 * The values' own range goes into the area's second half, from the counted
 * slots and the outside values, so that no per-value work is added for it;
 * a transform left to hist2 gets its window's words there (wider than
 * GPU_V2_SPAN_MAX, so is its range).  A narrow window holds several copies
 * of its counters, lane l adding to copy l mod copies (each copy's stride
 * odd, so a value's copies lie in different banks): on concentrated data a
 * third of a warp's lanes can hold the same value, and lanes adding to one
 * counter wait for each other.
 */
__device__ __forceinline__ void v2_count_outside(unsigned long long *h, uint32_t v, v2_extremes &e)
{
    e.add(v * 0x10001u, v * 0x10001u);
    const unsigned peers = __match_any_sync(__activemask(), v);
    if ((unsigned)__ffs(peers) - 1 == (threadIdx.x & 31))
        atomicAdd(&h[v], (unsigned long long)__popc(peers));
}

/* Four words of two values counted into c (lo2, span2: the window's start
 * and span in both halves); the group walked again where one lies outside. */
__device__ __forceinline__ void v2_count_words(uint32_t *c, const uint32_t (&w)[4], uint32_t lo2, uint32_t span2,
                                               unsigned span, unsigned long long *h, v2_extremes &e)
{
    uint32_t at[4];
#pragma unroll
    for (unsigned j = 0; j < 4; j++) {
        at[j] = __vsub2(w[j], lo2);
        const uint32_t in = __vminu2(at[j], span2);
        atomicAdd(c + (in & 0xFFFFu), 1u);
        atomicAdd(c + (in >> 16), 1u);
    }
    if (__vcmpgeu2(__vmaxu2(__vimax3_u16x2(at[0], at[1], at[2]), at[3]), span2)) {
#pragma unroll
        for (unsigned j = 0; j < 8; j++)
            if ((at[j / 2] >> (16 * (j & 1)) & 0xFFFFu) >= span)
                v2_count_outside(h, w[j / 2] >> (16 * (j & 1)) & 0xFFFFu, e);
    }
}

/* The windows of count2's transforms (gpu_v2_window_of) and their shared
 * counters: on where counted in shared memory, copies of the counters
 * stride words apart. */
struct v2_windows2 {
    unsigned lo[2] = {0, 0}, span[2] = {0, 0}, copies[2] = {1, 1}, stride[2] = {0, 0};
    bool on[2] = {false, false};
    __device__ __forceinline__ v2_windows2(const unsigned *range, unsigned ntrans, int sampled, const bool (&skip)[2])
    {
#pragma unroll
        for (unsigned t = 0; t < 2; t++) {
            if (t >= ntrans)
                break;
            gpu_v2_window_of(range, t, sampled, &lo[t], &span[t]);
            on[t] = span[t] <= GPU_V2_SPAN_MAX && !skip[t];
            while (copies[t] < 8 && 2 * copies[t] * ((span[t] + 1) | 1u) <= GPU_V2_SPAN_MAX) {
                copies[t] *= 2;
                stride[t] = (span[t] + 1) | 1u;
            }
        }
    }
    /* lane's copy of transform t's counters in cnt */
    __device__ __forceinline__ uint32_t *counters(uint32_t *cnt, unsigned t, unsigned lane) const
    {
        return cnt + t * GPU_V2_COUNT2_WORDS + (lane & (copies[t] - 1)) * stride[t];
    }
    __device__ __forceinline__ void zero(uint32_t *cnt) const
    {
        for (unsigned j = threadIdx.x; j < 2 * GPU_V2_COUNT2_WORDS; j += blockDim.x)
            cnt[j] = 0;
    }
    /* the block's counts of transform t added to hist (values where they
     * were counted into e) */
    __device__ __forceinline__ void flush(const uint32_t *cnt, unsigned t, unsigned long long *hist,
                                          v2_extremes &e) const
    {
        const uint32_t *ct = cnt + t * GPU_V2_COUNT2_WORDS;
        for (unsigned j = threadIdx.x; j < span[t]; j += blockDim.x) {
            uint32_t sum = 0;
            for (unsigned q = 0; q < copies[t]; q++)
                sum += ct[q * stride[t] + j];
            if (sum) {
                const uint32_t val = (lo[t] + j) & 0xFFFFu;
                e.add(val * 0x10001u, val * 0x10001u);
                atomicAdd(&hist[val], (unsigned long long)sum);
            }
        }
    }
};

__global__ void __launch_bounds__(GPU_V2_COUNT2_THREADS, GPU_V2_COUNT2_PER_SM)
    gpu_v2_count2_kernel(const uint8_t *x, uint64_t m, uint64_t cmask, unsigned ntrans, int sampled,
                         const unsigned *pick, unsigned *range, unsigned long long *hist, size_t bins)
{
    v2_after_prior();
    extern __shared__ uint32_t cnt[]; /* transform t at t * GPU_V2_COUNT2_WORDS */
    /* the transform fast did not pick from the sample: not counted, its own range left empty */
    const unsigned picked = pick ? *pick : 2;
    const bool skip[2] = {picked == 1, picked == 0};
    const v2_windows2 W(range, ntrans, sampled, skip);
    unsigned *own = range + GPU_V2_RANGE_WORDS;
    if (blockIdx.x == 0 && threadIdx.x < GPU_V2_RANGE_WORDS &&
        !(threadIdx.x < 4 ? W.on[0] || skip[0] : W.on[1] || skip[1]))
        own[threadIdx.x] = range[threadIdx.x];
    if (!W.on[0] && !W.on[1])
        return;
    W.zero(cnt);
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    uint32_t *c0 = W.counters(cnt, 0, lane), *c1 = W.counters(cnt, 1, lane);
    const uint32_t lo2[2] = {W.lo[0] * 0x10001u, W.lo[1] * 0x10001u};
    const uint32_t span2[2] = {W.span[0] * 0x10001u, W.span[1] * 0x10001u};
    v2_extremes e[2];
    const bool vec = ((uintptr_t)x & 15) == 0;
    const uint64_t groups = m / 8, step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < groups; k += step) {
        uint32_t q[4], d[4];
        v2_group2_packed(x, vec, cmask, k, q, d);
        if (W.on[0])
            v2_count_words(c0, q, lo2[0], span2[0], W.span[0], hist, e[0]);
        if (W.on[1])
            v2_count_words(c1, d, lo2[1], span2[1], W.span[1], hist + bins, e[1]);
    }
    uint32_t v, dv;
    if (v2_tail2(x, m, cmask, v, dv)) {
        const uint32_t val[2] = {v, dv};
        uint32_t *const ct[2] = {c0, c1};
#pragma unroll
        for (unsigned t = 0; t < 2; t++) {
            const uint32_t at = (val[t] - W.lo[t]) & 0xFFFFu;
            if (!W.on[t])
                continue;
            if (at < W.span[t])
                atomicAdd(ct[t] + at, 1u);
            else
                v2_count_outside(hist + t * bins, val[t], e[t]);
        }
    }
    __syncthreads();
#pragma unroll
    for (unsigned t = 0; t < 2; t++) {
        if (!W.on[t])
            continue;
        W.flush(cnt, t, hist + t * bins, e[t]);
        v2_extremes_put(e[t], own + 4 * t);
    }
}

/*
 * Fast's DELTA from the sample (FORMAT.md §19, gpulz_pick_sampled): the
 * sample's counts of both transforms, as count2 counts (in the windows from
 * range2's larger sample), a thread a group of the runs, into the pick
 * area's 64-bit bins; a transform whose window is too wide for shared
 * memory, or both where the block has none (shared 0), value by value.
 * gpu_v2_weigh2_kernel then weighs the counts and picks.  Counted in 16-bit
 * shared counters of all 2^16 values instead (a block an SM), the same
 * sample took twice as long.
 */
__global__ void __launch_bounds__(GPU_V2_COUNT2_THREADS, GPU_V2_COUNT2_PER_SM)
    gpu_v2_sample2_kernel(const uint8_t *x, uint64_t m, uint64_t cmask, int sampled, int shared,
                          const unsigned *range, unsigned long long *bins)
{
    v2_after_prior();
    extern __shared__ uint32_t cnt[];
    const bool skip[2] = {!shared, !shared};
    const v2_windows2 W(range, 2, sampled, skip);
    if (W.on[0] || W.on[1])
        W.zero(cnt);
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    uint32_t *c[2] = {W.counters(cnt, 0, lane), W.counters(cnt, 1, lane)};
    const uint32_t lo2[2] = {W.lo[0] * 0x10001u, W.lo[1] * 0x10001u};
    const uint32_t span2[2] = {W.span[0] * 0x10001u, W.span[1] * 0x10001u};
    v2_extremes e[2];
    const bool vec = ((uintptr_t)x & 15) == 0;
    const uint64_t groups = m / 8, every = gpulz_sample_every(groups, GPULZ_PICK_SAMPLE);
    const uint64_t threads = gpulz_sample_picks(groups, every) * GPULZ_SAMPLE_RUN;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < threads; j += step) {
        const uint64_t k = gpulz_sample_run(j / GPULZ_SAMPLE_RUN, every) * GPULZ_SAMPLE_RUN + j % GPULZ_SAMPLE_RUN;
        if (k >= groups)
            continue;
        uint32_t q[4], d[4];
        v2_group2_packed(x, vec, cmask, k, q, d);
#pragma unroll
        for (unsigned t = 0; t < 2; t++) {
            const uint32_t(&w)[4] = t ? d : q;
            if (W.on[t]) {
                v2_count_words(c[t], w, lo2[t], span2[t], W.span[t], bins + t * 65536u, e[t]);
            } else {
#pragma unroll
                for (unsigned i = 0; i < 8; i++)
                    v2_count_outside(bins + t * 65536u, w[i / 2] >> (16 * (i & 1)) & 0xFFFFu, e[t]);
            }
        }
    }
    __syncthreads();
#pragma unroll
    for (unsigned t = 0; t < 2; t++)
        if (W.on[t])
            W.flush(cnt, t, bins + t * 65536u, e[t]);
}

/* The sample's weights, a count a thread (2^17 / GPU_V2_WEIGH_THREADS
 * blocks), each block's sum added to its transform's; the last block writes
 * the pick.  Weighed by one block at the end of the counting, the 2^17
 * counts took 60 us of L2 latency. */
#define GPU_V2_WEIGH_THREADS 1024u
__global__ void __launch_bounds__(GPU_V2_WEIGH_THREADS) gpu_v2_weigh2_kernel(unsigned *area)
{
    v2_after_prior();
    __shared__ unsigned long long part[GPU_V2_WEIGH_THREADS / 32];
    __shared__ bool last;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned long long *sum = (unsigned long long *)(area + GPU_V2_PICK_SUMS);
    unsigned long long w = gpulz_pick_weight((uint32_t)((const unsigned long long *)(area + GPU_V2_PICK_HEAD))[i]);
    for (unsigned o = 16; o; o >>= 1)
        w += __shfl_xor_sync(0xFFFFFFFFu, w, o);
    if (lane == 0)
        part[warp] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long b = 0;
        for (unsigned j = 0; j < blockDim.x / 32; j++)
            b += part[j];
        atomicAdd(&sum[i >> 16], b); /* a block's counts are of one transform */
        __threadfence();
        last = atomicAdd(&area[GPU_V2_PICK_TICKET], 1u) == gridDim.x - 1;
        if (last) {
            __threadfence();
            area[GPU_V2_PICK_WORD] = __ldcg(&sum[1]) > __ldcg(&sum[0]);
        }
    }
}

/* The narrow transforms' counts packed for the host (gpu_v2.h's layout),
 * block t transform t's, after count2 and hist2: a few KB cross the bus
 * where 2^16 bins per transform did, and the host reads no zeros.  For a
 * wide transform instead its byte planes' counts (GPU_V2_PACK_PLANES_AT)
 * and its model's candidates (GPU_V2_PACK_SUMMARY_AT), for which the host
 * took passes over its 2^16 counters. */
#define GPU_V2_PACK2_THREADS 1024
__global__ void __launch_bounds__(GPU_V2_PACK2_THREADS) gpu_v2_pack2_kernel(const unsigned *range,
                                                                            const unsigned long long *hist,
                                                                            size_t bins, uint64_t N, uint64_t *packed)
{
    __shared__ unsigned long long lo_of[GPU_V2_PACK2_THREADS / 256][256], row_sum[256], escaped;
    __shared__ unsigned warp_n[GPU_V2_PACK2_THREADS / 32], distinct;
    v2_after_prior();
    const unsigned t = blockIdx.x;
    if (t == 0 && threadIdx.x < GPU_V2_RANGE_WORDS)
        ((unsigned *)packed)[threadIdx.x] = range[threadIdx.x];
    unsigned lo, span;
    gpu_v2_range_of(range, t, &lo, &span);
    if (span > GPU_V2_SPAN_MAX) { /* the same for the whole block */
        /* thread (q, a): low byte a over its quarter's rows; a warp's
         * lanes add each row's 32 counters together */
        const unsigned a = threadIdx.x & 255, q = threadIdx.x >> 8, rows = 256 / (GPU_V2_PACK2_THREADS / 256);
        const unsigned long long *h = hist + (size_t)t * bins;
        if (threadIdx.x < 256)
            row_sum[threadIdx.x] = 0;
        __syncthreads();
        unsigned long long sum = 0;
        for (unsigned b = q * rows; b < (q + 1) * rows; b++) {
            unsigned long long x = h[256 * b + a];
            sum += x;
            for (int o = 16; o > 0; o >>= 1)
                x += __shfl_down_sync(0xFFFFFFFFu, x, o);
            if ((threadIdx.x & 31) == 0)
                atomicAdd(&row_sum[b], x);
        }
        lo_of[q][a] = sum;
        __syncthreads();
        uint64_t *to = packed + GPU_V2_PACK_PLANES_AT(gridDim.x, t);
        if (threadIdx.x < 256) {
            unsigned long long l = 0;
            for (unsigned k = 0; k < GPU_V2_PACK2_THREADS / 256; k++)
                l += lo_of[k][threadIdx.x];
            to[threadIdx.x] = l;
            to[256 + threadIdx.x] = row_sum[threadIdx.x];
        }
        /* and the model's candidates in ascending order (a round of the
         * block takes 1024 values, each warp 32 of them in turn), which the
         * host found by a pass over the 2^16 counters per model */
        uint64_t *sw = packed + GPU_V2_PACK_SUMMARY_AT(gridDim.x, t);
        uint32_t *value = (uint32_t *)(sw + 3);
        uint64_t *count = sw + 3 + GPULZ_RANS_M / 2;
        const uint64_t least = gpulz_rans_least(N);
        const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
        unsigned n = 0, dist = 0;
        unsigned long long esc = 0;
        if (threadIdx.x == 0) {
            escaped = 0;
            distinct = 0;
        }
        for (unsigned r = 0; r < 65536u; r += GPU_V2_PACK2_THREADS) {
            const unsigned v = r + threadIdx.x;
            const unsigned long long x = h[v];
            const bool cand = x >= least;
            dist += x != 0;
            esc += cand ? 0 : x;
            const unsigned mask = __ballot_sync(0xFFFFFFFFu, cand);
            if (lane == 0)
                warp_n[warp] = __popc(mask);
            __syncthreads();
            unsigned before = 0, round = 0;
            for (unsigned k = 0; k < GPU_V2_PACK2_THREADS / 32; k++) {
                before += k < warp ? warp_n[k] : 0;
                round += warp_n[k];
            }
            const unsigned at = n + before + __popc(mask & ((1u << lane) - 1));
            if (cand && at < GPULZ_RANS_M) {
                value[at] = v;
                count[at] = x;
            }
            n += round;
            __syncthreads();
        }
        for (int o = 16; o > 0; o >>= 1) {
            dist += __shfl_down_sync(0xFFFFFFFFu, dist, o);
            esc += __shfl_down_sync(0xFFFFFFFFu, esc, o);
        }
        if (lane == 0) {
            atomicAdd(&distinct, dist);
            atomicAdd(&escaped, esc);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            sw[0] = n;
            sw[1] = distinct;
            sw[2] = escaped;
        }
        return;
    }
    uint64_t *to = packed + GPU_V2_PACK_HEAD + (size_t)t * GPU_V2_SPAN_MAX;
    for (unsigned j = threadIdx.x; j < span; j += blockDim.x)
        to[j] = hist[t * bins + ((lo + j) & 0xFFFFu)];
}

/*
 * S = 2 in shared memory, where the device has room for 2^16
 * counters of 16 bits (two to a word): per transform (grid y) the blocks
 * take runs of GPU_V2_HIST2_RUN symbols, which no counter can overflow, in
 * turn; a warp adds a value once for all its lanes that hold it.  On data
 * of few distinct values this keeps the atomics off global memory, where
 * they queued behind each other.  With range (gpu_v2_range2_kernel's), a
 * transform whose range fits GPU_V2_SPAN_MAX is gpu_v2_count2_kernel's and
 * left alone here.
 */
#define GPU_V2_HIST2_RUN 65535u
#define GPU_V2_HIST2_SMEM (65536u * 2u)
__global__ void __launch_bounds__(1024) gpu_v2_hist2_kernel(const uint8_t *x, uint64_t m, unsigned C,
                                                            const unsigned *range, const unsigned *pick,
                                                            unsigned long long *hist, size_t bins)
{
    v2_after_prior();
    extern __shared__ uint32_t pair[]; /* value v's counter: half v & 1 of word v >> 1 */
    const unsigned d = blockIdx.y, lane = threadIdx.x & 31;
    if (pick && *pick != d)
        return;
    if (range) {
        unsigned lo, span;
        gpu_v2_range_of(range, d, &lo, &span);
        if (span <= GPU_V2_SPAN_MAX)
            return;
    }
    unsigned long long *h = hist + (size_t)d * bins;
    const uint64_t runs = (m + GPU_V2_HIST2_RUN - 1) / GPU_V2_HIST2_RUN;
    for (uint64_t run = blockIdx.x; run < runs; run += gridDim.x) {
        for (unsigned j = threadIdx.x; j < GPU_V2_HIST2_SMEM / 4; j += blockDim.x)
            pair[j] = 0;
        __syncthreads();
        const uint64_t first = run * GPU_V2_HIST2_RUN;
        const uint64_t end = m - first < GPU_V2_HIST2_RUN ? m : first + GPU_V2_HIST2_RUN;
        for (uint64_t i = first + threadIdx.x; i < end; i += blockDim.x) {
            uint64_t y = v2_sym<2>(x, i);
            if (d)
                v2_delta<2>(C - 1, i, y, v2_sym<2>(x, i ? i - 1 : 0));
            const uint32_t v = (uint32_t)y;
            const unsigned peers = __match_any_sync(__activemask(), v);
            if ((unsigned)__ffs(peers) - 1 == lane)
                atomicAdd(&pair[v >> 1], (uint32_t)__popc(peers) << (16 * (v & 1)));
        }
        __syncthreads();
        for (unsigned j = threadIdx.x; j < GPU_V2_HIST2_SMEM / 4; j += blockDim.x) {
            const uint32_t w = pair[j];
            if (w & 0xFFFFu)
                atomicAdd(&h[2 * j], (unsigned long long)(w & 0xFFFFu));
            if (w >> 16)
                atomicAdd(&h[2 * j + 1], (unsigned long long)(w >> 16));
        }
        __syncthreads();
    }
}

/* Word j of b, 32-bit little-endian: one load where b is aligned
 * (ALIGNED, the caller's test, once a piece). */
template <bool ALIGNED>
__device__ __forceinline__ uint32_t v2_word(const uint8_t *b, uint64_t j)
{
    return (uint32_t)(ALIGNED ? v2_sym_aligned<4>(b, j) : v2_sym<4>(b, j));
}

/* A piece's lane hash for this lane (§17): lane l steps over words l,
 * l + 32, ..., GPU_V2_CK_AHEAD loads issued before their steps, since the
 * steps of a lane wait on one another and, a load at a time, the warps of
 * an SM kept too few reads in flight to stream the data. */
#define GPU_V2_CK_AHEAD 8
template <bool ALIGNED>
__device__ __forceinline__ uint32_t v2_ck_lane(const uint8_t *b, uint64_t words, unsigned lane)
{
    uint32_t h = gpulz_ck_lane_init(lane);
    uint64_t j = lane;
    for (; j + 32 * (GPU_V2_CK_AHEAD - 1) < words; j += 32 * GPU_V2_CK_AHEAD) {
        uint32_t w[GPU_V2_CK_AHEAD];
#pragma unroll
        for (unsigned t = 0; t < GPU_V2_CK_AHEAD; t++)
            w[t] = v2_word<ALIGNED>(b, j + 32 * t);
#pragma unroll
        for (unsigned t = 0; t < GPU_V2_CK_AHEAD; t++)
            h = gpulz_ck_lane_step(h, w[t]);
    }
    for (; j < words; j += 32)
        h = gpulz_ck_lane_step(h, v2_word<ALIGNED>(b, j));
    return h;
}

/* A piece's term of §17's sum from its lanes' hashes, every lane getting
 * the same term: lane hash l is h in lane l, or with ROWS in lane x with
 * v2_ck_of(x) == l (the decoder's, v2_decode_segment_ck). */
template <bool ROWS>
__device__ __forceinline__ uint32_t v2_ck_fold(uint32_t h, uint64_t len, uint64_t k)
{
    uint32_t H = gpulz_ck_piece_start(len);
#pragma unroll
    for (unsigned l = 0; l < 32; l++)
        H = gpulz_ck_piece_fold(H, __shfl_sync(0xFFFFFFFFu, h, ROWS ? (l % 16) * 2 + l / 16 : l));
    return gpulz_ck_term(H, k);
}

__device__ __forceinline__ uint32_t v2_ck_term(uint32_t h, uint64_t len, uint64_t k)
{
    return v2_ck_fold<false>(h, len, k);
}

/* The term of piece k of len < 128 bytes at b (a chunk's tail): a word to a
 * lane, the last zero-padded. */
__device__ __forceinline__ uint32_t v2_ck_short_term(const uint8_t *b, unsigned len, uint64_t k, unsigned lane)
{
    uint32_t h = gpulz_ck_lane_init(lane), w = 0;
    for (unsigned q = 0; q < 4; q++)
        if (4 * lane + q < len)
            w |= (uint32_t)b[4 * lane + q] << (8 * q);
    if (4 * lane < len)
        h = gpulz_ck_lane_step(h, w);
    return v2_ck_term(h, len, k);
}

/* The term of piece k of len bytes at b, the warp's lanes hashing it. */
__device__ __forceinline__ uint32_t v2_ck_piece_term(const uint8_t *b, uint64_t len, uint64_t k, unsigned lane)
{
    const uint64_t words = len / 4;
    uint32_t h = ((uintptr_t)b & 3) == 0 ? v2_ck_lane<true>(b, words, lane) : v2_ck_lane<false>(b, words, lane);
    if (len % 4 && lane == words % 32) {
        uint32_t last = 0;
        for (unsigned q = 0; q < len % 4; q++)
            last |= (uint32_t)b[4 * words + q] << (8 * q);
        h = gpulz_ck_lane_step(h, last);
    }
    return v2_ck_term(h, len, k);
}

/*
 * §17: each warp takes pieces (the blocks, then the tail as piece nb) k, k
 * + the grid's warps, ...: its lanes hash a piece, the last partial word
 * zero-padded in the lane its index falls to, and fold in lane order.  The
 * terms are summed per warp, then per block, and the blocks' sums added
 * with an atomic each (the sum is modulo 2^32, so their order is free): an
 * atomic per piece, all on one word, had the pieces of a large chunk wait
 * on one another.
 */
__global__ void __launch_bounds__(GPU_V2_CK_THREADS) gpu_v2_checksum_kernel(const uint8_t *x, uint64_t piece,
                                                                            uint64_t bytes, uint64_t nb,
                                                                            uint64_t tail, uint32_t *sum)
{
    __shared__ uint32_t warp_sum[GPU_V2_CK_THREADS / 32];
    const unsigned lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const uint64_t warps = (uint64_t)gridDim.x * (GPU_V2_CK_THREADS / 32);
    uint32_t terms = 0;
    for (uint64_t k = (uint64_t)blockIdx.x * (GPU_V2_CK_THREADS / 32) + wid; k <= nb; k += warps) {
        const uint64_t off = k < nb ? k * piece : bytes;
        const uint64_t len = k < nb ? (bytes - off < piece ? bytes - off : piece) : tail;
        terms += v2_ck_piece_term(x + off, len, k, lane);
    }
    if (lane == 0)
        warp_sum[wid] = terms;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t = 0;
        for (unsigned w = 0; w < GPU_V2_CK_THREADS / 32; w++)
            t += warp_sum[w];
        atomicAdd(sum, t);
    }
}

/* ---- scans ---------------------------------------------------------------- */

#define GPU_V2_SCAN_THREADS 512
#define GPU_V2_SCAN_ITEMS 4

struct gpu_v2_scan_arrays {
    uint64_t *a[GPU_V2_SCANS];
    /* where set, array j's items are not read: item i < len - 1 is the
     * size of a segment of words[j][i] words, the last 0 (gpu_v2_place:
     * the sizes and their scan in one launch) */
    const uint32_t *words[GPU_V2_SCANS];
};

/* A block per array: its exclusive sum in place, GPU_V2_SCAN_THREADS x
 * GPU_V2_SCAN_ITEMS items a round, each round carried into the next
 * (gpu_v2_scans: for arrays of a few thousand items). */
__global__ void __launch_bounds__(GPU_V2_SCAN_THREADS) gpu_v2_scan_kernel(gpu_v2_scan_arrays A, uint64_t len)
{
    v2_after_prior();
    typedef cub::BlockScan<uint64_t, GPU_V2_SCAN_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    uint64_t *const a = A.a[blockIdx.x];
    const uint32_t *const words = A.words[blockIdx.x];
    uint64_t carry = 0;
    for (uint64_t base = 0; base < len; base += GPU_V2_SCAN_THREADS * GPU_V2_SCAN_ITEMS) {
        const uint64_t first = base + (uint64_t)threadIdx.x * GPU_V2_SCAN_ITEMS;
        uint64_t v[GPU_V2_SCAN_ITEMS], total;
#pragma unroll
        for (unsigned k = 0; k < GPU_V2_SCAN_ITEMS; k++)
            v[k] = first + k >= len ? 0
                   : words      ? (first + k + 1 < len ? gpulz_segment_bytes(words[first + k]) : 0)
                                : a[first + k];
        scan_t(tmp).ExclusiveSum(v, v, total);
#pragma unroll
        for (unsigned k = 0; k < GPU_V2_SCAN_ITEMS; k++)
            if (first + k < len)
                a[first + k] = carry + v[k];
        carry += total;
        __syncthreads(); /* tmp again */
    }
}

/* ---- coding --------------------------------------------------------------- */

__device__ __forceinline__ void v2_put_word(uint8_t *seg, uint32_t i, uint32_t w)
{
    uint8_t *p = seg + GPULZ_RANS_STATE_BYTES + GPULZ_RANS_WORD_BYTES * (size_t)i;
    p[0] = (uint8_t)w;
    p[1] = (uint8_t)(w >> 8);
}

/* The S-byte symbols at at[0..B-1], every load issued before any value is
 * used. */
template <unsigned S, unsigned B>
__device__ __forceinline__ void v2_syms(const uint8_t *x, bool aligned, const uint64_t (&at)[B], uint64_t (&y)[B])
{
    if (aligned) {
#pragma unroll
        for (unsigned k = 0; k < B; k++)
            y[k] = v2_sym_aligned<S>(x, at[k]);
    } else {
#pragma unroll
        for (unsigned k = 0; k < B; k++)
            y[k] = v2_sym<S>(x, at[k]);
    }
}

/* The units of B loaded symbols y at indices at, with (under DELTA) the
 * symbols before them: v2_unit's two steps over a batch. */
template <unsigned S, unsigned B>
__device__ __forceinline__ void v2_transform(const v2_src &q, const uint64_t (&at)[B], uint64_t (&y)[B],
                                             const uint64_t (&before)[B], uint32_t (&v)[B])
{
    if (q.delta) {
#pragma unroll
        for (unsigned k = 0; k < B; k++)
            v2_delta<S>(q.cmask, at[k], y[k], before[k]);
    }
#pragma unroll
    for (unsigned k = 0; k < B; k++)
        v[k] = v2_plane(q, y[k]);
}

/*
 * The lane's units of B rounds of a segment, rounds top-1 down to top-B.
 * Every load is unconditional (a round below 0 reads round 0, a unit past
 * the segment its last unit; the caller ignores those), so that they are
 * issued back to back and the batch waits on memory once: loads under a
 * condition were placed each with its first use, and a segment of a small
 * chunk, with nothing beside it on its SM, waited once per round.
 */
template <unsigned S, unsigned B>
__device__ __forceinline__ void v2_units(const v2_src &q, uint64_t first, unsigned top, unsigned c, unsigned lane,
                                         uint32_t (&v)[B])
{
    uint64_t at[B], y[B];
    /* B full rows past the stream's first unit (every unit and the one
     * before it in range, nothing to clamp), from a byte stream or aligned
     * symbols: each load at a constant distance from one address, so that
     * it costs the load alone.  The clamped indices and their addresses
     * were a fifth of the few-segment coder's instructions. */
    if (top >= B && top * 32 <= c && first + (uint64_t)(top - B) * 32 > 0 && (q.bytes || q.aligned)) {
        const uint64_t i0 = first + (uint64_t)(top - 1) * 32 + lane;
        if (q.bytes) {
#pragma unroll
            for (unsigned k = 0; k < B; k++)
                v[k] = q.x[i0 - 32 * k];
            return;
        }
        const uint8_t *p = q.x + i0 * S;
        uint64_t before[B];
#pragma unroll
        for (unsigned k = 0; k < B; k++) {
            at[k] = i0 - 32 * k;
            y[k] = v2_sym_here<S>(p - 32 * S * k);
        }
        if (q.delta) {
#pragma unroll
            for (unsigned k = 0; k < B; k++)
                before[k] = v2_sym_here<S>(p - 32 * S * k - S);
        }
        v2_transform<S, B>(q, at, y, before, v);
        return;
    }
#pragma unroll
    for (unsigned k = 0; k < B; k++) {
        const unsigned r = top > k ? top - 1 - k : 0, i = r * 32 + lane;
        at[k] = first + (i < c ? i : c - 1);
    }
    if (q.bytes) {
#pragma unroll
        for (unsigned k = 0; k < B; k++)
            v[k] = q.x[at[k]];
        return;
    }
    uint64_t before[B], p[B];
    v2_syms<S, B>(q.x, q.aligned, at, y);
    if (q.delta) {
#pragma unroll
        for (unsigned k = 0; k < B; k++)
            before[k] = at[k] ? at[k] - 1 : 0;
        v2_syms<S, B>(q.x, q.aligned, before, p);
    }
    v2_transform<S, B>(q, at, y, p, v);
}

/* The OR of v over the warp, every lane taking part. */
__device__ __forceinline__ unsigned v2_warp_or(unsigned v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_or_sync(0xFFFFFFFFu, v);
#else
#pragma unroll
    for (unsigned o = 16; o; o >>= 1)
        v |= __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
#endif
}

/* A row's word emitted (emit) where it lands: words are numbered
 * backwards, the first emitted last, and back is the number of the next
 * (the lanes above go first; lanes_above: their bits).  Writing, that is
 * its number in the segment; coding, its place in the room, so that the
 * room ends with the words in the order the decoder reads them and
 * gpu_v2_put_kernel copies them as they are.  ROOM: coding may pass the
 * start of the room (back below 0), so each word is held to it; a batch
 * known to fit leaves that test out. */
template <bool WRITE, bool ROOM>
__device__ __forceinline__ void v2_enc_word(bool emit, uint32_t w, unsigned lanes_above, uint8_t *seg,
                                            uint16_t *coded, int &back)
{
    const unsigned mask = __ballot_sync(0xFFFFFFFFu, emit);
    const int at = back - __popc(mask & lanes_above);
    if (WRITE && emit)
        v2_put_word(seg, (unsigned)at, w);
    if (!WRITE && emit && (!ROOM || at >= 0))
        coded[(unsigned)at] = (uint16_t)w;
    back -= __popc(mask);
}

/*
 * The encoder's entries of each model (grid y: the model), an entry a
 * thread: its value looked for among the kept ones, in shared memory.  The
 * grid is as wide as the widest model: a narrower model's blocks past its
 * width end at once.
 */
#define GPU_V2_ENC_BUILD_THREADS 256
__global__ void __launch_bounds__(GPU_V2_ENC_BUILD_THREADS) gpu_v2_enc_build_kernel(gpu_v2_enc_models M)
{
    __shared__ uint16_t kept[GPULZ_RANS_M];
    v2_after_prior();
    const gpu_v2_enc_model &m = M.m[blockIdx.y];
    const uint32_t at = blockIdx.x * GPU_V2_ENC_BUILD_THREADS + threadIdx.x;
    if (blockIdx.x * GPU_V2_ENC_BUILD_THREADS >= m.width) /* the same for the whole block */
        return;
    const unsigned K = m.K;
    for (unsigned i = threadIdx.x; i < K; i += GPU_V2_ENC_BUILD_THREADS)
        kept[i] = m.words[i];
    __syncthreads();
    if (at >= m.width)
        return;
    const uint32_t v = (m.lo + at) & ((1u << (8 * m.u)) - 1);
    unsigned a = 0, b = K; /* the first kept value not below v */
    while (a < b) {
        const unsigned mid = (a + b) / 2;
        if (kept[mid] < v)
            a = mid + 1;
        else
            b = mid;
    }
    const unsigned i = a < K && kept[a] == v ? a : K;
    const uint32_t f = m.words[K + i], c = m.words[2 * K + 1 + i];
    gpu_v2_enc e = {0, 0, c | (i == K ? GPU_V2_ENC_ESC : 0), 0};
    if (f)
        gpulz_rans_prepare(f, &e.thr, &e.r, &e.cfl);
    m.enc[at] = e;
}

/* The many-segment coder's warps an SM: 64 registers each for S <= 2,
 * held where the batch without escapes would take more (S >= 4 gets up to
 * 80, spilling at 64; the few-segment coder's wide batches up to 255) */
#define GPU_V2_ENC_WARPS_SM(S) ((S) <= 2 ? 32 : 24)

/*
 * One warp per segment of a rANS stream (grid y: the stream).  Rows from the
 * last: the escaped lanes' raw steps, then every lane's symbol step, each
 * from the highest lane down (§16).  Coding (WRITE false) puts the words
 * into the end of the segment's place in st.coded, backwards from its last
 * word, as many as its c * u bytes hold, and leaves the word count and the
 * final states, so that one pass codes and gpu_v2_put_kernel places.
 * Writing (WRITE true, the streams marked redo, whose words outgrew that
 * room) codes again and numbers the words backwards from the count, so they
 * land in the order the decoder reads them, behind the states.
 */
template <unsigned S, bool WRITE, unsigned B>
__global__ void __launch_bounds__(32 * GPU_V2_WARPS, (B <= 8 ? GPU_V2_ENC_WARPS_SM(S) : 8) / GPU_V2_WARPS)
    gpu_v2_encode_kernel(gpu_v2_job J, uint8_t *dst)
{
    v2_after_prior();
    const gpu_v2_stream &st = J.s[blockIdx.y];
    const uint64_t s = (uint64_t)blockIdx.x * GPU_V2_WARPS + (threadIdx.x >> 5);
    const unsigned lane = threadIdx.x & 31;
    if (s >= st.nseg || (WRITE && !st.redo))
        return;
    /* gpulz_segment_units(st.N, J.g, first), written out: through the
     * helper ptxas (CUDA 13.0) gives the S = 1 counting pass 64 registers
     * instead of 56 */
    const uint64_t G = (uint64_t)1 << J.g, first = s << J.g;
    const unsigned c = (unsigned)(st.N - first < G ? st.N - first : G);
    const v2_src q = v2_src_of(J, st, S);
    const uint4 *const enc = (const uint4 *)st.enc; /* gpu_v2_enc, in one load */
    const uint32_t enc_lo = st.enc_lo;
    const unsigned u = st.u, umask = (1u << (8 * u)) - 1;
    uint32_t total = 0, room = 0;
    uint8_t *seg = NULL;
    uint16_t *coded = NULL;
    if (WRITE) {
        total = J.words[st.seg0 + s];
        seg = dst + st.seg_at + (J.seg_off[st.seg0 + s] - J.seg_off[st.seg0]);
    } else {
        room = gpu_v2_room(c, u);
        coded = (uint16_t *)(st.coded + first * u);
    }
    uint32_t state = GPULZ_RANS_L;
    int back = (int)(WRITE ? total : room) - 1; /* v2_enc_word's */
    const unsigned lanes_above = ~0u << lane << 1; /* 0 for lane 31: a shift by 32 is not */
    /* The rounds in batches of B, last first: a batch's units
     * and then their entries are loaded before any is coded, so that a
     * segment waits on memory twice per batch and not twice per round (with
     * few segments, small chunks, nothing else hides that wait). */
    for (unsigned top = (c + 31) / 32; top > 0;) {
        const unsigned nb = top < B ? top : B;
        uint32_t vb[B];
        uint4 eb[B];
        v2_units<S, B>(q, first, top, c, lane, vb);
        /* ESC_ROWS (the few-segment coder's wide batches): which rows have
         * an escape, as bits (lane_esc: this lane's unit of row top-1-k is
         * escaped); else only whether the batch has one */
        constexpr bool ESC_ROWS = B > GPU_V2_ENC_BATCH;
        static_assert(B <= 32, "a batch's rows are the bits of a word");
        unsigned lane_esc = 0;
#pragma unroll
        for (unsigned k = 0; k < B; k++) {
            eb[k] = enc[(vb[k] - enc_lo) & umask];
            lane_esc |= ESC_ROWS ? (eb[k].z & GPU_V2_ENC_ESC ? 1u : 0u) << k : eb[k].z;
        }
        const unsigned rows_esc = ESC_ROWS ? v2_warp_or(lane_esc) : __any_sync(0xFFFFFFFFu, lane_esc & GPU_V2_ENC_ESC);
        /* A whole batch of full rows whose words all fit the room: every row
         * one symbol step and its words, with no test or vote between the
         * rows.  The coder of a large chunk is bound by its instructions,
         * and the per-row escape vote and branches were a fifth of its
         * time: there, only batches without an escape.  The wide batches
         * take escapes too, with the raw steps only in the rows the warp
         * knows from one reduction to have one (such a row may emit twice
         * a lane): where rare values are escaped nearly every batch of 32
         * rows has one somewhere, and took the way below, about 48
         * instructions a row against 20 (the many-segment coder did the
         * same 1.07x slower, at its 64 registers). */
        if (nb == B && top * 32 <= c && (ESC_ROWS || !rows_esc) &&
            (WRITE || back + 1 >= (int)(32 * (B + (ESC_ROWS ? __popc(rows_esc) : 0))))) {
#pragma unroll
            for (unsigned k = 0; k < B; k++) {
                uint32_t w = 0;
                int emit = 0;
                if (ESC_ROWS && (rows_esc >> k & 1)) { /* the same for the whole warp */
                    if (lane_esc >> k & 1)
                        state = gpulz_rans_encode_raw(state, vb[k], u, &emit, &w);
                    v2_enc_word<WRITE, false>(emit, w, lanes_above, seg, coded, back);
                }
                const uint32_t start = ESC_ROWS ? eb[k].z & ~GPU_V2_ENC_ESC : eb[k].z;
                state = gpulz_rans_encode_prepared(state, eb[k].x, eb[k].y, start, eb[k].w, &emit, &w);
                v2_enc_word<WRITE, false>(emit, w, lanes_above, seg, coded, back);
            }
            top -= B;
            continue;
        }
#pragma unroll
        for (unsigned k = 0; k < B; k++) {
            if (k >= nb) /* the same for the whole warp */
                break;
            const unsigned i = (top - 1 - k) * 32 + lane;
            const bool active = i < c;
            const uint32_t v = vb[k];
            const uint4 e = eb[k];
            const bool escaped = (e.z & GPU_V2_ENC_ESC) != 0;
            uint32_t w = 0;
            int emit = 0;
#pragma unroll
            for (int step = 0; step < 2; step++) {
                /* a row where no lane escapes emits nothing in the raw step */
                if (step == 0 && !__any_sync(0xFFFFFFFFu, active && escaped))
                    continue;
                if (step == 0 && active && escaped)
                    state = gpulz_rans_encode_raw(state, v, u, &emit, &w);
                if (step == 1 && active)
                    state = gpulz_rans_encode_prepared(state, e.x, e.y, e.z & ~GPU_V2_ENC_ESC, e.w, &emit, &w);
                v2_enc_word<WRITE, true>(emit, w, lanes_above, seg, coded, back);
                emit = 0;
            }
        }
        top -= nb;
    }
    if (WRITE) {
        gpulz_put_u32(seg + 4 * lane, state);
        if (lane == 0)
            gpulz_put_u32(dst + st.dir_at + GPULZ_DIR_ENTRY_BYTES * s, total);
    } else {
        J.states[32 * (st.seg0 + s) + lane] = state;
        if (lane == 0) {
            const uint32_t words = (uint32_t)((int)room - 1 - back);
            J.words[st.seg0 + s] = words;
            J.seg_off[st.seg0 + s] = 0; /* gpu_v2_put_kernel's word, empty */
            atomicAdd(&J.sums[blockIdx.y], (unsigned long long)words);
            if (words > room)
                atomicOr(&J.sums[GPU_V2_STREAMS_MAX], 1ull << blockIdx.y);
        }
    }
}

/*
 * n bytes from src to any address dst, by threads t of nt (nt >= 4): bytes
 * until dst is aligned, then whole words, each from the two aligned words
 * of src that hold its bytes (a funnel shift where src is not aligned
 * then).  The aligned words around src's n bytes are read whole: the
 * caller's buffer holds them.  Byte copies by the threads were the whole
 * cost of ratio's token gather and of placing the coder's words.
 */
#define V2_COPY_AHEAD 4
__device__ __forceinline__ void v2_copy(uint8_t *dst, const uint8_t *src, uint64_t n, unsigned t, unsigned nt)
{
    const unsigned head = (unsigned)min(n, (uint64_t)((4u - ((uintptr_t)dst & 3u)) & 3u));
    if (t < head)
        dst[t] = src[t];
    dst += head;
    src += head;
    n -= head;
    const uint64_t words = n / 4;
    const unsigned sh = (unsigned)((uintptr_t)src & 3u);
    uint32_t *d = (uint32_t *)dst;
    const uint32_t *s = (const uint32_t *)(src - sh);
    /* V2_COPY_AHEAD words a thread loaded before any is stored: one at a
     * time, each waited a memory latency (src and dst may overlap for all
     * the compiler knows), and a segment's few words took several */
    uint64_t w = t;
    if (sh == 0) {
        for (; w + (V2_COPY_AHEAD - 1) * (uint64_t)nt < words; w += V2_COPY_AHEAD * (uint64_t)nt) {
            uint32_t a[V2_COPY_AHEAD];
#pragma unroll
            for (unsigned j = 0; j < V2_COPY_AHEAD; j++)
                a[j] = s[w + j * nt];
#pragma unroll
            for (unsigned j = 0; j < V2_COPY_AHEAD; j++)
                d[w + j * nt] = a[j];
        }
        for (; w < words; w += nt)
            d[w] = s[w];
    } else {
        for (; w + (V2_COPY_AHEAD - 1) * (uint64_t)nt < words; w += V2_COPY_AHEAD * (uint64_t)nt) {
            uint32_t a[V2_COPY_AHEAD], b[V2_COPY_AHEAD];
#pragma unroll
            for (unsigned j = 0; j < V2_COPY_AHEAD; j++) {
                a[j] = s[w + j * nt];
                b[j] = s[w + j * nt + 1];
            }
#pragma unroll
            for (unsigned j = 0; j < V2_COPY_AHEAD; j++)
                d[w + j * nt] = __funnelshift_r(a[j], b[j], 8 * sh);
        }
        for (; w < words; w += nt)
            d[w] = __funnelshift_r(s[w], s[w + 1], 8 * sh);
    }
    for (uint64_t i = 4 * words + t; i < n; i += nt)
        dst[i] = src[i];
}

/*
 * Where segment s of a stream starts from its first: the sizes of the
 * segments before it, read by one warp from their words (the coder's, all
 * known), nearest first, V2_LOOK_WINDOW at a time, back to the nearest
 * whose own sum up to and with it is published in look (its segments' words
 * of J.seg_off: 0, left so by the coder, or V2_LOOK_INC and that sum), and
 * its own sum published in turn.  Nothing waits on another block, and no
 * scan of the sizes is launched before the copies (each launch after the
 * coder cost the device a few us).  For streams of up to
 * GPU_V2_LOOK_SEGS_MOST segments: with more, the blocks of a wave walked
 * back to the wave before, a window at a time, and 256 MB took 56 us to put
 * where the scan and the copies took 38.
 */
#define V2_LOOK_INC (1ull << 63)
#define V2_LOOK_PER_LANE 4
#define V2_LOOK_WINDOW (32 * V2_LOOK_PER_LANE)
__device__ __forceinline__ uint64_t v2_look_back(uint64_t *look, const uint32_t *words, uint64_t s, uint64_t size,
                                                 unsigned lane)
{
    volatile uint64_t *const v = look;
    uint64_t before = 0;
    for (uint64_t end = s; end > 0;) {
        /* lane l's positions p = 4l .. 4l + 3 before end, p = 0 the nearest */
        uint64_t w[V2_LOOK_PER_LANE], sz[V2_LOOK_PER_LANE];
        unsigned first = V2_LOOK_PER_LANE; /* the lane's nearest published, or none */
#pragma unroll
        for (unsigned q = 0; q < V2_LOOK_PER_LANE; q++) {
            const uint64_t p = V2_LOOK_PER_LANE * lane + q;
            w[q] = p < end ? v[end - 1 - p] : V2_LOOK_INC; /* before the first: a sum of 0 */
            sz[q] = p < end ? gpulz_segment_bytes(words[end - 1 - p]) : 0;
        }
#pragma unroll
        for (int q = V2_LOOK_PER_LANE - 1; q >= 0; q--)
            if (w[q] & V2_LOOK_INC)
                first = (unsigned)q;
        const unsigned has = __ballot_sync(0xFFFFFFFFu, first < V2_LOOK_PER_LANE);
        const unsigned stop = has ? (unsigned)__ffs(has) - 1 : 32; /* the lane of the nearest published */
        uint64_t part = 0;
#pragma unroll
        for (unsigned q = 0; q < V2_LOOK_PER_LANE; q++)
            if (lane < stop || (lane == stop && q < first))
                part += sz[q];
            else if (lane == stop && q == first)
                part += w[q] & ~V2_LOOK_INC;
#pragma unroll
        for (unsigned o = 16; o; o >>= 1)
            part += __shfl_xor_sync(0xFFFFFFFFu, part, o);
        before += part;
        if (has)
            break;
        end -= V2_LOOK_WINDOW;
    }
    if (lane == 0)
        v[s] = V2_LOOK_INC | (before + size);
    return before;
}

/*
 * A block per segment of a rANS stream not marked redo or placed (grid y:
 * the stream): its states, its words (the last `total` of its room in
 * coded, already in the decoder's order), and its directory entry, where
 * the sizes before it place it (v2_look_back).  The first stream is put
 * before the host knows whether its words outgrew a room (then its stream
 * is coded again in place) or whether the chunk fits: such a segment is
 * left alone, after publishing its place.
 */
__global__ void __launch_bounds__(GPU_V2_PUT_THREADS) gpu_v2_put_kernel(gpu_v2_job J, uint8_t *dst)
{
    v2_after_prior();
    __shared__ uint64_t from_first;
    const gpu_v2_stream &st = J.s[blockIdx.y];
    const uint64_t s = blockIdx.x;
    if (st.kind != GPULZ_STREAM_RANS || st.redo || st.placed || s >= st.nseg)
        return;
    const uint64_t k = st.seg0 + s;
    uint32_t total;
    uint64_t at;
    if (J.put_look) {
        total = J.words[k];
        if (threadIdx.x < 32) {
            const uint64_t before =
                v2_look_back(J.seg_off + st.seg0, J.words + st.seg0, s, gpulz_segment_bytes(total), threadIdx.x);
            if (threadIdx.x == 0)
                from_first = before;
        }
        __syncthreads();
        at = st.seg_at + from_first;
    } else {
        /* every thread reads the scanned offsets: a wait for one thread's
         * loads at a barrier cost 256 MB's put 3.5 us */
        at = st.seg_at + (J.seg_off[k] - J.seg_off[st.seg0]);
        total = J.words[k];
    }
    const uint32_t room = gpu_v2_room(gpulz_segment_units(st.N, J.g, s << J.g), st.u);
    if (total > room || at + gpulz_segment_bytes(total) > J.dst_cap ||
        st.dir_at + GPULZ_DIR_ENTRY_BYTES * (s + 1) > J.dst_cap)
        return;
    uint8_t *seg = dst + at;
    const uint8_t *words = st.coded + (s << J.g) * st.u + (size_t)GPULZ_RANS_WORD_BYTES * (room - total);
    v2_copy(seg + GPULZ_RANS_STATE_BYTES, words, (uint64_t)GPULZ_RANS_WORD_BYTES * total, threadIdx.x, blockDim.x);
    if (threadIdx.x < 32)
        gpulz_put_u32(seg + 4 * threadIdx.x, J.states[32 * k + threadIdx.x]);
    if (threadIdx.x == 0)
        gpulz_put_u32(dst + st.dir_at + GPULZ_DIR_ENTRY_BYTES * s, total);
}

/* A stored stream's units (grid y: the stream; others return). */
template <unsigned S>
__global__ void __launch_bounds__(256) gpu_v2_store_kernel(gpu_v2_job J, uint8_t *dst)
{
    v2_after_prior();
    const gpu_v2_stream &st = J.s[blockIdx.y];
    if (st.kind != GPULZ_STREAM_STORED)
        return;
    const v2_src q = v2_src_of(J, st, S);
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < st.N; i += stride) {
        const uint32_t v = v2_unit<S>(q, i);
        uint8_t *p = dst + st.seg_at + i * st.u;
        p[0] = (uint8_t)v;
        if (st.u == 2)
            p[1] = (uint8_t)(v >> 8);
    }
}

/* Segment sizes (states and words) before the scan that places them. */
__global__ void gpu_v2_sizes_kernel(const uint32_t *words, uint64_t *size, uint64_t segs)
{
    v2_after_prior();
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= segs;
         i += (uint64_t)gridDim.x * blockDim.x)
        size[i] = i < segs ? gpulz_segment_bytes(words[i]) : 0;
}

/* ---- decoding ------------------------------------------------------------- */

/*
 * A segment's words as a window the warp holds in registers, one word to a
 * lane in each: lane l has word base + l in a[0], base + 32 + l in a[1],
 * base + 64 + l in a[2], and the two bytes of base + 96 + l in lo and hi
 * (gpulz_get_u16's little-endian word, its loads apart), which may still be
 * on their way.  The bytes are joined only at the next
 * slide, 32 words later: joined as they were loaded, the slide waited a
 * memory latency, a fifth of a small chunk's decoding.  Words past the
 * segment's read 0.
 */
struct v2_words {
    const uint8_t *w;
    uint32_t nw, base;
    uint32_t a[3], lo, hi;
    __device__ __forceinline__ void load(uint32_t at, unsigned lane)
    {
        const uint32_t i = at + lane;
        lo = hi = 0;
        if (i < nw) {
            const uint8_t *p = w + GPULZ_RANS_WORD_BYTES * (size_t)i;
            lo = p[0];
            hi = p[1];
        }
    }
    __device__ __forceinline__ uint32_t joined() const
    {
        return lo | hi << 8;
    }
    __device__ __forceinline__ void init(const uint8_t *words, uint32_t count, unsigned lane)
    {
        w = words;
        nw = count;
        base = 0;
#pragma unroll
        for (unsigned r = 0; r < 3; r++) {
            load(32 * r, lane);
            a[r] = joined();
        }
        load(96, lane);
    }
    /* before a take from word k (the same in every lane), which takes 32 at
     * most: the window then holds k .. k + 31 in a[0] and a[1] */
    __device__ __forceinline__ void ready(uint32_t k, unsigned lane)
    {
        if (__builtin_expect(k - base >= 32, 0)) {
            a[0] = a[1];
            a[1] = a[2];
            a[2] = joined();
            base += 32;
            load(base + 96, lane);
        }
    }
    /* word i of the window k .. k + 31, every lane taking part: word j of it
     * is in lane j mod 32, in a[0] where that lane's word there is at least
     * k, else in a[1], so each lane offers the one the window holds and a
     * single shuffle fetches it */
    __device__ __forceinline__ uint32_t get(uint32_t k, uint32_t i, unsigned lane) const
    {
        return __shfl_sync(0xFFFFFFFFu, lane >= k - base ? a[0] : a[1], i & 31);
    }
};

/* Take the next word where a lane needs one: the lanes in need numbered in
 * lane order from *k.  A word past the segment's reads 0 and leaves *k past
 * the count, which the segment's end refuses.  Predicated, not branched: a
 * round's steps stay one straight run of instructions. */
__device__ __forceinline__ void v2_take(bool need, uint32_t *state, v2_words &W, uint32_t *k, unsigned lane)
{
    W.ready(*k, lane);
    const unsigned mask = __ballot_sync(0xFFFFFFFFu, need);
    const uint32_t word = W.get(*k, *k + __popc(mask & ((1u << lane) - 1)), lane);
    *state = need ? gpulz_rans_take_word(*state, word) : *state;
    *k += __popc(mask);
}

/* A slot of the decoder's table in shared memory, from gpulz_dec_table's
 * slot (escape bit, f, the slot's distance from its symbol's start c) and
 * value: f and that distance in a half each, the escape bit with the value
 * (which takes 16 bits at most), so that a row takes each with one
 * instruction and tests the escape with one (two shifts and a mask fewer). */
__device__ __forceinline__ uint2 v2_dec_entry(uint32_t slot, uint32_t value)
{
    return make_uint2((slot >> GPULZ_RANS_LOG2_M & 0x1FFFu) << 16 | (slot & (GPULZ_RANS_M - 1)),
                      value | (slot & GPULZ_SLOT_ESCAPE));
}

/* One row of a segment: every lane's symbol step and renormalisation in
 * lane order, then the escaped lanes' raw units in lane order (§16), that
 * part skipped by the whole warp in a row without an escape.  FULL: every
 * lane has a unit, so the rows before the last carry no test of it. */
template <unsigned U, int A16, bool FULL>
__device__ __forceinline__ uint32_t v2_decode_row(const uint2 *table, const v2_dst &d, uint8_t *p, bool active,
                                                  uint32_t &state, v2_words &W, uint32_t &k, unsigned lane)
{
    active = FULL || active;
    const uint32_t sl = state & (GPULZ_RANS_M - 1);
    const uint2 t = table[sl];
    const uint32_t next = gpulz_rans_advance(state, t.x >> 16, sl - (t.x & 0xFFFFu));
    state = active ? next : state;
    v2_take(active && gpulz_rans_needs_word(state), &state, W, &k, lane);
    const bool esc = active && (t.y & GPULZ_SLOT_ESCAPE);
    uint32_t v = t.y;
    if (__builtin_expect(__any_sync(0xFFFFFFFFu, esc), 0)) {
        if (esc) {
            v = state & ((1u << (8 * U)) - 1);
            state >>= 8 * U;
        }
        v2_take(esc && gpulz_rans_needs_word(state), &state, W, &k, lane);
    }
    if (active)
        v2_unit_store<U, A16>(d, p, v);
    return active ? v : 0; /* the unit in the low 8U bits, for the checksum: 0 past the segment */
}

/*
 * A segment of c units of U bytes decoded by one warp to d (its unit 0 at
 * d.out), the table in shared memory, each slot's entry beside its value
 * (one load).  Returns whether the segment is bad:
 * a state below 2^16 at the start, a word past the segment's, a lane not
 * back at 2^16, words left over (what entropy.c rejects).
 */
template <unsigned U, int A16, unsigned UNROLL>
__device__ __forceinline__ bool v2_decode_segment(const uint2 *table, const uint8_t *seg, uint32_t nw, unsigned c,
                                                  const v2_dst d, unsigned lane)
{
    v2_words W;
    W.init(seg + GPULZ_RANS_STATE_BYTES, nw, lane);
    uint32_t state = gpulz_get_u32(seg + 4 * lane), k = 0;
    const bool bad = state < GPULZ_RANS_L;
    const size_t step = (size_t)32 * d.stride;
    uint8_t *p = v2_dst_at(d, lane);
    const unsigned full = c / 32;
#pragma unroll UNROLL
    for (unsigned r = 0; r < full; r++, p += step)
        v2_decode_row<U, A16, true>(table, d, p, true, state, W, k, lane);
    if (c % 32)
        v2_decode_row<U, A16, false>(table, d, p, full * 32 + lane < c, state, W, k, lane);
    return bad || state != GPULZ_RANS_L || k != nw;
}

/*
 * The decoder's checksum, 16-bit units: two rows of a segment put down 128
 * bytes, 32 words of a block, one word for each of §17's lane hashes.  Lane
 * x holds its units of those rows in lo and hi (row 0's and row 1's);
 * one exchange between neighbouring lanes gives lanes 2a and 2a + 1 the
 * words a and 16 + a (row 0's units of both lanes, and row 1's), so lane x
 * runs the hash of lane v2_ck_of(x) from start to end and the hashes need
 * no other move until the fold (v2_ck_fold<true>).
 */
__device__ __forceinline__ unsigned v2_ck_of(unsigned x)
{
    return (x & 1) * 16 + x / 2;
}

__device__ __forceinline__ uint32_t v2_ck_word(uint32_t lo, uint32_t hi, unsigned lane)
{
    /* the units in the low halves, whatever lies above them; three
     * instructions: the lane's pair packed, the neighbour's, and one
     * permute picking row 0's units (even lanes) or row 1's (odd) */
    const uint32_t mine = __byte_perm(lo, hi, 0x5410);
    const uint32_t theirs = __shfl_xor_sync(0xFFFFFFFFu, mine, 1);
    return __byte_perm(mine, theirs, lane & 1 ? 0x3276u : 0x5410u);
}

/*
 * v2_decode_segment with §17's checksum of the blocks it decodes, where the
 * stream is the chunk's 16-bit symbols as they are (one stream, no
 * transform) and a segment holds whole blocks of C units (C <= 2^g, both
 * powers of two): the units go to memory once, and no pass reads them back
 * to hash them.  Every two rows give each lane one word of the block's
 * (v2_ck_word); the whole blocks' hashes are folded V2_CK_HELD at a time
 * in held, the last partial block's at its end (v2_ck_fold<true>).
 * Returns as v2_decode_segment; *terms is the sum of the blocks' terms, k0
 * the index of the segment's first block (modulo 2^32, as §17 takes it).
 */
#define V2_CK_HELD 8
template <int A16, unsigned UNROLL>
__device__ __forceinline__ bool v2_decode_segment_ck(const uint2 *table, const uint8_t *seg, uint32_t nw, unsigned c,
                                                     const v2_dst d, unsigned lane, unsigned C, uint32_t k0,
                                                     uint32_t (*held)[33], uint32_t *terms)
{
    v2_words W;
    W.init(seg + GPULZ_RANS_STATE_BYTES, nw, lane);
    uint32_t state = gpulz_get_u32(seg + 4 * lane), k = 0, sum = 0;
    const bool bad = state < GPULZ_RANS_L;
    const size_t step = (size_t)32 * d.stride;
    uint8_t *p = v2_dst_at(d, lane);
    const unsigned whole = c / C, rest = c % C; /* whole blocks, then the chunk's last block's units */
    /* the whole blocks' lane hashes held (the warp's V2_CK_HELD rows of 33
     * words in shared memory, a row a block, hash lane l at word l) and
     * folded V2_CK_HELD blocks at a time, lane q folding block q: one pass
     * of 32 steps for them all, where each block's own fold took the warp
     * 32 exchanges and steps (rows of 33 words: the lanes read apart) */
    for (unsigned b = 0; b < whole; b++) {
        uint32_t h = gpulz_ck_lane_init(v2_ck_of(lane));
#pragma unroll(UNROLL / 2)
        for (unsigned r = 0; r < C / 32; r += 2, p += 2 * step) {
            const uint32_t lo = v2_decode_row<2, A16, true>(table, d, p, true, state, W, k, lane);
            const uint32_t hi = v2_decode_row<2, A16, true>(table, d, p + step, true, state, W, k, lane);
            h = gpulz_ck_lane_step(h, v2_ck_word(lo, hi, lane));
        }
        const unsigned slot = b % V2_CK_HELD;
        held[slot][v2_ck_of(lane)] = h;
        if (slot == V2_CK_HELD - 1 || b + 1 == whole) {
            __syncwarp();
            uint32_t term = 0;
            if (lane <= slot) {
                uint32_t H = gpulz_ck_piece_start(2 * (uint64_t)C);
#pragma unroll 8
                for (unsigned l = 0; l < 32; l++)
                    H = gpulz_ck_piece_fold(H, held[lane][l]);
                term = gpulz_ck_term(H, k0 + (b - slot) + lane);
            }
            __syncwarp(); /* the rows read before the next blocks write them */
#pragma unroll
            for (unsigned o = 16; o; o >>= 1)
                term += __shfl_xor_sync(0xFFFFFFFFu, term, o);
            sum += term;
        }
    }
    if (rest) {
        const unsigned rows = (rest + 31) / 32, words = (rest + 1) / 2;
        uint32_t h = gpulz_ck_lane_init(v2_ck_of(lane));
        for (unsigned r = 0; r < rows; r += 2, p += 2 * step) {
            const uint32_t lo = v2_decode_row<2, A16, false>(table, d, p, 32 * r + lane < rest, state, W, k, lane);
            const uint32_t hi = r + 1 < rows ? v2_decode_row<2, A16, false>(table, d, p + step,
                                                                          32 * (r + 1) + lane < rest, state, W, k, lane)
                                             : 0;
            const uint32_t w = v2_ck_word(lo, hi, lane); /* every lane: it shuffles */
            if (16 * r + v2_ck_of(lane) < words)
                h = gpulz_ck_lane_step(h, w);
        }
        sum += v2_ck_fold<true>(h, 2 * (uint64_t)rest, k0 + whole);
    }
    *terms = sum;
    return bad || state != GPULZ_RANS_L || k != nw;
}

/* Segment s of stream st decoded by its warp (gpu_v2_decode_kernel). */
template <unsigned WARPS, bool CK>
__device__ __forceinline__ void v2_decode_one(const gpu_v2_job &J, const gpu_v2_stream &st, const uint8_t *src,
                                              const uint2 *table, uint32_t (*held)[33], uint64_t s, unsigned lane)
{
    const uint64_t first = s << J.g;
    const unsigned c = gpulz_segment_units(st.N, J.g, first);
    const uint8_t *seg = src + st.seg_at + J.seg_off[st.seg0 + s];
    const uint32_t nw = J.words[st.seg0 + s];
    v2_dst d = v2_dst_of(J, st);
    d.out = v2_dst_at(d, first); /* the segment's units from 0; whole units keep aligned16 */
    /* rows unrolled, so that a row costs no branch back and the window's
     * registers are not moved back to where the loop began: by 4 with few
     * segments (WARPS == GPU_V2_WARPS, one warp a scheduler), by 2 with
     * many, where 40 registers keep 48 warps on an SM (41.5 instructions a
     * row of 16-bit units instead of 44) */
    constexpr unsigned UNROLL = WARPS == GPU_V2_WARPS ? 4 : 2;
    bool bad;
    if (CK) {
        uint32_t terms = 0;
        const uint32_t k0 = (uint32_t)(first / J.C); /* §17 takes a piece's index modulo 2^32 */
        bad = d.aligned16 ? v2_decode_segment_ck<1, UNROLL>(table, seg, nw, c, d, lane, J.C, k0, held, &terms)
                          : v2_decode_segment_ck<0, UNROLL>(table, seg, nw, c, d, lane, J.C, k0, held, &terms);
        if (s == 0) /* and the tail's, piece nb, which the host put after the symbols */
            terms += v2_ck_short_term(st.out + st.N * J.S, J.ck_tail, (st.N + J.C - 1) / J.C, lane);
        if (lane == 0)
            atomicAdd(J.ck, terms);
    } else {
        bad = d.u == 1       ? v2_decode_segment<1, 0, UNROLL>(table, seg, nw, c, d, lane)
              : d.aligned16 ? v2_decode_segment<2, 1, UNROLL>(table, seg, nw, c, d, lane)
                            : v2_decode_segment<2, 0, UNROLL>(table, seg, nw, c, d, lane);
    }
    if (__any_sync(0xFFFFFFFFu, bad) && lane == 0)
        gpulz_dev_error(J.err, GPULZ_DEV_ERR_CORRUPT);
}

/*
 * The decoder's last block to end copies the verdict and the checksum's sum
 * to J.verdict (gpu_v2_job), where set: every block of the grid counts
 * itself once its warps are done with err and ck (their atomics before the
 * barrier, the count after thread 0's fence).  A copy queued after the
 * kernel, and its wait, took about 16 us of a 256 MB call (H200, r134).
 */
__device__ __forceinline__ void v2_dec_verdict(const gpu_v2_job &J)
{
    if (!J.verdict)
        return;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(gpu_v2_ended_word(J.err), 1u) == gridDim.x * gridDim.y - 1) {
            __threadfence();
            J.verdict[0] = *(volatile unsigned *)J.err;
            J.verdict[1] = *(volatile uint32_t *)J.ck;
            __threadfence_system();
        }
    }
}

/*
 * One warp per segment of a rANS stream, WARPS segments to a block sharing
 * the table in shared memory (grid y: the stream), the units put where
 * v2_dst says.  CK (gpu_v2_dec_sums): each warp adds its blocks' checksum
 * terms at J.ck (v2_decode_segment_ck), segment 0's the tail's too, and
 * every block ends at one barrier (v2_dec_verdict).
 */
template <unsigned WARPS, bool CK>
__global__ void __launch_bounds__(32 * WARPS) gpu_v2_decode_kernel(gpu_v2_job J, const uint8_t *src)
{
    v2_after_prior();
    __shared__ uint2 table[GPULZ_RANS_M];
    __shared__ uint32_t held[CK ? WARPS * V2_CK_HELD : 1][33]; /* v2_decode_segment_ck's */
    const gpu_v2_stream &st = J.s[blockIdx.y];
    if (st.kind != GPULZ_STREAM_RANS || (uint64_t)blockIdx.x * WARPS >= st.nseg) {
        if (CK) /* the whole block */
            v2_dec_verdict(J);
        return;
    }
    /* unrolled, so that a thread's loads are in flight together: one at a
     * time, the table took a seventh of a small chunk's decoding (the
     * stride is the block, every launch's 32 * WARPS threads, as a constant:
     * blockDim.x took the 1 MB decoder from 62 to 72 us) */
#pragma unroll 8
    for (unsigned j = threadIdx.x; j < GPULZ_RANS_M; j += 32 * WARPS)
        table[j] = v2_dec_entry(st.dec->slot[j], st.dec->value[j]);
    __syncthreads();
    const uint64_t s = (uint64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
    const unsigned lane = threadIdx.x & 31;
    if (!CK && s >= st.nseg)
        return;
    if (s < st.nseg)
        v2_decode_one<WARPS, CK>(J, st, src, table, CK ? held + (threadIdx.x >> 5) * V2_CK_HELD : held, s, lane);
    if (CK)
        v2_dec_verdict(J);
}

/* Stored and constant streams into the decoded symbols (grid y: the stream). */
__global__ void __launch_bounds__(256) gpu_v2_unstore_kernel(gpu_v2_job J, const uint8_t *src)
{
    v2_after_prior();
    const gpu_v2_stream &st = J.s[blockIdx.y];
    if (st.kind == GPULZ_STREAM_RANS)
        return;
    const v2_dst d = v2_dst_of(J, st);
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < st.N; i += stride) {
        uint32_t v = st.constant;
        if (st.kind == GPULZ_STREAM_STORED)
            v = st.u == 1 ? src[st.seg_at + i] : gpulz_get_u16(src + st.seg_at + 2 * i);
        if (d.u == 2)
            v2_unit_put<2>(d, i, v);
        else
            v2_unit_put<1>(d, i, v);
    }
}

/* §13 backwards: each block's symbols become the running sums of its
 * differences, modulo 2^(8S): a thread sums a run, the block scans the
 * runs' sums, each thread writes its run's running sums.  With ck, the
 * first warp then hashes the block (§17) while its bytes are still in the
 * cache, and thread block 0's second warp the `tail` bytes after the
 * symbols: their terms added at ck. */
template <unsigned S>
__global__ void __launch_bounds__(GPU_V2_UNDELTA_THREADS) gpu_v2_undelta_kernel(uint8_t *y, uint64_t m, unsigned C,
                                                                                 uint32_t *ck, unsigned tail)
{
    v2_after_prior();
    typedef cub::BlockScan<uint64_t, GPU_V2_UNDELTA_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    const uint64_t first = (uint64_t)blockIdx.x * C;
    const unsigned cnt = (unsigned)(m - first < C ? m - first : C);
    const unsigned per = (C + GPU_V2_UNDELTA_THREADS - 1) / GPU_V2_UNDELTA_THREADS;
    const unsigned a = threadIdx.x * per < cnt ? threadIdx.x * per : cnt;
    const unsigned b = a + per < cnt ? a + per : cnt;
    uint64_t run = 0;
    for (unsigned i = a; i < b; i++)
        run += v2_sym<S>(y, first + i);
    uint64_t before;
    scan_t(tmp).ExclusiveSum(run, before);
    for (unsigned i = a; i < b; i++) {
        before += v2_sym<S>(y, first + i);
        uint8_t *p = y + (first + i) * S;
#pragma unroll
        for (unsigned q = 0; q < S; q++)
            p[q] = (uint8_t)(before >> (8 * q));
    }
    if (!ck)
        return;
    __syncthreads(); /* the block's bytes, from every thread's writes */
    const unsigned lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    uint32_t term = 0;
    if (wid == 0)
        term = v2_ck_piece_term(y + first * S, (uint64_t)cnt * S, blockIdx.x, lane);
    else if (wid == 1 && blockIdx.x == 0)
        term = v2_ck_short_term(y + m * S, tail, (m + C - 1) / C, lane);
    else
        return;
    if (lane == 0)
        atomicAdd(ck, term);
}

#endif /* GPULZ_GPU_V2_CUH */
