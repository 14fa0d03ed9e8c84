/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_register.c - library mode: the filter linked in through libh5gpulz and
 * registered with gpulz_h5_register(), dynamic plugin loading switched off
 * (HDF5_PLUGIN_PRELOAD="::"), so nothing can come from HDF5_PLUGIN_PATH.
 * Also the DCPL helpers: their parameters land in cd_values, the optional
 * flag in the pipeline, the mode (gpulz_h5_set_dcpl(): the default, auto;
 * gpulz_h5_set_dcpl_mode(): the one given, lz included) in slot 6 and the
 * chunk format, and bad values are refused with our message.
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

    /* bad helper arguments: refused before anything is added, the stack
     * holding this call's reason alone, as after any HDF5 call (the one
     * before's and an HDF5 error before that were left above it) */
    H5E_BEGIN_TRY { CHECK(H5Dopen2(file, "no such dataset", H5P_DEFAULT) < 0); }
    H5E_END_TRY;
    CHECK(gpulz_h5_set_dcpl(dcpl, 5, 0, 0, 0) < 0);
    CHECK(strstr(h5u_error_text(), "symbol size 5") && !strstr(h5u_error_text(), "open"));
    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 0, 3000, 0) < 0);
    CHECKF(strstr(h5u_error_text(), "block size 3000") && !strstr(h5u_error_text(), "symbol size 5"),
           "the stack holds\n%s", h5u_error_text());
    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 0, 0, 0x10) < 0);
    CHECK(strstr(h5u_error_text(), "unknown flags 0x10"));
    CHECK(gpulz_h5_set_dcpl_mode(dcpl, 0, 0, 0, 0, 4) < 0);
    CHECK(strstr(h5u_error_text(), "mode 4"));
    CHECK(H5Pget_nfilters(dcpl) == 0);

    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 255, 8192, GPULZ_H5_ADAPTIVE | GPULZ_H5_OPTIONAL) >= 0);
    hid_t d = H5Dcreate2(file, "v", H5T_STD_I64BE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fclose(file) >= 0);

    file = H5Fopen("h5_register.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    d = H5Dopen2(file, "v", H5P_DEFAULT);
    CHECK(file >= 0 && d >= 0);
    CHECK(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(v, back, sizeof v) == 0);
    unsigned cd[8], flags;
    size_t n = h5u_stored_cd(d, cd, &flags, NULL, 0);
    CHECKF(n == 7 && cd[0] == 2 && cd[1] == 8 && cd[2] == 255 && cd[3] == 8192 && cd[4] == 1 &&
               cd[5] == chunk[0] * 8 && cd[6] == H5Z_GPULZ_CD_MODE_DEFAULT &&
               H5Z_GPULZ_CD_MODE_DEFAULT == H5Z_GPULZ_CD_MODE_AUTO,
           "stored %zu values {%u,%u,%u,%u,%u,%u,%u}", n, cd[0], cd[1], cd[2], cd[3], cd[4], cd[5],
           cd[6]);
    CHECK(flags & H5Z_FLAG_OPTIONAL);
    hsize_t offset[1], size;
    unsigned mask;
    haddr_t addr;
    h5u_chunk_info(d, 0, offset, &mask, &addr, &size);
    CHECKF(mask == 0 && size < 8000 * 8 / 4, "mask %u, %llu bytes", mask, (unsigned long long)size);
    printf("registered filter: 64000-byte chunk stored in %llu bytes, cd {%u,%u,%u,%u,%u}\n",
           (unsigned long long)size, cd[0], cd[1], cd[2], cd[3], cd[4]);
    H5Dclose(d);

    /* gpulz_h5_set_dcpl_mode(): mode auto without the checksum, chunk format 2 */
    hid_t dcpl2 = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl2 >= 0 && H5Pset_chunk(dcpl2, 1, chunk) >= 0);
    CHECK(gpulz_h5_set_dcpl_mode(dcpl2, 0, 0, 0, GPULZ_H5_NO_CHECKSUM, H5Z_GPULZ_CD_MODE_AUTO) >= 0);
    d = H5Dcreate2(file, "auto", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl2, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dclose(d) >= 0);
    d = H5Dopen2(file, "auto", H5P_DEFAULT);
    CHECK(d >= 0);
    memset(back, 0, sizeof back);
    CHECK(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(v, back, sizeof v) == 0);
    n = h5u_stored_cd(d, cd, &flags, NULL, 0);
    CHECKF(n == 7 && cd[0] == 2 && cd[1] == 8 && cd[4] == GPULZ_H5_NO_CHECKSUM &&
               cd[6] == H5Z_GPULZ_CD_MODE_AUTO && !(flags & H5Z_FLAG_OPTIONAL),
           "stored %zu values {%u,%u,%u,%u,%u,%u,%u}", n, cd[0], cd[1], cd[2], cd[3], cd[4], cd[5],
           cd[6]);
    static uint8_t raw[8000 * 8 + 1024];
    offset[0] = 0;
    CHECK(H5Dget_chunk_storage_size(d, offset, &size) >= 0 && size <= sizeof raw);
    CHECK(gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &mask, raw, sizeof raw) >= 0 && mask == 0);
    /* format 2 (byte 4), and no CHECKSUM stage (bit 4 of byte 5) */
    CHECKF(raw[4] == 2 && !(raw[5] & 0x10), "format %u, stage flags 0x%02x", raw[4], raw[5]);
    printf("mode auto: 64000-byte chunk stored in %llu bytes, format %u, stage flags 0x%02x\n",
           (unsigned long long)size, raw[4], raw[5]);
    H5Dclose(d);
    H5Pclose(dcpl2);

    /* gpulz_h5_set_dcpl_mode() with lz: gpulz 0.1's five values, which stay lz
     * (slot 0 is 1) now that a vector naming no mode gets auto */
    hid_t dcpl3 = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl3 >= 0 && H5Pset_chunk(dcpl3, 1, chunk) >= 0);
    CHECK(gpulz_h5_set_dcpl_mode(dcpl3, 0, 0, 0, 0, H5Z_GPULZ_CD_MODE_LZ) >= 0);
    unsigned given[8];
    size_t ngiven = 8;
    CHECK(H5Pget_filter_by_id2(dcpl3, H5Z_FILTER_GPULZ, &flags, &ngiven, given, 0, NULL, NULL) >= 0);
    CHECKF(ngiven == 5 && given[0] == 1, "lz: %zu values, slot 0 = %u", ngiven, given[0]);
    d = H5Dcreate2(file, "lz", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl3, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dclose(d) >= 0);
    d = H5Dopen2(file, "lz", H5P_DEFAULT);
    CHECK(d >= 0);
    memset(back, 0, sizeof back);
    CHECK(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECK(memcmp(v, back, sizeof v) == 0);
    n = h5u_stored_cd(d, cd, &flags, NULL, 0);
    CHECKF(n == 7 && cd[0] == 1 && cd[6] == H5Z_GPULZ_CD_MODE_LZ, "lz: stored %zu values {%u,...,%u}",
           n, cd[0], cd[6]);
    CHECK(H5Dget_chunk_storage_size(d, offset, &size) >= 0 && size <= sizeof raw);
    CHECK(gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &mask, raw, sizeof raw) >= 0 && mask == 0);
    CHECKF(raw[4] == 1, "lz: chunk format %u", raw[4]);
    printf("mode lz: 64000-byte chunk stored in %llu bytes, format %u\n", (unsigned long long)size,
           raw[4]);
    H5Dclose(d);
    H5Pclose(dcpl3);

    H5Fclose(file);
    H5Sclose(space);
    H5Pclose(dcpl);
    remove("h5_register.h5");
    return 0;
}
