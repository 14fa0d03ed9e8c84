/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_emulate.cu - the GPU encoder run on the host against the CPU reference
 * encoder: no GPU needed, so the logic of the kernels is checked on every
 * machine that has nvcc.
 *
 * The steps are the kernels' own __host__ __device__ bodies: the sweep of a
 * warp's segment (gpulz_sweep), the warp's walk (gpulz_walk_warp, both with
 * and without lanes whose walks need correcting) and the warp writing
 * the tokens (gpulz_emit), over gpulz_host_warp, which runs a warp's 32 lanes
 * in lockstep on one thread; the shared memory is the kernel's layout
 * (gpulz_enc_smem_layout).  What stays here is the kernel's sequence of the
 * steps, with its warps one after another, and the warp split of a block is
 * varied over every segment length the launch policy may choose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_codec.h"
#include "gpu_encode.cuh"

/* blocks whose lanes' walks all met (0) and where some were corrected (1) */
static unsigned long walks[2];

/* the encode kernel for one block, nw warps */
template <typename Sym, int G>
static uint32_t encode_block(const uint8_t *x, unsigned c, unsigned C, unsigned W, unsigned nw, uint8_t *out)
{
    const unsigned S = sizeof(Sym), lmin = gpulz_min_match(S), raw = c * S;
    const gpulz_enc_smem lay = gpulz_enc_smem_layout(C, S);
    const gpulz_host_warp wp;
    uint8_t *mem = (uint8_t *)calloc(1, lay.total);
    if (!mem)
        return 0;
    Sym *sym = (Sym *)mem;
    uint16_t *key = (uint16_t *)(mem + lay.key);
    uint32_t *starts = (uint32_t *)(mem + lay.starts), *flags32 = (uint32_t *)(mem + lay.flags);
    memcpy(sym, x, raw);
    for (unsigned w = 0; w < nw; w++) {
        unsigned a, b;
        gpulz_segment(c, nw, w, &a, &b);
        if (a < c)
            gpulz_sweep<Sym, G>(sym, key, c, W, a, b, wp);
    }
    unsigned T, M;
    walks[gpulz_walk_warp(key, starts, c, lmin, &T, &M, wp)]++;
    const uint32_t E = gpulz_encoded_size(T, M, S);
    uint32_t entry = E;
    if (gpulz_block_shrinks(E, raw)) {
        gpulz_emit<Sym>(sym, key, starts, flags32, c, T, lmin, out, wp);
    } else {
        memcpy(out, x, raw);
        entry = GPULZ_RAW_BIT | raw;
    }
    free(mem);
    return entry;
}

template <typename Sym>
static uint32_t encode_g(const uint8_t *x, unsigned c, unsigned C, unsigned W, unsigned nw, uint8_t *out)
{
    switch ((W + 31) / 32) {
    case 1: return encode_block<Sym, 1>(x, c, C, W, nw, out);
    case 2: return encode_block<Sym, 2>(x, c, C, W, nw, out);
    case 3: return encode_block<Sym, 3>(x, c, C, W, nw, out);
    case 4: return encode_block<Sym, 4>(x, c, C, W, nw, out);
    case 5: return encode_block<Sym, 5>(x, c, C, W, nw, out);
    case 6: return encode_block<Sym, 6>(x, c, C, W, nw, out);
    case 7: return encode_block<Sym, 7>(x, c, C, W, nw, out);
    default: return encode_block<Sym, 8>(x, c, C, W, nw, out);
    }
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* iters random blocks (every S, C, W; noise, zeros, small alphabets,
 * repeats at all distances); returns the number of blocks that differ */
extern "C" int gpulz_emulate_run(int iters, FILE *log)
{
    static uint8_t x[16384 * 8], a[16384 * 8 + 16], b[16384 * 8 + 16];
    static const unsigned segs[] = {256, 512, 1024, 2048, 16384};
    gpulz_cpu_scratch *s = gpulz_cpu_scratch_new();
    int fails = 0;
    for (int it = 0; it < iters && s; it++) {
        const unsigned S = 1u << (rnd() % 4);
        unsigned C = 256u << (rnd() % 7);
        const unsigned W = rnd() % 4 == 0 ? 255 : 1 + (unsigned)(rnd() % 255);
        if (C * S > 32768 && rnd() % 2)
            C = 256u << (rnd() % 3); /* keep the run short */
        const unsigned c = rnd() % 3 ? C : 1 + (unsigned)(rnd() % C);
        const unsigned kind = (unsigned)(rnd() % 5), alpha = 1 + (unsigned)(rnd() % 6);
        const unsigned seg = segs[rnd() % 5], nw = gpulz_enc_warps(C, seg);
        for (unsigned j = 0; j < c * S; j++) {
            switch (kind) {
            case 0: x[j] = (uint8_t)rnd(); break;
            case 1: x[j] = 0; break;
            case 2: x[j] = (uint8_t)(rnd() % alpha); break;
            case 3: x[j] = (uint8_t)((j / (rnd() % 50 == 0 ? 8 : 301)) & 3); break;
            default:
                x[j] = j >= 3 * S && rnd() % 8 ? x[j - 1 - (rnd() % 3) * S] : (uint8_t)(rnd() % alpha);
                break;
            }
        }
        uint32_t ea = gpulz_cpu_encode_block(x, c, S, W, a, s);
        uint32_t eb = S == 1 ? encode_g<uint8_t>(x, c, C, W, nw, b)
                      : S == 2 ? encode_g<uint16_t>(x, c, C, W, nw, b)
                      : S == 4 ? encode_g<uint32_t>(x, c, C, W, nw, b)
                               : encode_g<uint64_t>(x, c, C, W, nw, b);
        if (ea != eb || memcmp(a, b, ea & GPULZ_SIZE_MASK) != 0) {
            fprintf(log, "block %d (S %u, C %u, c %u, W %u, kind %u, %u symbols per warp): "
                         "entry %08x, emulated %08x\n", it, S, C, c, W, kind, seg, ea, eb);
            if (++fails >= 10)
                break;
        }
    }
    gpulz_cpu_scratch_free(s);
    fprintf(log, "walks: %lu whose lanes all met, %lu with lanes corrected\n", walks[0], walks[1]);
    /* both ways of the walk must have been taken for the run to say anything of them */
    if (iters >= 1000 && (!walks[0] || !walks[1])) {
        fprintf(log, "a way of the walk was never taken\n");
        fails++;
    }
    return s ? fails : -1;
}
