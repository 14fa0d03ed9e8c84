/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_register.c - library mode: the filter linked in through libh5gpulz and
 * registered with gpulz_h5_register(), dynamic plugin loading switched off
 * (HDF5_PLUGIN_PRELOAD="::"), so nothing can come from HDF5_PLUGIN_PATH.
 * Also the DCPL helper: its parameters land in cd_values, the optional flag
 * in the pipeline, and bad values are refused with our message.
 */
#include "h5_util.h"

#define N 40000

int main(void)
{
    /* before HDF5 initialises: no plugin search at all */
    setenv("HDF5_PLUGIN_PRELOAD", "::", 1);
    unsetenv("HDF5_PLUGIN_PATH");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    CHECKF(H5Zfilter_avail(H5Z_FILTER_GPULZ) <= 0, "filter found before registering");
    CHECK(gpulz_h5_register() >= 0);
    CHECK(gpulz_h5_register() >= 0); /* twice is harmless */
    CHECK(H5Zfilter_avail(H5Z_FILTER_GPULZ) > 0);
    /* a build with a registered ID still answers for the provisional one */
    if (H5Z_FILTER_GPULZ != H5Z_FILTER_GPULZ_PROVISIONAL)
        CHECK(H5Zfilter_avail(H5Z_FILTER_GPULZ_PROVISIONAL) > 0);

    static int64_t v[N], back[N];
    for (int i = 0; i < N; i++)
        v[i] = (int64_t)(i / 20) * 1000003;
    hsize_t dims[1] = {N}, chunk[1] = {8000};
    hid_t file = H5Fcreate("h5_register.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(file >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0);

    /* bad helper arguments: refused before anything is added */
    CHECK(gpulz_h5_set_dcpl(dcpl, 5, 0, 0, 0) < 0);
    CHECK(strstr(h5u_error_text(), "symbol size 5"));
    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 0, 3000, 0) < 0);
    CHECK(strstr(h5u_error_text(), "block size 3000"));
    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 0, 0, 0x10) < 0);
    CHECK(strstr(h5u_error_text(), "unknown flags 0x10"));
    CHECK(H5Pget_nfilters(dcpl) == 0);

    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 255, 8192, GPULZ_H5_ADAPTIVE | GPULZ_H5_OPTIONAL) >= 0);
    hid_t d = H5Dcreate2(file, "v", H5T_STD_I64BE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fclose(file) >= 0);

    file = H5Fopen("h5_register.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    d = H5Dopen2(file, "v", H5P_DEFAULT);
    CHECK(file >= 0 && d >= 0);
    CHECK(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(v, back, sizeof v) == 0);
    unsigned cd[8], flags;
    size_t n = h5u_stored_cd(d, cd, &flags, NULL, 0);
    CHECKF(n == 6 && cd[0] == 1 && cd[1] == 8 && cd[2] == 255 && cd[3] == 8192 && cd[4] == 1 &&
               cd[5] == chunk[0] * 8,
           "stored %zu values {%u,%u,%u,%u,%u,%u}", n, cd[0], cd[1], cd[2], cd[3], cd[4], cd[5]);
    CHECK(flags & H5Z_FLAG_OPTIONAL);
    hsize_t offset[1], size;
    unsigned mask;
    haddr_t addr;
    h5u_chunk_info(d, 0, offset, &mask, &addr, &size);
    CHECKF(mask == 0 && size < 8000 * 8 / 4, "mask %u, %llu bytes", mask, (unsigned long long)size);
    printf("registered filter: 64000-byte chunk stored in %llu bytes, cd {%u,%u,%u,%u,%u}\n",
           (unsigned long long)size, cd[0], cd[1], cd[2], cd[3], cd[4]);
    H5Dclose(d);
    H5Fclose(file);
    H5Sclose(space);
    H5Pclose(dcpl);
    remove("h5_register.h5");
    return 0;
}
