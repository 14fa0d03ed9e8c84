/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu_codec.h - the CPU reference encoder and decoder of one block
 * (docs/FORMAT.md §5-6); gpulz_parallel.h spreads blocks over cores.
 * Internal: not installed.
 */
#ifndef GPULZ_CPU_CODEC_H
#define GPULZ_CPU_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "gpulz_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-thread working memory of the encoder, sized for the largest block. */
typedef struct gpulz_cpu_scratch gpulz_cpu_scratch;
gpulz_cpu_scratch *gpulz_cpu_scratch_new(void);
void gpulz_cpu_scratch_free(gpulz_cpu_scratch *s);

/*
 * Encode one block of c symbols (S bytes each) with window W into dst, which
 * has room for c * S bytes.  Returns the table entry: the encoded size, or
 * GPULZ_RAW_BIT | c * S when the block is stored raw (dst then holds a copy).
 */
uint32_t gpulz_cpu_encode_block(const uint8_t *x, unsigned c, unsigned S, unsigned W, uint8_t *dst,
                                gpulz_cpu_scratch *s);

/*
 * The whole greedy parse of one block (FORMAT.md §6 step 2, never stored raw:
 * §18 step 2).  Returns the token count T; *flags (ceil(T / 8) bytes) and
 * *tokens (*tbytes bytes, §5's layout) point into s until its next use.
 */
uint32_t gpulz_cpu_parse_block(const uint8_t *x, unsigned c, unsigned S, unsigned W,
                               gpulz_cpu_scratch *s, const uint8_t **flags, const uint8_t **tokens,
                               uint32_t *tbytes);

/*
 * Decode one encoded block of size bytes into out (c symbols of S bytes),
 * checking every field (FORMAT.md §9).  Returns GPULZ_OK or
 * GPULZ_ERR_CORRUPT with the detail naming block k.
 */
int gpulz_cpu_decode_block(const uint8_t *b, uint32_t size, uint8_t *out, unsigned c, unsigned S,
                           unsigned W, uint64_t k);

/*
 * Decode block k of format 2's LZSS shape (FORMAT.md §12) from its T tokens:
 * flag bits, and the literals (S bytes each), lengths and offsets it uses,
 * which the caller has counted from the flags.  Every match is checked as
 * §9 says; the block must decode to exactly c symbols.  The copies are whole
 * moves: out has GPULZ_STREAMS_SLACK bytes of room past its c symbols, which
 * receive garbage, and the flags and the literals that much readable past
 * the block's own.
 */
#define GPULZ_STREAMS_SLACK 32
int gpulz_cpu_decode_block_streams(const uint8_t *flags, uint32_t T, const uint8_t *lits,
                                   const uint8_t *lens, const uint8_t *offs, uint8_t *out, unsigned c,
                                   unsigned S, unsigned W, uint64_t k);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_CPU_CODEC_H */
