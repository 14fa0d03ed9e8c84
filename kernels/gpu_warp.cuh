/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_warp.cuh - the warp of the encoder's steps, for the device and for the
 * emulator (h5tests/gpu_emulate.cu), so that both run the same step bodies.
 * A step is written over a Warp that gives each thread of code Warp::lanes
 * lanes: on the device one (the thread is lane threadIdx.x % 32), in the
 * emulator all 32, run in lockstep by one host thread.  The warp-wide
 * operations (maximum, sum, ballot, a lane's value to all and the value of
 * the lane below, setting bits in shared words, the barrier) are the
 * Warp's.  Internal; included by nvcc units only.
 */
#ifndef GPULZ_GPU_WARP_CUH
#define GPULZ_GPU_WARP_CUH

#include <stdint.h>

/* A step body for the device and the emulator. */
#define GPULZ_HDI __host__ __device__ __forceinline__

/* #pragma unroll in functions that are also compiled for the host */
#ifdef __CUDA_ARCH__
#define GPULZ_UNROLL _Pragma("unroll")
#else
#define GPULZ_UNROLL
#endif

/* the lowest set bit's place, 1-based (0 for none) */
GPULZ_HDI int gpulz_ffs(unsigned v)
{
#ifdef __CUDA_ARCH__
    return __ffs((int)v);
#else
    return __builtin_ffs((int)v);
#endif
}

GPULZ_HDI unsigned gpulz_popc(unsigned v)
{
#ifdef __CUDA_ARCH__
    return __popc(v);
#else
    return (unsigned)__builtin_popcount(v);
#endif
}

/* One lane per thread: the warp of the kernels.  Its members compile for the
 * host too (the step bodies are __host__ __device__) but run on the device
 * only. */
struct gpulz_device_warp {
    static const int lanes = 1;
    GPULZ_HDI unsigned lane(int) const
    {
#ifdef __CUDA_ARCH__
        return threadIdx.x & 31;
#else
        return 0;
#endif
    }
    /* the lane that writes what the warp computed together */
    GPULZ_HDI bool leader() const { return lane(0) == 0; }
    GPULZ_HDI unsigned max(const unsigned (&v)[1]) const
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        return __reduce_max_sync(0xFFFFFFFFu, v[0]);
#elif defined(__CUDA_ARCH__)
        unsigned m = v[0];
        for (int o = 16; o > 0; o >>= 1)
            m = ::max(m, __shfl_xor_sync(0xFFFFFFFFu, m, o));
        return m;
#else
        return v[0];
#endif
    }
    GPULZ_HDI unsigned ballot(const bool (&p)[1]) const
    {
#ifdef __CUDA_ARCH__
        return __ballot_sync(0xFFFFFFFFu, p[0]);
#else
        return p[0];
#endif
    }
    GPULZ_HDI unsigned sum(const unsigned (&v)[1]) const
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        return __reduce_add_sync(0xFFFFFFFFu, v[0]);
#elif defined(__CUDA_ARCH__)
        unsigned m = v[0];
        for (int o = 16; o > 0; o >>= 1)
            m += __shfl_xor_sync(0xFFFFFFFFu, m, o);
        return m;
#else
        return v[0];
#endif
    }
    /* each lane's out: v of the lane below it (lane 0: its own) */
    GPULZ_HDI void up(const unsigned (&v)[1], unsigned (&out)[1]) const
    {
#ifdef __CUDA_ARCH__
        out[0] = __shfl_up_sync(0xFFFFFFFFu, v[0], 1);
#else
        out[0] = v[0];
#endif
    }
    /* v of lane src, to every lane */
    GPULZ_HDI unsigned from(const unsigned (&v)[1], unsigned src) const
    {
#ifdef __CUDA_ARCH__
        return __shfl_sync(0xFFFFFFFFu, v[0], (int)src);
#else
        (void)src;
        return v[0];
#endif
    }
    /* lanes set bits of the same shared word */
    GPULZ_HDI void set_bits(uint32_t *word, uint32_t bits) const
    {
#ifdef __CUDA_ARCH__
        atomicOr(word, bits);
#else
        *word |= bits;
#endif
    }
    GPULZ_HDI void sync() const
    {
#ifdef __CUDA_ARCH__
        __syncwarp();
#endif
    }
};

/* All 32 lanes in one host thread, one after another at each step. */
struct gpulz_host_warp {
    static const int lanes = 32;
    GPULZ_HDI unsigned lane(int j) const { return (unsigned)j; }
    GPULZ_HDI bool leader() const { return true; }
    GPULZ_HDI unsigned max(const unsigned (&v)[32]) const
    {
        unsigned m = 0;
        for (int j = 0; j < 32; j++)
            m = v[j] > m ? v[j] : m;
        return m;
    }
    GPULZ_HDI unsigned ballot(const bool (&p)[32]) const
    {
        unsigned b = 0;
        for (int j = 0; j < 32; j++)
            b |= (unsigned)p[j] << j;
        return b;
    }
    GPULZ_HDI unsigned sum(const unsigned (&v)[32]) const
    {
        unsigned t = 0;
        for (int j = 0; j < 32; j++)
            t += v[j];
        return t;
    }
    GPULZ_HDI void up(const unsigned (&v)[32], unsigned (&out)[32]) const
    {
        out[0] = v[0];
        for (int j = 1; j < 32; j++)
            out[j] = v[j - 1];
    }
    GPULZ_HDI unsigned from(const unsigned (&v)[32], unsigned src) const { return v[src]; }
    GPULZ_HDI void set_bits(uint32_t *word, uint32_t bits) const { *word |= bits; }
    GPULZ_HDI void sync() const {}
};

#endif
