/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_plugin_load.c - the plugin as HDF5 finds it through HDF5_PLUGIN_PATH,
 * with no gpulz filter linked (the codec is, to ask whether a GPU is usable): it is available for encoding and decoding,
 * its stored name says whether the ID is provisional, set_local resolves defaults
 * into the 7-slot vector (the sixth the chunk size, the seventh the mode) and
 * keeps explicit values, every row of the rule that gives a vector its mode
 * (docs/usage.md section 2, H5Z_gpulz_cd_mode()) writes that mode's chunks,
 * bad parameters and bad environment settings fail H5Dcreate with
 * our message on the error stack (an optional filter too: HDF5 would store
 * its failed chunks raw, silently), and the environment knobs that are valid
 * do not change the bytes written.
 */
#include "gpulz.h"
#include "h5_util.h"

#define N 50000
#define CHUNK 10000

static hid_t file;
static int32_t data[N];
static char write_error[8192]; /* the error stack of write_ds's last failure */

/* Create, write and close; returns the write status (creation must work). */
static herr_t write_ds(const char *name, size_t ncd, const unsigned *cd)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, ncd, cd);
    hid_t d = H5Dcreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(d >= 0, "%s: create", name);
    herr_t rc = H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (rc < 0)
        strcpy(write_error, h5u_error_text());
    if (H5Dclose(d) < 0 && rc >= 0) {
        rc = -1;
        strcpy(write_error, h5u_error_text());
    }
    H5Pclose(dcpl);
    H5Sclose(space);
    return rc;
}

/* H5Dcreate with these filter flags and cd_values must fail, saying want. */
static void create_fails_flags(const char *what, unsigned flags, size_t ncd, const unsigned *cd,
                               const char *want)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, flags, ncd, cd);
    hid_t d = H5Dcreate2(file, what, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(d < 0, "%s: creation succeeded", what);
    const char *text = h5u_error_text();
    CHECKF(strstr(text, want), "%s: expected \"%s\" on the stack, got:\n%s", what, want, text);
    printf("%-28s refused: %s\n", what, want);
    H5Pclose(dcpl);
    H5Sclose(space);
}

static void create_fails(const char *what, size_t ncd, const unsigned *cd, const char *want)
{
    create_fails_flags(what, H5Z_FLAG_MANDATORY, ncd, cd, want);
}

/* A bad setting fails H5Dcreate, with the filter mandatory and optional. */
static void setting_fails(const char *var, const char *value, const char *want)
{
    char what[64];
    setenv(var, value, 1);
    snprintf(what, sizeof what, "%s=%s", var, value);
    create_fails_flags(what, H5Z_FLAG_MANDATORY, 0, NULL, want);
    snprintf(what, sizeof what, "%s=%s, optional", var, value);
    create_fails_flags(what, H5Z_FLAG_OPTIONAL, 0, NULL, want);
    unsetenv(var);
}

/* The stored bytes of chunk 1 of a dataset, for comparing writers. */
static size_t chunk_bytes(const char *name, uint8_t *out, size_t cap)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    hsize_t offset[1] = {CHUNK}, size;
    uint32_t mask;
    CHECK(d >= 0 && H5Dget_chunk_storage_size(d, offset, &size) >= 0 && size <= cap);
    CHECK(gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &mask, out, cap) >= 0 && mask == 0);
    static int32_t back[N];
    CHECK(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, data, sizeof back) == 0, "%s: data differ", name);
    H5Dclose(d);
    return (size_t)size;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        data[i] = (i / 10) % 250;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    file = H5Fcreate("h5_plugin_load.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);

    CHECKF(H5Zfilter_avail(H5Z_FILTER_GPULZ) > 0, "filter %d not available (HDF5_PLUGIN_PATH=%s)",
           H5Z_FILTER_GPULZ, getenv("HDF5_PLUGIN_PATH") ? getenv("HDF5_PLUGIN_PATH") : "(unset)");
    unsigned config = 0;
    CHECK(H5Zget_filter_info(H5Z_FILTER_GPULZ, &config) >= 0);
    CHECK(config & H5Z_FILTER_CONFIG_ENCODE_ENABLED);
    CHECK(config & H5Z_FILTER_CONFIG_DECODE_ENABLED);

    /* defaults: mode auto (format 2), S from int32 = 4, W 128, C 2048, no flags */
    CHECK(write_ds("defaults", 0, NULL) >= 0);
    hid_t d = H5Dopen2(file, "defaults", H5P_DEFAULT);
    unsigned cd[8], flags;
    char name[128] = "";
    size_t n = h5u_stored_cd(d, cd, &flags, name, sizeof name);
    CHECKF(n == 7 && cd[0] == 2 && cd[1] == 4 && cd[2] == 128 && cd[3] == 2048 && cd[4] == 0 &&
               cd[5] == CHUNK * 4 && cd[6] == H5Z_GPULZ_CD_MODE_AUTO &&
               H5Z_GPULZ_CD_MODE_DEFAULT == H5Z_GPULZ_CD_MODE_AUTO,
           "stored %zu values {%u,%u,%u,%u,%u,%u,%u}", n, cd[0], cd[1], cd[2], cd[3], cd[4], cd[5],
           cd[6]);
    CHECK((flags & H5Z_FLAG_OPTIONAL) == 0);
    CHECKF(strcmp(name, H5Z_GPULZ_NAME) == 0 &&
               !strstr(name, "provisional") == (H5Z_FILTER_GPULZ != H5Z_FILTER_GPULZ_PROVISIONAL),
           "name \"%s\"", name);
    printf("stored name \"%s\", cd_values {%u,%u,%u,%u,%u,%u,%u}\n", name, cd[0], cd[1], cd[2],
           cd[3], cd[4], cd[5], cd[6]);
    H5Dclose(d);

    /* explicit values are kept as given; a short vector is padded */
    const unsigned mine[5] = {0, 2, 64, 4096, 1};
    CHECK(write_ds("explicit", 5, mine) >= 0);
    d = H5Dopen2(file, "explicit", H5P_DEFAULT);
    n = h5u_stored_cd(d, cd, NULL, NULL, 0);
    CHECK(n == 7 && cd[0] == 2 && cd[1] == 2 && cd[2] == 64 && cd[3] == 4096 && cd[4] == 1 &&
          cd[5] == CHUNK * 4 && cd[6] == 3);
    H5Dclose(d);
    const unsigned shortv[2] = {0, 8};
    CHECK(write_ds("short_vector", 2, shortv) >= 0);
    d = H5Dopen2(file, "short_vector", H5P_DEFAULT);
    n = h5u_stored_cd(d, cd, NULL, NULL, 0);
    CHECK(n == 7 && cd[1] == 8 && cd[2] == 128 && cd[3] == 2048 && cd[5] == CHUNK * 4 && cd[6] == 3);
    H5Dclose(d);
    /* the sixth value is set_local's, whatever a user passes (h5dump's PARAMS
     * of another dataset pasted into h5repack) */
    const unsigned pasted[6] = {1, 4, 128, 2048, 0, 1000};
    CHECK(write_ds("pasted", 6, pasted) >= 0);
    d = H5Dopen2(file, "pasted", H5P_DEFAULT);
    n = h5u_stored_cd(d, cd, NULL, NULL, 0);
    CHECKF(n == 7 && cd[5] == CHUNK * 4, "pasted: %zu values, chunk size %u", n, cd[5]);
    H5Dclose(d);

    /* every row of the rule that gives a vector its mode (docs/usage.md section
     * 2): slot 6 where it is 1..3, else lz where slot 0 is 1 (what gpulz 0.1,
     * the filter before modes and every lz dataset store), else the default,
     * auto.  Each writes the chunk format of its mode, stores it, and reads
     * back; pasting a stored vector writes what it was written with. */
    static uint8_t stored[CHUNK * 4 + 1024];
    static const struct {
        const char *name;
        size_t ncd;
        unsigned cd[7];
        unsigned version, mode, checksum;
    } modes[] = {
        /* no mode named, slot 0 not 1: the default (UD=<id>,0,5,0,0,0,0,0) */
        {"one_value_v0", 1, {0}, 2, 3, 1},
        {"five_values_v0", 5, {0, 0, 0, 0, 0}, 2, 3, 1},
        {"six_values_v0", 6, {0, 0, 0, 0, 0, 1000}, 2, 3, 1},
        {"seven_values_v0_mode0", 7, {0, 0, 0, 0, 0, 0, 0}, 2, 3, 1},
        {"five_values_v2", 5, {2, 0, 0, 0, 0}, 2, 3, 1},
        {"six_values_v2", 6, {2, 0, 0, 0, 0, 0}, 2, 3, 1},
        {"seven_values_v2_mode0", 7, {2, 0, 0, 0, 0, 0, 0}, 2, 3, 1},
        /* no mode named, slot 0 is 1: lz (0.1's five values, the six of the
         * filter before modes, an lz dataset's seven) */
        {"one_value_v1", 1, {1}, 1, 0, 0},
        {"five_values_v1", 5, {1, 4, 128, 2048, 0}, 1, 0, 0},
        {"six_values_v1", 6, {1, 0, 0, 0, 0, 1000}, 1, 0, 0},
        {"seven_values_v1_mode0", 7, {1, 4, 128, 2048, 0, 1000, 0}, 1, 0, 0},
        /* a mode named: that mode, whatever slot 0 says */
        {"mode_fast", 7, {0, 0, 0, 0, 0, 0, 1}, 2, 1, 1},
        {"mode_ratio", 7, {0, 0, 0, 0, 0, 0, 2}, 2, 2, 1},
        {"mode_auto", 7, {0, 0, 0, 0, 0, 0, 3}, 2, 3, 1},
        {"v1_mode_fast", 7, {1, 4, 128, 2048, 0, 1000, 1}, 2, 1, 1},
        {"v1_mode_ratio", 7, {1, 0, 0, 0, 0, 0, 2}, 2, 2, 1},
        {"v1_mode_auto", 7, {1, 0, 0, 0, 0, 0, 3}, 2, 3, 1},
        {"v2_mode_fast", 7, {2, 4, 128, 2048, 0, 1000, 1}, 2, 1, 1},
        {"v2_mode_ratio", 7, {2, 4, 128, 2048, 0, 1000, 2}, 2, 2, 1},
        {"v2_mode_auto", 7, {2, 4, 128, 2048, 0, 1000, 3}, 2, 3, 1},
        {"mode_auto_no_checksum", 7, {0, 0, 0, 0, GPULZ_H5_NO_CHECKSUM, 0, 3}, 2, 3, 0},
        {"default_no_checksum", 5, {0, 0, 0, 0, GPULZ_H5_NO_CHECKSUM}, 2, 3, 0},
    };
    /* every mode runs under GPULZ_BACKEND=gpu too (the GPU runs them all) */
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        CHECKF(write_ds(modes[i].name, modes[i].ncd, modes[i].cd) >= 0, "%s: write", modes[i].name);
        size_t len = chunk_bytes(modes[i].name, stored, sizeof stored); /* reads back too */
        d = H5Dopen2(file, modes[i].name, H5P_DEFAULT);
        n = h5u_stored_cd(d, cd, NULL, NULL, 0);
        H5Dclose(d);
        CHECKF(n == 7 && cd[0] == modes[i].version && cd[6] == modes[i].mode && cd[5] == CHUNK * 4,
               "%s: stored %zu values {%u,...,%u,%u}", modes[i].name, n, cd[0], cd[5], cd[6]);
        CHECKF(len > 32 && memcmp(stored, "GPLZ", 4) == 0 && stored[4] == modes[i].version,
               "%s: chunk of %zu bytes, format version %u", modes[i].name, len, stored[4]);
        /* FORMAT.md section 11: bit 4 of the stage flags is the checksum */
        CHECKF(modes[i].version == 1 || ((stored[5] >> 4) & 1) == modes[i].checksum,
               "%s: stage flags 0x%02x", modes[i].name, stored[5]);
        printf("%-22s %zu cd_values -> format %u, stage flags 0x%02x, %zu-byte chunk\n",
               modes[i].name, modes[i].ncd, stored[4], stored[5], len);
    }

    const unsigned s3[5] = {0, 3, 0, 0, 0}, w300[5] = {0, 0, 300, 0, 0}, c1000[5] = {0, 0, 0, 1000, 0},
                   fl4[5] = {0, 0, 0, 0, 4}, v9[5] = {9, 0, 0, 0, 0}, v3[5] = {3, 0, 0, 0, 0},
                   mode4[7] = {0, 0, 0, 0, 0, 0, 4}, v1_mode4[7] = {1, 0, 0, 0, 0, 0, 4},
                   v3_mode3[7] = {3, 0, 0, 0, 0, 0, 3}, eight[8] = {0};
    create_fails("symbol size 3", 5, s3, "symbol size 3");
    create_fails("window 300", 5, w300, "window 300");
    create_fails("block 1000", 5, c1000, "block size 1000");
    create_fails("flags 4", 5, fl4, "unknown flags 0x4");
    create_fails("version 9", 5, v9, "chunk format version 9, newer");
    create_fails("version 3", 5, v3, "chunk format version 3, newer");
    create_fails("mode 4", 7, mode4, "mode 4 (cd_values[6]) is not");
    create_fails("version 1, mode 4", 7, v1_mode4, "mode 4 (cd_values[6]) is not");
    create_fails("version 3, mode 3", 7, v3_mode3, "chunk format version 3, newer");
    create_fails_flags("mode 4, optional", H5Z_FLAG_OPTIONAL, 7, mode4, "mode 4 (cd_values[6])");
    create_fails("eight values", 8, eight, "at most 7 cd_values");

    /* environment: a bad value fails the creation with our message ... */
    setting_fails("GPULZ_BACKEND", "fast", "GPULZ_BACKEND=fast is not auto, cpu or gpu");
    setting_fails("GPULZ_THREADS", "abc", "GPULZ_THREADS=abc");
    setting_fails("GPULZ_THREADS", "-1", "GPULZ_THREADS=-1");
    setting_fails("GPULZ_THREADS", "4097", "GPULZ_THREADS=4097");
    setting_fails("GPULZ_LEGACY_CHUNK_MAX", "lots", "GPULZ_LEGACY_CHUNK_MAX=lots");
    setting_fails("GPULZ_LEGACY_CHUNK_MAX", "5G", "GPULZ_LEGACY_CHUNK_MAX=5G");
    setting_fails("GPULZ_GPU_MIN_BYTES", "1M", "GPULZ_GPU_MIN_BYTES=1M");
    setting_fails("GPULZ_GPU_MIN_BYTES", "-5", "GPULZ_GPU_MIN_BYTES=-5");
    setting_fails("GPULZ_GPU_LANES", "0", "GPULZ_GPU_LANES=0");
    setting_fails("GPULZ_GPU_LANES", "x", "GPULZ_GPU_LANES=x");
    /* a device list's form, GPU or not (auto would run every chunk on the
     * CPU without a word) */
    setting_fails("GPULZ_DEVICE", "0,0", "GPULZ_DEVICE=0,0: device 0 is named twice");
    setting_fails("GPULZ_DEVICE", "gpu1", "GPULZ_DEVICE=gpu1");
    setting_fails("GPULZ_DEVICE", "0,,1", "GPULZ_DEVICE=0,,1");
    /* ... a GPU that is asked for and not there too: none at all, or a device
     * that does not exist */
    if (!gpulz_gpu_available())
        setting_fails("GPULZ_BACKEND", "gpu", "GPULZ_BACKEND=gpu but no GPU is usable");
    setenv("GPULZ_BACKEND", "gpu", 1);
    setting_fails("GPULZ_DEVICE", "63", "GPULZ_BACKEND=gpu but no GPU is usable");
    unsetenv("GPULZ_BACKEND");
    /* a setting that is fine at creation but bad later still fails the write,
     * loudly, where the filter is mandatory */
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL), dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    d = H5Dcreate2(file, "late_setting", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    setenv("GPULZ_BACKEND", "fast", 1);
    CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0 || H5Dclose(d) < 0);
    CHECK(strstr(h5u_error_text(), "GPULZ_BACKEND=fast"));
    unsetenv("GPULZ_BACKEND");
    H5Pclose(dcpl);
    H5Sclose(space);

    /* ... and valid ones change where the work runs, never the bytes */
    static uint8_t a[CHUNK * 4 + 1024], b[CHUNK * 4 + 1024];
    size_t na = chunk_bytes("defaults", a, sizeof a);
    setenv("GPULZ_BACKEND", "cpu", 1);
    setenv("GPULZ_THREADS", "1", 1);
    CHECK(write_ds("cpu_one_thread", 0, NULL) >= 0);
    size_t nb = chunk_bytes("cpu_one_thread", b, sizeof b);
    CHECKF(na == nb && memcmp(a, b, na) == 0, "chunk bytes differ: %zu vs %zu", na, nb);
    unsetenv("GPULZ_BACKEND");
    unsetenv("GPULZ_THREADS");
    printf("GPULZ_BACKEND=cpu GPULZ_THREADS=1 wrote the same %zu-byte chunk\n", na);

    CHECK(H5Fclose(file) >= 0);
    remove("h5_plugin_load.h5");
    return 0;
}
