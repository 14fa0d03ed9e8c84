/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_corrupt.c - a damaged chunk on disk gives a clean read error with our
 * message on the HDF5 error stack, never a crash or wrong data.
 *
 * For each kind of damage: write one compressible gpulz chunk, find it in
 * the file (H5Dget_chunk_info gives its address), overwrite bytes there with
 * plain stdio, reopen and read.  The read must fail and the stack must hold
 * "gpulz: cannot decompress" plus the codec's status text.  The chunk next
 * to it stays readable.
 *
 * What format 1 cannot see, as docs/troubleshooting.md says: a flipped byte
 * of a block stored raw decodes to one wrong value without an error, and
 * Fletcher-32 after gpulz turns the same damage into a read error.
 */
#include "config.h"
#include "h5_util.h"

#define N 8192
#define CHUNK 4096

static const char *path = "h5_corrupt.h5";

/* Mode lz (slot 0 = 1): most damage below is laid out in format 1's header,
 * block table and blocks, and format 1 has no checksum to catch a raw byte. */
static const unsigned lz_cd[1] = {H5Z_GPULZ_CD_VERSION_LZ};

/* Mode fast: format 2, whose chunk is a header and streams, no block table. */
static const unsigned fast_cd[H5Z_GPULZ_CD_NELMTS_STORED] = {
    H5Z_GPULZ_CD_VERSION_CURRENT, 0, 0, 0, 0, 0, H5Z_GPULZ_CD_MODE_FAST};

/* Write two chunks with cd_values cd; return the file address and size of chunk 0. */
static void write_file_cd(size_t ncd, const unsigned *cd, haddr_t *addr, hsize_t *size)
{
    static int32_t v[N];
    for (int i = 0; i < N; i++)
        v[i] = i / 16;
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, ncd, cd);
    hid_t d = H5Dcreate2(f, "v", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    hsize_t offset[1];
    unsigned mask;
    h5u_chunk_info(d, 0, offset, &mask, addr, size);
    CHECK(offset[0] == 0 && mask == 0 && *size > 40 && *size < CHUNK * 4);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    CHECK(H5Fclose(f) >= 0);
}

static void write_file(haddr_t *addr, hsize_t *size)
{
    write_file_cd(1, lz_cd, addr, size);
}

static void poke(haddr_t at, const void *bytes, size_t n)
{
    FILE *fp = fopen(path, "r+b");
    CHECK(fp);
    CHECK(fseek(fp, (long)at, SEEK_SET) == 0);
    CHECK(fwrite(bytes, 1, n, fp) == n);
    CHECK(fclose(fp) == 0);
}

/* The filter's entries on the stack ("gpulz: ...") name their sources from
 * the tree's top (plugin/...), not from the directory the build ran in
 * (configure's -fmacro-prefix-map: CI builds in build/, where __FILE__ was
 * ../plugin/...). */
static herr_t source_names(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e->desc && strncmp(e->desc, "gpulz:", 6) == 0) {
        ++*(int *)data;
        CHECKF(e->file_name && strncmp(e->file_name, "plugin/", 7) == 0,
               "the error stack names %s, not a source under plugin/", e->file_name ? e->file_name : "(none)");
    }
    return 0;
}

/* Read chunk 0 (must fail with want in the message) and chunk 1 (must work). */
static void read_expect_error(const char *what, const char *want)
{
    static int32_t back[CHUNK];
    hsize_t start[1] = {0}, count[1] = {CHUNK};
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "v", H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, count, NULL);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    herr_t rc = H5Dread(d, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, back);
    CHECKF(rc < 0, "%s: the damaged chunk read without error", what);
    const char *text = h5u_error_text();
    CHECKF(strstr(text, "gpulz: cannot decompress") && strstr(text, want),
           "%s: expected \"%s\" on the error stack, got:\n%s", what, want, text);
    printf("%-22s read fails: %s", what, strstr(text, "gpulz:"));
#if GPULZ_SOURCE_NAMES_RELATIVE
    int ours = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, source_names, &ours);
    CHECKF(ours > 0, "%s: no entry of the filter's on the stack", what);
#endif

    start[0] = CHUNK;
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    CHECKF(H5Dread(d, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, back) >= 0, "%s: the good chunk", what);
    for (int i = 0; i < CHUNK; i++)
        CHECK(back[i] == (CHUNK + i) / 16);
    H5Sclose(fs);
    H5Sclose(ms);
    H5Dclose(d);
    H5Fclose(f);
}

/* One chunk of random int32 (its blocks stored raw), with Fletcher-32 after
 * gpulz or not; the last byte of the gpulz chunk is flipped on disk. */
static char read_error[8192];

static herr_t flip_raw_byte(int fletcher, int32_t *back, const int32_t *v)
{
    hsize_t dims[1] = {CHUNK}, chunk[1] = {CHUNK};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 1, lz_cd);
    if (fletcher)
        CHECK(H5Pset_fletcher32(dcpl) >= 0);
    hid_t d = H5Dcreate2(f, "v", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    hsize_t offset[1];
    unsigned mask;
    haddr_t addr;
    hsize_t size;
    h5u_chunk_info(d, 0, offset, &mask, &addr, &size);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    CHECK(H5Fclose(f) >= 0);
    /* the gpulz chunk ends 4 bytes before the stored one with Fletcher-32 */
    haddr_t last = addr + size - 1 - (fletcher ? 4 : 0);
    FILE *fp = fopen(path, "r+b");
    CHECK(fp && fseek(fp, (long)last, SEEK_SET) == 0);
    int c = fgetc(fp);
    CHECK(c != EOF && fseek(fp, (long)last, SEEK_SET) == 0 && fputc(c ^ 0x40, fp) != EOF);
    CHECK(fclose(fp) == 0);

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(f, "v", H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    herr_t rc = H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back);
    snprintf(read_error, sizeof read_error, "%s", h5u_error_text());
    H5Dclose(d);
    H5Fclose(f);
    return rc;
}

static void undetected_without_checksum(void)
{
    static int32_t v[CHUNK], back[CHUNK];
    h5u_random(v, sizeof v, 7);
    CHECKF(flip_raw_byte(0, back, v) >= 0, "a flipped raw byte was detected: the docs are stale");
    int wrong = 0;
    for (int i = 0; i < CHUNK; i++)
        wrong += back[i] != v[i];
    CHECKF(wrong == 1 && back[CHUNK - 1] != v[CHUNK - 1], "%d values differ", wrong);
    printf("%-22s reads without error, 1 wrong value (no checksum in format 1)\n", "flipped raw byte");
    CHECK(flip_raw_byte(1, back, v) < 0);
    CHECKF(strstr(read_error, "Fletcher32"), "expected Fletcher-32's error, got:\n%s", read_error);
    printf("%-22s with Fletcher-32: read fails (%s)\n", "flipped raw byte", "Fletcher32 checksum");
}

int main(void)
{
    haddr_t addr;
    hsize_t size;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

    write_file(&addr, &size);
    poke(addr, "XXXX", 4);
    read_expect_error("bad magic", "corrupt or foreign data");

    write_file(&addr, &size);
    poke(addr + 4, "\x09", 1);
    read_expect_error("future version", "unsupported format version");

    /* block 0's table entry claims more bytes than the chunk holds */
    write_file(&addr, &size);
    poke(addr + 28, "\xf0\xff\xff\x7f", 4);
    read_expect_error("lying block table", "gpulz: cannot decompress");

    /* a declared size far beyond what the blocks can hold */
    write_file(&addr, &size);
    poke(addr + 12, "\x00\x00\x00\x00\x00\x01\x00\x00", 8);
    read_expect_error("lying size", "gpulz: cannot decompress");

    /* the token stream of block 0: token count far too high */
    write_file(&addr, &size);
    poke(addr + 28 + 4 * 2, "\xff\x7f", 2);
    read_expect_error("bad token count", "gpulz: cannot decompress");

    /* format 2: the header declares the dataset's chunk size, so the filter
     * allocates for it, but the first stream claims more bytes than follow */
    write_file_cd(H5Z_GPULZ_CD_NELMTS_STORED, fast_cd, &addr, &size);
    poke(addr + 32 + 9, "\x00\x00\x00\x00\x00\x01\x00\x00", 8);
    read_expect_error("lying stream size", "truncated data");

    undetected_without_checksum();

    remove(path);
    return 0;
}
