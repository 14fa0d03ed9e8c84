/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_chunk.h - the one chunk driver and the stage list (chunk.c).  The
 * driver owns what makes a chunk from blocks: the layout, the stages in their
 * canonical order, the adaptive choice of symbol size and which encoding is
 * kept; the CPU and the GPU are backends that encode and decode blocks
 * (through gpulz_chunk_ops), so a rule of the format is written once.
 * Internal.
 */
#ifndef GPULZ_CHUNK_H
#define GPULZ_CHUNK_H

#include "gpulz_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A stage of the pipeline, in the list's (canonical) order: encoding
 * applies them forward, decoding backward.  Each backend names the stages it
 * implements and checks a chunk's list once, before any block
 * (gpulz_stages_supported; the decompression driver does it from
 * gpulz_chunk_dec_ops).  Format 1's list is LZSS alone, its blocks coded or
 * stored raw (FORMAT.md §3); format 2's stages each have a bit in the
 * header's flags (§11), and a chunk runs those whose bit is set.
 */
typedef enum gpulz_stage_id {
    GPULZ_STAGE_LZSS = 1,     /* FORMAT.md §5-6: the multi-byte LZSS of format 1 */
    GPULZ_STAGE_DELTA = 2,    /* §13: element delta per block */
    GPULZ_STAGE_RANS = 3,     /* §14-16: static rANS over units, SPLIT included */
    GPULZ_STAGE_CHECKSUM = 4, /* §17 */
    GPULZ_STAGE_TOKENS = 5    /* §12: format 1's matching, its tokens in entropy-coded streams */
} gpulz_stage_id;

typedef struct gpulz_stage {
    gpulz_stage_id id;
    unsigned header_flag; /* 0: always present in this format version */
    const char *name;
} gpulz_stage;

/* The stages of format `version` in canonical (encoding) order; *count
 * receives how many (0 for a version this library does not know). */
const gpulz_stage *gpulz_stages(unsigned version, size_t *count);

/* GPULZ_OK when a backend that implements the stages have[0..n) can run
 * every stage the chunk of layout L uses, else GPULZ_ERR_VERSION naming the
 * backend and the stage. */
int gpulz_stages_supported(const gpulz_layout *L, const gpulz_stage_id *have, size_t n,
                           const char *backend);

/* FORMAT.md §8: where S > 1 gave a ratio n / len under 1.5 (2n < 3 len),
 * the adaptive flag also tries S = 1 and keeps the strictly shorter one. */
int gpulz_adaptive_retry(const gpulz_params *p, size_t n, size_t len);

/* FORMAT.md §19: the encodings a format 2 mode tries, in order, into list:
 * fast, ratio or both (auto), and lz last where auto has no checksum; the
 * first of the shortest is kept.  Returns their count. */
#define GPULZ_V2_CANDIDATES_MAX 3
unsigned gpulz_v2_candidates(const gpulz_params *p, gpulz_mode list[GPULZ_V2_CANDIDATES_MAX]);

/*
 * What a backend gives the driver.  buffer(): where encoding i (0: with the
 * parameters' S, 1: the adaptive one with S = 1) goes, for a chunk of at most
 * need bytes; it may hand out dst itself, with a smaller capacity.  encode():
 * one encoding of the whole input with layout L into out (capacity cap); it
 * may return GPULZ_ERR_DST_SIZE with *len the length it needed.  move():
 * copy len bytes of an encoding into dst.  release(): free what buffer() made.
 */
typedef struct gpulz_chunk_ops {
    int (*buffer)(void *ctx, int i, size_t need, uint8_t **out, size_t *cap);
    int (*encode)(void *ctx, const gpulz_layout *L, uint8_t *out, size_t cap, size_t *len);
    int (*move)(void *ctx, uint8_t *dst, const uint8_t *src, size_t len);
    void (*release)(void *ctx);
} gpulz_chunk_ops;

/* Compress n bytes (the backend holds them) into dst under p, which the
 * caller has checked: the encoding, the adaptive one where the rule asks for
 * it, the shorter kept. */
int gpulz_chunk_compress(const gpulz_chunk_ops *ops, void *ctx, size_t n, const gpulz_params *p,
                         uint8_t *dst, size_t dst_cap, size_t *dst_len);

/*
 * What a backend gives the decompression driver.  backend, stages,
 * stage_count: its name and the stages it implements, which the driver
 * checks the chunk's list against once, before any block.  header(): the
 * chunk's bytes in host memory, all of them, or with table_on_device only
 * its GPULZ_HEADER_SIZE header: a chunk in device memory has its block
 * table checked there, by decode(), rather than copied to the host.
 * decode(): every block and the tail of the chunk of layout L into dst.
 */
typedef struct gpulz_chunk_dec_ops {
    const char *backend;
    const gpulz_stage_id *stages;
    size_t stage_count;
    int table_on_device;
    int (*header)(void *ctx, const uint8_t **bytes);
    int (*decode)(void *ctx, const gpulz_layout *L, uint8_t *dst);
} gpulz_chunk_dec_ops;

/* Decompress the chunk of n bytes (the backend holds it) into dst: its
 * header (and table) checked, the output capacity, the stages, the blocks.
 * Both halves below, one after the other. */
int gpulz_chunk_decompress(const gpulz_chunk_dec_ops *ops, void *ctx, size_t n, uint8_t *dst,
                           size_t dst_cap, size_t *dst_len);

/*
 * The driver's two halves, for a caller that picks the backend by the
 * chunk's uncompressed size, known only once the header is read (the host
 * API: the GPU above a threshold, the CPU after the GPU failed).
 * read_layout: the header from ops, checked into L with the block table
 * (unless table_on_device), and L.n against dst_cap (too large:
 * GPULZ_ERR_DST_SIZE, with *dst_len = L.n).  decode_blocks: the
 * chunk's stages against the backend's, then its decode(); *dst_len = L.n.
 */
int gpulz_chunk_read_layout(const gpulz_chunk_dec_ops *ops, void *ctx, size_t n, const uint8_t *dst,
                            size_t dst_cap, gpulz_layout *L, size_t *dst_len);
int gpulz_chunk_decode_blocks(const gpulz_chunk_dec_ops *ops, void *ctx, const gpulz_layout *L,
                              uint8_t *dst, size_t *dst_len);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_CHUNK_H */
