/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_shuffle.c - gpulz inside a longer pipeline: shuffle before it,
 * Fletcher-32 after it.  With the symbol size forced to 8 on int32 chunks of
 * 1001 elements (4004 bytes) the input is not a multiple of S, so the tail
 * travels as raw bytes (docs/FORMAT.md §1); an 11-byte compound with S 4
 * does the same.  Data must read back and the stored chunks must shrink.
 */
#include "h5_util.h"

#define N 10010
#define CHUNK 1001

static hid_t file;

static void pipeline(const char *name, hid_t type, const void *buf, size_t elem, unsigned S)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    const unsigned cd[5] = {0, S, 0, 0, 0};
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    CHECK(H5Pset_shuffle(dcpl) >= 0);
    CHECK(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 5, cd) >= 0);
    CHECK(H5Pset_fletcher32(dcpl) >= 0);
    hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    d = H5Dopen2(file, name, H5P_DEFAULT);
    void *back = malloc(N * elem);
    CHECK(d >= 0 && back);
    CHECK(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, buf, N * elem) == 0, "%s: data differ", name);
    unsigned stored[8];
    h5u_stored_cd(d, stored, NULL, NULL, 0);
    CHECKF(stored[1] == S, "%s: stored symbol size %u", name, stored[1]);
    hsize_t offset[1], size;
    unsigned mask;
    haddr_t addr;
    h5u_chunk_info(d, 3, offset, &mask, &addr, &size);
    CHECKF(mask == 0 && size < CHUNK * elem / 2, "%s: chunk 3 mask %u, %llu bytes", name, mask,
           (unsigned long long)size);
    /* Fletcher-32 runs last on write: its 4-byte checksum ends the stored
     * chunk, and the gpulz header starts it (shuffle keeps the size) */
    uint8_t *raw = malloc(size);
    uint32_t fmask;
    CHECK(raw && gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &fmask, raw, (size_t)size) >= 0);
    CHECK(memcmp(raw, "GPLZ", 4) == 0 && raw[6] == S);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = n << 8 | raw[12 + i];
    CHECKF(n == CHUNK * elem, "%s: the gpulz chunk holds %llu bytes, not %zu", name,
           (unsigned long long)n, CHUNK * elem);
    printf("%-14s S=%u: chunk of %zu bytes (tail %zu) stored in %llu\n", name, S, CHUNK * elem,
           CHUNK * elem % S, (unsigned long long)size);
    free(raw);
    free(back);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

int main(void)
{
    static int32_t ints[N];
    static uint8_t recs[N * 11];
    for (int i = 0; i < N; i++)
        ints[i] = 100000 + i / 5;
    for (int i = 0; i < N * 11; i++)
        recs[i] = (uint8_t)((i / 11) % 64 < 32 ? i % 11 : 7);
    file = H5Fcreate("h5_shuffle.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    pipeline("int32_S8", H5T_STD_I32LE, ints, 4, 8);
    pipeline("int32_S4", H5T_STD_I32LE, ints, 4, 4);
    hid_t t = H5Tcreate(H5T_OPAQUE, 11);
    CHECK(t >= 0 && H5Tset_tag(t, "record") >= 0);
    pipeline("opaque11_S4", t, recs, 11, 4);
    H5Tclose(t);
    CHECK(H5Fclose(file) >= 0);
    remove("h5_shuffle.h5");
    return 0;
}
