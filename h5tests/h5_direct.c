/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_direct.c - direct chunk I/O of libh5gpulz against HDF5's pipeline with
 * the plugin (loaded through HDF5_PLUGIN_PATH, not registered from the
 * library): for element sizes 1, 2, 4, 8 and 1-D, 2-D, 3-D shapes with edge
 * chunks, a dataset written directly stores every chunk byte for byte as
 * one written by H5Dwrite (same sizes, same filter masks), H5Dread reads it
 * and the direct read reads the H5Dwrite one.  Also: chunk-aligned
 * selections (direct) and unaligned ones, a datatype conversion and a
 * pipeline with shuffle, a data transform (HDF5's path, same data); a
 * write into a file open read-only and a NULL buffer (refused, as HDF5
 * refuses them); a user fill value padding
 * edge chunks and filling unallocated ones; an optional filter over random
 * data (chunks stored unfiltered, mask bit set); mode fast; more chunks
 * than a batch holds; damaged chunks and chunks that declare another size
 * than the dataset's, which a direct read refuses with an error (they are
 * decoded into the caller's buffer, in place, so nothing else stops them).
 *
 * With an argument, writes that file with one dataset /direct written
 * directly, for h5_direct_dump.sh.
 */
#include "gpulz.h"
#include "h5_util.h"

static hid_t file;

/* Compressible values of esize bytes that change along every dimension. */
static void fill(uint8_t *b, size_t n, size_t esize, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < esize; k++)
            b[i * esize + k] = (uint8_t)(k == 0 ? (i / 3) % 29 + salt : k == esize - 1 ? i % 7 : 0);
}

static hid_t type_of(size_t esize)
{
    return esize == 1 ? H5T_NATIVE_UINT8 : esize == 2 ? H5T_NATIVE_INT16 : esize == 4 ? H5T_NATIVE_INT32
                                                                                      : H5T_NATIVE_DOUBLE;
}

/* Every chunk of a and b stored alike: same offsets, masks and bytes. */
static void same_chunks(hid_t a, hid_t b, const char *what)
{
    hid_t sa = H5Dget_space(a), sb = H5Dget_space(b);
    hsize_t na = 0, nb = 0;
    CHECK(H5Dget_num_chunks(a, sa, &na) >= 0 && H5Dget_num_chunks(b, sb, &nb) >= 0);
    CHECKF(na == nb, "%s: %llu chunks against %llu", what, (unsigned long long)na, (unsigned long long)nb);
    for (hsize_t i = 0; i < na; i++) {
        hsize_t off[H5S_MAX_RANK], size_a, size_b;
        unsigned mask_a, mask_b;
        haddr_t addr;
        CHECK(H5Dget_chunk_info(a, sa, i, off, &mask_a, &addr, &size_a) >= 0);
        CHECKF(H5Dget_chunk_info_by_coord(b, off, &mask_b, &addr, &size_b) >= 0 && addr != HADDR_UNDEF,
               "%s: chunk %llu missing", what, (unsigned long long)i);
        CHECKF(size_a == size_b && mask_a == mask_b, "%s: chunk %llu: %llu bytes mask %u against %llu mask %u",
               what, (unsigned long long)i, (unsigned long long)size_a, mask_a, (unsigned long long)size_b,
               mask_b);
        uint8_t *ca = malloc(size_a), *cb = malloc(size_b);
        uint32_t fa, fb;
        CHECK(ca && cb);
        CHECK(gpulz_h5_read_chunk(a, H5P_DEFAULT, off, &fa, ca, (size_t)size_a) >= 0 &&
              gpulz_h5_read_chunk(b, H5P_DEFAULT, off, &fb, cb, (size_t)size_b) >= 0);
        CHECKF(memcmp(ca, cb, size_a) == 0, "%s: chunk %llu bytes differ", what, (unsigned long long)i);
        free(ca);
        free(cb);
    }
    H5Sclose(sa);
    H5Sclose(sb);
}

static hid_t make(const char *name, hid_t type, int rank, const hsize_t *dims, hid_t dcpl)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(d >= 0, "create %s", name);
    H5Sclose(space);
    return d;
}

/* The whole dataset: direct against the pipeline, both ways. */
static void whole(const char *tag, size_t esize, int rank, const hsize_t *dims, const hsize_t *chunk, hid_t dcpl,
                  unsigned salt)
{
    char na[64], nb[64];
    size_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    uint8_t *buf = malloc(n * esize), *back = malloc(n * esize);
    CHECK(buf && back);
    fill(buf, n, esize, salt);
    hid_t type = type_of(esize);
    snprintf(na, sizeof na, "%s_pipeline", tag);
    snprintf(nb, sizeof nb, "%s_direct", tag);
    hid_t a = make(na, type, rank, dims, dcpl), b = make(nb, type, rank, dims, dcpl);
    int direct = -1;
    CHECK(H5Dwrite(a, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    CHECK(gpulz_h5_write_direct(b, type, H5S_ALL, H5P_DEFAULT, buf, &direct) >= 0);
    CHECKF(direct == 1, "%s: the chunk path was not taken", tag);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    same_chunks(a, b, tag);
    memset(back, 0xA5, n * esize);
    CHECK(H5Dread(b, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(buf, back, n * esize) == 0, "%s: H5Dread of the direct chunks differs", tag);
    memset(back, 0x5A, n * esize);
    direct = -1;
    CHECK(gpulz_h5_read_direct(a, type, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 1);
    CHECKF(memcmp(buf, back, n * esize) == 0, "%s: direct read of the pipeline's chunks differs", tag);
    unsigned long long per_chunk = 1;
    for (int i = 0; i < rank; i++)
        per_chunk *= (unsigned long long)chunk[i];
    printf("%-22s %zu-byte elements, rank %d, %llu per chunk: chunks identical, both reads exact\n", tag, esize,
           rank, per_chunk);
    H5Dclose(a);
    H5Dclose(b);
    free(buf);
    free(back);
}

/* A 2-D selection written and read back, directly where it is chunk-aligned,
 * through HDF5 where not; the chunks end up as H5Dwrite's. */
static void selection(const char *tag, const hsize_t *start, const hsize_t *count, int aligned)
{
    hsize_t dims[2] = {300, 137}, chunk[2] = {64, 64};
    hid_t dcpl = h5u_dcpl(2, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    char na[64], nb[64];
    snprintf(na, sizeof na, "sel_%s_pipeline", tag);
    snprintf(nb, sizeof nb, "sel_%s_direct", tag);
    hid_t a = make(na, H5T_NATIVE_INT32, 2, dims, dcpl), b = make(nb, H5T_NATIVE_INT32, 2, dims, dcpl);
    static int32_t all[300 * 137], part[300 * 137], back[300 * 137];
    for (int i = 0; i < 300 * 137; i++)
        all[i] = i % 1000;
    size_t n = (size_t)(count[0] * count[1]);
    for (size_t i = 0; i < n; i++)
        part[i] = -(int32_t)(i % 777);
    /* both start from the same whole write, then the selection over it */
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0);
    CHECK(H5Dwrite(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0);
    hid_t fs = H5Dget_space(a), ms = H5Screate_simple(2, count, NULL);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, part) >= 0);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(b, H5T_NATIVE_INT32, fs, H5P_DEFAULT, part, &direct) >= 0);
    CHECKF(direct == aligned, "%s: chunk path %d, want %d", tag, direct, aligned);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    same_chunks(a, b, tag);
    memset(back, 0, sizeof back);
    direct = -1;
    CHECK(gpulz_h5_read_direct(b, H5T_NATIVE_INT32, fs, H5P_DEFAULT, back, &direct) >= 0);
    CHECKF(direct == aligned && memcmp(back, part, n * 4) == 0, "%s: selection read back", tag);
    CHECK(H5Dread(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    for (hsize_t i = 0; i < count[0]; i++)
        for (hsize_t j = 0; j < count[1]; j++)
            all[(start[0] + i) * 137 + start[1] + j] = part[i * count[1] + j];
    CHECKF(memcmp(back, all, sizeof all) == 0, "%s: whole dataset after the selection", tag);
    printf("selection %-12s %s\n", tag, aligned ? "direct, chunks identical" : "through HDF5, same data");
    H5Sclose(fs);
    H5Sclose(ms);
    H5Dclose(a);
    H5Dclose(b);
    H5Pclose(dcpl);
}

/* HDF5's path where the chunks could not be the filter's alone. */
static void fallbacks(void)
{
    hsize_t dims[1] = {10000}, chunk[1] = {1000};
    static int32_t v[10000];
    static int64_t wide[10000], back[10000];
    for (int i = 0; i < 10000; i++)
        wide[i] = v[i] = i / 10;
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = make("convert", H5T_STD_I32LE, 1, dims, dcpl);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT64, H5S_ALL, H5P_DEFAULT, wide, &direct) >= 0 && direct == 0);
    CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_INT64, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 0);
    CHECK(memcmp(back, wide, sizeof wide) == 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    /* shuffle before gpulz */
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_shuffle(dcpl) >= 0 &&
          H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 0, NULL) >= 0);
    d = make("shuffle", H5T_NATIVE_INT32, 1, dims, dcpl);
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0 && direct == 0);
    memset(back, 0, sizeof back);
    CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 0);
    CHECK(memcmp(back, v, sizeof v) == 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    printf("fallbacks              conversion, shuffle + gpulz: through HDF5, same data\n");
}

/* Two datasets of n int32 in chunks of 4: one written by H5Dwrite, one by
 * the direct call, from the same selection of `fs` (a dataspace of either);
 * both read back whole and compared. */
static void as_hdf5(const char *tag, hid_t a, hid_t b, hid_t fs, hsize_t n, const int32_t *v, hsize_t all)
{
    int direct = -1;
    hid_t ms = H5Screate_simple(1, &n, NULL);
    int32_t ra[64], rb[64];
    CHECK(all <= 64);
    CHECKF(H5Dwrite(a, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, v) >= 0, "%s: H5Dwrite", tag);
    CHECKF(gpulz_h5_write_direct(b, H5T_NATIVE_INT32, fs, H5P_DEFAULT, v, &direct) >= 0 && direct == 0,
           "%s: direct write (chunk path %d)", tag, direct);
    CHECK(H5Dread(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ra) >= 0);
    CHECK(H5Dread(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, rb) >= 0);
    CHECKF(memcmp(ra, rb, all * sizeof *ra) == 0, "%s: the direct write stored other values than H5Dwrite", tag);
    /* and read back through the same selection */
    memset(ra, 0, sizeof ra);
    memset(rb, 0, sizeof rb);
    CHECK(H5Dread(a, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, ra) >= 0);
    CHECKF(gpulz_h5_read_direct(b, H5T_NATIVE_INT32, fs, H5P_DEFAULT, rb, &direct) >= 0 && direct == 0,
           "%s: direct read (chunk path %d)", tag, direct);
    CHECKF(memcmp(ra, rb, n * sizeof *ra) == 0, "%s: the direct read gave other values than H5Dread", tag);
    H5Sclose(ms);
}

/*
 * Selections the chunk path cannot lay out as chunks, though their bounds
 * make a box: points in another order than the box's, or repeated; a
 * file_space of an extent the dataset has left (it grew since).  They go
 * through HDF5, with its results.
 */
static void unlike_boxes(void)
{
    hsize_t dims[1] = {8}, maxd[1] = {H5S_UNLIMITED}, chunk[1] = {4};
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t space = H5Screate_simple(1, dims, maxd);
    hid_t a = H5Dcreate2(file, "points_a", H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t b = H5Dcreate2(file, "points_b", H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(a >= 0 && b >= 0);
    const int32_t v[8] = {10, 20, 30, 40, 50, 60, 70, 80}, zero[8] = {0};
    hid_t fs = H5Scopy(space);
    const hsize_t reversed[8] = {7, 6, 5, 4, 3, 2, 1, 0}, repeated[8] = {0, 0, 1, 2, 3, 5, 6, 7};
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zero) >= 0 &&
          H5Dwrite(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zero) >= 0);
    CHECK(H5Sselect_elements(fs, H5S_SELECT_SET, 8, reversed) >= 0);
    as_hdf5("points in reverse", a, b, fs, 8, v, 8);
    CHECK(H5Sselect_elements(fs, H5S_SELECT_SET, 8, repeated) >= 0);
    /* the box 0..7 holds 8 points, one of them twice and 4 never */
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zero) >= 0 &&
          H5Dwrite(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zero) >= 0);
    as_hdf5("a repeated point", a, b, fs, 8, v, 8);
    /* fs keeps extent 8; the datasets grow to 16, full of 7s */
    H5Sclose(fs);
    fs = H5Dget_space(b);
    hsize_t grown[1] = {16}, start[1] = {4}, count[1] = {4};
    int32_t sevens[16];
    for (int i = 0; i < 16; i++)
        sevens[i] = 7;
    CHECK(H5Dset_extent(a, grown) >= 0 && H5Dset_extent(b, grown) >= 0);
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, sevens) >= 0 &&
          H5Dwrite(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, sevens) >= 0);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    as_hdf5("a file_space of the old extent", a, b, fs, 4, v, 16);
    H5Sclose(fs);
    H5Sclose(space);
    H5Dclose(a);
    H5Dclose(b);
    H5Pclose(dcpl);
    printf("unlike boxes           points reversed or repeated, an old extent: through HDF5, its values\n");
}

/* Variable-length strings inside arrays and compounds: pointers in memory,
 * heap references in the file, so never the chunk path. */
static void vlen_inside(void)
{
    typedef struct {
        int32_t a;
        char *s;
    } rec;
    hid_t vs = H5Tcopy(H5T_C_S1);
    CHECK(vs >= 0 && H5Tset_size(vs, H5T_VARIABLE) >= 0);
    hsize_t two[1] = {2}, dims[1] = {8}, chunk[1] = {4};
    hid_t arr = H5Tarray_create2(vs, 1, two), cmp = H5Tcreate(H5T_COMPOUND, sizeof(rec));
    CHECK(arr >= 0 && cmp >= 0 && H5Tinsert(cmp, "a", HOFFSET(rec, a), H5T_NATIVE_INT32) >= 0 &&
          H5Tinsert(cmp, "s", HOFFSET(rec, s), vs) >= 0);
    char *strs[16] = {"a", "bb", "ccc", "dddd", "e", "ff", "g", "hh", "i", "j", "kk", "l", "m", "nn", "o", "p"};
    rec recs[8];
    for (int i = 0; i < 8; i++) {
        recs[i].a = i;
        recs[i].s = strs[i];
    }
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_OPTIONAL, 0, NULL);
    const hid_t types[2] = {arr, cmp};
    const void *data[2] = {strs, recs};
    for (int t = 0; t < 2; t++) {
        hid_t d = make(t ? "vlen_in_compound" : "vlen_in_array", types[t], 1, dims, dcpl);
        int direct = -1;
        CHECKF(gpulz_h5_write_direct(d, types[t], H5S_ALL, H5P_DEFAULT, data[t], &direct) >= 0 && direct == 0,
               "vlen inside %d: direct write (chunk path %d)", t, direct);
        char *back_s[16] = {0};
        rec back_r[8];
        memset(back_r, 0, sizeof back_r);
        void *back = t ? (void *)back_r : (void *)back_s;
        CHECKF(gpulz_h5_read_direct(d, types[t], H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 0,
               "vlen inside %d: direct read (chunk path %d)", t, direct);
        for (int i = 0; i < (t ? 8 : 16); i++) {
            const char *got = t ? back_r[i].s : back_s[i], *want = t ? recs[i].s : strs[i];
            CHECKF(got && strcmp(got, want) == 0, "vlen inside %d: element %d read as %s", t, i, got ? got : "NULL");
        }
        hid_t space = H5Dget_space(d);
        /* H5Treclaim since 1.12; H5Dvlen_reclaim is gone where HDF5 is built
         * without its deprecated symbols */
#if H5_VERSION_GE(1, 12, 0)
        CHECK(H5Treclaim(types[t], space, H5P_DEFAULT, back) >= 0);
#else
        CHECK(H5Dvlen_reclaim(types[t], space, H5P_DEFAULT, back) >= 0);
#endif
        H5Sclose(space);
        H5Dclose(d);
    }
    H5Pclose(dcpl);
    H5Tclose(arr);
    H5Tclose(cmp);
    H5Tclose(vs);
    printf("vlen inside            arrays and compounds of variable strings: through HDF5\n");
}

/* A transfer list with a data transform, which H5Dwrite and H5Dread apply
 * without a conversion too: through HDF5, with its values. */
static void data_transform(void)
{
    hsize_t dims[1] = {64}, chunk[1] = {16};
    int32_t v[64], ra[64], rb[64];
    for (int i = 0; i < 64; i++)
        v[i] = i;
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t a = make("transform_a", H5T_NATIVE_INT32, 1, dims, dcpl);
    hid_t b = make("transform_b", H5T_NATIVE_INT32, 1, dims, dcpl);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    CHECK(dxpl >= 0 && H5Pset_data_transform(dxpl, "x+1000") >= 0);
    int direct = -1;
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, dxpl, v) >= 0);
    CHECK(gpulz_h5_write_direct(b, H5T_NATIVE_INT32, H5S_ALL, dxpl, v, &direct) >= 0);
    CHECK(H5Dread(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ra) >= 0);
    CHECK(H5Dread(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, rb) >= 0);
    CHECKF(ra[1] == 1001 && memcmp(ra, rb, sizeof ra) == 0,
           "a data transform: the direct write stored %d where H5Dwrite stored %d", rb[1], ra[1]);
    CHECK(direct == 0 && H5Eget_num(H5E_DEFAULT) == 0);
    CHECK(H5Dread(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, dxpl, ra) >= 0);
    CHECK(gpulz_h5_read_direct(a, H5T_NATIVE_INT32, H5S_ALL, dxpl, rb, &direct) >= 0);
    CHECKF(ra[1] == 2001 && memcmp(ra, rb, sizeof ra) == 0,
           "a data transform: the direct read gave %d where H5Dread gave %d", rb[1], ra[1]);
    CHECK(direct == 0 && H5Eget_num(H5E_DEFAULT) == 0);
    /* a transfer list without one keeps the chunk path */
    hid_t plain = H5Pcreate(H5P_DATASET_XFER);
    CHECK(H5Dread(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, plain, ra) >= 0);
    CHECK(gpulz_h5_read_direct(a, H5T_NATIVE_INT32, H5S_ALL, plain, rb, &direct) >= 0 && direct == 1);
    CHECK(memcmp(ra, rb, sizeof ra) == 0 && H5Eget_num(H5E_DEFAULT) == 0);
    H5Pclose(plain);
    H5Pclose(dxpl);
    H5Dclose(a);
    H5Dclose(b);
    H5Pclose(dcpl);
    printf("data transform         through HDF5, the transformed values\n");
}

/* A dataset of a file open read-only: the write fails as H5Dwrite's does,
 * and leaves the dataset and the file as they were. */
static void read_only(void)
{
    const char *path = "h5_direct_ro.h5";
    hsize_t dims[1] = {64}, chunk[1] = {16}, start[1] = {16}, count[1] = {16};
    int32_t v[64], w[64], back[64];
    for (int i = 0; i < 64; i++)
        v[i] = i, w[i] = 500 + i;
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t d = H5Dcreate2(f, "d", H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(f, "d", H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    hid_t fs = H5Dget_space(d);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    for (int k = 0; k < 2; k++) {
        int direct = -1;
        herr_t r;
        H5E_BEGIN_TRY
        {
            r = gpulz_h5_write_direct(d, H5T_NATIVE_INT32, k ? fs : H5S_ALL, H5P_DEFAULT, w, &direct);
        }
        H5E_END_TRY;
        CHECKF(r < 0 && direct == 0 && H5Eget_num(H5E_DEFAULT) > 0,
               "read-only file: the direct write returned %d (chunk path %d)", (int)r, direct);
        memset(back, 0, sizeof back);
        CHECKF(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
                   memcmp(back, v, sizeof v) == 0,
               "read-only file: the dataset no longer reads after a refused write");
    }
    H5Sclose(fs);
    H5Sclose(space);
    CHECK(H5Dclose(d) >= 0);
    CHECKF(H5Fclose(f) >= 0, "read-only file: it no longer closes after a refused write");
    H5Pclose(dcpl);
    remove(path);
    printf("read-only file         the write refused as H5Dwrite refuses it, the file intact\n");
}

/* No buffer for a selection of some points: refused as H5Dwrite and H5Dread
 * refuse it ("no output buffer"), with an error on HDF5's stack. */
static void no_buffer(void)
{
    hsize_t dims[1] = {64}, chunk[1] = {16};
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = make("no_buffer", H5T_NATIVE_INT32, 1, dims, dcpl);
    for (int writing = 0; writing < 2; writing++) {
        int direct = -1;
        herr_t r;
        H5E_BEGIN_TRY
        {
            r = writing ? gpulz_h5_write_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, NULL, &direct)
                        : gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, NULL, &direct);
        }
        H5E_END_TRY;
        CHECKF(r < 0 && direct == 0 && H5Eget_num(H5E_DEFAULT) > 0, "a NULL buffer %s: returned %d (chunk path %d)",
               writing ? "written" : "read", (int)r, direct);
    }
    H5Dclose(d);
    H5Pclose(dcpl);
    printf("no buffer              refused as HDF5 refuses it\n");
}

/* A user fill value: edge chunks padded with it, unallocated chunks read as it. */
static void fill_value(void)
{
    hsize_t dims[2] = {100, 70}, chunk[2] = {32, 32};
    int32_t fv = 0x55667788;
    hid_t dcpl = h5u_dcpl(2, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    CHECK(H5Pset_fill_value(dcpl, H5T_NATIVE_INT32, &fv) >= 0);
    whole("fill_edges", 4, 2, dims, chunk, dcpl, 9);
    /* one chunk-aligned box written directly, the rest never allocated */
    hid_t d = make("fill_sparse", H5T_NATIVE_INT32, 2, dims, dcpl);
    hsize_t start[2] = {32, 64}, count[2] = {68, 6};
    static int32_t part[68 * 6], back[100 * 70], want[100 * 70];
    for (int i = 0; i < 68 * 6; i++)
        part[i] = i;
    hid_t fs = H5Dget_space(d);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, fs, H5P_DEFAULT, part, &direct) >= 0 && direct == 1);
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, want) >= 0);
    CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 1);
    CHECK(memcmp(back, want, sizeof want) == 0);
    CHECK(want[0] == fv && want[33 * 70 + 65] == part[1 * 6 + 1]);
    printf("fill value             edge padding identical, unallocated chunks read as the fill value\n");
    H5Sclose(fs);
    H5Dclose(d);
    /* a fill value HDF5 never writes: reading, it leaves the buffer as it is
     * where no chunk is allocated, and a direct read must give the same */
    CHECK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0);
    d = make("fill_never", H5T_NATIVE_INT32, 2, dims, dcpl);
    fs = H5Dget_space(d);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, fs, H5P_DEFAULT, part, &direct) >= 0);
    for (int i = 0; i < 100 * 70; i++)
        want[i] = back[i] = -7;
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, want) >= 0);
    direct = -1;
    CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0);
    CHECKF(memcmp(back, want, sizeof want) == 0, "fill time never: the direct read gives %d where HDF5 gives %d",
           back[0], want[0]);
    /* the allocated chunks still go through the chunk path (bench/mpi_bench
     * writes such datasets and counts on it) */
    CHECKF(direct == 1, "fill time never: the direct read did not take its chunk path");
    CHECK(want[0] == -7 && want[33 * 70 + 65] == part[1 * 6 + 1]);
    printf("fill value             never written: the direct read leaves unallocated chunks as HDF5 does\n");
    H5Sclose(fs);
    H5Dclose(d);
    H5Pclose(dcpl);
}

/* The stored chunk of d at offset at, whole: its bytes and size. */
static uint8_t *stored_chunk(hid_t d, hsize_t at, size_t *size)
{
    hsize_t off[1] = {at}, n = 0;
    uint32_t mask = 0;
    CHECK(H5Dget_chunk_storage_size(d, off, &n) >= 0 && n > 0);
    uint8_t *b = malloc((size_t)n);
    CHECK(b && gpulz_h5_read_chunk(d, H5P_DEFAULT, off, &mask, b, (size_t)n) >= 0 && mask == 0);
    *size = (size_t)n;
    return b;
}

/* A direct read of d fails, with an error on HDF5's stack. */
/*
 * An optional filter's chunks that change between compressed and unfiltered
 * read back at once, whichever chunk is read first: HDF5 caches the chunk
 * H5Dwrite_chunk stored last with the mask it had before.  "raw to coded":
 * stored unfiltered by one call, compressed by the next (the stale mask took
 * gpulz's bytes for data, without an error); "coded to raw": written through
 * HDF5 first (compressed, in its chunk cache), then unfiltered by a direct
 * call (the filter ran on raw bytes: "bad magic").  1, 2 and 4 chunks.
 */
static void mask_changes(void)
{
    enum { CB = 4096 };
    static uint8_t rnd[4 * CB], low[4 * CB], back[CB];
    h5u_random(rnd, sizeof rnd, 7);
    for (size_t i = 0; i < sizeof low; i++)
        low[i] = (uint8_t)(i % 10);
    hsize_t c[1] = {CB};
    hid_t dcpl = h5u_dcpl(1, c, H5Z_FLAG_OPTIONAL, 0, NULL);
    int checked = 0;
    for (int way = 0; way < 2; way++)
        for (int chunks = 1; chunks <= 4; chunks *= 2)
            for (int k = 0; k < chunks; k++) {
                char name[48];
                hsize_t d[1] = {(hsize_t)chunks * CB}, start[1] = {(hsize_t)k * CB}, count[1] = {CB};
                const uint8_t *before = way ? low : rnd, *after = way ? rnd : low;
                int direct = -1;
                snprintf(name, sizeof name, "mask_change_%d_%d_%d", way, chunks, k);
                hid_t e = make(name, H5T_NATIVE_UINT8, 1, d, dcpl);
                if (way)
                    CHECK(H5Dwrite(e, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, before) >= 0);
                else {
                    CHECK(gpulz_h5_write_direct(e, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, before, &direct) >= 0);
                    /* a later session's handle */
                    H5Dclose(e);
                    CHECK((e = H5Dopen2(file, name, H5P_DEFAULT)) >= 0);
                }
                CHECK(gpulz_h5_write_direct(e, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, after, &direct) >= 0 &&
                      direct == 1);
                hid_t fs = H5Dget_space(e), ms = H5Screate_simple(1, count, NULL);
                CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
                memset(back, 0xEE, sizeof back);
                CHECKF(H5Dread(e, H5T_NATIVE_UINT8, ms, fs, H5P_DEFAULT, back) >= 0 &&
                           memcmp(back, after + start[0], CB) == 0,
                       "%s to %s, %d chunks: chunk %d, read first, is not what was written",
                       way ? "coded" : "raw", way ? "raw" : "coded", chunks, k);
                unsigned mask;
                haddr_t addr;
                hsize_t size;
                CHECK(H5Dget_chunk_info_by_coord(e, start, &mask, &addr, &size) >= 0 && mask == (unsigned)way);
                H5Sclose(fs);
                H5Sclose(ms);
                H5Dclose(e);
                checked++;
            }
    H5Pclose(dcpl);
    printf("optional               %d chunks changed between compressed and unfiltered read back at once\n",
           checked);
}

static void read_refused(hid_t d, int32_t *back, const char *what)
{
    int direct = -1;
    herr_t rc;
    H5Eclear2(H5E_DEFAULT);
    H5E_BEGIN_TRY { rc = gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, back, &direct); }
    H5E_END_TRY;
    CHECKF(rc < 0 && direct == 1, "%s: the direct read did not fail", what);
    CHECKF(H5Eget_num(H5E_DEFAULT) > 0, "%s: nothing on the error stack", what);
    H5Eclear2(H5E_DEFAULT);
}

/* Chunks damaged in the file, or declaring another size than the dataset's
 * chunks (a valid chunk of another dataset): refused, not returned. */
static void damaged(void)
{
    enum { N = 8000, C = 1000 };
    hsize_t dims[1] = {N}, chunk[1] = {C}, half[1] = {C / 2}, twice[1] = {2 * C};
    static int32_t v[N], back[N];
    for (int i = 0; i < N; i++)
        v[i] = (i * 7) % 301;
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t small = h5u_dcpl(1, half, H5Z_FLAG_MANDATORY, 0, NULL), large = h5u_dcpl(1, twice, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = make("damaged", H5T_NATIVE_INT32, 1, dims, dcpl);
    hid_t ds = make("damaged_small", H5T_NATIVE_INT32, 1, dims, small);
    hid_t dl = make("damaged_large", H5T_NATIVE_INT32, 1, dims, large);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0 && direct == 1);
    CHECK(gpulz_h5_write_direct(ds, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0 && direct == 1);
    CHECK(gpulz_h5_write_direct(dl, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0 && direct == 1);
    size_t good_n, n;
    uint8_t *good = stored_chunk(d, 3 * C, &good_n);
    /* a byte of the payload flipped: the checksum or the decoder catches it */
    uint8_t *bad = malloc(good_n);
    CHECK(bad);
    memcpy(bad, good, good_n);
    bad[good_n - 5] ^= 0x40;
    hsize_t off[1] = {3 * C};
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, good_n, bad) >= 0);
    read_refused(d, back, "a damaged chunk");
    /* truncated */
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, good_n / 2, good) >= 0);
    read_refused(d, back, "a truncated chunk");
    /* chunks of half and of twice the dataset's chunk size */
    uint8_t *other = stored_chunk(ds, 0, &n);
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, n, other) >= 0);
    read_refused(d, back, "a chunk of half the size");
    free(other);
    other = stored_chunk(dl, 0, &n);
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, n, other) >= 0);
    read_refused(d, back, "a chunk of twice the size");
    free(other);
    /* put back, it reads exactly again */
    CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, good_n, good) >= 0);
    memset(back, 0, sizeof back);
    CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 1);
    CHECK(memcmp(back, v, sizeof v) == 0);
    printf("damaged chunks         damaged, truncated, half and twice the size: refused with an error\n");
    free(good);
    free(bad);
    H5Dclose(d);
    H5Dclose(ds);
    H5Dclose(dl);
    H5Pclose(dcpl);
    H5Pclose(small);
    H5Pclose(large);
}

/*
 * Cases HDF5 1.10.8 gets wrong, each read back at once through H5Dread and
 * the direct read:
 * - a selection that runs past the dataset's extent, ending on a chunk
 *   border: H5Dwrite/H5Dread refuse it, so must the call (it stored the
 *   elements past the extent, which showed after H5Dset_extent);
 * - one chunk, stored unfiltered (mask 1) under a mandatory filter, then
 *   replaced by a direct call of that chunk alone: HDF5 kept the old mask
 *   in its lookup cache and H5Dread returned gpulz's bytes as data;
 * - the single-chunk index (file format 1.10, fixed dimensions that are the
 *   chunk's): H5Dread right after H5Dwrite_chunk returned gpulz's bytes;
 * - an extensible-array index whose unlimited dimension is not the first:
 *   H5Dget_chunk_info_by_coord answered for another chunk, so the direct
 *   read filled allocated chunks or read a chunk past the end of its buffer.
 */
static void index_faults(void)
{
    enum { C = 1024 };
    int direct = -1;
    herr_t rc;
    /* past the extent */
    {
        hsize_t dims[1] = {10}, maxd[1] = {H5S_UNLIMITED}, chunk[1] = {4}, start[1] = {0}, count[1] = {12};
        int32_t v[12], back[12];
        for (int i = 0; i < 12; i++)
            v[i] = 100 + i;
        hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t s = H5Screate_simple(1, dims, maxd);
        hid_t d = H5Dcreate2(file, "past_extent", H5T_NATIVE_INT32, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        hid_t fs = H5Dget_space(d);
        CHECK(d >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
        H5E_BEGIN_TRY { rc = gpulz_h5_write_direct(d, H5T_NATIVE_INT32, fs, H5P_DEFAULT, v, &direct); }
        H5E_END_TRY;
        CHECKF(rc < 0 && direct == 0, "a selection past the extent was written (rc %d, direct %d)", rc, direct);
        H5E_BEGIN_TRY { rc = gpulz_h5_read_direct(d, H5T_NATIVE_INT32, fs, H5P_DEFAULT, back, &direct); }
        H5E_END_TRY;
        CHECKF(rc < 0 && direct == 0, "a selection past the extent was read (rc %d, direct %d)", rc, direct);
        H5Eclear2(H5E_DEFAULT);
        H5Sclose(fs);
        H5Sclose(s);
        H5Dclose(d);
        H5Pclose(dcpl);
    }
    /* one chunk from unfiltered to compressed under a mandatory filter */
    {
        hsize_t dims[1] = {2 * C}, chunk[1] = {C}, off[1] = {0}, count[1] = {C};
        static int32_t raw[C], v[C], back[C];
        for (int i = 0; i < C; i++) {
            raw[i] = -i;
            v[i] = i % 17;
        }
        hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t d = make("raw_to_coded", H5T_NATIVE_INT32, 1, dims, dcpl);
        CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 1u, off, sizeof raw, raw) >= 0);
        H5Dclose(d);
        CHECK((d = H5Dopen2(file, "raw_to_coded", H5P_DEFAULT)) >= 0);
        hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, count, NULL);
        CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, count, NULL) >= 0);
        CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, fs, H5P_DEFAULT, v, &direct) >= 0);
        memset(back, 0, sizeof back);
        CHECKF(H5Dread(d, H5T_NATIVE_INT32, ms, fs, H5P_DEFAULT, back) >= 0 && memcmp(back, v, sizeof v) == 0,
               "a chunk stored unfiltered, then written alone, does not read back at once");
        H5Sclose(fs);
        H5Sclose(ms);
        H5Dclose(d);
        H5Pclose(dcpl);
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) >= 0);
    hid_t f = H5Fcreate("h5_direct_latest.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(f >= 0);
    /* the single-chunk index */
    {
        hsize_t dims[1] = {C};
        static int32_t v[C], back[C];
        for (int i = 0; i < C; i++)
            v[i] = i % 11;
        hid_t dcpl = h5u_dcpl(1, dims, H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t s = H5Screate_simple(1, dims, NULL);
        hid_t d = H5Dcreate2(f, "single", H5T_NATIVE_INT32, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        CHECK(d >= 0 && gpulz_h5_write_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0);
        memset(back, 0, sizeof back);
        CHECKF(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
                   memcmp(back, v, sizeof v) == 0,
               "a dataset of one chunk (single-chunk index) does not read back at once");
        H5Dclose(d);
        H5Sclose(s);
        H5Pclose(dcpl);
    }
    /* an extensible array over the second dimension: chunk (0, 1) random,
     * the others compress to a few bytes */
    {
        hsize_t dims[2] = {2 * C, 2 * C}, maxd[2] = {2 * C, H5S_UNLIMITED}, chunk[2] = {C, C};
        size_t n = (size_t)4 * C * C;
        uint8_t *v = calloc(n, 1), *back = malloc(n);
        CHECK(v && back);
        for (int r = 0; r < C; r++)
            h5u_random(v + (size_t)r * 2 * C + C, C, (uint64_t)r + 1);
        hid_t dcpl = h5u_dcpl(2, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t s = H5Screate_simple(2, dims, maxd);
        hid_t d = H5Dcreate2(f, "earray", H5T_NATIVE_UINT8, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
        H5Dclose(d);
        CHECK((d = H5Dopen2(f, "earray", H5P_DEFAULT)) >= 0);
        memset(back, 0xEE, n);
        CHECKF(gpulz_h5_read_direct(d, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 &&
                   memcmp(back, v, n) == 0,
               "an extensible-array dataset does not read back directly");
        hsize_t start[2] = {0, C}, count[2] = {C, C};
        hid_t fs = H5Dget_space(d);
        CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
        memset(back, 0xEE, n);
        CHECK(gpulz_h5_read_direct(d, H5T_NATIVE_UINT8, fs, H5P_DEFAULT, back, &direct) >= 0);
        for (int r = 0; r < C; r++)
            CHECKF(memcmp(back + (size_t)r * C, v + (size_t)r * 2 * C + C, C) == 0,
                   "chunk (0, 1) of an extensible-array dataset does not read back directly");
        H5Sclose(fs);
        H5Dclose(d);
        H5Sclose(s);
        H5Pclose(dcpl);
        free(v);
        free(back);
    }
    CHECK(H5Fclose(f) >= 0);
    H5Pclose(fapl);
    remove("h5_direct_latest.h5");
    printf("index faults           past the extent, raw to coded alone, single-chunk and extensible-array indexes\n");
}

/*
 * A chunk rewritten at its stored size with the other filter mask: HDF5
 * (1.10.8 to 2.0) rewrites it in place and its index keeps the old mask.
 * A chunk compressed to exactly the chunk size over one stored unfiltered
 * (mandatory filter) read back as gpulz's bytes; an unfiltered one over
 * one compressed to exactly that size (optional filter) was decoded.
 */
static void same_size_masks(void)
{
    enum { C = 256 };
    static uint8_t x[2 * C], noise[2 * C], coded[2 * C + 64], back[2 * C];
    h5u_random(noise, sizeof noise, 77);
    /* a first chunk that compresses to exactly C bytes, as the filter's
     * defaults code it: k random bytes, then zeros */
    gpulz_params p;
    gpulz_params_init(&p);
    p.threads = 1;
    size_t len = 0, k = 64;
    for (; k < C; k++) {
        memset(x, 0, C);
        h5u_random(x, k, 133);
        if (gpulz_compress(x, C, coded, sizeof coded, &len, &p) == GPULZ_OK && len == C)
            break;
    }
    CHECKF(k < C, "no first chunk compresses to exactly %d bytes", C);
    memset(x + C, 5, C);
    hsize_t dims[1] = {2 * C}, chunk[1] = {C}, off[2][1] = {{0}, {C}};
    for (int optional = 0; optional < 2; optional++) {
        hid_t dcpl = h5u_dcpl(1, chunk, optional ? H5Z_FLAG_OPTIONAL : H5Z_FLAG_MANDATORY, 0, NULL);
        hid_t d = make(optional ? "same_size_to_raw" : "same_size_to_coded", H5T_NATIVE_UINT8, 1, dims, dcpl);
        /* mandatory: both chunks stored unfiltered, then written directly
         * (the first compresses to C bytes); optional: both stored as that
         * C-byte chunk, then noise written directly (stored unfiltered) */
        for (int j = 0; j < 2; j++)
            CHECK(optional ? H5Dwrite_chunk(d, H5P_DEFAULT, 0, off[j], C, coded) >= 0
                           : H5Dwrite_chunk(d, H5P_DEFAULT, 1u, off[j], C, noise + j * C) >= 0);
        H5Dclose(d);
        CHECK((d = H5Dopen2(file, optional ? "same_size_to_raw" : "same_size_to_coded", H5P_DEFAULT)) >= 0);
        const uint8_t *want = optional ? noise : x;
        int direct = -1;
        CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, want, &direct) >= 0 && direct == 1);
        unsigned mask = 9;
        haddr_t addr;
        hsize_t size = 0;
        CHECK(H5Dget_chunk_info_by_coord(d, off[0], &mask, &addr, &size) >= 0);
        memset(back, 0, sizeof back);
        CHECKF(mask == (optional ? 1u : 0u) && size == C &&
                   H5Dread(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
                   memcmp(back, want, sizeof back) == 0,
               "%s chunk of the chunk size over one with the other mask: mask %u, size %llu, data %s",
               optional ? "an unfiltered" : "a compressed", mask, (unsigned long long)size,
               memcmp(back, want, sizeof back) ? "differ" : "same");
        H5Dclose(d);
        H5Pclose(dcpl);
    }
    printf("same-size masks         chunks of the chunk size over ones with the other mask: mask and data\n");
}

static void write_dump_file(const char *path)
{
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    hsize_t dims[2] = {10, 13}, chunk[2] = {4, 4};
    int32_t v[130];
    for (int i = 0; i < 130; i++)
        v[i] = i * 3;
    hid_t dcpl = h5u_dcpl(2, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = make("direct", H5T_STD_I32LE, 2, dims, dcpl);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(d, H5T_NATIVE_INT32, H5S_ALL, H5P_DEFAULT, v, &direct) >= 0 && direct == 1);
    H5Dclose(d);
    H5Pclose(dcpl);
    CHECK(H5Fclose(file) >= 0);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        write_dump_file(argv[1]);
        return 0;
    }
    file = H5Fcreate("h5_direct.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    static const size_t esizes[] = {1, 2, 4, 8};
    hsize_t d1[1] = {100003}, c1[1] = {8192};
    hsize_t d2[2] = {300, 137}, c2[2] = {64, 64};
    hsize_t d3[3] = {40, 21, 37}, c3[3] = {16, 16, 16};
    for (int e = 0; e < 4; e++) {
        char tag[32];
        hid_t dcpl;
        snprintf(tag, sizeof tag, "1d_e%zu", esizes[e]);
        dcpl = h5u_dcpl(1, c1, H5Z_FLAG_MANDATORY, 0, NULL);
        whole(tag, esizes[e], 1, d1, c1, dcpl, (unsigned)e);
        H5Pclose(dcpl);
        snprintf(tag, sizeof tag, "2d_e%zu", esizes[e]);
        dcpl = h5u_dcpl(2, c2, H5Z_FLAG_MANDATORY, 0, NULL);
        whole(tag, esizes[e], 2, d2, c2, dcpl, (unsigned)e);
        H5Pclose(dcpl);
        snprintf(tag, sizeof tag, "3d_e%zu", esizes[e]);
        dcpl = h5u_dcpl(3, c3, H5Z_FLAG_MANDATORY, 0, NULL);
        whole(tag, esizes[e], 3, d3, c3, dcpl, (unsigned)e);
        H5Pclose(dcpl);
    }
    unlike_boxes();
    vlen_inside();
    /* more chunks than one batch takes (1024): batches pipelined, edge
     * chunks in every batch */
    {
        hsize_t d[2] = {2500, 70}, c[2] = {1, 64};
        hid_t dcpl = h5u_dcpl(2, c, H5Z_FLAG_MANDATORY, 0, NULL);
        whole("many_batches", 2, 2, d, c, dcpl, 6);
        H5Pclose(dcpl);
    }
    /* tiny chunks, far below one block */
    {
        hsize_t d[2] = {37, 29}, c[2] = {4, 4};
        hid_t dcpl = h5u_dcpl(2, c, H5Z_FLAG_MANDATORY, 0, NULL);
        whole("tiny_chunks", 4, 2, d, c, dcpl, 5);
        H5Pclose(dcpl);
    }
    /* mode fast, and an optional filter over data that does not shrink */
    {
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        CHECK(H5Pset_chunk(dcpl, 2, c2) >= 0);
        CHECK(gpulz_h5_set_dcpl_mode(dcpl, 0, 0, 0, GPULZ_H5_ADAPTIVE, H5Z_GPULZ_CD_MODE_FAST) >= 0);
        whole("mode_fast", 8, 2, d2, c2, dcpl, 3);
        H5Pclose(dcpl);
        hsize_t d[1] = {20000}, c[1] = {4096};
        dcpl = h5u_dcpl(1, c, H5Z_FLAG_OPTIONAL, 0, NULL);
        size_t n = 20000;
        uint8_t *rnd = malloc(n), *back = malloc(n);
        CHECK(rnd && back);
        h5u_random(rnd, n, 42);
        hid_t a = make("optional_pipeline", H5T_NATIVE_UINT8, 1, d, dcpl);
        hid_t b = make("optional_direct", H5T_NATIVE_UINT8, 1, d, dcpl);
        int direct = -1;
        CHECK(H5Dwrite(a, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, rnd) >= 0);
        CHECK(gpulz_h5_write_direct(b, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, rnd, &direct) >= 0 && direct == 1);
        CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
        same_chunks(a, b, "optional");
        unsigned mask;
        haddr_t addr;
        hsize_t size, off[1] = {0};
        CHECK(H5Dget_chunk_info_by_coord(b, off, &mask, &addr, &size) >= 0 && mask == 1 && size == 4096);
        CHECK(gpulz_h5_read_direct(a, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, back, &direct) >= 0 && direct == 1);
        CHECK(memcmp(back, rnd, n) == 0);
        CHECK(H5Dread(b, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 && memcmp(back, rnd, n) == 0);
        printf("optional               chunks that do not shrink stored unfiltered, mask 1, alike\n");
        H5Dclose(a);
        H5Dclose(b);
        /* the call's last chunk unfiltered, read right after the write with
         * nothing looked up between: HDF5 had cached it with mask 0 and ran
         * the filter on its raw bytes */
        for (int chunks = 1; chunks <= 3; chunks++) {
            char name[32];
            hsize_t dl[1] = {(hsize_t)chunks * 4096 - (chunks == 3 ? 100 : 0)}, start[1], count[1];
            snprintf(name, sizeof name, "optional_last_%d", chunks);
            hid_t e = make(name, H5T_NATIVE_UINT8, 1, dl, dcpl);
            CHECK(gpulz_h5_write_direct(e, H5T_NATIVE_UINT8, H5S_ALL, H5P_DEFAULT, rnd, &direct) >= 0 && direct == 1);
            start[0] = (hsize_t)(chunks - 1) * 4096;
            count[0] = dl[0] - start[0];
            hid_t fs = H5Dget_space(e), ms = H5Screate_simple(1, count, NULL);
            CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
            memset(back, 0, n);
            CHECKF(H5Dread(e, H5T_NATIVE_UINT8, ms, fs, H5P_DEFAULT, back) >= 0 &&
                       memcmp(back, rnd + start[0], count[0]) == 0,
                   "%d chunks: the last one, unfiltered, does not read back at once", chunks);
            CHECK(H5Dget_chunk_info_by_coord(e, start, &mask, &addr, &size) >= 0 && mask == 1 && size == 4096);
            H5Sclose(fs);
            H5Sclose(ms);
            H5Dclose(e);
        }
        printf("optional               the last chunk stored unfiltered reads back at once\n");
        H5Pclose(dcpl);
        free(rnd);
        free(back);
    }
    hsize_t s1[2] = {64, 64}, n1[2] = {128, 73};  /* to the dataset's edge in dim 1 */
    selection("aligned", s1, n1, 1);
    hsize_t s2[2] = {0, 0}, n2[2] = {64, 128};
    selection("aligned_inner", s2, n2, 1);
    hsize_t s3[2] = {10, 64}, n3[2] = {54, 64};   /* starts off a chunk border */
    selection("unaligned", s3, n3, 0);
    hsize_t s4[2] = {64, 0}, n4[2] = {100, 64};   /* ends off a chunk border, inside */
    selection("short", s4, n4, 0);
    fallbacks();
    data_transform();
    read_only();
    no_buffer();
    fill_value();
    damaged();
    mask_changes();
    index_faults();
    same_size_masks();
    CHECK(H5Fclose(file) >= 0);
    remove("h5_direct.h5");
    return 0;
}
