/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_mkfile.c - write the uncompressed input file of the tool tests:
 *   /zeros      int32[4096] of zeros (its gpulz size follows from FORMAT.md by hand)
 *   /bytes      uint8[1000] of zeros (likewise, with a 256-symbol block)
 *   /ramp       int32[200000], each value repeated 8 times (compressible)
 *   /quant      uint16[300000], quantization-code-like: near 512, runs
 *   /records    11-byte compound[20000]
 *   /noise      uint8[65536] of random bytes (incompressible)
 * Usage: h5_mkfile FILE
 *
 * h5_mkfile --bench FILE writes instead the input of `gpulz bench FILE.h5`:
 * datasets of several types, chunkings and ranks, and some it must skip:
 *   /codes        uint16[131072], chunks of 32768, quantization-code-like
 *   /grid/field   float32[250][200], chunks of 64x64 (partial edge chunks)
 *   /grid/ramp    int32[100000], contiguous (bench picks the chunking)
 *   /records      11-byte compound[20000], chunks of 5000
 *   /names        variable-length strings[4] (skipped)
 *   /scalar       a scalar double (skipped)
 *
 * h5_mkfile --links FILE OTHER writes the input of `gpulz bench` through
 * links: one dataset under several names, links into OTHER, a group cycle.
 *   /data          uint16[65536], chunks of 16384 (runs: compressible)
 *   /grp/copy      a second hard link to /data
 *   /grp/field     float32[100][100], chunks of 50x50
 *   /grp/loop      a hard link to /grp (a cycle)
 *   /grp/near      a soft link to "field" (relative to /grp)
 *   /soft          a soft link to /data
 *   /sgrp          a soft link to /grp
 *   /dangling      a soft link to /nowhere
 *   /ext           an external link to OTHER:/target
 *   /extgrp        an external link to OTHER:/ (its root group)
 *   /a_first       a hard link to /grp/field made after it, but first by name,
 *                  the order in which h5repack (and H5Lvisit) meets names
 *   /selfgrp       an external link to FILE:/grp (this file itself)
 * and OTHER:
 *   /target        int32[10000], chunks of 5000
 *
 * h5_mkfile --deep FILE: datasets 16 groups deep whose paths are 255 and 256
 * bytes long, the longest h5repack's -f takes and one more, and one whose
 * name holds a newline.
 *   /level_00/.../level_15/d255_xx...x  int32[10000], chunks of 5000
 *   /level_00/.../level_15/d256_xxx...x the same, its name 1 byte longer
 *   "/evil\nFAKE LINE"                  the same
 */
#include "h5_util.h"

static void put(hid_t f, const char *name, hid_t type, hsize_t n, const void *buf)
{
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(d);
    H5Sclose(space);
}

static void put_chunked(hid_t f, const char *name, hid_t type, int rank, const hsize_t *dims,
                        const hsize_t *chunk, const void *buf)
{
    hid_t space = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(space >= 0 && dcpl >= 0);
    CHECK(H5Pset_chunk(dcpl, rank, chunk) >= 0);
    hid_t d = H5Dcreate2(f, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/* 20000 records of 11 bytes (a flag, a double, a short) into records, and
 * their compound type (the caller closes it). */
static hid_t make_records(uint8_t *records)
{
    for (int i = 0; i < 20000; i++) {
        uint8_t *r = records + i * 11;
        r[0] = (uint8_t)(i % 3);
        double v = (double)(i / 100);
        memcpy(r + 1, &v, 8);
        int16_t c = (int16_t)(i / 1000);
        memcpy(r + 9, &c, 2);
    }
    hid_t rec = H5Tcreate(H5T_COMPOUND, 11);
    H5Tinsert(rec, "flag", 0, H5T_STD_U8LE);
    H5Tinsert(rec, "value", 1, H5T_IEEE_F64LE);
    H5Tinsert(rec, "group", 9, H5T_STD_I16LE);
    return rec;
}

static int bench_file(const char *path)
{
    static uint16_t codes[131072];
    static float field[250][200];
    static int32_t ramp[100000];
    static uint8_t records[20000 * 11];
    uint64_t x = 11;
    for (int i = 0; i < 131072; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int r = (int)(x >> 59);
        codes[i] = (uint16_t)(i % 5 ? (i > 0 ? codes[i - 1] : 512) : 512 + (r < 24 ? 0 : r - 27));
    }
    for (int i = 0; i < 250; i++)
        for (int j = 0; j < 200; j++)
            field[i][j] = (float)(i / 10) * 0.5f + (float)(j / 20) * 0.25f;
    for (int i = 0; i < 100000; i++)
        ramp[i] = i / 8;
    hid_t rec = make_records(records);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    const hsize_t n_codes = 131072, c_codes = 32768, d_field[2] = {250, 200},
                  c_field[2] = {64, 64}, n_rec = 20000, c_rec = 5000;
    put_chunked(f, "codes", H5T_STD_U16LE, 1, &n_codes, &c_codes, codes);
    hid_t g = H5Gcreate2(f, "grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(g >= 0);
    put_chunked(g, "field", H5T_IEEE_F32LE, 2, d_field, c_field, field);
    put(g, "ramp", H5T_STD_I32LE, 100000, ramp);
    H5Gclose(g);
    put_chunked(f, "records", rec, 1, &n_rec, &c_rec, records);
    /* what the bench must skip: variable-length data and a scalar */
    const char *names[4] = {"alpha", "beta", "gamma", "delta"};
    hid_t vstr = H5Tcopy(H5T_C_S1);
    CHECK(vstr >= 0 && H5Tset_size(vstr, H5T_VARIABLE) >= 0);
    put(f, "names", vstr, 4, names);
    H5Tclose(vstr);
    double pi = 3.14159;
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t d = H5Dcreate2(f, "scalar", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &pi) >= 0);
    H5Dclose(d);
    H5Sclose(scalar);
    H5Tclose(rec);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

static int links_file(const char *path, const char *other)
{
    static uint16_t data[65536];
    static float field[100][100];
    static int32_t target[10000];
    for (int i = 0; i < 65536; i++)
        data[i] = (uint16_t)(i / 64);
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < 100; j++)
            field[i][j] = (float)(i / 10) + (float)(j / 25) * 0.5f;
    for (int i = 0; i < 10000; i++)
        target[i] = i / 16;
    const hsize_t n_data = 65536, c_data = 16384, d_field[2] = {100, 100}, c_field[2] = {50, 50},
                  n_target = 10000, c_target = 5000;

    hid_t o = H5Fcreate(other, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(o >= 0);
    put_chunked(o, "target", H5T_STD_I32LE, 1, &n_target, &c_target, target);
    CHECK(H5Fclose(o) >= 0);

    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    put_chunked(f, "data", H5T_STD_U16LE, 1, &n_data, &c_data, data);
    hid_t g = H5Gcreate2(f, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(g >= 0);
    put_chunked(g, "field", H5T_IEEE_F32LE, 2, d_field, c_field, field);
    H5Gclose(g);
    CHECK(H5Lcreate_hard(f, "/data", f, "/grp/copy", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_hard(f, "/grp", f, "/grp/loop", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_hard(f, "/grp/field", f, "/a_first", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_soft("field", f, "/grp/near", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_soft("/data", f, "/soft", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_soft("/grp", f, "/sgrp", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_soft("/nowhere", f, "/dangling", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(other, "/target", f, "/ext", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(other, "/", f, "/extgrp", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(path, "/grp", f, "/selfgrp", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

static int deep_file(const char *path)
{
    static int32_t ramp[10000];
    for (int i = 0; i < 10000; i++)
        ramp[i] = i / 16;
    const hsize_t n = 10000, c = 5000;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    hid_t g = f;
    size_t used = 0; /* the path's bytes so far: 9 a level */
    for (int i = 0; i < 16; i++) {
        char name[16];
        snprintf(name, sizeof name, "level_%02d", i);
        hid_t sub = H5Gcreate2(g, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        CHECK(sub >= 0);
        if (g != f)
            H5Gclose(g);
        g = sub;
        used += 1 + strlen(name);
    }
    for (size_t len = 255; len <= 256; len++) {
        char name[256];
        size_t n_name = len - used - 1; /* "/" and the name */
        CHECK(n_name < sizeof name);
        int k = snprintf(name, sizeof name, "d%zu_", len);
        memset(name + k, 'x', n_name - (size_t)k);
        name[n_name] = 0;
        put_chunked(g, name, H5T_STD_I32LE, 1, &n, &c, ramp);
    }
    H5Gclose(g);
    put_chunked(f, "evil\nFAKE LINE", H5T_STD_I32LE, 1, &n, &c, ramp);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--bench"))
        return bench_file(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "--links"))
        return links_file(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "--deep"))
        return deep_file(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: h5_mkfile FILE | h5_mkfile --bench FILE | h5_mkfile --links FILE "
                        "OTHER | h5_mkfile --deep FILE\n");
        return 99;
    }
    static int32_t zeros[4096], ramp[200000];
    static uint8_t bytes[1000], noise[65536], records[20000 * 11];
    static uint16_t quant[300000];
    for (int i = 0; i < 200000; i++)
        ramp[i] = i / 8;
    uint64_t x = 7;
    for (int i = 0; i < 300000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        /* mostly the centre code, sometimes a neighbour, in short runs */
        int r = (int)(x >> 59);
        quant[i] = (uint16_t)(i % 7 ? (i > 0 ? quant[i - 1] : 512) : 512 + (r < 24 ? 0 : r - 27));
    }
    h5u_random(noise, sizeof noise, 3);
    hid_t rec = make_records(records);

    hid_t f = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    put(f, "zeros", H5T_STD_I32LE, 4096, zeros);
    put(f, "bytes", H5T_STD_U8LE, 1000, bytes);
    put(f, "ramp", H5T_STD_I32LE, 200000, ramp);
    put(f, "quant", H5T_STD_U16LE, 300000, quant);
    put(f, "records", rec, 20000, records);
    put(f, "noise", H5T_STD_U8LE, 65536, noise);
    H5Tclose(rec);
    CHECK(H5Fclose(f) >= 0);
    return 0;
}
