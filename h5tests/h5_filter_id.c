/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_filter_id.c - library mode once gpulz has a registered filter ID, with
 * the stand-in for one that h5tests/plugin.inc builds the filter with
 * (GPULZ_TEST_FILTER_ID): the filter linked in, plugin loading off.
 * gpulz_h5_register() registers the new ID and the provisional one, each
 * for encoding and decoding; every dataset of a file written with the
 * provisional ID reads back as its uncompressed copy; gpulz_h5_set_dcpl()
 * adds the new ID, and the name stored with it does not say "provisional";
 * a dataset with the provisional ID still takes writes and grows.
 *
 * Usage: h5_filter_id OLD.h5 PLAIN.h5 OUT.h5 (run by h5tests/h5_filter_id.sh:
 * OLD.h5 is PLAIN.h5 repacked with the provisional ID, OUT.h5 is written).
 */
#include "H5Zgpulz.h" /* GPULZ_ID: the ID this build of the filter writes */
#include "h5_util.h"

#define N 30000
#define CHUNK 5000

/* The names of a group's links, for checks outside H5Literate (a failed
 * check exits, which HDF5 does not expect of a callback). */
typedef struct names {
    int n;
    char name[16][64];
} names;

static herr_t add_name(hid_t group, const char *name, const H5L_info_t *info, void *list_p)
{
    (void)group, (void)info;
    names *list = list_p;
    if (list->n == 16 || strlen(name) >= sizeof list->name[0])
        return -1;
    strcpy(list->name[list->n++], name);
    return 0;
}

/* Both files' datasets of this name hold the same bytes; OLD's, where it has
 * a filter, has gpulz with the provisional ID.  Returns whether it has one. */
static int compare_dataset(hid_t old, hid_t plain, const char *name)
{
    hid_t a = H5Dopen2(old, name, H5P_DEFAULT), b = H5Dopen2(plain, name, H5P_DEFAULT);
    CHECKF(a >= 0 && b >= 0, "/%s", name);
    hid_t type = H5Dget_type(b), space = H5Dget_space(b), dcpl = H5Dget_create_plist(a);
    CHECK(type >= 0 && space >= 0 && dcpl >= 0);
    int filtered = H5Pget_nfilters(dcpl) > 0;
    char fname[128] = "none";
    if (filtered) {
        unsigned flags, cd[8];
        size_t ncd = 8;
        H5Z_filter_t id = H5Pget_filter2(dcpl, 0, &flags, &ncd, cd, sizeof fname, fname, NULL);
        CHECKF(id == H5Z_FILTER_GPULZ_PROVISIONAL, "/%s: filter %d, not the provisional %d", name,
               (int)id, H5Z_FILTER_GPULZ_PROVISIONAL);
    }
    size_t bytes = (size_t)H5Sget_simple_extent_npoints(space) * H5Tget_size(type);
    char *x = malloc(bytes), *y = malloc(bytes);
    CHECK(x && y);
    CHECKF(H5Dread(a, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0, "/%s: read", name);
    CHECK(H5Dread(b, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) >= 0);
    CHECKF(memcmp(x, y, bytes) == 0, "/%s: differs from the uncompressed copy", name);
    printf("/%-8s filter: %s; %zu bytes as in the uncompressed copy\n", name, fname, bytes);
    free(x);
    free(y);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(type);
    H5Dclose(a);
    H5Dclose(b);
    return filtered;
}

/* Dataset name of file holds N int32 values v[i] = i / 7 % 300 (+ shift), and
 * stores filter id with the given name. */
static void check_written(hid_t file, const char *name, H5Z_filter_t id, const char *fname,
                          size_t n, int shift)
{
    static int32_t got[2 * N];
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    for (size_t i = 0; i < n; i++)
        CHECKF(got[i] == (int32_t)(i / 7 % 300) + (i >= N ? shift : 0), "%s[%zu] = %d", name, i,
               got[i]);
    unsigned cd[8];
    char stored[128] = "";
    size_t ncd = h5u_stored_cd_id(d, id, cd, NULL, stored, sizeof stored);
    CHECKF(ncd == 6 && cd[5] == CHUNK * 4, "%s: %zu values, chunk size %u", name, ncd, cd[5]);
    CHECKF(strcmp(stored, fname) == 0, "%s: stored name \"%s\"", name, stored);
    printf("%s: %zu values read back, filter %d \"%s\"\n", name, n, (int)id, stored);
    H5Dclose(d);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: h5_filter_id OLD.h5 PLAIN.h5 OUT.h5\n");
        return 99;
    }
    /* before HDF5 initialises: nothing may come from a plugin */
    setenv("HDF5_PLUGIN_PRELOAD", "::", 1);
    unsetenv("HDF5_PLUGIN_PATH");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const H5Z_filter_t ids[2] = {GPULZ_ID, H5Z_FILTER_GPULZ_PROVISIONAL};
    for (int k = 0; k < 2; k++)
        CHECKF(H5Zfilter_avail(ids[k]) <= 0, "filter %d found before registering", (int)ids[k]);
    CHECK(gpulz_h5_register() >= 0);
    CHECK(gpulz_h5_register() >= 0); /* twice is harmless */
    for (int k = 0; k < 2; k++) {
        unsigned config = 0;
        CHECKF(H5Zfilter_avail(ids[k]) > 0, "filter %d not registered", (int)ids[k]);
        CHECK(H5Zget_filter_info(ids[k], &config) >= 0);
        CHECKF((config & H5Z_FILTER_CONFIG_ENCODE_ENABLED) &&
                   (config & H5Z_FILTER_CONFIG_DECODE_ENABLED),
               "filter %d: config 0x%x", (int)ids[k], config);
    }
    printf("registered filters %d and %d (provisional)\n", (int)ids[0], (int)ids[1]);

    /* a file from before the registered ID */
    hid_t old = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t plain = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECKF(old >= 0 && plain >= 0, "cannot open %s or %s", argv[1], argv[2]);
    names list = {0};
    CHECK(H5Literate(old, H5_INDEX_NAME, H5_ITER_INC, NULL, add_name, &list) >= 0);
    int filtered = 0;
    for (int i = 0; i < list.n; i++)
        filtered += compare_dataset(old, plain, list.name[i]);
    CHECKF(filtered > 0, "no dataset of %s has a filter", argv[1]);
    H5Fclose(old);
    H5Fclose(plain);

    /* new datasets get the new ID; one with the provisional ID can still
     * be written to and extended */
    static int32_t v[2 * N];
    for (int i = 0; i < 2 * N; i++)
        v[i] = i / 7 % 300;
    hsize_t dims[1] = {N}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {CHUNK};
    hid_t file = H5Fcreate(argv[3], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), dcpl_old = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(file >= 0 && space >= 0 && dcpl >= 0 && dcpl_old >= 0);
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_chunk(dcpl_old, 1, chunk) >= 0);
    CHECK(gpulz_h5_set_dcpl(dcpl, 0, 0, 0, 0) >= 0);
    const unsigned defaults[H5Z_GPULZ_CD_NELMTS] = {0};
    CHECK(H5Pset_filter(dcpl_old, H5Z_FILTER_GPULZ_PROVISIONAL, H5Z_FLAG_MANDATORY,
                        H5Z_GPULZ_CD_NELMTS, defaults) >= 0);
    hid_t a = H5Dcreate2(file, "new_id", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t b = H5Dcreate2(file, "provisional_id", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl_old,
                         H5P_DEFAULT);
    CHECK(a >= 0 && b >= 0);
    CHECK(H5Dwrite(a, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    CHECK(H5Dwrite(b, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(a);
    H5Dclose(b);
    H5Sclose(space);
    H5Pclose(dcpl);
    H5Pclose(dcpl_old);
    CHECK(H5Fclose(file) >= 0);

    /* reopened, as a later program appending to an older file would */
    file = H5Fopen(argv[3], H5F_ACC_RDWR, H5P_DEFAULT);
    b = H5Dopen2(file, "provisional_id", H5P_DEFAULT);
    CHECK(file >= 0 && b >= 0);
    hsize_t grown[1] = {2 * N}, start[1] = {N};
    for (int i = N; i < 2 * N; i++)
        v[i] += 1000;
    CHECK(H5Dset_extent(b, grown) >= 0);
    hid_t fspace = H5Dget_space(b), mspace = H5Screate_simple(1, dims, NULL);
    CHECK(fspace >= 0 && mspace >= 0);
    CHECK(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, dims, NULL) >= 0);
    CHECK(H5Dwrite(b, H5T_NATIVE_INT32, mspace, fspace, H5P_DEFAULT, v + N) >= 0);
    H5Sclose(fspace);
    H5Sclose(mspace);
    H5Dclose(b);
    CHECK(H5Fclose(file) >= 0);

    file = H5Fopen(argv[3], H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(file >= 0);
    check_written(file, "new_id", GPULZ_ID, H5Z_GPULZ_NAME_REGISTERED, N, 0);
    check_written(file, "provisional_id", H5Z_FILTER_GPULZ_PROVISIONAL, H5Z_GPULZ_NAME_PROVISIONAL,
                  2 * N, 1000);
    H5Fclose(file);
    return 0;
}
