/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_v2.h - chunks of format 2 on the CPU (cpu_v2.c): the modes fast and
 * ratio (docs/FORMAT.md §12-19), their decoder, and the checksum (§17).
 * Internal.
 */
#ifndef GPULZ_V2_H
#define GPULZ_V2_H

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
