/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_fixture.c - files written by earlier gpulz releases must stay readable.
 *
 * h5tests/expected/gpulz-0.1-fixture.h5 was written by gpulz 0.1.0 (chunk
 * format 1) with `h5_fixture --write FILE`; this test reads it with the
 * current plugin and compares every dataset with the same data generated
 * here, from formulas that do not depend on gpulz.  It also checks that the
 * stored chunks are format-1 gpulz chunks with the parameters recorded in
 * cd_values, so the fixture cannot silently become an uncompressed file.
 * Later releases add their own fixture files beside this one.
 *
 * The fixture carries the provisional filter ID, 34791: a build with a
 * registered ID reads it through its second plugin module (test-plugins/
 * holds both), and h5tests/h5_filter_id.sh runs this test against the pair of
 * modules it builds with a stand-in for a registered ID.
 *
 * Usage: h5_fixture [--write FILE]   (default: read $top_srcdir/h5tests/expected/...)
 */
#include "h5_util.h"

#define NI 30000
#define NT 20000
#define NY 60
#define NX 70

typedef struct fixture {
    const char *name;
    hid_t *type; /* file type = memory type */
    int rank;
    hsize_t dims[2], chunk[2];
    unsigned pipeline_flags;
    unsigned cd[5]; /* what the writer passed */
    unsigned stored_symbol; /* what set_local resolved */
} fixture;

static const fixture fixtures[] = {
    {"int32_defaults", &H5T_STD_I32LE_g, 1, {NI}, {8192}, H5Z_FLAG_MANDATORY, {0, 0, 0, 0, 0}, 4},
    {"int32be_window32", &H5T_STD_I32BE_g, 1, {NI}, {8192}, H5Z_FLAG_MANDATORY, {0, 0, 32, 256, 0}, 4},
    {"text_s1_w255", &H5T_STD_U8LE_g, 1, {NT}, {NT}, H5Z_FLAG_MANDATORY, {0, 1, 255, 4096, 0}, 1},
    {"f64_adaptive", &H5T_IEEE_F64LE_g, 1, {NI}, {10000}, H5Z_FLAG_MANDATORY, {0, 0, 0, 16384, 1}, 8},
    {"u16_2d", &H5T_STD_U16LE_g, 2, {NY, NX}, {32, 32}, H5Z_FLAG_MANDATORY, {0, 0, 0, 0, 0}, 2},
    {"random_optional", &H5T_STD_U8LE_g, 1, {NT}, {5000}, H5Z_FLAG_OPTIONAL, {0, 0, 0, 0, 0}, 1},
};

/* The data of fixture k, element i: simple formulas, no gpulz involved. */
static void generate(int k, void *buf, size_t n)
{
    switch (k) {
    case 0:
    case 1:
        for (size_t i = 0; i < n; i++)
            ((int32_t *)buf)[i] = (int32_t)(i / 6) % 977 - 300;
        break;
    case 2: {
        static const char *words[] = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ",
                                      "dogs ", "\n"};
        size_t pos = 0;
        for (size_t w = 0; pos < n; w = (w * 7 + 3) % 9)
            for (const char *c = words[w]; *c && pos < n; c++)
                ((uint8_t *)buf)[pos++] = (uint8_t)*c;
        break;
    }
    case 3:
        for (size_t i = 0; i < n; i++)
            ((double *)buf)[i] = (double)((i / 10) % 50) * 0.5;
        break;
    case 4:
        for (size_t i = 0; i < n; i++)
            ((uint16_t *)buf)[i] = (uint16_t)(500 + (i % NX) / 7 + (i / NX) / 5);
        break;
    default:
        h5u_random(buf, n, 2024);
    }
}

static size_t elements(const fixture *f)
{
    return (size_t)f->dims[0] * (f->rank > 1 ? (size_t)f->dims[1] : 1);
}

static int write_fixture(const char *path)
{
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    for (int k = 0; k < (int)(sizeof fixtures / sizeof fixtures[0]); k++) {
        const fixture *f = &fixtures[k];
        size_t n = elements(f), size = H5Tget_size(*f->type);
        void *buf = malloc(n * size);
        CHECK(buf);
        generate(k, buf, n);
        hid_t space = H5Screate_simple(f->rank, f->dims, NULL);
        hid_t dcpl = h5u_dcpl(f->rank, f->chunk, f->pipeline_flags, 5, f->cd);
        hid_t d = H5Dcreate2(file, f->name, *f->type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        CHECK(d >= 0 && H5Dwrite(d, *f->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
        H5Dclose(d);
        H5Pclose(dcpl);
        H5Sclose(space);
        free(buf);
    }
    CHECK(H5Fclose(file) >= 0);
    return 0;
}

static int read_fixture(const char *path)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECKF(file >= 0, "cannot open %s", path);
    for (int k = 0; k < (int)(sizeof fixtures / sizeof fixtures[0]); k++) {
        const fixture *f = &fixtures[k];
        size_t n = elements(f), size = H5Tget_size(*f->type);
        void *want = malloc(n * size), *got = malloc(n * size);
        CHECK(want && got);
        generate(k, want, n);
        hid_t d = H5Dopen2(file, f->name, H5P_DEFAULT);
        CHECKF(d >= 0, "%s missing", f->name);
        CHECKF(H5Dread(d, *f->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0, "%s: read", f->name);
        CHECKF(memcmp(want, got, n * size) == 0, "%s: data differ from the formula", f->name);

        unsigned cd[8];
        CHECK(h5u_stored_cd_id(d, H5Z_FILTER_GPULZ_PROVISIONAL, cd, NULL, NULL, 0) == 5);
        CHECKF(cd[0] == 1 && cd[1] == f->stored_symbol &&
                   cd[2] == (f->cd[2] ? f->cd[2] : 128) && cd[3] == (f->cd[3] ? f->cd[3] : 2048) &&
                   cd[4] == f->cd[4],
               "%s: stored {%u,%u,%u,%u,%u}", f->name, cd[0], cd[1], cd[2], cd[3], cd[4]);
        /* chunk 0 as stored: a format-1 gpulz chunk with those parameters, or,
         * for the optional filter on random data, unfiltered */
        hsize_t offset[2], csize;
        unsigned mask;
        haddr_t addr;
        h5u_chunk_info(d, 0, offset, &mask, &addr, &csize);
        uint8_t *raw = malloc(csize);
        uint32_t fmask;
        CHECK(raw && gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &fmask, raw, (size_t)csize) >= 0);
        if (f->pipeline_flags == H5Z_FLAG_OPTIONAL) {
            CHECKF(mask == 1, "%s: chunk 0 mask %u", f->name, mask);
        } else {
            /* adaptive may have chosen S = 1 for a chunk: either is valid */
            int symbol_ok = raw[6] == cd[1] || ((cd[4] & 1) && raw[6] == 1);
            CHECKF(mask == 0 && csize > 28 && memcmp(raw, "GPLZ", 4) == 0 && raw[4] == 1 &&
                       symbol_ok && raw[7] == cd[2] && (1u << raw[8]) == cd[3],
                   "%s: chunk 0 header", f->name);
        }
        printf("%-18s %zu elements read back; chunk 0: %llu bytes, mask %u\n", f->name, n,
               (unsigned long long)csize, mask);
        free(raw);
        free(want);
        free(got);
        H5Dclose(d);
    }
    H5Fclose(file);
    return 0;
}

int main(int argc, char **argv)
{
    H5open();
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_fixture(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: h5_fixture [--write FILE]\n");
        return 99;
    }
    /* the fixture records the filter ID it was written with */
    if (H5Z_FILTER_GPULZ_PROVISIONAL != 34791) {
        printf("fixture written with filter ID 34791, this build's provisional ID is %d\n",
               H5Z_FILTER_GPULZ_PROVISIONAL);
        return 77;
    }
    const char *srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/h5tests/expected/gpulz-0.1-fixture.h5", srcdir);
    return read_fixture(path);
}
