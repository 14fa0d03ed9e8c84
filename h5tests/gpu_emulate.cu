/*
 * gpu_emulate.cu - the GPU encoder's algorithm run on the host, lane by lane,
 * against the CPU reference encoder: no GPU needed, so the logic of the
 * kernels is checked on every machine that has nvcc.
 *
 * The match step (gpulz_key_step, gpulz_key_step_near) and the walk
 * (gpulz_walk) are the kernels' own __host__ __device__ functions.  The warp
 * parts are mirrored here: gpulz_find_keys with its 32 lanes in lockstep (the
 * reduction over lanes a loop; the warm-up positions of a segment are swept
 * but not stored, as there) and gpulz_emit with its ballots computed over the
 * 32 lanes.  The warp split of a block is varied like GPULZ_ENC_SEGMENT
 * varies it.  Any change to those kernels must be made here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_codec.h"
#include "gpu_encode.cuh"

static unsigned warp_segment = GPULZ_ENC_SEGMENT_DEFAULT;

/* gpulz_find_keys, its warps one after another, its lanes in lockstep */
template <typename Sym, int G>
static void find_keys(const Sym *sym, uint16_t *key, unsigned c, unsigned W, unsigned nw)
{
    const unsigned seg = (c + nw - 1) / nw;
    for (unsigned warp = 0; warp < nw; warp++) {
        const unsigned a = warp * seg;
        if (a >= c)
            continue;
        const unsigned b = c < a + seg ? c : a + seg, p0 = c < b + 255u ? c : b + 255u;
        unsigned k[32][G], d[32][G], lo[32][G], cap[32][G];
        for (unsigned lane = 0; lane < 32; lane++)
            for (int g = 0; g < G; g++) {
                unsigned dg = 32u * g + lane + 1;
                bool act = dg <= W;
                d[lane][g] = act ? dg : 1u;
                lo[lane][g] = act ? 255u - dg : 0u;
                cap[lane][g] = act ? 0xFF00u | lo[lane][g] : 0u;
                k[lane][g] = lo[lane][g];
            }
        unsigned i = p0;
        if (i > W && i > a) {
            const Sym *pg[32][G];
            for (int l = 0; l < 32; l++)
                for (int g = 0; g < G; g++)
                    pg[l][g] = sym + (i - 1) - d[l][g];
            const Sym *x = sym + (i - 1);
            for (; i > a && i > W; i--) {
                unsigned best = 0;
                for (int l = 0; l < 32; l++) {
                    unsigned v = gpulz_key_step<Sym, G>(*x, pg[l], k[l], lo[l], cap[l]);
                    best = v > best ? v : best;
                }
                x--;
                for (int l = 0; l < 32; l++)
                    for (int g = 0; g < G; g++)
                        pg[l][g]--;
                if (i <= b)
                    key[i - 1] = (uint16_t)best;
            }
        }
        for (; i > a; i--) {
            unsigned best = 0;
            for (int l = 0; l < 32; l++) {
                unsigned v = gpulz_key_step_near<Sym, G>(sym, i - 1, d[l], k[l], lo[l], cap[l]);
                best = v > best ? v : best;
            }
            if (i <= b)
                key[i - 1] = (uint16_t)best;
        }
    }
}

/* the encode kernel for one block, with gpulz_emit's ballots over 32 lanes */
template <typename Sym, int G>
static uint32_t encode_block(const uint8_t *x, unsigned c, unsigned C, unsigned W, uint8_t *out)
{
    const unsigned S = sizeof(Sym), lmin = gpulz_min_match(S), raw = c * S;
    size_t smem = gpulz_enc_smem(C, S);
    uint8_t *mem = (uint8_t *)calloc(1, smem + 16);
    Sym *sym = (Sym *)mem;
    uint16_t *key = (uint16_t *)(mem + (size_t)C * S);
    uint32_t *starts = (uint32_t *)(key + C), *flags32 = starts + C / 32;
    memcpy(sym, x, raw);
    find_keys<Sym, G>(sym, key, c, W, gpulz_enc_warps(C, warp_segment));
    unsigned T, M;
    gpulz_walk(key, starts, c, lmin, &T, &M);
    const unsigned E = gpulz_encoded_size(T, M, S);
    if (E >= raw) {
        memcpy(out, x, raw);
        free(mem);
        return GPULZ_RAW_BIT | raw;
    }
    const unsigned fb = gpulz_flag_bytes(T);
    unsigned t0 = 0, m0 = 0;
    for (unsigned base = 0; base < c; base += 32) {
        unsigned bs = 0, bm = 0, kk[32];
        for (unsigned lane = 0; lane < 32; lane++) {
            const unsigned p = base + lane;
            const bool st = p < c && (starts[base >> 5] >> lane & 1);
            kk[lane] = p < c ? key[p] : 0;
            bs |= (unsigned)st << lane;
            bm |= (unsigned)(st && (kk[lane] >> 8) >= lmin) << lane;
        }
        for (unsigned lane = 0; lane < 32; lane++) {
            if (!(bs >> lane & 1))
                continue;
            const unsigned below = (1u << lane) - 1;
            const unsigned t = t0 + __builtin_popcount(bs & below), mb = m0 + __builtin_popcount(bm & below);
            uint8_t *o = out + GPULZ_TOKEN_COUNT_SIZE + fb + S * (t - mb) + GPULZ_MATCH_SIZE * mb;
            if (bm >> lane & 1) {
                o[0] = (uint8_t)(kk[lane] >> 8);
                o[1] = (uint8_t)(255u - (kk[lane] & 255u));
                flags32[t >> 5] |= 1u << (t & 31);
            } else {
                const Sym v = sym[base + lane];
                for (unsigned j = 0; j < S; j++)
                    o[j] = (uint8_t)((uint64_t)v >> (8 * j));
            }
        }
        t0 += __builtin_popcount(bs);
        m0 += __builtin_popcount(bm);
    }
    out[0] = (uint8_t)T;
    out[1] = (uint8_t)(T >> 8);
    for (unsigned j = 0; j < fb; j++)
        out[GPULZ_TOKEN_COUNT_SIZE + j] = (uint8_t)(flags32[j >> 2] >> (8 * (j & 3)));
    free(mem);
    return E;
}

template <typename Sym>
static uint32_t encode_g(const uint8_t *x, unsigned c, unsigned C, unsigned W, uint8_t *out)
{
    switch ((W + 31) / 32) {
    case 1: return encode_block<Sym, 1>(x, c, C, W, out);
    case 2: return encode_block<Sym, 2>(x, c, C, W, out);
    case 3: return encode_block<Sym, 3>(x, c, C, W, out);
    case 4: return encode_block<Sym, 4>(x, c, C, W, out);
    case 5: return encode_block<Sym, 5>(x, c, C, W, out);
    case 6: return encode_block<Sym, 6>(x, c, C, W, out);
    case 7: return encode_block<Sym, 7>(x, c, C, W, out);
    default: return encode_block<Sym, 8>(x, c, C, W, out);
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
        warp_segment = segs[rnd() % 5];
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
        uint32_t eb = S == 1 ? encode_g<uint8_t>(x, c, C, W, b)
                      : S == 2 ? encode_g<uint16_t>(x, c, C, W, b)
                      : S == 4 ? encode_g<uint32_t>(x, c, C, W, b)
                               : encode_g<uint64_t>(x, c, C, W, b);
        if (ea != eb || memcmp(a, b, ea & GPULZ_SIZE_MASK) != 0) {
            fprintf(log, "block %d (S %u, C %u, c %u, W %u, kind %u, %u symbols per warp): "
                         "entry %08x, emulated %08x\n", it, S, C, c, W, kind, warp_segment, ea, eb);
            if (++fails >= 10)
                break;
        }
    }
    gpulz_cpu_scratch_free(s);
    return s ? fails : -1;
}
