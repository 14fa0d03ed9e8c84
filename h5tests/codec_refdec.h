/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_refdec.h - a decoder of gpulz chunks written from docs/FORMAT.md
 * alone, with no code shared with kernels/: format version 2 (sections
 * 11-17, every check of section 20) and version 1 (sections 1-5, the checks
 * of section 9), so that it reads whatever any gpulz mode writes.  Written
 * for clarity, not speed: the oracle the tests hold gpulz_decompress to.
 *
 * It never reads outside src[0, len) nor writes outside dst[0, dst_cap), and
 * it writes dst only when the whole chunk has been decoded and checked.
 */
#ifndef CODEC_REFDEC_H
#define CODEC_REFDEC_H

#include <stddef.h>
#include <stdint.h>

/* The same numbers as gpulz_status, so that results compare directly. */
enum {
    REFDEC_OK = 0,
    REFDEC_DST_SIZE = -2,  /* n is more than dst_cap */
    REFDEC_CORRUPT = -3,   /* a rule of the format is broken */
    REFDEC_TRUNCATED = -4, /* the chunk ends before what it declares */
    REFDEC_VERSION = -5,   /* a format version or a flag bit this decoder does not know */
    REFDEC_NOMEM = -6
};

#define REFDEC_FIELDS 96

/* What a successful decode saw, so that tests can show which shapes they covered. */
typedef struct refdec_info {
    unsigned version;  /* 1 or 2 */
    unsigned flags;    /* the chunk's flags byte */
    unsigned S, W, C, g;
    uint64_t n, nb;
    unsigned streams_stored, streams_constant, streams_rans;
    uint64_t segments;   /* of all rANS streams */
    uint64_t escapes;    /* units decoded through the escape */
    uint64_t matches;    /* LZSS matches (both versions) */
    unsigned blocks_raw; /* version 1: blocks stored raw */
    /* Where some fields lie in the chunk (stream kinds, counts and sizes, table
     * heads, directory words, states, token counts, the tail), for tests that
     * damage them on purpose; the first REFDEC_FIELDS found. */
    unsigned nfields;
    struct refdec_field {
        uint64_t pos;
        unsigned len;
        const char *what;
    } field[REFDEC_FIELDS];
} refdec_info;

/*
 * Decode the chunk src[0, len) into dst; *dst_len gets n.  info (may be
 * NULL) is filled on success.  On failure a REFDEC_* code and a message in
 * err (errlen bytes, may be 0).
 */
int refdec_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_cap, size_t *dst_len,
                  refdec_info *info, char *err, size_t errlen);

/* The checksum of section 17 over n bytes cut as S and C cut them. */
uint32_t refdec_checksum(const uint8_t *data, uint64_t n, unsigned S, unsigned C);

/* A name for a REFDEC_* code. */
const char *refdec_strerror(int rc);

#endif
