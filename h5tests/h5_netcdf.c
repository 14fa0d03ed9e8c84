/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_netcdf.c - gpulz from the netCDF-C API: nc_def_var_filter on a chunked
 * variable, written, closed, reopened; the data reads back, nc_inq_var_filter
 * reports the resolved 5-slot parameters, and the HDF5 dataset underneath is
 * smaller than the raw data.
 */
#include <netcdf.h>
#include <netcdf_filter.h>

#include "h5_util.h"

#define NT 64
#define NX 500

#define NC_CHECK(call)                                                                       \
    do {                                                                                     \
        int nc_rc_ = (call);                                                                 \
        CHECKF(nc_rc_ == NC_NOERR, "%s: %s", #call, nc_strerror(nc_rc_));                    \
    } while (0)

int main(void)
{
    static int data[NT][NX], back[NT][NX];
    for (int t = 0; t < NT; t++)
        for (int x = 0; x < NX; x++)
            data[t][x] = 2800 + t / 4 + x / 25;
    const char *path = "h5_netcdf.nc";
    int nc, dims[2], var;
    NC_CHECK(nc_create(path, NC_NETCDF4 | NC_CLOBBER, &nc));
    NC_CHECK(nc_def_dim(nc, "time", NC_UNLIMITED, &dims[0]));
    NC_CHECK(nc_def_dim(nc, "x", NX, &dims[1]));
    NC_CHECK(nc_def_var(nc, "temp", NC_INT, 2, dims, &var));
    size_t chunks[2] = {16, NX};
    NC_CHECK(nc_def_var_chunking(nc, var, NC_CHUNKED, chunks));
    unsigned params[5] = {0, 0, 0, 0, 0};
    NC_CHECK(nc_def_var_filter(nc, var, H5Z_FILTER_GPULZ, 5, params));
    NC_CHECK(nc_enddef(nc));
    size_t start[2] = {0, 0}, count[2] = {NT, NX};
    NC_CHECK(nc_put_vara_int(nc, var, start, count, &data[0][0]));
    NC_CHECK(nc_close(nc));

    NC_CHECK(nc_open(path, NC_NOWRITE, &nc));
    NC_CHECK(nc_inq_varid(nc, "temp", &var));
    NC_CHECK(nc_get_var_int(nc, var, &back[0][0]));
    CHECK(memcmp(data, back, sizeof data) == 0);
    unsigned id = 0, got[8] = {0};
    size_t n = 0;
    NC_CHECK(nc_inq_var_filter(nc, var, &id, &n, NULL));
    CHECKF(id == H5Z_FILTER_GPULZ && n == 7, "filter %u with %zu parameters", id, n);
    NC_CHECK(nc_inq_var_filter(nc, var, &id, &n, got));
    /* five 0s: the defaults, mode auto (chunk format 2) */
    CHECKF(got[0] == 2 && got[1] == 4 && got[2] == 128 && got[3] == 2048 && got[4] == 0 &&
               got[5] == chunks[0] * chunks[1] * sizeof(int) && got[6] == H5Z_GPULZ_CD_MODE_AUTO,
           "parameters {%u,%u,%u,%u,%u,%u,%u}", got[0], got[1], got[2], got[3], got[4], got[5],
           got[6]);
    NC_CHECK(nc_close(nc));

    /* the file is HDF5 underneath: the chunks are gpulz chunks and smaller */
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "temp", H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    hsize_t stored = H5Dget_storage_size(d);
    CHECKF(stored > 0 && stored < sizeof data / 4, "%llu bytes stored for %zu",
           (unsigned long long)stored, sizeof data);
    hsize_t offset[2];
    unsigned mask;
    haddr_t addr;
    hsize_t size;
    h5u_chunk_info(d, 0, offset, &mask, &addr, &size);
    CHECK(mask == 0);
    printf("netCDF temp: %zu -> %llu bytes, parameters {%u,%u,%u,%u,%u}\n", sizeof data,
           (unsigned long long)stored, got[0], got[1], got[2], got[3], got[4]);
    H5Dclose(d);
    H5Fclose(f);
    remove(path);
    return 0;
}
