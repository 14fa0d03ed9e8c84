/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_shuffle.c - gpulz inside a longer pipeline: shuffle before it,
 * Fletcher-32 after it.  With the symbol size forced to 8 on int32 chunks of
 * 1001 elements (4004 bytes) the input is not a multiple of S, so the tail
 * travels as raw bytes (docs/FORMAT.md §1); an 11-byte compound with S 4
 * does the same.  Data must read back and the stored chunks must shrink.
 * Then filters before gpulz that change the chunk's size (Fletcher-32,
 * deflate, scaleoffset): gpulz still compresses every chunk, mandatory or
 * optional, and the data reads back (before_gpulz); Fletcher-32 that takes
 * a chunk past the 32 bits of the recorded size is refused at creation with
 * its own reason (fletcher_at_limit).  n-bit and scale-offset after gpulz
 * would read its compressed bytes as whole chunks of elements, and the
 * chunks would not read back, and SZIP after gpulz altered the bytes past
 * its last whole pixel (int32: mostly 1 to 3 of each chunk): refused at
 * creation, mandatory or optional, where shuffle and deflate after gpulz
 * are not (after_gpulz).
 */
#include "h5_util.h"

#define N 10010
#define CHUNK 1001

static hid_t file;

static void pipeline(const char *name, hid_t type, const void *buf, size_t elem, unsigned S)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    const unsigned cd[5] = {0, S, 0, 0, 0};
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    CHECK(H5Pset_shuffle(dcpl) >= 0);
    CHECK(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 5, cd) >= 0);
    CHECK(H5Pset_fletcher32(dcpl) >= 0);
    hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    CHECK(H5Dclose(d) >= 0);
    CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    d = H5Dopen2(file, name, H5P_DEFAULT);
    void *back = malloc(N * elem);
    CHECK(d >= 0 && back);
    CHECK(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, buf, N * elem) == 0, "%s: data differ", name);
    unsigned stored[8];
    h5u_stored_cd(d, stored, NULL, NULL, 0);
    CHECKF(stored[1] == S, "%s: stored symbol size %u", name, stored[1]);
    hsize_t offset[1], size;
    unsigned mask;
    haddr_t addr;
    h5u_chunk_info(d, 3, offset, &mask, &addr, &size);
    CHECKF(mask == 0 && size < CHUNK * elem / 2, "%s: chunk 3 mask %u, %llu bytes", name, mask,
           (unsigned long long)size);
    /* Fletcher-32 runs last on write: its 4-byte checksum ends the stored
     * chunk, and the gpulz header starts it (shuffle keeps the size) */
    uint8_t *raw = malloc(size);
    uint32_t fmask;
    CHECK(raw && gpulz_h5_read_chunk(d, H5P_DEFAULT, offset, &fmask, raw, (size_t)size) >= 0);
    CHECK(memcmp(raw, "GPLZ", 4) == 0 && raw[6] == S);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = n << 8 | raw[12 + i];
    CHECKF(n == CHUNK * elem, "%s: the gpulz chunk holds %llu bytes, not %zu", name,
           (unsigned long long)n, CHUNK * elem);
    printf("%-14s S=%u: chunk of %zu bytes (tail %zu) stored in %llu\n", name, S, CHUNK * elem,
           CHUNK * elem % S, (unsigned long long)size);
    free(raw);
    free(back);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/* Filter `before` ahead of gpulz: the dataset written and closed (a
 * mandatory filter's failures surface at the close), read back, and slot 5
 * as input_bytes_from_dcpl says (the chunk size + 4 for Fletcher-32, else
 * 0).  Behind Fletcher-32 every chunk is stored with gpulz (mask bit 1
 * clear) and far smaller than the data; behind deflate or scaleoffset an
 * optional gpulz may find nothing to gain. */
static void before_gpulz(const char *name, H5Z_filter_t before, unsigned flags, const int32_t *v)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    if (before == H5Z_FILTER_FLETCHER32)
        CHECK(H5Pset_fletcher32(dcpl) >= 0);
    else if (before == H5Z_FILTER_DEFLATE)
        CHECK(H5Pset_deflate(dcpl, 1) >= 0);
    else
        CHECK(H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT) >= 0);
    CHECK(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, flags, 0, NULL) >= 0);
    hid_t d = H5Dcreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECKF(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 && H5Dclose(d) >= 0,
           "%s: the write failed", name);
    d = H5Dopen2(file, name, H5P_DEFAULT);
    static int32_t back[N];
    CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
    CHECKF(memcmp(back, v, sizeof back) == 0, "%s: data differ", name);
    unsigned stored[8];
    CHECK(h5u_stored_cd(d, stored, NULL, NULL, 0) > H5Z_GPULZ_CD_CHUNK_BYTES);
    const unsigned want = before == H5Z_FILTER_FLETCHER32 ? CHUNK * 4 + 4 : 0;
    CHECKF(stored[H5Z_GPULZ_CD_CHUNK_BYTES] == want, "%s: slot 5 holds %u, not %u", name,
           stored[H5Z_GPULZ_CD_CHUNK_BYTES], want);
    hsize_t total = 0;
    for (hsize_t k = 0; k < N / CHUNK; k++) {
        hsize_t offset[1], size;
        unsigned mask;
        haddr_t addr;
        h5u_chunk_info(d, k, offset, &mask, &addr, &size);
        /* bit 1: the second filter, gpulz, skipped this chunk */
        CHECKF(before != H5Z_FILTER_FLETCHER32 || !(mask & 2), "%s: chunk %llu stored without gpulz (mask %u)",
               name, (unsigned long long)k, mask);
        total += size;
    }
    CHECKF(before != H5Z_FILTER_FLETCHER32 || total < (hsize_t)N, "%s: %llu bytes stored for %d", name,
           (unsigned long long)total, N * 4);
    printf("%-22s %s gpulz, slot 5 = %u: %d bytes stored in %llu\n", name,
           flags == H5Z_FLAG_OPTIONAL ? "optional" : "mandatory", want, N * 4, (unsigned long long)total);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/* Fletcher-32 before gpulz on chunks within 4 bytes of HDF5's 4 GiB: what
 * gpulz is handed passes the 32 bits of slot 5, so creation fails, saying
 * why (it blamed a filter that changes the size, deflate or scaleoffset,
 * which the pipeline does not hold); a chunk 4 bytes shorter records
 * 2^32 - 1.  Nothing is written: no chunk is allocated or compressed. */
static void fletcher_at_limit(void)
{
    static const hsize_t sizes[2] = {0xfffffffcull, 0xfffffffbull};
    for (int k = 0; k < 2; k++) {
        hsize_t dims[1] = {sizes[k]}, chunk[1] = {sizes[k]};
        char name[32];
        snprintf(name, sizeof name, "fletcher_%llu", (unsigned long long)sizes[k]);
        hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE), d;
        CHECK(space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_fletcher32(dcpl) >= 0 &&
              H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 0, NULL) >= 0);
        H5E_BEGIN_TRY { d = H5Dcreate2(file, name, H5T_STD_U8LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT); }
        H5E_END_TRY;
        if (k == 0) {
            CHECKF(d < 0, "Fletcher-32 then gpulz, chunks of %llu bytes: created", (unsigned long long)sizes[k]);
            const char *text = h5u_error_text();
            CHECKF(strstr(text, "Fletcher-32 before gpulz") && !strstr(text, "deflate"),
                   "Fletcher-32 past 32 bits: the error stack holds\n%s", text);
        } else {
            CHECKF(d >= 0, "Fletcher-32 then gpulz, chunks of %llu bytes: not created", (unsigned long long)sizes[k]);
            unsigned stored[8];
            CHECK(h5u_stored_cd(d, stored, NULL, NULL, 0) > H5Z_GPULZ_CD_CHUNK_BYTES);
            CHECKF(stored[H5Z_GPULZ_CD_CHUNK_BYTES] == 0xffffffffu, "chunks of %llu bytes: slot 5 holds %u",
                   (unsigned long long)sizes[k], stored[H5Z_GPULZ_CD_CHUNK_BYTES]);
            CHECK(H5Dclose(d) >= 0);
        }
        H5Pclose(dcpl);
        H5Sclose(space);
    }
    printf("fletcher32_then_gpulz   chunks of 4 GiB - 4 refused at creation, 4 GiB - 5 recorded\n");
}

/* A filter after gpulz: n-bit and scale-offset are refused at creation, with
 * the reason, whatever gpulz's flags; shuffle and deflate there write data
 * that reads back. */
static void after_gpulz(const char *name, H5Z_filter_t after, unsigned flags, const int32_t *v)
{
    hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), d;
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    CHECK(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, flags, 0, NULL) >= 0);
    if (after == H5Z_FILTER_NBIT)
        CHECK(H5Pset_nbit(dcpl) >= 0);
    else if (after == H5Z_FILTER_SCALEOFFSET)
        CHECK(H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT) >= 0);
    else if (after == H5Z_FILTER_SZIP)
        CHECK(H5Pset_szip(dcpl, H5_SZIP_NN_OPTION_MASK, 32) >= 0);
    else if (after == H5Z_FILTER_SHUFFLE)
        CHECK(H5Pset_shuffle(dcpl) >= 0);
    else
        CHECK(H5Pset_deflate(dcpl, 1) >= 0);
    const int refused = after == H5Z_FILTER_NBIT || after == H5Z_FILTER_SCALEOFFSET || after == H5Z_FILTER_SZIP;
    H5E_BEGIN_TRY { d = H5Dcreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT); }
    H5E_END_TRY;
    if (refused) {
        const char *text = h5u_error_text();
        CHECKF(d < 0, "%s: created", name);
        CHECKF(strstr(text, "after gpulz in the filter pipeline"), "%s: the error stack holds\n%s", name, text);
    } else {
        static int32_t back[N];
        CHECKF(d >= 0, "%s: not created", name);
        CHECK(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 && H5Dclose(d) >= 0);
        d = H5Dopen2(file, name, H5P_DEFAULT);
        CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0);
        CHECKF(memcmp(back, v, sizeof back) == 0, "%s: data differ", name);
        CHECK(H5Dclose(d) >= 0);
    }
    printf("%-22s %s gpulz: %s\n", name, flags == H5Z_FLAG_OPTIONAL ? "optional" : "mandatory",
           refused ? "refused at creation" : "reads back");
    H5Pclose(dcpl);
    H5Sclose(space);
}

int main(void)
{
    static int32_t ints[N];
    static uint8_t recs[N * 11];
    for (int i = 0; i < N; i++)
        ints[i] = 100000 + i / 5;
    for (int i = 0; i < N * 11; i++)
        recs[i] = (uint8_t)((i / 11) % 64 < 32 ? i % 11 : 7);
    file = H5Fcreate("h5_shuffle.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(file >= 0);
    pipeline("int32_S8", H5T_STD_I32LE, ints, 4, 8);
    pipeline("int32_S4", H5T_STD_I32LE, ints, 4, 4);
    hid_t t = H5Tcreate(H5T_OPAQUE, 11);
    CHECK(t >= 0 && H5Tset_tag(t, "record") >= 0);
    pipeline("opaque11_S4", t, recs, 11, 4);
    H5Tclose(t);
    static const H5Z_filter_t befores[] = {H5Z_FILTER_FLETCHER32, H5Z_FILTER_DEFLATE, H5Z_FILTER_SCALEOFFSET};
    static const char *const names[] = {"fletcher32", "deflate", "scaleoffset"};
    for (int b = 0; b < 3; b++)
        for (int opt = 0; opt < 2; opt++) {
            char name[48];
            snprintf(name, sizeof name, "%s_then_gpulz_%s", names[b], opt ? "opt" : "mand");
            before_gpulz(name, befores[b], opt ? H5Z_FLAG_OPTIONAL : H5Z_FLAG_MANDATORY, ints);
        }
    static const H5Z_filter_t afters[] = {H5Z_FILTER_NBIT, H5Z_FILTER_SCALEOFFSET, H5Z_FILTER_SZIP,
                                          H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE};
    static const char *const anames[] = {"nbit", "scaleoffset", "szip", "shuffle", "deflate"};
    unsigned szip_config = 0;
    const int szip = H5Zfilter_avail(H5Z_FILTER_SZIP) > 0 &&
                     H5Zget_filter_info(H5Z_FILTER_SZIP, &szip_config) >= 0 &&
                     (szip_config & H5Z_FILTER_CONFIG_ENCODE_ENABLED);
    for (int a = 0; a < 5; a++)
        for (int opt = 0; opt < 2; opt++) {
            if (afters[a] == H5Z_FILTER_SZIP && !szip) {
                printf("gpulz_then_szip        skipped: this HDF5 has no SZIP encoder\n");
                break;
            }
            char name[48];
            snprintf(name, sizeof name, "gpulz_then_%s_%s", anames[a], opt ? "opt" : "mand");
            after_gpulz(name, afters[a], opt ? H5Z_FLAG_OPTIONAL : H5Z_FLAG_MANDATORY, ints);
        }
    /* behind deflate a chunk is read with the cap: one that could pass it
     * is refused at creation, with the reason */
    {
        hsize_t dims[1] = {N}, chunk[1] = {CHUNK};
        hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
        CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_deflate(dcpl, 1) >= 0 &&
              H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 0, NULL) >= 0);
        setenv("GPULZ_LEGACY_CHUNK_MAX", "4K", 1);
        hid_t d;
        H5E_BEGIN_TRY { d = H5Dcreate2(file, "over_cap", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT); }
        H5E_END_TRY;
        CHECKF(d < 0, "deflate then gpulz, %d-byte chunks under a 4 KiB cap: created", CHUNK * 4);
        const char *text = h5u_error_text();
        CHECKF(strstr(text, "could not be read back"), "over the cap: the error stack holds\n%s", text);
        unsetenv("GPULZ_LEGACY_CHUNK_MAX");
        H5Pclose(dcpl);
        H5Sclose(space);
        printf("deflate_then_gpulz      chunks that could pass the read cap refused at creation\n");
    }
    fletcher_at_limit();
    CHECK(H5Fclose(file) >= 0);
    remove("h5_shuffle.h5");
    return 0;
}
