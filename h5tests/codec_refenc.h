/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_refenc.h - a slow encoder written from docs/FORMAT.md alone, with
 * no code shared with kernels/: the oracle for the canonical encoding (§6).
 */
#ifndef CODEC_REFENC_H
#define CODEC_REFENC_H

#include <stddef.h>
#include <stdint.h>

/* What the parses produced, so tests can show they exercised the rules. */
typedef struct ref_stats {
    unsigned long blocks_encoded, blocks_raw;
    unsigned long literals, matches;
    unsigned long match_max_len;   /* matches of length 255 */
    unsigned long match_at_window; /* matches with offset == W */
    unsigned long match_overlap;   /* matches with offset < length */
    unsigned long match_tie;       /* a farther offset reached the same length */
    unsigned long match_min_len;   /* matches of length exactly Lmin */
    unsigned long short_repeat;    /* repeats too short to pay (0 < Lbest < Lmin) */
    unsigned long tails;           /* chunks with n mod S != 0 */
} ref_stats;

/*
 * Compress n bytes with symbol size S, window W and block size C (symbols)
 * into a new buffer; *out_len receives its size.  st (may be NULL) is
 * added to.  Parameters are assumed valid.
 */
uint8_t *ref_compress(const uint8_t *in, size_t n, unsigned S, unsigned W, unsigned C,
                      size_t *out_len, ref_stats *st);

#endif
