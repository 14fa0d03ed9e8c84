/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_optional.c - optional versus mandatory, checked per chunk.
 *
 * Incompressible (random) data: as an optional filter gpulz declines every
 * chunk, so HDF5 stores it unfiltered and sets bit 0 of the chunk's filter
 * mask; as a mandatory filter it writes a gpulz chunk of stored blocks, which
 * by docs/FORMAT.md §7 is the raw size plus the 28-byte header and 4 bytes
 * per block.  Compressible data: mask 0 and far fewer bytes.  A round trip
 * alone could hide a filter that never ran, hence the masks and sizes.  The
 * filter is in mode lz (cd_values slot 0 = 1), whose format 1 those sizes are.
 */
#include "h5_util.h"

#define CHUNK_ELEMS 16384 /* int32: 64 KiB, 8 blocks of 2048 symbols */
#define NCHUNKS 6
#define N (CHUNK_ELEMS * NCHUNKS)

static hid_t file;

/* Write data with the given filter flag; check masks and sizes of every chunk. */
static void run(const char *name, unsigned filter_flag, const int32_t *data, int compressible)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK_ELEMS};
    static int32_t back[N];
    const size_t raw = CHUNK_ELEMS * 4, blocks = CHUNK_ELEMS / 2048;
    hid_t space = H5Screate_simple(1, dims, NULL);
    static const unsigned lz_cd[1] = {H5Z_GPULZ_CD_VERSION_LZ};
    hid_t dcpl = h5u_dcpl(1, chunk, filter_flag, 1, lz_cd);
    hid_t d = H5Dcreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    CHECK(H5Dclose(d) >= 0);
    d = H5Dopen2(file, name, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, data, sizeof back) == 0, "%s: data differ", name);

    hsize_t nchunks = 0;
    hid_t fspace = H5Dget_space(d);
    CHECK(H5Dget_num_chunks(d, fspace, &nchunks) >= 0);
    H5Sclose(fspace);
    CHECK(nchunks == NCHUNKS);
    uint8_t *stored = malloc(raw + 4096);
    CHECK(stored);
    for (hsize_t i = 0; i < nchunks; i++) {
        hsize_t offset[1];
        unsigned mask;
        haddr_t addr;
        hsize_t size;
        h5u_chunk_info(d, i, offset, &mask, &addr, &size);
        if (compressible) {
            CHECKF(mask == 0 && size < raw / 4, "%s chunk %llu: mask %u, %llu bytes", name,
                   (unsigned long long)i, mask, (unsigned long long)size);
        } else if (filter_flag == H5Z_FLAG_OPTIONAL) {
            CHECKF(mask == 1 && size == raw, "%s chunk %llu: mask %u, %llu bytes", name,
                   (unsigned long long)i, mask, (unsigned long long)size);
        } else {
            CHECKF(mask == 0 && size == raw + 28 + 4 * blocks, "%s chunk %llu: mask %u, %llu bytes",
                   name, (unsigned long long)i, mask, (unsigned long long)size);
        }
        /* the stored bytes themselves: a gpulz chunk starts with "GPLZ", version 1, S 4 */
        uint32_t fmask = 0;
        CHECK(gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &fmask, stored, raw + 4096) >= 0);
        CHECK(fmask == mask);
        int is_gpulz = memcmp(stored, "GPLZ", 4) == 0 && stored[4] == 1 && stored[6] == 4;
        CHECKF(is_gpulz == (mask == 0), "%s chunk %llu: mask %u but gpulz header %d", name,
               (unsigned long long)i, mask, is_gpulz);
        if (i == 0)
            printf("%-26s chunk 0: mask %u, %6llu of %zu bytes\n", name, mask,
                   (unsigned long long)size, raw);
    }
    free(stored);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

int main(void)
{
    static int32_t noise[N], smooth[N];
    h5u_random(noise, sizeof noise, 42);
    for (size_t i = 0; i < N; i++)
        smooth[i] = (int32_t)(i / 64);
    file = H5Fcreate("h5_optional.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    run("random_optional", H5Z_FLAG_OPTIONAL, noise, 0);
    run("random_mandatory", H5Z_FLAG_MANDATORY, noise, 0);
    run("compressible_optional", H5Z_FLAG_OPTIONAL, smooth, 1);
    run("compressible_mandatory", H5Z_FLAG_MANDATORY, smooth, 1);

    /* compressible data shrinks the dataset as a whole, too */
    hid_t d = H5Dopen2(file, "compressible_mandatory", H5P_DEFAULT);
    hsize_t total = H5Dget_storage_size(d);
    CHECKF(total > 0 && total < sizeof smooth / 10, "%llu bytes stored for %zu",
           (unsigned long long)total, sizeof smooth);
    printf("compressible dataset: %zu -> %llu bytes\n", sizeof smooth, (unsigned long long)total);
    H5Dclose(d);
    CHECK(H5Fclose(file) >= 0);
    remove("h5_optional.h5");
    return 0;
}
