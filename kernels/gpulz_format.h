/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_format.h - constants and rules of chunk format v1 (docs/FORMAT.md),
 * each written once: the CPU codec, the CUDA kernels and the emulator call
 * the same GPULZ_HD helpers, so the GPU writes the CPU's bytes by
 * construction.  Internal: not installed.
 */
#ifndef GPULZ_FORMAT_H
#define GPULZ_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A format rule for host and device alike: nvcc compiles it for both, the C
 * compiler sees a plain static inline function. */
#ifdef __CUDACC__
#define GPULZ_HD static __host__ __device__ __forceinline__
#else
#define GPULZ_HD static inline
#endif

/* FORMAT.md §2 */
#define GPULZ_MAGIC0 0x47 /* 'G' */
#define GPULZ_MAGIC1 0x50 /* 'P' */
#define GPULZ_MAGIC2 0x4C /* 'L' */
#define GPULZ_MAGIC3 0x5A /* 'Z' */

#define GPULZ_MAGIC_SIZE 4

/* Whether p's first GPULZ_MAGIC_SIZE bytes are the chunk magic (p holds at
 * least that many). */
GPULZ_HD int gpulz_magic_ok(const uint8_t *p)
{
    return p[0] == GPULZ_MAGIC0 && p[1] == GPULZ_MAGIC1 && p[2] == GPULZ_MAGIC2 && p[3] == GPULZ_MAGIC3;
}
#define GPULZ_HEADER_SIZE 28 /* version 1; version 2's is GPULZ_V2_HEADER_SIZE (gpulz_format2.h) */
#define GPULZ_HEADER_MAX 32  /* the longest header of any version */
#define GPULZ_LOG2_BLOCK_MIN 8
#define GPULZ_LOG2_BLOCK_MAX 14
#define GPULZ_CHUNK_FLAGS_KNOWN 0u /* v1 defines no chunk flags */

/* FORMAT.md §3 */
#define GPULZ_TABLE_ENTRY_SIZE 4
#define GPULZ_RAW_BIT 0x80000000u
#define GPULZ_SIZE_MASK 0x7FFFFFFFu

/* FORMAT.md §5 */
#define GPULZ_TOKEN_COUNT_SIZE 2
#define GPULZ_MATCH_SIZE 2

/* FORMAT.md §6: the shortest match that saves bytes, L * S > 2. */
GPULZ_HD unsigned gpulz_min_match(unsigned symbol_size)
{
    return symbol_size >= 3 ? 1u : 2u / symbol_size + 1u;
}

/* Little-endian access, byte by byte, so the layout never depends on the host
 * and no access needs alignment (blocks and the table start at any byte). */
GPULZ_HD void gpulz_put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
GPULZ_HD void gpulz_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
GPULZ_HD void gpulz_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
GPULZ_HD uint32_t gpulz_get_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
GPULZ_HD uint32_t gpulz_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
GPULZ_HD uint64_t gpulz_get_u64(const uint8_t *p)
{
    return (uint64_t)gpulz_get_u32(p) | (uint64_t)gpulz_get_u32(p + 4) << 32;
}

/* FORMAT.md §2: the raw size in bytes of block k of m symbols of S bytes in
 * blocks of C symbols (the last block may be short). */
GPULZ_HD uint32_t gpulz_raw_size(uint64_t k, uint64_t m, unsigned C, unsigned S)
{
    uint64_t first = k * C;
    uint64_t count = m - first < C ? m - first : C;
    return (uint32_t)(count * S);
}

/* FORMAT.md §3: a table entry is valid for a block of raw bytes when a raw
 * block holds exactly them and an encoded one at least its token count and
 * fewer bytes than raw. */
GPULZ_HD int gpulz_table_entry_ok(uint32_t entry, uint32_t raw)
{
    uint32_t size = entry & GPULZ_SIZE_MASK;
    return entry & GPULZ_RAW_BIT ? size == raw : size >= GPULZ_TOKEN_COUNT_SIZE && size < raw;
}

/* FORMAT.md §3-5, §9: the fewest bytes a block of `symbols` symbols of S
 * bytes can take: stored raw, or encoded as its token count, a flag byte, a
 * first token that is a literal (no symbol is decoded yet for a match to
 * reach back to) and the rest at best matches of GPULZ_MATCH_MAX symbols
 * for GPULZ_MATCH_SIZE bytes.  A bound, not an encoding: a header whose
 * blocks could not fit its chunk even so declares more than it holds. */
GPULZ_HD uint64_t gpulz_block_least(uint64_t symbols, unsigned S)
{
    const uint64_t raw = symbols * S;
    if (!symbols)
        return 0;
    const uint64_t rest = (symbols - 1) * GPULZ_MATCH_SIZE;
    const uint64_t enc = GPULZ_TOKEN_COUNT_SIZE + 1 + S + (rest + GPULZ_MATCH_MAX - 1) / GPULZ_MATCH_MAX;
    return enc < raw ? enc : raw;
}

/* FORMAT.md §5: bytes of the flag area of T tokens, bit t of byte t / 8. */
GPULZ_HD uint32_t gpulz_flag_bytes(uint32_t T)
{
    return (T + 7) / 8;
}

/* FORMAT.md §5: E, the encoded size of a block of T tokens taking
 * token_bytes: the token count, the flags, then the tokens. */
GPULZ_HD uint32_t gpulz_block_bytes(uint32_t T, uint32_t token_bytes)
{
    return GPULZ_TOKEN_COUNT_SIZE + gpulz_flag_bytes(T) + token_bytes;
}

/* FORMAT.md §5-6: E for T tokens of which M are matches (S bytes a literal,
 * 2 a match). */
GPULZ_HD uint32_t gpulz_encoded_size(uint32_t T, uint32_t M, unsigned S)
{
    return gpulz_block_bytes(T, S * (T - M) + GPULZ_MATCH_SIZE * M);
}

/* FORMAT.md §5: where token t of a block of T tokens starts, after M matches
 * (a literal takes S bytes, a match 2). */
GPULZ_HD uint32_t gpulz_token_pos(uint32_t T, uint32_t t, uint32_t M, unsigned S)
{
    return GPULZ_TOKEN_COUNT_SIZE + gpulz_flag_bytes(T) + S * (t - M) + GPULZ_MATCH_SIZE * M;
}

/* FORMAT.md §6 step 3: a block is LZSS-coded only when its encoding E is
 * shorter than its raw bytes; otherwise it is stored raw. */
GPULZ_HD int gpulz_block_shrinks(uint32_t E, uint32_t raw)
{
    return E < raw;
}

/* The geometry of an input under given parameters (FORMAT.md §2). */
typedef struct gpulz_layout {
    unsigned version;     /* the chunk format version, 1 or 2 */
    unsigned flags;       /* the header's flags byte: which optional stages run (gpulz_stages()) */
    unsigned seg_log2;    /* version 2 with ENTROPY: log2 of the segment size (§11) */
    uint32_t checksum;    /* version 2 with CHECKSUM: the header's checksum (§17) */
    unsigned symbol_size;
    unsigned window;
    unsigned block_symbols;
    unsigned log2_block;
    uint64_t n;           /* input bytes */
    uint64_t symbols;     /* m = floor(n / S) */
    uint64_t tail;        /* t = n mod S */
    uint64_t blocks;      /* nb */
    uint64_t table_end;   /* version 1: header + table, where block 0 starts; version 2:
                             header + token table, where the first stream starts */
} gpulz_layout;

/* Fill the layout; GPULZ_ERR_PARAM if the parameters are invalid. */
int gpulz_layout_make(gpulz_layout *L, uint64_t n, unsigned symbol_size, unsigned window,
                      unsigned block_symbols);

/* Raw size in bytes of block k. */
static inline uint32_t gpulz_block_raw_size(const gpulz_layout *L, uint64_t k)
{
    return gpulz_raw_size(k, L->symbols, L->block_symbols, L->symbol_size);
}

/* The layout of a version 2 chunk with these stage flags and segment size
 * (FORMAT.md §11); W is 0 without LZSS.  GPULZ_ERR_PARAM if invalid. */
int gpulz_layout_make_v2(gpulz_layout *L, uint64_t n, unsigned symbol_size, unsigned window,
                         unsigned block_symbols, unsigned flags, unsigned seg_log2);

/* Write the header of a layout: 28 bytes in version 1, 32 in version 2 (with
 * L->checksum). */
void gpulz_header_write(uint8_t *dst, const gpulz_layout *L);

/*
 * Parse and check the header of a chunk of n bytes (FORMAT.md §2 or §11),
 * and that its block table (version 1) or token table (version 2) fits; the
 * tables' entries are not read.
 */
int gpulz_header_read(const uint8_t *src, size_t n, gpulz_layout *L);

/*
 * The fewest bytes a version 1 chunk with the header read into L can take,
 * each block at its fewest (gpulz_block_least), found without reading the
 * table (version 2: its header and token table).  For the calls whose
 * callers allocate the declared size before a decoder looks further
 * (gpulz_decompressed_size, gpulz_chunk_info_get): a table of 2-byte blocks
 * would let a header declare 32768 times the chunk's length.  The decoders
 * refuse such chunks anyway, block by block.
 */
uint64_t gpulz_least_bytes(const gpulz_layout *L);

/* status where a chunk of n bytes is shorter than gpulz_least_bytes:
 * GPULZ_ERR_TRUNCATED where its table was not read (gpulz_decompressed_size),
 * GPULZ_ERR_CORRUPT where it was walked and adds up (gpulz_chunk_info_get,
 * gpulz_block_table_get), so that its blocks are too small for their
 * symbols. */
int gpulz_blocks_fit(const gpulz_layout *L, size_t n, int status);

/*
 * The header of a chunk of n bytes read into L, and for version 2 its
 * declared size held against its streams' headers: what
 * gpulz_decompressed_size answers, less the check of gpulz_least_bytes, for
 * the batches' rooms (gpulz_batch_room), whose decoding reports a chunk's
 * damage itself.
 */
int gpulz_declared_size(const void *src, size_t n, gpulz_layout *L);

/*
 * Parse and check the header and the block table of a chunk of n bytes.
 * On success L describes it, *raw_blocks counts stored blocks (may be NULL)
 * and every table entry is valid for its block and the sizes add up to n.
 * A version 2 chunk has no block table: its header is checked, its body is
 * checked as it is decoded (*raw_blocks = 0).
 */
int gpulz_header_parse(const uint8_t *src, size_t n, gpulz_layout *L, uint64_t *raw_blocks);

/* Record a failure's detail for gpulz_last_error(); returns status. */
int gpulz_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_FORMAT_H */
