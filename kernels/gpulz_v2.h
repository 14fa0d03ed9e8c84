/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_v2.h - chunks of format 2 on the CPU (cpu_v2.c): the modes fast and
 * ratio (docs/FORMAT.md §12-19), their decoder, and the checksum (§17).
 * Internal.
 */
#ifndef GPULZ_V2_H
#define GPULZ_V2_H

#include "gpulz_entropy.h"
#include "gpulz_format2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes a format 2 chunk of n bytes with symbol size S and block
 * size C takes (any mode; both shapes store a stream that does not shrink);
 * 0 when that overflows. */
uint64_t gpulz_v2_bound(uint64_t n, unsigned S, unsigned C);

/*
 * Encode n bytes of src as one format 2 chunk with symbol size S, mode
 * GPULZ_MODE_FAST or GPULZ_MODE_RATIO and the rest of p, into dst, which
 * holds gpulz_v2_bound() bytes; *len receives its size.
 */
int gpulz_v2_encode(const uint8_t *src, size_t n, unsigned S, gpulz_mode mode, const gpulz_params *p,
                    uint8_t *dst, size_t *len);
/*
 * Not an error: a candidate that stopped before its coding, its streams'
 * floors (gpulz_stream_floor) showing it could not be shorter than the
 * length it had to beat.  §19 keeps the other then, as it would have.
 */
#define GPULZ_NOT_SHORTER 1
/* gpulz_v2_encode with a length to beat (0: none): mode ratio returns
 * GPULZ_NOT_SHORTER where it cannot be shorter. */
int gpulz_v2_encode_beat(const uint8_t *src, size_t n, unsigned S, gpulz_mode mode, const gpulz_params *p,
                         size_t beat, uint8_t *dst, size_t *len);

/*
 * fast's choice (§19) from histograms: per transform d (0: none, 1: DELTA)
 * the whole symbols' (S <= 2, units of S bytes) and the byte planes' (S >= 2,
 * S of them; for S = 2 derived from the whole one).  The first of the lowest
 * estimate in the order of §19.  The coder takes the chosen histograms.
 */
typedef struct gpulz_fast_hists {
    unsigned S;
    gpulz_hist whole[2];
    gpulz_hist plane[2][8];
} gpulz_fast_hists;
int gpulz_fast_hists_init(gpulz_fast_hists *H, unsigned S);
/* The same without counts for the whole histograms (S <= 2; N 0), for a
 * caller that points them at counts of its own (the GPU's, read where they
 * arrived): no 2^16 counters allocated, cleared and freed per chunk. */
int gpulz_fast_hists_init_planes(gpulz_fast_hists *H, unsigned S);
void gpulz_fast_hists_free(gpulz_fast_hists *H);
/* S = 2: each transform's byte planes' counts from its whole one, but for
 * the transforms whose bit is set in made (their planes counted already). */
void gpulz_fast_hists_planes_from_whole(gpulz_fast_hists *H, unsigned made);
/* §19: fast's DELTA and SPLIT from H; with fixed >= 0 (DELTA as the sample
 * picked it) only SPLIT, and H need hold only that transform's counts. */
int gpulz_fast_choose(const gpulz_fast_hists *H, unsigned g, int fixed, int *delta, int *split);

/* §19: ratio's SPLIT for its literals, from H->whole[0], their histogram
 * (S = 2 estimates both ways, without SPLIT on a tie; S >= 4 always splits,
 * S = 1 never); for S = 2 H's planes are derived from it here, unless bit
 * 0 of planes_made says they are counted already. */
int gpulz_ratio_split(gpulz_fast_hists *H, unsigned g, unsigned planes_made, int *split);

/* §20: the chunk of n bytes ends with the tail right after its streams,
 * which end at pos: GPULZ_OK, else _TRUNCATED or _CORRUPT. */
int gpulz_v2_tail_check(size_t n, size_t pos, const gpulz_layout *L);

/* The layout of the chunk src (n bytes, header checked into L) without
 * decoding it: each stream's header in turn, its size within the chunk,
 * then the tail (§11, §14, §20): GPULZ_OK, _TRUNCATED or _CORRUPT. */
int gpulz_v2_span_check(const uint8_t *src, size_t n, const gpulz_layout *L);

/* Decode the format 2 chunk src (n bytes, header checked into L) into dst
 * (L->n bytes), every field checked (§20), the checksum included. */
int gpulz_v2_decode(const uint8_t *src, size_t n, const gpulz_layout *L, uint8_t *dst,
                    unsigned threads);

/* §17: the checksum of n bytes in blocks of C symbols of S bytes. */
int gpulz_checksum(const uint8_t *data, uint64_t n, unsigned S, unsigned C, unsigned threads,
                   uint32_t *sum);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_V2_H */
