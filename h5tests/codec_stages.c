/*
 * codec_stages.c - the chunk driver's stage seam and its one copy of the
 * adaptive rule: format 1 is the list with LZSS alone and no header flag, a
 * backend without a stage of a chunk refuses it by name, the header's flags
 * byte comes from the layout and goes back into it, and the adaptive retry
 * follows FORMAT.md §8 (2n < 3 len, S > 1, the flag set).
 */
#include "codec_testutil.h"
#include "gpulz_chunk.h"

int main(void)
{
    size_t count = 0;
    const gpulz_stage *s = gpulz_stages(0, &count);
    TU_CHECK(count == 1 && s[0].id == GPULZ_STAGE_LZSS && s[0].header_flag == 0,
             "format 1: %zu stages, the first %d", count, count ? (int)s[0].id : -1);

    const gpulz_stage_id lzss[] = {GPULZ_STAGE_LZSS};
    TU_CHECK(gpulz_stages_supported(0, lzss, 1, "test") == GPULZ_OK, "LZSS alone runs format 1");
    TU_CHECK(gpulz_stages_supported(0, lzss, 0, "test") == GPULZ_ERR_VERSION &&
                 strstr(gpulz_last_error(), "test backend has no lzss stage"),
             "a backend without LZSS: \"%s\"", gpulz_last_error());

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
    return tu_finish("codec_stages");
}
