/*
 * h5_corrupt.c - a damaged chunk on disk gives a clean read error with our
 * message on the HDF5 error stack, never a crash or wrong data.
 *
 * For each kind of damage: write one compressible gpulz chunk, find it in
 * the file (H5Dget_chunk_info gives its address), overwrite bytes there with
 * plain stdio, reopen and read.  The read must fail and the stack must hold
 * "gpulz: cannot decompress" plus the codec's status text.  The chunk next
 * to it stays readable.
 */
#include "h5_util.h"

#define N 8192
#define CHUNK 4096

static const char *path = "h5_corrupt.h5";

/* Write two chunks; return the file address and size of chunk 0. */
static void write_file(haddr_t *addr, hsize_t *size)
{
    static int32_t v[N];
    for (int i = 0; i < N; i++)
        v[i] = i / 16;
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
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

static void poke(haddr_t at, const void *bytes, size_t n)
{
    FILE *fp = fopen(path, "r+b");
    CHECK(fp);
    CHECK(fseek(fp, (long)at, SEEK_SET) == 0);
    CHECK(fwrite(bytes, 1, n, fp) == n);
    CHECK(fclose(fp) == 0);
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

    remove(path);
    return 0;
}
