/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_stages.c - the chunk driver's stage seam and its one copy of the
 * adaptive rule: format 1 is the list with LZSS alone and no header flag, a
 * backend without a stage of a chunk refuses it by name, the header's flags
 * byte comes from the layout and goes back into it, and the adaptive retry
 * follows FORMAT.md §8 (2n < 3 len, S > 1, the flag set).  The
 * decompression driver with a test backend: what it checks before the
 * backend decodes, and what it leaves to a backend whose table stays on the
 * device.
 */
#include "codec_testutil.h"
#include "gpulz_chunk.h"

/* A backend that hands the driver the chunk's bytes and counts its decodes. */
typedef struct test_chunk {
    const uint8_t *src;
    int header_rc;
    int decodes;
    uint64_t decoded_n;
} test_chunk;

static int test_header(void *ctx, const uint8_t **bytes)
{
    test_chunk *T = ctx;
    *bytes = T->src;
    return T->header_rc == GPULZ_OK ? GPULZ_OK : gpulz_fail(T->header_rc, "test header");
}

static int test_decode(void *ctx, const gpulz_layout *L, uint8_t *dst)
{
    test_chunk *T = ctx;
    (void)dst;
    T->decodes++;
    T->decoded_n = L->n;
    return GPULZ_OK;
}

static void driver_trials(void)
{
    enum { N = 5000 };
    static const gpulz_stage_id lzss[] = {GPULZ_STAGE_LZSS};
    gpulz_chunk_dec_ops ops = {"test", lzss, 1, 0, test_header, test_decode};
    uint8_t in[N], out[N];
    uint64_t seed = 7;
    tu_fill_matchy(in, N, &seed);
    gpulz_params p;
    size_t len = 0, got = 0;
    tu_params(&p, 2, 64, 256, 1);
    uint8_t *chunk = tu_compress(in, N, &p, &len);
    if (!chunk)
        return;

    test_chunk T = {chunk, GPULZ_OK, 0, 0};
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_OK && T.decodes == 1 &&
                 T.decoded_n == N && got == N,
             "driver: %d decodes of %llu bytes, %zu reported", T.decodes,
             (unsigned long long)T.decoded_n, got);

    T.decodes = 0;
    T.header_rc = GPULZ_ERR_CUDA;
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_ERR_CUDA && !T.decodes,
             "driver: the header's failure is not returned");
    T.header_rc = GPULZ_OK;

    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N - 1, &got) == GPULZ_ERR_DST_SIZE &&
                 strstr(gpulz_last_error(), "exceeds the output capacity 4999") && !T.decodes,
             "driver: capacity: \"%s\"", gpulz_last_error());
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, NULL, N, &got) == GPULZ_ERR_DST_SIZE && !T.decodes,
             "driver: no output buffer");

    ops.stage_count = 0;
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_ERR_VERSION &&
                 strstr(gpulz_last_error(), "test backend has no lzss stage") && !T.decodes,
             "driver: a backend without LZSS: \"%s\"", gpulz_last_error());
    ops.stage_count = 1;

    /* a table entry out of range: refused from host bytes, left to a
     * backend that checks the table where it lies */
    uint8_t *bad = tu_xmalloc(len);
    memcpy(bad, chunk, len);
    gpulz_put_u32(bad + GPULZ_HEADER_SIZE, 1);
    T.src = bad;
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_ERR_CORRUPT && !T.decodes,
             "driver: a bad table entry reached the backend");
    ops.table_on_device = 1;
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_OK && T.decodes == 1,
             "driver: a table on the device was read on the host");
    bad[0] ^= 1;
    TU_CHECK(gpulz_chunk_decompress(&ops, &T, len, out, N, &got) == GPULZ_ERR_CORRUPT && T.decodes == 1,
             "driver: a bad magic reached the backend");
    free(bad);
    free(chunk);
}

int main(void)
{
    size_t count = 0;
    const gpulz_stage *s = gpulz_stages(1, &count);
    TU_CHECK(count == 1 && s[0].id == GPULZ_STAGE_LZSS && s[0].header_flag == 0,
             "format 1: %zu stages, the first %d", count, count ? (int)s[0].id : -1);
    TU_CHECK(gpulz_stages(3, &count) == NULL && count == 0, "format 3 has a stage list");

    gpulz_layout v1, v2;
    gpulz_layout_make(&v1, 1000, 2, 128, 256);
    const gpulz_stage_id lzss[] = {GPULZ_STAGE_LZSS};
    TU_CHECK(gpulz_stages_supported(&v1, lzss, 1, "test") == GPULZ_OK, "LZSS alone runs format 1");
    TU_CHECK(gpulz_stages_supported(&v1, lzss, 0, "test") == GPULZ_ERR_VERSION &&
                 strstr(gpulz_last_error(), "test backend has no lzss stage"),
             "a backend without LZSS: \"%s\"", gpulz_last_error());

    /* format 2: a chunk needs exactly the stages its flags name */
    const gpulz_stage_id rans[] = {GPULZ_STAGE_RANS};
    const gpulz_stage_id all[] = {GPULZ_STAGE_RANS, GPULZ_STAGE_DELTA, GPULZ_STAGE_TOKENS, GPULZ_STAGE_CHECKSUM};
    TU_CHECK(gpulz_layout_make_v2(&v2, 1000, 2, 0, 256, 0x08, 14) == GPULZ_OK &&
                 gpulz_stages_supported(&v2, rans, 1, "test") == GPULZ_OK,
             "entropy alone needs the rANS stage alone");
    TU_CHECK(gpulz_stages_supported(&v2, lzss, 1, "test") == GPULZ_ERR_VERSION &&
                 strstr(gpulz_last_error(), "no rans stage"),
             "a format 2 chunk ran without rANS: \"%s\"", gpulz_last_error());
    TU_CHECK(gpulz_layout_make_v2(&v2, 1000, 2, 64, 256, 0x1D, 14) == GPULZ_OK &&
                 gpulz_stages_supported(&v2, rans, 1, "test") == GPULZ_ERR_VERSION &&
                 strstr(gpulz_last_error(), "no delta stage") &&
                 gpulz_stages_supported(&v2, all, 4, "test") == GPULZ_OK,
             "delta, LZSS, rANS and the checksum: \"%s\"", gpulz_last_error());

    /* the flags byte: written from the layout, read back into it */
    gpulz_layout L, back;
    uint8_t h[GPULZ_HEADER_SIZE + 64];
    TU_CHECK(gpulz_layout_make(&L, 1000, 4, 128, 256) == GPULZ_OK && L.flags == 0, "layout");
    gpulz_header_write(h, &L);
    TU_CHECK(h[5] == 0, "format 1 writes flags 0, not %u", h[5]);
    TU_CHECK(gpulz_header_read(h, sizeof h, &back) == GPULZ_OK && back.flags == L.flags &&
                 back.blocks == L.blocks && back.n == L.n,
             "header round trip");
    h[5] = 0x01;
    TU_CHECK(gpulz_header_read(h, sizeof h, &back) == GPULZ_ERR_VERSION, "unknown flag 0x01 read");

    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = 2;
    p.flags = GPULZ_FLAG_ADAPTIVE;
    TU_CHECK(!gpulz_adaptive_retry(&p, 300, 200), "ratio exactly 1.5 retried");
    TU_CHECK(gpulz_adaptive_retry(&p, 300, 201), "ratio under 1.5 not retried");
    TU_CHECK(gpulz_adaptive_retry(&p, SIZE_MAX, SIZE_MAX), "no overflow in 2n < 3 len");
    p.symbol_size = 1;
    TU_CHECK(!gpulz_adaptive_retry(&p, 300, 299), "S = 1 retried with S = 1");
    p.symbol_size = 4;
    p.flags = 0;
    TU_CHECK(!gpulz_adaptive_retry(&p, 300, 299), "retried without the flag");

    driver_trials();
    return tu_finish("codec_stages");
}
