/*
 * gpulz_format.h - constants and helpers of chunk format v1 (docs/FORMAT.md),
 * shared by the CPU codec, the CUDA codec and the tools.  Internal: not installed.
 */
#ifndef GPULZ_FORMAT_H
#define GPULZ_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FORMAT.md §2 */
#define GPULZ_MAGIC0 0x47 /* 'G' */
#define GPULZ_MAGIC1 0x50 /* 'P' */
#define GPULZ_MAGIC2 0x4C /* 'L' */
#define GPULZ_MAGIC3 0x5A /* 'Z' */
#define GPULZ_HEADER_SIZE 28
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
static inline unsigned gpulz_min_match(unsigned symbol_size)
{
    return symbol_size >= 3 ? 1u : 2u / symbol_size + 1u;
}

/* Little-endian access, byte by byte, so the layout never depends on the host. */
static inline void gpulz_put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void gpulz_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void gpulz_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t gpulz_get_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static inline uint32_t gpulz_get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static inline uint64_t gpulz_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The geometry of an input under given parameters (FORMAT.md §2). */
typedef struct gpulz_layout {
    unsigned symbol_size;
    unsigned window;
    unsigned block_symbols;
    unsigned log2_block;
    uint64_t n;           /* input bytes */
    uint64_t symbols;     /* m = floor(n / S) */
    uint64_t tail;        /* t = n mod S */
    uint64_t blocks;      /* nb */
    uint64_t table_end;   /* header + table: where block 0 starts */
} gpulz_layout;

/* Fill the layout; GPULZ_ERR_PARAM if the parameters are invalid. */
int gpulz_layout_make(gpulz_layout *L, uint64_t n, unsigned symbol_size, unsigned window,
                      unsigned block_symbols);

/* Raw size in bytes of block k. */
static inline uint32_t gpulz_block_raw_size(const gpulz_layout *L, uint64_t k)
{
    uint64_t first = k * L->block_symbols;
    uint64_t count = L->symbols - first < L->block_symbols ? L->symbols - first : L->block_symbols;
    return (uint32_t)(count * L->symbol_size);
}

/* Write the 28-byte header of a layout. */
void gpulz_header_write(uint8_t *dst, const gpulz_layout *L);

/*
 * Parse and check the 28-byte header of a chunk of n bytes (FORMAT.md §2),
 * and that its block table fits; the table's entries are not read.
 */
int gpulz_header_read(const uint8_t *src, size_t n, gpulz_layout *L);

/*
 * Parse and check the header and the block table of a chunk of n bytes.
 * On success L describes it, *raw_blocks counts stored blocks (may be NULL)
 * and every table entry is valid for its block and the sizes add up to n.
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
