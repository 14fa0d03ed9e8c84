/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_decode_copy.c - the block decoder's match copies at every offset and
 * every end position.  The decoder copies matches in whole 8- or 16-byte
 * stores that may run past the match, as long as they stay inside the block
 * (the next block may be written by another thread at the same time); near
 * the block's end it copies exactly.  Periodic blocks, with every period of
 * 1..24 symbols (copy distances of 1 to 192 bytes: patterns shorter than a
 * store, overlapping and disjoint copies) followed by every tail length of
 * 0..24 random symbols (so the last match ends at every distance from the
 * block's end), and blocks of a 2-4 letter alphabet (short matches at every
 * distance, the kind most tokens are), are encoded and decoded into a buffer fenced by canary bytes
 * on both sides: the output must equal the input and no canary may change.
 */
#include "codec_testutil.h"
#include "cpu_codec.h"

#define FENCE 64

static void one_block(unsigned S, unsigned c, unsigned period, unsigned tail, uint64_t *rng,
                      gpulz_cpu_scratch *scratch, unsigned long *matched)
{
    const size_t raw = (size_t)c * S;
    uint8_t *in = tu_xmalloc(raw), *enc = tu_xmalloc(raw), *buf = tu_xmalloc(raw + 2 * FENCE);
    if (period) {
        for (size_t i = 0; i < (size_t)period * S; i++)
            in[i] = (uint8_t)tu_next(rng);
        for (size_t i = (size_t)period * S; i < raw - (size_t)tail * S; i++)
            in[i] = in[i - (size_t)period * S];
    } else {
        /* symbols of a 2-4 letter alphabet: many short matches at all
         * distances, up to the block's last symbols */
        unsigned letters = 2 + (unsigned)tu_below(rng, 3);
        for (size_t i = 0; i < raw - (size_t)tail * S; i += S)
            memset(in + i, 'a' + (int)tu_below(rng, letters), S);
    }
    for (size_t i = raw - (size_t)tail * S; i < raw; i++)
        in[i] = (uint8_t)tu_next(rng);

    uint32_t e = gpulz_cpu_encode_block(in, c, S, GPULZ_WINDOW_MAX, enc, scratch);
    TU_CHECK(!(e & GPULZ_RAW_BIT), "S=%u c=%u period %u tail %u: stored raw", S, c, period, tail);
    if (!(e & GPULZ_RAW_BIT)) {
        (*matched)++;
        memset(buf, 0xA5, FENCE);
        memset(buf + FENCE, 0x5A, raw); /* stale bytes must not show through */
        memset(buf + FENCE + raw, 0xA5, FENCE);
        int rc = gpulz_cpu_decode_block(enc, e & GPULZ_SIZE_MASK, buf + FENCE, c, S, GPULZ_WINDOW_MAX, 0);
        TU_CHECK(rc == GPULZ_OK, "S=%u c=%u period %u tail %u: decode failed (%d)", S, c, period, tail, rc);
        TU_CHECK(memcmp(buf + FENCE, in, raw) == 0, "S=%u c=%u period %u tail %u: output differs", S, c,
                 period, tail);
        for (size_t i = 0; i < FENCE; i++) {
            TU_CHECK(buf[i] == 0xA5, "S=%u c=%u period %u tail %u: byte %zu before the block written", S,
                     c, period, tail, FENCE - i);
            TU_CHECK(buf[FENCE + raw + i] == 0xA5,
                     "S=%u c=%u period %u tail %u: byte %zu past the block written", S, c, period, tail, i);
        }
    }
    free(in);
    free(enc);
    free(buf);
}

int main(void)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const unsigned blocks[] = {256, 1024};
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    unsigned long matched = 0;
    gpulz_cpu_scratch *scratch = gpulz_cpu_scratch_new();
    if (!scratch) {
        fprintf(stderr, "codec_decode_copy: out of memory\n");
        return 99;
    }
    for (size_t si = 0; si < 4; si++)
        for (size_t ci = 0; ci < 2; ci++)
            for (unsigned period = 0; period <= 24; period++) /* 0: short random matches */
                for (unsigned tail = 0; tail <= 24; tail++)
                    one_block(sizes[si], blocks[ci], period, tail, &rng, scratch, &matched);
    gpulz_cpu_scratch_free(scratch);
    TU_CHECK(matched == 4 * 2 * 25 * 25, "only %lu blocks were encoded", matched);
    return tu_finish("codec_decode_copy");
}
