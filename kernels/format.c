/* SPDX-License-Identifier: BSD-3-Clause */
/* format.c - the header and block table of chunk format v1 (docs/FORMAT.md §2-3). */
#include "gpulz_format2.h"

int gpulz_layout_make(gpulz_layout *L, uint64_t n, unsigned symbol_size, unsigned window,
                      unsigned block_symbols)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = symbol_size;
    p.window = window;
    p.block_symbols = block_symbols;
    int rc = gpulz_params_check(&p);
    if (rc != GPULZ_OK)
        return rc;
    unsigned lg = 0;
    while ((1u << lg) < block_symbols)
        lg++;
    L->version = 1;
    L->flags = 0; /* format 1: LZSS alone */
    L->seg_log2 = 0;
    L->checksum = 0;
    L->symbol_size = symbol_size;
    L->window = window;
    L->block_symbols = block_symbols;
    L->log2_block = lg;
    L->n = n;
    L->symbols = n / symbol_size;
    L->tail = n % symbol_size;
    /* not (m + C - 1) / C: for n near 2^64 that wraps and a lying header
     * with nb = 0 would pass as consistent */
    L->blocks = L->symbols / block_symbols + (L->symbols % block_symbols != 0);
    L->table_end = GPULZ_HEADER_SIZE + GPULZ_TABLE_ENTRY_SIZE * L->blocks;
    return GPULZ_OK;
}

int gpulz_layout_make_v2(gpulz_layout *L, uint64_t n, unsigned symbol_size, unsigned window,
                         unsigned block_symbols, unsigned flags, unsigned seg_log2)
{
    const int lz = (flags & GPULZ_V2_FLAG_LZSS) != 0;
    int rc = gpulz_layout_make(L, n, symbol_size, lz ? window : GPULZ_WINDOW_DEFAULT, block_symbols);
    if (rc != GPULZ_OK)
        return rc;
    if (!gpulz_v2_flags_ok(flags, symbol_size) || seg_log2 < GPULZ_SEG_LOG2_MIN ||
        seg_log2 > GPULZ_SEG_LOG2_MAX)
        return gpulz_fail(GPULZ_ERR_PARAM, "stage flags 0x%02x with symbol size %u and segments of 2^%u",
                          flags, symbol_size, seg_log2);
    L->version = 2;
    L->flags = flags;
    L->window = lz ? window : 0;
    L->seg_log2 = seg_log2;
    L->table_end = GPULZ_V2_HEADER_SIZE + (lz ? GPULZ_TOKEN_ENTRY_SIZE * L->blocks : 0);
    return GPULZ_OK;
}

void gpulz_header_write(uint8_t *dst, const gpulz_layout *L)
{
    dst[0] = GPULZ_MAGIC0;
    dst[1] = GPULZ_MAGIC1;
    dst[2] = GPULZ_MAGIC2;
    dst[3] = GPULZ_MAGIC3;
    dst[4] = (uint8_t)L->version;
    dst[5] = (uint8_t)L->flags;
    dst[6] = (uint8_t)L->symbol_size;
    dst[7] = (uint8_t)L->window;
    dst[8] = (uint8_t)L->log2_block;
    dst[9] = (uint8_t)L->seg_log2; /* reserved (0) in version 1 */
    dst[10] = dst[11] = 0;
    gpulz_put_u64(dst + 12, L->n);
    gpulz_put_u64(dst + 20, L->blocks);
    if (L->version >= 2)
        gpulz_put_u32(dst + 28, L->checksum);
}

/* FORMAT.md §11: the fields of a version 2 header past the common ones. */
static int header_read_v2(const uint8_t *src, size_t n, gpulz_layout *L)
{
    unsigned flags = src[5], S = src[6], W = src[7], g = src[9];
    if (n < GPULZ_V2_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the %d-byte header",
                          n, GPULZ_V2_HEADER_SIZE);
    if (flags & ~GPULZ_V2_FLAGS_KNOWN)
        return gpulz_fail(GPULZ_ERR_VERSION, "chunk flags 0x%02x are unknown to this library", flags);
    if (!gpulz_v2_flags_ok(flags, S))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "stage flags 0x%02x are not a valid combination for symbol size %u",
                          flags, S);
    if ((flags & GPULZ_V2_FLAG_LZSS) ? W < GPULZ_WINDOW_MIN : W != 0)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header window %u does not fit stage flags 0x%02x", W, flags);
    if (g < GPULZ_SEG_LOG2_MIN || g > GPULZ_SEG_LOG2_MAX)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header segment size 2^%u is out of 2^%d..2^%d", g,
                          GPULZ_SEG_LOG2_MIN, GPULZ_SEG_LOG2_MAX);
    if (src[10] | src[11])
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header reserved bytes are not zero");
    L->checksum = gpulz_get_u32(src + 28);
    if (!(flags & GPULZ_V2_FLAG_CHECKSUM) && L->checksum)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header checksum field is not zero without a checksum");
    return GPULZ_OK;
}

int gpulz_header_read(const uint8_t *src, size_t n, gpulz_layout *L)
{
    if (n < GPULZ_HEADER_SIZE)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the %d-byte header",
                          n, GPULZ_HEADER_SIZE);
    if (!gpulz_magic_ok(src))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "bad magic %02x %02x %02x %02x: not a gpulz chunk",
                          src[0], src[1], src[2], src[3]);
    const unsigned version = src[4];
    if (version < GPULZ_FORMAT_VERSION_LZ || version > GPULZ_FORMAT_VERSION)
        return gpulz_fail(GPULZ_ERR_VERSION, "chunk format version %u; this library reads versions %d to %d",
                          version, GPULZ_FORMAT_VERSION_LZ, GPULZ_FORMAT_VERSION);
    if (version == 1 && src[5] & ~GPULZ_CHUNK_FLAGS_KNOWN)
        return gpulz_fail(GPULZ_ERR_VERSION, "chunk flags 0x%02x are unknown to this library", src[5]);
    unsigned S = src[6], W = src[7], lg = src[8];
    uint32_t checksum = 0;
    if (version == 2) {
        int rc2 = header_read_v2(src, n, L);
        if (rc2 != GPULZ_OK)
            return rc2;
        checksum = L->checksum;
    }
    if (S != 1 && S != 2 && S != 4 && S != 8)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header symbol size %u is not 1, 2, 4 or 8", S);
    if (version == 1 && W < GPULZ_WINDOW_MIN)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header window %u is out of 1..255", W);
    if (lg < GPULZ_LOG2_BLOCK_MIN || lg > GPULZ_LOG2_BLOCK_MAX)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header block size 2^%u is out of 2^8..2^14", lg);
    if (version == 1 && (src[9] | src[10] | src[11]))
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header reserved bytes are not zero");
    uint64_t usize = gpulz_get_u64(src + 12);
    uint64_t nb = gpulz_get_u64(src + 20);
    int rc = version == 1 ? gpulz_layout_make(L, usize, S, W, 1u << lg)
                          : gpulz_layout_make_v2(L, usize, S, W, 1u << lg, src[5], src[9]);
    if (rc != GPULZ_OK)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "header parameters are invalid");
    L->flags = src[5];
    L->checksum = checksum;
    if (nb != L->blocks)
        return gpulz_fail(GPULZ_ERR_CORRUPT,
                          "header block count %llu does not match %llu bytes in blocks of %u x %u",
                          (unsigned long long)nb, (unsigned long long)usize, 1u << lg, S);
    /* nb <= n / 256, so the table size cannot overflow; compare in 64 bits anyway. */
    if (L->table_end > n)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes ends inside its %llu-byte block table",
                          n, (unsigned long long)L->table_end);
    return GPULZ_OK;
}

uint64_t gpulz_least_bytes(const gpulz_layout *L)
{
    if (L->version != 1 || !L->blocks)
        return L->table_end;
    const unsigned S = L->symbol_size;
    const uint64_t full = L->blocks - 1, last = gpulz_block_raw_size(L, full) / S;
    return L->table_end + full * gpulz_block_least(L->block_symbols, S) + gpulz_block_least(last, S) + L->tail;
}

int gpulz_blocks_fit(const gpulz_layout *L, size_t n, int status)
{
    const uint64_t least = gpulz_least_bytes(L);
    if (least > n)
        return gpulz_fail(status, "chunk of %zu bytes is shorter than the %llu bytes its %llu blocks take at the least",
                          n, (unsigned long long)least, (unsigned long long)L->blocks);
    return GPULZ_OK;
}

int gpulz_header_parse(const uint8_t *src, size_t n, gpulz_layout *L, uint64_t *raw_blocks)
{
    int rc = gpulz_header_read(src, n, L);
    if (rc != GPULZ_OK)
        return rc;
    if (L->version == 2) {
        if (raw_blocks)
            *raw_blocks = 0;
        return GPULZ_OK;
    }
    const uint64_t nb = L->blocks;
    uint64_t total = L->table_end, raw = 0;
    const uint8_t *table = src + GPULZ_HEADER_SIZE;
    for (uint64_t k = 0; k < nb; k++) {
        uint32_t e = gpulz_get_u32(table + GPULZ_TABLE_ENTRY_SIZE * k);
        uint32_t size = e & GPULZ_SIZE_MASK, rawsize = gpulz_block_raw_size(L, k);
        if (!gpulz_table_entry_ok(e, rawsize)) {
            if (e & GPULZ_RAW_BIT)
                return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: stored size %u is not its raw size %u",
                                  (unsigned long long)k, size, rawsize);
            return gpulz_fail(GPULZ_ERR_CORRUPT, "block %llu: encoded size %u is out of 2..%u",
                              (unsigned long long)k, size, rawsize - 1);
        }
        raw += (e & GPULZ_RAW_BIT) != 0;
        total += size;
    }
    total += L->tail;
    if (total > n)
        return gpulz_fail(GPULZ_ERR_TRUNCATED, "chunk of %zu bytes is shorter than the %llu its table describes",
                          n, (unsigned long long)total);
    if (total < n)
        return gpulz_fail(GPULZ_ERR_CORRUPT, "chunk of %zu bytes is longer than the %llu its table describes",
                          n, (unsigned long long)total);
    if (raw_blocks)
        *raw_blocks = raw;
    return GPULZ_OK;
}

int gpulz_block_table_get(const void *src, size_t n, gpulz_block_info *blocks, size_t count)
{
    gpulz_layout L;
    if (!src || !blocks)
        return gpulz_fail(GPULZ_ERR_PARAM, "null buffer");
    int rc = gpulz_header_parse(src, n, &L, NULL);
    if (rc == GPULZ_OK)
        rc = gpulz_blocks_fit(&L, n, GPULZ_ERR_CORRUPT);
    if (rc != GPULZ_OK)
        return rc;
    if (L.version != 1)
        return gpulz_fail(GPULZ_ERR_VERSION, "a version %u chunk has no block table", L.version);
    if (count <= L.blocks)
        return gpulz_fail(GPULZ_ERR_DST_SIZE, "%zu entries cannot hold %llu blocks and the tail", count,
                          (unsigned long long)L.blocks);
    const uint8_t *table = (const uint8_t *)src + GPULZ_HEADER_SIZE;
    uint64_t offset = L.table_end;
    for (uint64_t k = 0; k < L.blocks; k++) {
        uint32_t e = gpulz_get_u32(table + GPULZ_TABLE_ENTRY_SIZE * k);
        blocks[k].offset = offset;
        blocks[k].raw_size = gpulz_block_raw_size(&L, k);
        blocks[k].stored_size = e & GPULZ_SIZE_MASK;
        blocks[k].stored_raw = (e & GPULZ_RAW_BIT) != 0;
        offset += blocks[k].stored_size;
    }
    blocks[L.blocks] = (gpulz_block_info){offset, (uint32_t)L.tail, (uint32_t)L.tail, 1};
    return GPULZ_OK;
}
