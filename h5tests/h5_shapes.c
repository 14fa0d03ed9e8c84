/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_shapes.c - chunk shapes through the plugin: 1-D, 2-D and 3-D datasets
 * whose extents leave partial edge chunks, with and without
 * H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS; chunks far smaller than a block
 * (64 bytes, one element); an extendible dataset grown with H5Dset_extent and
 * partly rewritten (read-modify-write of compressed chunks).
 */
#include "h5_util.h"

static hid_t file;

/* Compressible int32 values that differ from one element to the next. */
static void fill(int32_t *v, size_t n, int32_t salt)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (int32_t)((i / 4) % 16) * 1000 + salt;
}

/*
 * A rank-D dataset of dims with chunks chunk.  With dont_filter, HDF5 stores
 * edge chunks raw: their storage size is the full chunk's raw size, while a
 * filtered edge chunk of this compressible data is much smaller.
 */
static void shape(const char *name, int rank, const hsize_t *dims, const hsize_t *chunk,
                  int dont_filter)
{
    size_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    int32_t *buf = malloc(n * 4), *back = malloc(n * 4);
    CHECK(buf && back);
    fill(buf, n, rank);
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = h5u_dcpl(rank, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    if (dont_filter)
        CHECK(H5Pset_chunk_opts(dcpl, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS) >= 0);
    hid_t d = H5Dcreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(d >= 0, "%s: create", name);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    CHECK(H5Dclose(d) >= 0);

    d = H5Dopen2(file, name, H5P_DEFAULT);
    CHECK(d >= 0);
    memset(back, 0, n * 4);
    CHECKF(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0, "%s: read", name);
    CHECKF(memcmp(buf, back, n * 4) == 0, "%s: data differ", name);

    /* the first chunk is full; the last one (highest offset in every dim) is partial */
    size_t raw = h5u_chunk_bytes(rank, chunk, 4);
    hsize_t first[3] = {0, 0, 0}, last[3];
    for (int i = 0; i < rank; i++)
        last[i] = (dims[i] - 1) / chunk[i] * chunk[i];
    unsigned mask;
    haddr_t addr;
    hsize_t size_first, size_last;
    CHECK(H5Dget_chunk_info_by_coord(d, first, &mask, &addr, &size_first) >= 0);
    /* chunks below a few blocks cannot pay for the 28-byte header: no size check */
    int shrinks = raw >= 4096;
    CHECKF(mask == 0 && (!shrinks || size_first < raw / 2), "%s: full chunk mask %u size %llu", name, mask,
           (unsigned long long)size_first);
    CHECK(H5Dget_chunk_info_by_coord(d, last, &mask, &addr, &size_last) >= 0);
    if (dont_filter)
        CHECKF(size_last == raw, "%s: unfiltered edge chunk has %llu bytes, not %zu", name,
               (unsigned long long)size_last, raw);
    else
        CHECKF(mask == 0 && (!shrinks || size_last < raw / 2), "%s: edge chunk mask %u size %llu of %zu", name,
               mask, (unsigned long long)size_last, raw);
    printf("%-14s chunk %6zu B: full %5llu B, edge %5llu B\n", name, raw,
           (unsigned long long)size_first, (unsigned long long)size_last);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    free(buf);
    free(back);
}

/* Grow a dataset chunk by chunk, rewrite a slab across chunk borders, read all. */
static void extendible(void)
{
    enum { STEP = 1500, STEPS = 4, TOTAL = STEP * STEPS };
    hsize_t dims[1] = {0}, maxd[1] = {H5S_UNLIMITED}, chunk[1] = {1024};
    static int32_t want[TOTAL], back[TOTAL];
    hid_t space = H5Screate_simple(1, dims, maxd);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = H5Dcreate2(file, "extendible", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    H5Sclose(space);
    for (int s = 0; s < STEPS; s++) {
        hsize_t start[1] = {(hsize_t)s * STEP}, count[1] = {STEP}, size[1] = {(hsize_t)(s + 1) * STEP};
        fill(want + s * STEP, STEP, s);
        CHECK(H5Dset_extent(d, size) >= 0);
        hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, count, NULL);
        CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, want + s * STEP) >= 0);
        H5Sclose(fs);
        H5Sclose(ms);
    }
    /* overwrite 700 values straddling the chunk border at 2048: HDF5 decodes,
     * patches and re-encodes both chunks */
    {
        hsize_t start[1] = {1700}, count[1] = {700};
        for (int i = 0; i < 700; i++)
            want[1700 + i] = -i;
        hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, count, NULL);
        CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, want + 1700) >= 0);
        H5Sclose(fs);
        H5Sclose(ms);
    }
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    d = H5Dopen2(file, "extendible", H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(want, back, sizeof want) == 0);
    /* shrink, then grow again: the cut-off part must come back as the fill value 0 */
    hsize_t small[1] = {1000}, big[1] = {3000};
    CHECK(H5Dset_extent(d, small) >= 0);
    CHECK(H5Dset_extent(d, big) >= 0);
    memset(back, 0xff, sizeof back);
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(want, back, 1000 * 4) == 0);
    for (int i = 1000; i < 3000; i++)
        CHECKF(back[i] == 0, "element %d is %d after shrink and grow", i, back[i]);
    printf("extendible     %d elements in 4 steps, rewrite across chunks, shrink and grow\n", TOTAL);
    H5Dclose(d);
    H5Pclose(dcpl);
}

int main(void)
{
    file = H5Fcreate("h5_shapes.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    for (int dont = 0; dont <= 1; dont++) {
        char name[64];
        hsize_t d1[1] = {100003}, c1[1] = {8192};
        snprintf(name, sizeof name, "1d%s", dont ? "_dontfilter" : "");
        shape(name, 1, d1, c1, dont);
        hsize_t d2[2] = {300, 137}, c2[2] = {64, 64};
        snprintf(name, sizeof name, "2d%s", dont ? "_dontfilter" : "");
        shape(name, 2, d2, c2, dont);
        hsize_t d3[3] = {40, 21, 37}, c3[3] = {16, 16, 16};
        snprintf(name, sizeof name, "3d%s", dont ? "_dontfilter" : "");
        shape(name, 3, d3, c3, dont);
    }
    /* chunks far below one block (2048 symbols): 4x4 int32 = 64 bytes */
    hsize_t ds[2] = {37, 29}, cs[2] = {4, 4};
    shape("tiny_chunks", 2, ds, cs, 0);
    /* one element per chunk: 4 bytes in, 36 out, never shrinks; must still round-trip */
    {
        hsize_t d[1] = {50}, c[1] = {1};
        int32_t v[50], back[50];
        for (int i = 0; i < 50; i++)
            v[i] = i * 7919;
        hid_t space = H5Screate_simple(1, d, NULL);
        hid_t dcpl = h5u_dcpl(1, c, H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t ds1 = H5Dcreate2(file, "one_element_chunks", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl,
                               H5P_DEFAULT);
        CHECK(ds1 >= 0);
        CHECK(H5Dwrite(ds1, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
        CHECK(H5Dread(ds1, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
        CHECK(memcmp(v, back, sizeof v) == 0);
        H5Dclose(ds1);
        H5Pclose(dcpl);
        H5Sclose(space);
    }
    extendible();
    CHECK(H5Fclose(file) >= 0);
    /* reopen from disk: nothing came from the chunk cache */
    file = H5Fopen("h5_shapes.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(file >= 0);
    hid_t d = H5Dopen2(file, "3d", H5P_DEFAULT);
    static int32_t all[40 * 21 * 37], want[40 * 21 * 37];
    fill(want, 40 * 21 * 37, 3);
    CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0);
    CHECK(memcmp(all, want, sizeof all) == 0);
    H5Dclose(d);
    H5Fclose(file);
    remove("h5_shapes.h5");
    return 0;
}
