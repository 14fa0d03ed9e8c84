/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_consumer.c - a program built against an installed libh5gpulz, through
 * CMake (gpulz::h5gpulz) or pkg-config (h5gpulz) (h5tests/install_*.sh): it
 * registers the linked filter (run it with HDF5_PLUGIN_PRELOAD=:: to be sure
 * no plugin is loaded), writes a dataset through it into a file in memory,
 * reads it back and checks the bytes and that the chunks shrank.  It calls
 * HDF5 itself, so it also needs the HDF5 flags the package passes on.
 */
#include <stdio.h>
#include <string.h>

#include <gpulz_h5filter.h>

#define N 100000

int main(void)
{
    static int in[N], back[N];
    for (int i = 0; i < N; i++)
        in[i] = 1000 + (i / 16) % 50;

    if (H5open() < 0 || gpulz_h5_register() < 0 || H5Zfilter_avail(H5Z_FILTER_GPULZ) <= 0) {
        fprintf(stderr, "h5_consumer: the gpulz filter %d could not be registered\n",
                H5Z_FILTER_GPULZ);
        return 1;
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_core(fapl, 1 << 20, 0); /* in memory, never written out */
    hid_t file = H5Fcreate("h5_consumer.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hsize_t dims[1] = {N}, chunk[1] = {N / 4};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, chunk);
    if (gpulz_h5_set_dcpl(dcpl, 0, 0, 0, 0) < 0)
        return 1;
    hid_t dset = H5Dcreate2(file, "x", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dset < 0 || H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, in) < 0 ||
        H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0)
        return 1;
    hsize_t stored = H5Dget_storage_size(dset);
    int ok = memcmp(in, back, sizeof in) == 0 && stored > 0 && stored < sizeof in;
    printf("h5gpulz: %zu bytes stored in %llu through filter %d, %s\n", sizeof in,
           (unsigned long long)stored, H5Z_FILTER_GPULZ, ok ? "read back identical" : "FAILED");
    H5Dclose(dset);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(fapl);
    return ok ? 0 : 1;
}
