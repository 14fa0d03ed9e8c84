/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chunk.c - the one chunk driver (gpulz_chunk.h): the stage list, the
 * choice between encodings, and the checks before a chunk is decoded, for
 * the host API (codec.c) and the device API (gpu_api.c) alike.
 */
#include "gpulz_chunk.h"
#include "gpulz_format2.h"
#include "gpulz_gpu.h"

/* the kernels' stages, listed in builds without CUDA too (gpulz_gpu.h) */
const gpulz_stage_id gpulz_gpu_stages[GPULZ_GPU_STAGE_COUNT] = {GPULZ_STAGE_LZSS, GPULZ_STAGE_DELTA,
                                                                GPULZ_STAGE_TOKENS, GPULZ_STAGE_RANS,
                                                                GPULZ_STAGE_CHECKSUM};

static const gpulz_stage stages_v1[] = {{GPULZ_STAGE_LZSS, 0, "lzss"}};
static const gpulz_stage stages_v2[] = {{GPULZ_STAGE_DELTA, GPULZ_V2_FLAG_DELTA, "delta"},
                                        {GPULZ_STAGE_TOKENS, GPULZ_V2_FLAG_LZSS, "lzss"},
                                        {GPULZ_STAGE_RANS, GPULZ_V2_FLAG_ENTROPY, "rans"},
                                        {GPULZ_STAGE_CHECKSUM, GPULZ_V2_FLAG_CHECKSUM, "checksum"}};

const gpulz_stage *gpulz_stages(unsigned version, size_t *count)
{
    switch (version) {
    case 1:
        *count = sizeof stages_v1 / sizeof stages_v1[0];
        return stages_v1;
    case 2:
        *count = sizeof stages_v2 / sizeof stages_v2[0];
        return stages_v2;
    default:
        *count = 0;
        return NULL;
    }
}

int gpulz_stages_supported(const gpulz_layout *L, const gpulz_stage_id *have, size_t n,
                           const char *backend)
{
    size_t count;
    const gpulz_stage *stage = gpulz_stages(L->version, &count);
    for (size_t i = 0; i < count; i++) {
        if (stage[i].header_flag && !(L->flags & stage[i].header_flag))
            continue;
        size_t j = 0;
        while (j < n && have[j] != stage[i].id)
            j++;
        if (j == n)
            return gpulz_fail(GPULZ_ERR_VERSION, "the %s backend has no %s stage", backend,
                              stage[i].name);
    }
    return GPULZ_OK;
}

int gpulz_adaptive_retry(const gpulz_params *p, size_t n, size_t len)
{
    return (p->flags & GPULZ_FLAG_ADAPTIVE) && p->symbol_size > 1 &&
           (unsigned __int128)2 * n < (unsigned __int128)3 * len;
}

unsigned gpulz_v2_candidates(const gpulz_params *p, gpulz_mode list[GPULZ_V2_CANDIDATES_MAX])
{
    unsigned count = 0;
    if (p->mode == GPULZ_MODE_AUTO) {
        list[count++] = GPULZ_MODE_FAST;
        list[count++] = GPULZ_MODE_RATIO;
        if (p->flags & GPULZ_FLAG_NO_CHECKSUM)
            list[count++] = GPULZ_MODE_LZ;
    } else {
        list[count++] = p->mode;
    }
    return count;
}

int gpulz_chunk_compress(const gpulz_chunk_ops *ops, void *ctx, size_t n, const gpulz_params *p,
                         uint8_t *dst, size_t dst_cap, size_t *dst_len)
{
    gpulz_layout L, L1;
    uint8_t *out = NULL, *out1 = NULL;
    size_t cap = 0, cap1 = 0, len = 0, len1 = 0;
    int rc = gpulz_layout_make(&L, n, p->symbol_size, p->window, p->block_symbols);
    if (rc != GPULZ_OK)
        return rc;
    if ((rc = ops->buffer(ctx, 0, (size_t)L.table_end + n, &out, &cap)) != GPULZ_OK)
        goto done;
    rc = ops->encode(ctx, &L, out, cap, &len);
    /* an encoding that did not fit still says how long it is: the adaptive
     * one may be shorter and fit */
    if (rc != GPULZ_OK && rc != GPULZ_ERR_DST_SIZE)
        goto done;
    const uint8_t *best = out;
    size_t best_len = len;
    if (gpulz_adaptive_retry(p, n, len)) {
        int rc1 = gpulz_layout_make(&L1, n, 1, p->window, p->block_symbols);
        if (rc1 == GPULZ_OK)
            rc1 = ops->buffer(ctx, 1, (size_t)L1.table_end + n, &out1, &cap1);
        if (rc1 == GPULZ_OK)
            rc1 = ops->encode(ctx, &L1, out1, cap1, &len1);
        if (rc1 != GPULZ_OK) {
            rc = rc1;
            goto done;
        }
        if (len1 < len) {
            best = out1;
            best_len = len1;
            rc = GPULZ_OK;
        }
    }
    if (best_len > dst_cap || !dst) {
        rc = gpulz_fail(GPULZ_ERR_DST_SIZE, "compressed size %zu exceeds the output capacity %zu",
                        best_len, dst_cap);
        goto done;
    }
    if (rc != GPULZ_OK)
        goto done;
    if (best != dst && (rc = ops->move(ctx, dst, best, best_len)) != GPULZ_OK)
        goto done;
    *dst_len = best_len;
done:
    ops->release(ctx);
    return rc;
}

int gpulz_chunk_read_layout(const gpulz_chunk_dec_ops *ops, void *ctx, size_t n, const uint8_t *dst,
                            size_t dst_cap, gpulz_layout *L, size_t *dst_len)
{
    const uint8_t *bytes = NULL;
    int rc = ops->header(ctx, &bytes);
    if (rc != GPULZ_OK)
        return rc;
    rc = ops->table_on_device ? gpulz_header_read(bytes, n, L) : gpulz_header_parse(bytes, n, L, NULL);
    if (rc != GPULZ_OK)
        return rc;
    if (L->n > dst_cap || (!dst && L->n)) {
        *dst_len = L->n < SIZE_MAX ? (size_t)L->n : SIZE_MAX; /* the room to ask for */
        return gpulz_fail(GPULZ_ERR_DST_SIZE, "uncompressed size %llu exceeds the output capacity %zu",
                          (unsigned long long)L->n, dst_cap);
    }
    return GPULZ_OK;
}

int gpulz_chunk_decode_blocks(const gpulz_chunk_dec_ops *ops, void *ctx, const gpulz_layout *L,
                              uint8_t *dst, size_t *dst_len)
{
    int rc = gpulz_stages_supported(L, ops->stages, ops->stage_count, ops->backend);
    if (rc == GPULZ_OK)
        rc = ops->decode(ctx, L, dst);
    if (rc == GPULZ_OK)
        *dst_len = (size_t)L->n;
    return rc;
}

int gpulz_chunk_decompress(const gpulz_chunk_dec_ops *ops, void *ctx, size_t n, uint8_t *dst,
                           size_t dst_cap, size_t *dst_len)
{
    gpulz_layout L;
    int rc = gpulz_chunk_read_layout(ops, ctx, n, dst, dst_cap, &L, dst_len);
    if (rc == GPULZ_OK)
        rc = gpulz_chunk_decode_blocks(ops, ctx, &L, dst, dst_len);
    return rc;
}
