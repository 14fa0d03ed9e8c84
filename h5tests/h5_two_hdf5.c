/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_two_hdf5.c - two HDF5 libraries in one process (as two Python wheels
 * each bring one): the plugin binds to the first that loads it, and a
 * second one that asks gets no filter (the filter's calls would go to the
 * first with the second's identifiers), so its reads and writes of gpulz
 * datasets fail cleanly; the first library keeps working.  The second is a
 * copy of the program's own libhdf5 file, opened with dlopen.  Skipped (77)
 * where that copy cannot be made or opened.  Needs HDF5_PLUGIN_PATH.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

#include "h5_util.h"

#define N 1000

int main(void)
{
    static int32_t v[N], back[N];
    for (int i = 0; i < N; i++)
        v[i] = i / 7;
    /* the program's HDF5 writes a gpulz dataset through the plugin */
    hsize_t dims[1] = {N}, chunk[1] = {100};
    hid_t f = H5Fcreate("h5_two_hdf5.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(f >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 &&
          H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 0, NULL) >= 0);
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = H5Dcreate2(f, "d", H5T_NATIVE_INT32, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    H5Fclose(f);

    /* a copy of the same library file, opened as a library of its own */
    Dl_info info;
    if (!dladdr((void *)H5open, &info) || !info.dli_fname) {
        printf("cannot tell which file holds libhdf5: skipped\n");
        return 77;
    }
    char copy[] = "h5_two_hdf5_lib.XXXXXX";
    int out = mkstemp(copy);
    FILE *in = fopen(info.dli_fname, "rb");
    if (out < 0 || !in) {
        printf("cannot copy %s: skipped\n", info.dli_fname);
        return 77;
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        CHECK(write(out, buf, got) == (ssize_t)got);
    fclose(in);
    close(out);
    /* a path, so that dlopen takes the file and not a library of that name */
    char path[64];
    snprintf(path, sizeof path, "./%s", copy);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    unlink(copy);
    if (!lib) {
        printf("cannot open a copy of %s (%s): skipped\n", info.dli_fname, dlerror());
        return 77;
    }
    __typeof__(H5open) *c_open = (__typeof__(H5open) *)dlsym(lib, "H5open");
    __typeof__(H5Fopen) *c_fopen = (__typeof__(H5Fopen) *)dlsym(lib, "H5Fopen");
    __typeof__(H5Dopen2) *c_dopen = (__typeof__(H5Dopen2) *)dlsym(lib, "H5Dopen2");
    __typeof__(H5Dread) *c_dread = (__typeof__(H5Dread) *)dlsym(lib, "H5Dread");
    __typeof__(H5Dclose) *c_dclose = (__typeof__(H5Dclose) *)dlsym(lib, "H5Dclose");
    __typeof__(H5Fclose) *c_fclose = (__typeof__(H5Fclose) *)dlsym(lib, "H5Fclose");
    __typeof__(H5Eset_auto2) *c_eset = (__typeof__(H5Eset_auto2) *)dlsym(lib, "H5Eset_auto2");
    hid_t *c_int = (hid_t *)dlsym(lib, "H5T_NATIVE_INT_g");
    CHECK(c_open && c_fopen && c_dopen && c_dread && c_dclose && c_fclose && c_eset && c_int);
    CHECK(c_open() >= 0 && (void *)c_open != (void *)H5open);
    c_eset(H5E_DEFAULT, NULL, NULL);
    hid_t f2 = c_fopen("h5_two_hdf5.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d2 = f2 >= 0 ? c_dopen(f2, "d", H5P_DEFAULT) : -1;
    CHECK(d2 >= 0);
    memset(back, 0, sizeof back);
    /* the second library gets no filter: its read fails, it does not decode through the first */
    CHECK(c_dread(d2, *c_int, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0);
    c_dclose(d2);
    c_fclose(f2);

    /* the first still reads it */
    f = H5Fopen("h5_two_hdf5.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    d = f >= 0 ? H5Dopen2(f, "d", H5P_DEFAULT) : -1;
    memset(back, 0, sizeof back);
    CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
          memcmp(back, v, sizeof v) == 0);
    H5Dclose(d);
    H5Fclose(f);
    H5Sclose(sp);
    H5Pclose(dcpl);
    remove("h5_two_hdf5.h5");
    printf("h5_two_hdf5: a second HDF5 gets no filter; the first reads its dataset\n");
    return 0;
}
