/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_format2.h - the rules of chunk format v2 (docs/FORMAT.md §11-20)
 * that the CPU codec, the CUDA kernels and the tests share, each written
 * once as a GPULZ_HD helper: the header's stage flags, the units of the
 * entropy stage, one rANS step each way, the checksum's arithmetic.
 * Internal: not installed.
 */
#ifndef GPULZ_FORMAT2_H
#define GPULZ_FORMAT2_H

#include "gpulz_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* §11 */
#define GPULZ_V2_HEADER_SIZE 32
#define GPULZ_V2_FLAG_DELTA 0x01u
#define GPULZ_V2_FLAG_SPLIT 0x02u
#define GPULZ_V2_FLAG_LZSS 0x04u
#define GPULZ_V2_FLAG_ENTROPY 0x08u
#define GPULZ_V2_FLAG_CHECKSUM 0x10u
#define GPULZ_V2_FLAGS_KNOWN 0x1Fu
#define GPULZ_SEG_LOG2_MIN 10
#define GPULZ_SEG_LOG2_MAX 15
#define GPULZ_SEG_LOG2_DEFAULT 14 /* §19 */

/* §12: the token table's entries */
#define GPULZ_TOKEN_ENTRY_SIZE 2

/* §14 */
#define GPULZ_STREAM_HEADER_SIZE 17 /* kind, N, size */
#define GPULZ_STREAM_STORED 0
#define GPULZ_STREAM_CONSTANT 1
#define GPULZ_STREAM_RANS 2

/* §15-16 */
#define GPULZ_RANS_LOG2_M 12
#define GPULZ_RANS_M (1u << GPULZ_RANS_LOG2_M)
#define GPULZ_RANS_L (1u << 16) /* the lower bound of a state, and every lane's start */
#define GPULZ_RANS_LANES 32
#define GPULZ_RANS_STATE_BYTES (4 * GPULZ_RANS_LANES)
#define GPULZ_DIR_ENTRY_BYTES 4 /* a segment's word count in its stream's directory */
#define GPULZ_RANS_WORD_BYTES 2
#define GPULZ_RANS_MAX_VALUES (GPULZ_RANS_M - 1) /* K; room is left for the escape */
#define GPULZ_TABLE_HEAD_SIZE 3                  /* K (2 bytes), E (1 byte) */
#define GPULZ_VARINT_MAX 3

/* §18 step 4: the least count of a value that is a candidate for the
 * table among N units (its ideal share at least one slot, count * M >= N:
 * count >= ceil(N / M)); at least 1, as no value counted 0 times is one. */
GPULZ_HD uint64_t gpulz_rans_least(uint64_t N)
{
    const uint64_t least = N / GPULZ_RANS_M + (N % GPULZ_RANS_M != 0);
    return least ? least : 1;
}

/* §11: whether stage flags are a valid version 2 combination for S. */
GPULZ_HD int gpulz_v2_flags_ok(unsigned flags, unsigned S)
{
    if (flags & ~GPULZ_V2_FLAGS_KNOWN || !(flags & GPULZ_V2_FLAG_ENTROPY))
        return 0;
    if (flags & GPULZ_V2_FLAG_SPLIT)
        return S >= 2;
    return S <= 2;
}

/* §11: bytes per unit of the entropy stage, and symbol streams per shape. */
GPULZ_HD unsigned gpulz_unit_bytes(unsigned flags, unsigned S)
{
    return flags & GPULZ_V2_FLAG_SPLIT ? 1u : S;
}
GPULZ_HD unsigned gpulz_symbol_streams(unsigned flags, unsigned S)
{
    return flags & GPULZ_V2_FLAG_SPLIT ? S : 1u;
}

/* §12: the streams of a chunk, in order: J symbol streams, or with LZSS the
 * flags, J literal streams, the lengths and the offsets; at most
 * GPULZ_STREAMS_MAX (S = 8 split, with LZSS). */
#define GPULZ_STREAMS_MAX 11
GPULZ_HD unsigned gpulz_stream_count(unsigned flags, unsigned S)
{
    return gpulz_symbol_streams(flags, S) + (flags & GPULZ_V2_FLAG_LZSS ? 3u : 0u);
}

/* §16: the units of the segment that starts at unit first (a multiple of
 * 2^g) of a stream of N units cut into segments of 2^g: 2^g, less for the
 * last. */
GPULZ_HD unsigned gpulz_segment_units(uint64_t N, unsigned g, uint64_t first)
{
    const uint64_t G = (uint64_t)1 << g;
    return (unsigned)(N - first < G ? N - first : G);
}

/* §16: the bytes of a segment of `words` coded words, its lanes' states
 * first: where its word i starts, and its length with all of them. */
GPULZ_HD uint64_t gpulz_segment_bytes(uint64_t words)
{
    return GPULZ_RANS_STATE_BYTES + GPULZ_RANS_WORD_BYTES * words;
}

/* §14, §16: where a rANS stream's first segment starts, from the stream's
 * start: after its header, its table of tsize bytes and the directory of
 * its nseg segments. */
GPULZ_HD uint64_t gpulz_rans_segments_at(uint64_t tsize, uint64_t nseg)
{
    return GPULZ_STREAM_HEADER_SIZE + tsize + GPULZ_DIR_ENTRY_BYTES * nseg;
}

/* f's multiplier r and shift l for the GPU coder's quotient x / f by
 * multiplication (Granlund and Montgomery's round-up method), where a
 * division costs three quarter-rate instructions and a dozen others per
 * symbol: with l = ceil(log2 f) and m = floor(2^(32+l) / f) + 1 = 2^32 + r,
 * floor(x * m / 2^(32+l)) = floor(x / f) for every 32-bit x, and
 * x * m / 2^32 is x + t, t the high word of x * r. */
GPULZ_HD uint32_t gpulz_rans_recip(uint32_t f, unsigned *l)
{
    unsigned k = 0;
    while ((1u << k) < f)
        k++;
    *l = k;
    return (uint32_t)((((uint64_t)1 << 32) * ((1u << k) - f)) / f + 1);
}

/* The fields of frequency f in [1, M] as gpulz_rans_encode_prepared takes
 * them: thr = f 2^20 - 1, above which a word goes first; r and l
 * (gpulz_rans_recip); and cfl = (M - f) << 5 | l. */
GPULZ_HD void gpulz_rans_prepare(uint32_t f, uint32_t *thr, uint32_t *r, uint32_t *cfl)
{
    unsigned l;
    *r = gpulz_rans_recip(f, &l);
    *thr = (uint32_t)(((uint64_t)f << (32 - GPULZ_RANS_LOG2_M)) - 1);
    *cfl = (GPULZ_RANS_M - f) << 5 | l;
}

/* §16's encoder symbol step, for the GPU, from f's prepared fields and the
 * start c: x in [2^16, 2^32); returns the new state and, when *emit, the
 * word to emit first (reversed later); *word is x's low half either way.
 * The new state is x + c + q (M - f), q = (x + t) >> l.  Each field is used
 * as stored, because taking f, l and c out of packed bits was a third of
 * the coder's instructions per symbol.  x + t fits 32 bits: after the
 * renormalisation x < f 2^20, so (x + t) >> l = floor(x / f) < 2^20 with
 * l <= 12.  The CPU's coder (entropy.c, enc_step) takes the quotient from
 * one 64-bit product instead, 9 % faster there than this form;
 * codec_rans_step holds this one to §16's division. */
GPULZ_HD uint32_t gpulz_rans_encode_prepared(uint32_t x, uint32_t thr, uint32_t r, uint32_t c, uint32_t cfl, int *emit,
                                             uint32_t *word)
{
    const int e = x > thr;
    *emit = e;
    *word = x & 0xFFFFu;
    x = e ? x >> 16 : x;
    const uint32_t sum = x + (uint32_t)((uint64_t)x * r >> 32);
#ifdef __CUDA_ARCH__
    /* a funnel shift takes the amount modulo 32: l, from cfl as it is */
    const uint32_t q = __funnelshift_r(sum, 0u, cfl);
#else
    const uint32_t q = sum >> (cfl & 31u);
#endif
    return x + c + q * (cfl >> 5);
}

/* §16: the encoder's raw step for an escaped unit of u bytes. */
GPULZ_HD uint32_t gpulz_rans_encode_raw(uint32_t x, uint32_t v, unsigned u, int *emit, uint32_t *word)
{
    *emit = (uint64_t)x >= (uint64_t)1 << (32 - 8 * u);
    if (*emit) {
        *word = x & 0xFFFFu;
        x >>= 16;
    }
    return (uint32_t)((uint64_t)x << (8 * u)) | v;
}

/* §16: the decoder's symbol step without renormalisation: the state after
 * the symbol in slot (x mod M) with frequency f and start c. */
GPULZ_HD uint32_t gpulz_rans_advance(uint32_t x, uint32_t f, uint32_t c)
{
    return f * (x >> GPULZ_RANS_LOG2_M) + (x & (GPULZ_RANS_M - 1)) - c;
}

/* §16: whether a state needs the next word, and the state with it. */
GPULZ_HD int gpulz_rans_needs_word(uint32_t x)
{
    return x < GPULZ_RANS_L;
}
GPULZ_HD uint32_t gpulz_rans_take_word(uint32_t x, uint32_t word)
{
    return x << 16 | word;
}

/* §17: the checksum's constants and steps. */
#define GPULZ_CK_P1 2654435761u
#define GPULZ_CK_P2 2246822519u
#define GPULZ_CK_P3 3266489917u
#define GPULZ_CK_P4 668265263u
#define GPULZ_CK_P5 374761393u
#define GPULZ_CK_LANES 32

GPULZ_HD uint32_t gpulz_ck_rotl(uint32_t x, unsigned r)
{
    return x << r | x >> (32 - r);
}
GPULZ_HD uint32_t gpulz_ck_mix(uint32_t h)
{
    h = (h ^ h >> 15) * GPULZ_CK_P2;
    h = (h ^ h >> 13) * GPULZ_CK_P3;
    return h ^ h >> 16;
}
/* a lane's start and its step over one 32-bit word */
GPULZ_HD uint32_t gpulz_ck_lane_init(unsigned lane)
{
    return GPULZ_CK_P1 + lane;
}
GPULZ_HD uint32_t gpulz_ck_lane_step(uint32_t h, uint32_t w)
{
    return gpulz_ck_rotl(h + w * GPULZ_CK_P2, 13) * GPULZ_CK_P1;
}
/* the piece's hash from its length and lanes, folded in lane order */
GPULZ_HD uint32_t gpulz_ck_piece_start(uint64_t len)
{
    return (uint32_t)len;
}
GPULZ_HD uint32_t gpulz_ck_piece_fold(uint32_t H, uint32_t lane_hash)
{
    return gpulz_ck_rotl(H + lane_hash * GPULZ_CK_P3, 17) * GPULZ_CK_P4;
}
/* piece k's term of the sum, and the checksum from the sum */
GPULZ_HD uint32_t gpulz_ck_term(uint32_t piece_hash_unmixed, uint64_t k)
{
    return gpulz_ck_mix(gpulz_ck_mix(piece_hash_unmixed) + (uint32_t)k * GPULZ_CK_P5);
}
GPULZ_HD uint32_t gpulz_ck_final(uint32_t sum, uint64_t n)
{
    return gpulz_ck_mix(sum ^ (uint32_t)n ^ (uint32_t)(n >> 32) * GPULZ_CK_P1);
}

/* §13: y = x - prev modulo 2^(8S), and back; S-byte little-endian values
 * held in 64 bits. */
GPULZ_HD uint64_t gpulz_symbol_mask(unsigned S)
{
    return S == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * S)) - 1;
}

/*
 * §19: fast's DELTA for a chunk of S = 2 with more than GPULZ_PICK_GROUPS
 * groups of 8 symbols comes from a sample of about GPULZ_PICK_SAMPLE of
 * them, so that the GPU counts one transform over the whole chunk and not
 * two.  Below that size the sample's own passes (about 15 us on an H200)
 * cost more than the second transform's counts, which take about 0.15 us a
 * MB.  The sample: one run of GPULZ_SAMPLE_RUN groups in each `every` runs,
 * the run within its `every` picked by a hash of its number, so that data
 * with a period (rows of an image) is not sampled at one phase of it.  The
 * GPU's counting window is sampled alike.
 */
#define GPULZ_PICK_GROUPS (1u << 22)
#define GPULZ_PICK_SAMPLE (1u << 16)
#define GPULZ_SAMPLE_RUN 32 /* groups */

GPULZ_HD int gpulz_pick_sampled(uint64_t m, unsigned S)
{
    return S == 2 && m / 8 > GPULZ_PICK_GROUPS;
}
/* every group (1), or one run in each `every`: about `most` groups */
GPULZ_HD uint64_t gpulz_sample_every(uint64_t groups, uint64_t most)
{
    const uint64_t e = (groups + most - 1) / most;
    return e ? e : 1;
}
/* the runs the sample takes */
GPULZ_HD uint64_t gpulz_sample_picks(uint64_t groups, uint64_t every)
{
    return ((groups + GPULZ_SAMPLE_RUN - 1) / GPULZ_SAMPLE_RUN + every - 1) / every;
}
/* the sample's run w: its first group is GPULZ_SAMPLE_RUN times this */
GPULZ_HD uint64_t gpulz_sample_run(uint64_t w, uint64_t every)
{
    return w * every + ((uint32_t)w * 0x9E3779B1u >> 7) % every;
}
/* 256 log2(c) for c >= 1, linear between powers of two: integers only, so
 * that the CPU and the GPU weigh a sample alike */
GPULZ_HD uint32_t gpulz_pick_log(uint32_t c)
{
#if defined(__CUDA_ARCH__)
    const unsigned b = 31 - (unsigned)__clz(c);
#elif defined(__GNUC__) || defined(__clang__)
    const unsigned b = 31 - (unsigned)__builtin_clz(c);
#else
    unsigned b = 0;
    while (c >> b >> 1)
        b++;
#endif
    return 256 * b + ((c << (31 - b)) >> 23 & 255u);
}
/* a transform's weight from the sample's count c of one of its values; DELTA
 * where the deltas' weights add up to more than the symbols' */
GPULZ_HD uint64_t gpulz_pick_weight(uint32_t c)
{
    return c ? (uint64_t)c * gpulz_pick_log(c) : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_FORMAT2_H */
