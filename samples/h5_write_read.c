/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_write_read.c - the smallest complete use of the gpulz filter from C:
 * add it to a chunked dataset with H5Pset_filter, write, read back, compare.
 *
 * Build:  cc h5_write_read.c $(pkg-config --cflags --libs hdf5) -o h5_write_read
 *         (gpulz_cd.h is installed with gpulz; it only defines the filter ID
 *          and the cd_values slots, so no gpulz library is linked)
 * Run:    HDF5_PLUGIN_PATH=/where/libH5Zgpulz.so/is ./h5_write_read [FILE]
 *         (not needed when the plugin is installed in HDF5's plugin directory)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "gpulz_cd.h"

#define NY 512
#define NX 1024

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "h5_write_read.h5";
    static float field[NY][NX], back[NY][NX];
    /* a smooth field stored to 1/16: few distinct values, long repeats */
    for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++)
            field[y][x] = (float)((y / 8 + x / 32) % 64) / 16.0f;

    if (H5Zfilter_avail(H5Z_FILTER_GPULZ) <= 0) {
        fprintf(stderr, "gpulz filter %d not found: set HDF5_PLUGIN_PATH\n", H5Z_FILTER_GPULZ);
        return 1;
    }
    hsize_t dims[2] = {NY, NX}, chunk[2] = {128, NX}; /* 512 KiB chunks */
    /* cd_values: version, symbol size, window, block, flags; 0 = default
     * (the symbol size then comes from the datatype: 4 for float) */
    const unsigned cd[H5Z_GPULZ_CD_NELMTS] = {0, 0, 0, 0, 0};
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, H5Z_GPULZ_CD_NELMTS, cd);
    hid_t dset = H5Dcreate2(file, "field", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dset < 0 || H5Dwrite(dset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, field) < 0)
        return 1;
    H5Dclose(dset);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(file);

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    dset = H5Dopen2(file, "field", H5P_DEFAULT);
    if (dset < 0 || H5Dread(dset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0)
        return 1;
    hsize_t stored = H5Dget_storage_size(dset);
    int same = memcmp(field, back, sizeof field) == 0;
    printf("%s: %zu bytes stored in %llu (ratio %.1f), read back %s\n", path, sizeof field,
           (unsigned long long)stored, (double)sizeof field / (double)stored,
           same ? "identical" : "DIFFERENT");
    H5Dclose(dset);
    H5Fclose(file);
    return same ? 0 : 1;
}
