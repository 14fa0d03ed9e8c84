/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_types.c - every datatype family through the plugin (HDF5_PLUGIN_PATH):
 * integers and floats of every width in both byte orders, an 11-byte
 * compound, fixed-length strings, arrays and opaque data.  For each: the
 * data reads back unchanged, set_local stored the symbol size the rule gives
 * (largest of 8/4/2/1 dividing the element or base-element size; strings 1)
 * and the chunk's size in bytes,
 * and compressible data takes less space than raw.
 */
#include "h5_util.h"

#define N 20000
#define CHUNK 5000

static hid_t file;

/* Write buf (n elements of mem_type) as a gpulz dataset of file_type; read it back. */
static void roundtrip(const char *name, hid_t file_type, hid_t mem_type, const void *buf,
                      unsigned want_symbol)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    size_t msize = H5Tget_size(mem_type);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = h5u_dcpl(1, chunk, H5Z_FLAG_MANDATORY, 0, NULL);
    hid_t d = H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(d >= 0, "%s: create", name);
    CHECKF(H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0, "%s: write", name);
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);

    d = H5Dopen2(file, name, H5P_DEFAULT);
    CHECK(d >= 0);
    void *back = calloc(N, msize);
    CHECK(back);
    CHECKF(H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0, "%s: read", name);
    CHECKF(memcmp(buf, back, N * msize) == 0, "%s: data differ after the round trip", name);

    unsigned cd[8], flags;
    size_t ncd = h5u_stored_cd(d, cd, &flags, NULL, 0);
    CHECKF(ncd == H5Z_GPULZ_CD_NELMTS_STORED, "%s: %zu cd_values stored", name, ncd);
    CHECKF(cd[H5Z_GPULZ_CD_CHUNK_BYTES] == CHUNK * H5Tget_size(file_type),
           "%s: chunk size %u stored, the chunk holds %zu bytes", name, cd[H5Z_GPULZ_CD_CHUNK_BYTES],
           CHUNK * H5Tget_size(file_type));
    /* no cd_values: the default mode, auto, chunk format 2 */
    CHECKF(cd[0] == H5Z_GPULZ_CD_VERSION_CURRENT && cd[2] == 128 && cd[3] == 2048 && cd[4] == 0 &&
               cd[H5Z_GPULZ_CD_MODE] == H5Z_GPULZ_CD_MODE_AUTO,
           "%s: stored {%u,%u,%u,%u,%u,.,%u}", name, cd[0], cd[1], cd[2], cd[3], cd[4],
           cd[H5Z_GPULZ_CD_MODE]);
    CHECKF(cd[1] == want_symbol, "%s: symbol size %u, expected %u", name, cd[1], want_symbol);

    size_t raw = N * H5Tget_size(file_type);
    hsize_t stored = H5Dget_storage_size(d);
    CHECKF(stored > 0 && stored < raw / 2, "%s: %llu bytes stored for %zu raw", name,
           (unsigned long long)stored, raw);
    printf("%-12s S=%u  %7zu -> %6llu bytes\n", name, cd[1], raw, (unsigned long long)stored);
    free(back);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Dclose(d);
}

static void numeric_types(void)
{
    /* file type, memory type, name, symbol size the rule gives */
    static const struct {
        const char *name;
        hid_t *file_type, *mem_type;
        unsigned S;
    } types[] = {
        {"i8le", &H5T_STD_I8LE_g, &H5T_NATIVE_SCHAR_g, 1},
        {"i8be", &H5T_STD_I8BE_g, &H5T_NATIVE_SCHAR_g, 1},
        {"u8le", &H5T_STD_U8LE_g, &H5T_NATIVE_UCHAR_g, 1},
        {"u8be", &H5T_STD_U8BE_g, &H5T_NATIVE_UCHAR_g, 1},
        {"i16le", &H5T_STD_I16LE_g, &H5T_NATIVE_SHORT_g, 2},
        {"i16be", &H5T_STD_I16BE_g, &H5T_NATIVE_SHORT_g, 2},
        {"u16le", &H5T_STD_U16LE_g, &H5T_NATIVE_USHORT_g, 2},
        {"u16be", &H5T_STD_U16BE_g, &H5T_NATIVE_USHORT_g, 2},
        {"i32le", &H5T_STD_I32LE_g, &H5T_NATIVE_INT_g, 4},
        {"i32be", &H5T_STD_I32BE_g, &H5T_NATIVE_INT_g, 4},
        {"u32le", &H5T_STD_U32LE_g, &H5T_NATIVE_UINT_g, 4},
        {"u32be", &H5T_STD_U32BE_g, &H5T_NATIVE_UINT_g, 4},
        {"i64le", &H5T_STD_I64LE_g, &H5T_NATIVE_LLONG_g, 8},
        {"i64be", &H5T_STD_I64BE_g, &H5T_NATIVE_LLONG_g, 8},
        {"u64le", &H5T_STD_U64LE_g, &H5T_NATIVE_ULLONG_g, 8},
        {"u64be", &H5T_STD_U64BE_g, &H5T_NATIVE_ULLONG_g, 8},
        {"f32le", &H5T_IEEE_F32LE_g, &H5T_NATIVE_FLOAT_g, 4},
        {"f32be", &H5T_IEEE_F32BE_g, &H5T_NATIVE_FLOAT_g, 4},
        {"f64le", &H5T_IEEE_F64LE_g, &H5T_NATIVE_DOUBLE_g, 8},
        {"f64be", &H5T_IEEE_F64BE_g, &H5T_NATIVE_DOUBLE_g, 8},
    };
    H5open(); /* the _g type ids are valid only after the library is initialised */
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        hid_t mem = *types[t].mem_type;
        size_t size = H5Tget_size(mem);
        uint8_t *buf = malloc(N * size);
        CHECK(buf);
        /* slowly varying values that repeat: the matcher has work to do */
        for (size_t i = 0; i < N; i++) {
            long v = (long)((i / 8) % 12);
            switch (size) {
            case 1: ((int8_t *)buf)[i] = (int8_t)v; break;
            case 2: ((int16_t *)buf)[i] = (int16_t)(v * 300); break;
            case 4:
                if (H5Tget_class(mem) == H5T_FLOAT)
                    ((float *)buf)[i] = (float)v * 0.25f;
                else
                    ((int32_t *)buf)[i] = (int32_t)(v * 70000);
                break;
            default:
                if (H5Tget_class(mem) == H5T_FLOAT)
                    ((double *)buf)[i] = (double)v * 0.125;
                else
                    ((int64_t *)buf)[i] = (int64_t)v * 5000000000ll;
            }
        }
        roundtrip(types[t].name, *types[t].file_type, mem, buf, types[t].S);
        free(buf);
    }
}

/* An 11-byte packed compound {int8 a; double b; int16 c}: symbol size 1. */
static void compound_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, 11);
    CHECK(t >= 0);
    CHECK(H5Tinsert(t, "a", 0, H5T_STD_I8LE) >= 0);
    CHECK(H5Tinsert(t, "b", 1, H5T_IEEE_F64LE) >= 0);
    CHECK(H5Tinsert(t, "c", 9, H5T_STD_I16LE) >= 0);
    uint8_t *buf = malloc((size_t)N * 11);
    CHECK(buf);
    for (size_t i = 0; i < N; i++) {
        int8_t a = (int8_t)(i % 7);
        double b = (double)(i / 50);
        int16_t c = (int16_t)(i / 10);
        memcpy(buf + i * 11, &a, 1);
        memcpy(buf + i * 11 + 1, &b, 8);
        memcpy(buf + i * 11 + 9, &c, 2);
    }
    roundtrip("compound11", t, t, buf, 1);
    free(buf);
    H5Tclose(t);
}

/* Fixed-length strings of 10 bytes: text, symbol size 1 (not 2). */
static void string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    CHECK(H5Tset_size(t, 10) >= 0);
    CHECK(H5Tset_strpad(t, H5T_STR_NULLPAD) >= 0);
    char *buf = calloc(N, 10);
    CHECK(buf);
    for (size_t i = 0; i < N; i++) {
        char s[16];
        snprintf(s, sizeof s, "row%06zu", i % 4000);
        memcpy(buf + i * 10, s, strlen(s));
    }
    roundtrip("string10", t, t, buf, 1);
    free(buf);
    H5Tclose(t);
}

/* Arrays take the base element's size: int16[3] (6 bytes) gives 2, float64[2] gives 8. */
static void array_types(void)
{
    hsize_t three[1] = {3}, two[1] = {2};
    hid_t a16 = H5Tarray_create2(H5T_STD_I16BE, 1, three);
    hid_t m16 = H5Tarray_create2(H5T_NATIVE_SHORT, 1, three);
    int16_t *b16 = malloc(N * 3 * sizeof *b16);
    CHECK(a16 >= 0 && m16 >= 0 && b16);
    for (size_t i = 0; i < N * 3; i++)
        b16[i] = (int16_t)((i / 9) % 500);
    roundtrip("array_i16x3", a16, m16, b16, 2);
    hid_t a64 = H5Tarray_create2(H5T_IEEE_F64LE, 1, two);
    hid_t m64 = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, two);
    double *b64 = malloc(N * 2 * sizeof *b64);
    CHECK(a64 >= 0 && m64 >= 0 && b64);
    for (size_t i = 0; i < N * 2; i++)
        b64[i] = (double)((i / 4) % 300);
    roundtrip("array_f64x2", a64, m64, b64, 8);
    free(b16);
    free(b64);
    H5Tclose(a16);
    H5Tclose(m16);
    H5Tclose(a64);
    H5Tclose(m64);
}

/* Opaque 12-byte records: 4 divides 12, 8 does not. */
static void opaque_type(void)
{
    hid_t t = H5Tcreate(H5T_OPAQUE, 12);
    CHECK(t >= 0 && H5Tset_tag(t, "twelve bytes") >= 0);
    uint8_t *buf = malloc((size_t)N * 12);
    CHECK(buf);
    for (size_t i = 0; i < (size_t)N * 12; i++)
        buf[i] = (uint8_t)((i / 24) % 37);
    roundtrip("opaque12", t, t, buf, 4);
    free(buf);
    H5Tclose(t);
}

int main(void)
{
    file = H5Fcreate("h5_types.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    CHECKF(H5Zfilter_avail(H5Z_FILTER_GPULZ) > 0, "plugin %d not found (HDF5_PLUGIN_PATH=%s)",
           H5Z_FILTER_GPULZ, getenv("HDF5_PLUGIN_PATH") ? getenv("HDF5_PLUGIN_PATH") : "");
    numeric_types();
    compound_type();
    string_type();
    array_types();
    opaque_type();
    CHECK(H5Fclose(file) >= 0);
    remove("h5_types.h5");
    return 0;
}
