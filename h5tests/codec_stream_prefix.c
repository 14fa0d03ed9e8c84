/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_stream_prefix.c - gpulz_stream_open_into, which a GPU decoder runs
 * on the first bytes of a chunk it copied to the host: on every prefix of
 * coded streams (rANS with small and wide tables and long directories,
 * stored, constant) it either asks for more (GPULZ_STREAM_SHORT) or gives
 * exactly what gpulz_stream_open gives on the whole stream, and asks for
 * more on no prefix that holds the header, table and directory; the table
 * and directory land in the caller's room, or in the view's own where the
 * room is too small; on damaged streams a prefix gives the whole stream's
 * status or asks for more, never another status.
 */
#include "codec_testutil.h"
#include "gpulz_entropy.h"

/* N units of u bytes: 0 geometric, 1 a few values, 2 wide (u = 2: most
 * values escaped), 3 one value */
static void fill(uint8_t *b, uint64_t N, unsigned u, unsigned shape, uint64_t *s)
{
    const uint32_t V = (uint32_t)1 << (8 * u);
    for (uint64_t i = 0; i < N; i++) {
        uint32_t v = 0;
        switch (shape) {
        case 0: while (v < V - 1 && tu_below(s, 3)) v++; break;
        case 1: v = (uint32_t)tu_below(s, 5) * 3; break;
        case 2: v = (uint32_t)tu_below(s, V); break;
        default: v = 9; break;
        }
        b[u * i] = (uint8_t)v;
        if (u == 2)
            b[u * i + 1] = (uint8_t)(v >> 8);
    }
}

static unsigned opens, shorts, damaged;

/* Every prefix of the stream at p (len bytes, the chunk going on `extra`
 * bytes after it) against the whole stream's open. */
static void prefixes(const uint8_t *p, size_t len, size_t extra, uint64_t N, unsigned u, unsigned g, int damage)
{
    const size_t avail = len + extra;
    gpulz_stream_view W, V;
    const int want = gpulz_stream_open(p, avail, N, u, g, "t", &W);
    gpulz_dec_table *t = tu_xmalloc(sizeof *t);
    const uint64_t nseg = gpulz_segments_of(N, g);
    uint64_t *start = tu_xmalloc((nseg + 1) * sizeof *start);
    uint32_t *words = tu_xmalloc((nseg + 1) * sizeof *words);
    /* what opening reads: header, table and directory (the constant's unit) */
    const size_t need = want != GPULZ_OK ? avail
                        : W.kind == GPULZ_STREAM_RANS
                            ? W.seg_offset
                            : GPULZ_STREAM_HEADER_SIZE + (W.kind == GPULZ_STREAM_CONSTANT ? u : 0);
    TU_CHECK(damage || want == GPULZ_OK, "u=%u N=%llu: the whole stream does not open: %s", u,
             (unsigned long long)N, gpulz_last_error());
    for (size_t have = 0; have <= avail; have += have < 64 ? 1 : have < need + 40 ? (damage ? 13 : 1) : 1 + have / 3) {
        /* the room too small for the directory in every fourth open */
        const gpulz_stream_room into = {t, start, words, (have & 3) == 3 && nseg ? nseg - 1 : nseg};
        /* the prefix, then bytes that are not the stream's, so that what
         * opening reads past it changes what it sees */
        uint8_t *q = tu_xmalloc(avail ? avail : 1);
        memcpy(q, p, have);
        memset(q + have, have & 1 ? 0xFF : 0x00, avail - have);
        memset(t, 0xA5, sizeof *t);
        const int rc = gpulz_stream_open_into(q, have, avail, N, u, g, "t", &into, &V);
        opens++;
        if (rc == GPULZ_STREAM_SHORT) {
            shorts++;
            TU_CHECK(have < need, "u=%u N=%llu: short at %zu bytes of the %zu it reads", u, (unsigned long long)N,
                     have, need);
            free(q);
            continue;
        }
        TU_CHECK(rc == want, "u=%u N=%llu damage %d: status %d at %zu bytes, %d for the whole stream", u,
                 (unsigned long long)N, damage, rc, have, want);
        TU_CHECK(rc != GPULZ_OK || have >= need, "u=%u N=%llu: opened at %zu bytes of the %zu it reads", u,
                 (unsigned long long)N, have, need);
        if (rc != GPULZ_OK) {
            free(q);
            continue;
        }
        TU_CHECK(V.kind == W.kind && V.N == W.N && V.size == W.size && V.used == W.used && V.nseg == W.nseg &&
                     V.body - q == W.body - p,
                 "u=%u N=%llu: the view at %zu bytes differs", u, (unsigned long long)N, have);
        if (W.kind == GPULZ_STREAM_RANS) {
            TU_CHECK(V.seg_offset == W.seg_offset && V.t == t, "u=%u: layout at %zu", u, have);
            TU_CHECK(!memcmp(V.t, W.t, sizeof *t), "u=%u N=%llu: the table at %zu bytes differs", u,
                     (unsigned long long)N, have);
            TU_CHECK((V.start == start) == (nseg <= into.cap) && !(V.own & GPULZ_VIEW_OWNS_DIR) == (nseg <= into.cap),
                     "u=%u: the directory's room at %zu bytes", u, have);
            TU_CHECK(!memcmp(V.start, W.start, nseg * sizeof *start) &&
                         !memcmp(V.words, W.words, nseg * sizeof *words),
                     "u=%u N=%llu: the directory at %zu bytes differs", u, (unsigned long long)N, have);
        }
        gpulz_stream_close(&V);
        free(q);
    }
    if (want == GPULZ_OK)
        gpulz_stream_close(&W);
    free(words);
    free(start);
    free(t);
}

int main(void)
{
    static const uint64_t lengths[] = {1, 1000, 16385, 70000};
    static const unsigned logs[] = {GPULZ_SEG_LOG2_DEFAULT, 8};
    uint64_t s = 0x9e3779b97f4a7c15ull;
    unsigned kinds[3] = {0, 0, 0};
    for (unsigned u = 1; u <= 2; u++)
        for (unsigned shape = 0; shape < 4; shape++)
            for (unsigned li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
                for (unsigned gi = 0; gi < 2; gi++) {
                    const uint64_t N = lengths[li];
                    const unsigned g = logs[gi];
                    uint8_t *b = tu_xmalloc(N * u);
                    size_t len = 0;
                    uint8_t *out = tu_xmalloc(2 * N * u + 4096 + 160 * (N + 1));
                    fill(b, N, u, shape, &s);
                    gpulz_units U = {b, u, u, N};
                    gpulz_hist h;
                    TU_CHECK(gpulz_hist_init(&h, u) == GPULZ_OK, "hist_init");
                    gpulz_hist_add(&h, &U);
                    TU_CHECK(gpulz_stream_encode(&U, &h, g, 1, out, &len) == GPULZ_OK, "encode: %s",
                             gpulz_last_error());
                    kinds[out[0] < 3 ? out[0] : 0]++;
                    prefixes(out, len, 0, N, u, g, 0);
                    prefixes(out, len, 77, N, u, g, 0); /* more of the chunk after the stream */
                    if (out[0] == GPULZ_STREAM_RANS) {
                        /* damage in the header's size, the table and the directory */
                        gpulz_stream_view W;
                        TU_CHECK(gpulz_stream_open(out, len, N, u, g, "t", &W) == GPULZ_OK, "open");
                        const size_t at[] = {9, GPULZ_STREAM_HEADER_SIZE, GPULZ_STREAM_HEADER_SIZE + 3,
                                             (GPULZ_STREAM_HEADER_SIZE + W.seg_offset) / 2, W.seg_offset - 1};
                        gpulz_stream_close(&W);
                        for (unsigned k = 0; k < sizeof at / sizeof at[0]; k++)
                            for (unsigned x = 0; x < 3; x++) {
                                static const uint8_t flip[] = {0x80, 0xFF, 0x01};
                                out[at[k]] ^= flip[x];
                                prefixes(out, len, 0, N, u, g, 1);
                                damaged++;
                                out[at[k]] ^= flip[x];
                            }
                    }
                    gpulz_hist_free(&h);
                    free(out);
                    free(b);
                }
    TU_CHECK(kinds[GPULZ_STREAM_RANS] >= 20 && kinds[GPULZ_STREAM_STORED] && kinds[GPULZ_STREAM_CONSTANT],
             "kinds coded: %u rANS, %u stored, %u constant", kinds[GPULZ_STREAM_RANS], kinds[GPULZ_STREAM_STORED],
             kinds[GPULZ_STREAM_CONSTANT]);
    TU_CHECK(shorts > 1000, "only %u of %u prefixes asked for more", shorts, opens);
    printf("codec_stream_prefix: %u opens, %u asked for more, %u damaged streams\n", opens, shorts, damaged);
    return tu_finish("codec_stream_prefix");
}
