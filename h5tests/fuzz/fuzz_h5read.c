/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_h5read.c - libFuzzer target of the filter's read path: the input is a
 * stored chunk of an HDF5 dataset, written with H5Dwrite_chunk (filter mask
 * 0) and read back with H5Dread, so that HDF5 hands it to the gpulz filter
 * exactly as it would a chunk from a damaged or forged file.
 *
 * Input: byte 0 picks the dataset and the chunk (see datasets[]), the rest
 * is the stored chunk.  Everything lives in memory (the core driver without
 * a backing store): a file made at start-up with datasets of the current
 * filter (six cd_values, the chunk size recorded) and a copy of
 * h5tests/expected/gpulz-0.1-fixture.h5 for datasets of gpulz 0.1 (five
 * cd_values, no chunk size: the GPULZ_LEGACY_CHUNK_MAX cap applies, set to
 * 1M here).
 *
 * Invariants (abort() when broken):
 *  - the read goes through the filter: exactly one reverse filter call;
 *  - a read that succeeds had a chunk the codec decodes, declaring exactly
 *    the dataset's chunk size (0.1 datasets: at least that size, at most the
 *    cap), and returns the codec's output for the part of the chunk inside
 *    the dataset;
 *  - a read that fails leaves a "gpulz:" message on the HDF5 error stack;
 *  - a chunk the codec decodes to exactly the dataset's chunk size reads.
 *
 * Not fed: a chunk longer than HDF5 can store for its dataset (stored_max):
 * H5Dwrite_chunk refuses it, so no file holds one.
 *
 * Not fed: a valid chunk of a 0.1 dataset declaring fewer bytes than the
 * dataset's chunks hold (but more than 0).  Those datasets do not record
 * their chunk size, so the filter cannot tell, and HDF5 (1.10.8 at least)
 * copies a whole chunk out of the shorter buffer the filter returns: a heap
 * over-read in HDF5 that would stop every run.  Applying the filter again
 * (h5repack -f UD=...) records the chunk size and closes it (docs/FORMAT.md 9).
 *
 * Built by `make fuzz-h5read` (clang -fsanitize=fuzzer,address,undefined,
 * with the filter core and the codec compiled in); the h5_read_corpus test
 * links it into a plain program that replays h5tests/fuzz/corpus_h5read.
 * The fixture is found through $top_srcdir (default: the current directory).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "H5Zgpulz.h"
#include "gpulz.h"

#include "fuzz_h5read.h"

#define LEGACY_CAP ((size_t)1 << 20) /* GPULZ_LEGACY_CHUNK_MAX for the 0.1 datasets */
#define REGION_MAX ((size_t)64 << 10) /* the largest chunk of any dataset here */

typedef struct fuzz_dataset {
    const char *name;
    int legacy; /* in the 0.1 fixture, else created here */
    hid_t type; /* file type = memory type: no conversion on read */
    int rank;
    hsize_t dims[2], chunk[2];
    unsigned filter_flags; /* for the datasets created here */
    unsigned cd[5];        /* what the writer passes (set_local resolves the 0s) */
    hid_t id;
    size_t chunk_bytes;
    size_t stored_max; /* the longest stored chunk HDF5 writes for it */
    hsize_t nchunks[2];
} fuzz_dataset;

/* Types are filled in at start-up (the H5T_* macros are not constants). */
static fuzz_dataset datasets[FUZZ_H5READ_DATASETS] = {
    /* 1024-byte chunks, the last one partial */
    {"i32", 0, 0, 1, {1000}, {256}, H5Z_FLAG_MANDATORY, {0, 0, 0, 0, 0}, -1, 0, 0, {0}},
    /* odd chunk dimensions: edge chunks in both directions */
    {"u16_2d", 0, 0, 2, {30, 20}, {13, 7}, H5Z_FLAG_MANDATORY, {0, 0, 0, 0, 0}, -1, 0, 0, {0}},
    /* 64 KiB chunks of an 8-byte type */
    {"f64", 0, 0, 1, {10000}, {8192}, H5Z_FLAG_MANDATORY, {0, 0, 0, 0, 0}, -1, 0, 0, {0}},
    /* optional filter, other parameters */
    {"u8_optional", 0, 0, 1, {1500}, {600}, H5Z_FLAG_OPTIONAL, {0, 2, 32, 256, 1}, -1, 0, 0, {0}},
    /* gpulz 0.1: 32 KiB chunks, no chunk size recorded */
    {"int32_defaults", 1, 0, 1, {30000}, {8192}, 0, {0}, -1, 0, 0, {0}},
    /* gpulz 0.1: 2-D, 32 x 32 uint16 chunks over 60 x 70 */
    {"u16_2d", 1, 0, 2, {60, 70}, {32, 32}, 0, {0}, -1, 0, 0, {0}},
};

int fuzz_h5read_outcome = FUZZ_H5READ_NOT_READ;

static hid_t file_new = -1, file_legacy = -1;
static unsigned long reverse_calls;
static uint8_t *expected;   /* the codec's output, up to LEGACY_CAP bytes */
static uint8_t *region;     /* what H5Dread returns: the chunk's part inside the dataset */

/* ---- the filter, counted ----------------------------------------------- */

static size_t counting_filter(unsigned flags, size_t cd_nelmts, const unsigned cd_values[],
                              size_t nbytes, size_t *buf_size, void **buf)
{
    if (flags & H5Z_FLAG_REVERSE)
        reverse_calls++;
    return H5Z_GPULZ[0].filter(flags, cd_nelmts, cd_values, nbytes, buf_size, buf);
}

/* ---- start-up ------------------------------------------------------------ */

#define REQUIRE(cond)                                                                         \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "fuzz_h5read: start-up failed at line %d: %s\n", __LINE__, #cond); \
            H5Eprint2(H5E_DEFAULT, stderr);                                                   \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

static hid_t core_fapl(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    REQUIRE(fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 20, 0) >= 0);
    return fapl;
}

/* The 0.1 fixture, copied into memory: writable there, untouched on disk. */
static hid_t open_fixture(void)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/h5tests/expected/gpulz-0.1-fixture.h5", top && *top ? top : ".");
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_h5read: cannot open %s (set top_srcdir to the source tree)\n", path);
        abort();
    }
    REQUIRE(fseek(f, 0, SEEK_END) == 0);
    long len = ftell(f);
    REQUIRE(len > 0 && fseek(f, 0, SEEK_SET) == 0);
    void *image = malloc((size_t)len);
    REQUIRE(image && fread(image, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    hid_t fapl = core_fapl();
    REQUIRE(H5Pset_file_image(fapl, image, (size_t)len) >= 0); /* copies it */
    free(image);
    hid_t file = H5Fopen("gpulz-0.1-fixture.h5", H5F_ACC_RDWR, fapl);
    REQUIRE(file >= 0);
    H5Pclose(fapl);
    return file;
}

/* Fill a dataset created here with a pattern, through the filter. */
static void fill_dataset(fuzz_dataset *d)
{
    size_t n = H5Tget_size(d->type) * (size_t)d->dims[0] * (d->rank > 1 ? (size_t)d->dims[1] : 1);
    uint8_t *v = malloc(n);
    REQUIRE(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint8_t)((i / 13) * 7 % 251);
    REQUIRE(H5Dwrite(d->id, d->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    free(v);
}

static void init(void)
{
    /* the filter reads these on every chunk: the CPU, one thread, a modest cap */
    setenv("GPULZ_BACKEND", "cpu", 1);
    setenv("GPULZ_THREADS", "1", 1);
    setenv("GPULZ_LEGACY_CHUNK_MAX", "1M", 1);
    unsetenv("GPULZ_VERBOSE");
    REQUIRE(H5open() >= 0);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    REQUIRE(H5PLset_loading_state(0) >= 0); /* nothing from HDF5_PLUGIN_PATH */
    REQUIRE(gpulz_h5_register() >= 0 && H5Zfilter_avail(H5Z_FILTER_GPULZ) > 0);
    H5Z_class2_t counted = H5Z_GPULZ[0]; /* the same class, its filter counted */
    counted.filter = counting_filter;
    REQUIRE(H5Zregister(&counted) >= 0);
#if GPULZ_HAVE_PROVISIONAL_CLASS
    /* the 0.1 fixture carries the provisional ID, another class where a
     * registered ID is written */
    H5Z_class2_t counted_provisional = H5Z_GPULZ_PROVISIONAL[0];
    counted_provisional.filter = counting_filter;
    REQUIRE(H5Zregister(&counted_provisional) >= 0);
#endif

    expected = malloc(LEGACY_CAP);
    region = malloc(REGION_MAX);
    REQUIRE(expected && region);

    datasets[0].type = H5T_STD_I32LE;
    datasets[1].type = H5T_STD_U16LE;
    datasets[2].type = H5T_IEEE_F64LE;
    datasets[3].type = H5T_STD_U8LE;
    datasets[4].type = H5T_STD_I32LE;
    datasets[5].type = H5T_STD_U16LE;

    hid_t fapl = core_fapl();
    file_new = H5Fcreate("fuzz_h5read.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    REQUIRE(file_new >= 0);
    H5Pclose(fapl);
    file_legacy = open_fixture();

    /* no chunk cache: every read decompresses the chunk just written */
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    REQUIRE(dapl >= 0 && H5Pset_chunk_cache(dapl, 0, 0, 1.0) >= 0);
    for (int k = 0; k < FUZZ_H5READ_DATASETS; k++) {
        fuzz_dataset *d = &datasets[k];
        d->chunk_bytes = H5Tget_size(d->type);
        for (int i = 0; i < d->rank; i++) {
            d->chunk_bytes *= (size_t)d->chunk[i];
            d->nchunks[i] = (d->dims[i] + d->chunk[i] - 1) / d->chunk[i];
        }
        if (d->rank == 1)
            d->nchunks[1] = 1;
        /* HDF5 records a filtered chunk's stored size in 1 + (floor(log2 of
         * the chunk's bytes) + 8) / 8 bytes, at most 8, and H5Dwrite_chunk
         * refuses a chunk whose size needs more (H5D__chunk_file_alloc:
         * "chunk size can't be encoded"): 65535 bytes for the 182 of u16_2d */
        unsigned enc = 1, bits = 0;
        while (d->chunk_bytes >> (bits + 1))
            bits++;
        enc += (bits + 8) / 8;
        d->stored_max = enc >= 8 ? SIZE_MAX : ((size_t)1 << 8 * enc) - 1;
        static const size_t want_bytes[] = FUZZ_H5READ_CHUNK_BYTES;
        static const unsigned want_chunks[] = FUZZ_H5READ_CHUNKS, want_legacy[] = FUZZ_H5READ_LEGACY;
        REQUIRE(d->chunk_bytes == want_bytes[k] && d->chunk_bytes <= REGION_MAX);
        REQUIRE(d->nchunks[0] * d->nchunks[1] == want_chunks[k] && d->legacy == (int)want_legacy[k]);
        if (d->legacy) {
            d->id = H5Dopen2(file_legacy, d->name, dapl);
        } else {
            hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
            hid_t space = H5Screate_simple(d->rank, d->dims, NULL);
            REQUIRE(dcpl >= 0 && space >= 0 && H5Pset_chunk(dcpl, d->rank, d->chunk) >= 0);
            REQUIRE(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, d->filter_flags, 5, d->cd) >= 0);
            d->id = H5Dcreate2(file_new, d->name, d->type, space, H5P_DEFAULT, dcpl, dapl);
            H5Pclose(dcpl);
            H5Sclose(space);
        }
        REQUIRE(d->id >= 0);
        if (!d->legacy)
            fill_dataset(d);

        /* the dataset is what it claims: shape, type, and the cd_values of its release */
        hid_t space = H5Dget_space(d->id), type = H5Dget_type(d->id), dcpl = H5Dget_create_plist(d->id);
        hsize_t dims[2] = {0, 0}, chunk[2] = {0, 0};
        unsigned cd[8], flags;
        size_t ncd = 8;
        REQUIRE(H5Sget_simple_extent_dims(space, dims, NULL) == d->rank);
        REQUIRE(H5Pget_chunk(dcpl, 2, chunk) == d->rank);
        REQUIRE(H5Tequal(type, d->type) > 0);
        H5Z_filter_t id = d->legacy ? H5Z_FILTER_GPULZ_PROVISIONAL : H5Z_FILTER_GPULZ;
        REQUIRE(H5Pget_filter_by_id2(dcpl, id, &flags, &ncd, cd, 0, NULL, NULL) >= 0);
        for (int i = 0; i < d->rank; i++)
            REQUIRE(dims[i] == d->dims[i] && chunk[i] == d->chunk[i]);
        if (d->legacy)
            REQUIRE(ncd == H5Z_GPULZ_CD_NELMTS);
        else
            REQUIRE(ncd == H5Z_GPULZ_CD_NELMTS_STORED && cd[H5Z_GPULZ_CD_CHUNK_BYTES] == d->chunk_bytes &&
                    (flags & H5Z_FLAG_OPTIONAL) == (d->filter_flags & H5Z_FLAG_OPTIONAL));
        H5Sclose(space);
        H5Tclose(type);
        H5Pclose(dcpl);
    }
    H5Pclose(dapl);
    /* files and datasets stay open until exit: HDF5 closes them at exit */
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (file_new < 0)
        init();
    return 0;
}

/* ---- one input ------------------------------------------------------------ */

static herr_t find_gpulz(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e->desc && strncmp(e->desc, "gpulz:", 6) == 0)
        *(int *)data = 1;
    return 0;
}

static int stack_has_gpulz(void)
{
    int found = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_gpulz, &found);
    return found;
}

#define BROKEN(...)                                                                           \
    do {                                                                                      \
        fprintf(stderr, "fuzz_h5read: %s%s chunk (%llu, %llu), %zu bytes: ",                  \
                d->legacy ? "0.1 " : "", d->name, (unsigned long long)offset[0],              \
                (unsigned long long)offset[1], size);                                         \
        fprintf(stderr, __VA_ARGS__);                                                         \
        fputc('\n', stderr);                                                                  \
        H5Eprint2(H5E_DEFAULT, stderr);                                                       \
        abort();                                                                              \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (file_new < 0)
        init();
    fuzz_h5read_outcome = FUZZ_H5READ_NOT_READ;
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    fuzz_dataset *d = &datasets[sel % FUZZ_H5READ_DATASETS];
    unsigned c = sel / FUZZ_H5READ_DATASETS % (unsigned)(d->nchunks[0] * d->nchunks[1]);
    hsize_t offset[2] = {c / d->nchunks[1] * d->chunk[0], 0}, count[2] = {0, 1};
    if (d->rank > 1)
        offset[1] = c % d->nchunks[1] * d->chunk[1];
    for (int i = 0; i < d->rank; i++)
        count[i] = offset[i] + d->chunk[i] <= d->dims[i] ? d->chunk[i] : d->dims[i] - offset[i];
    data++;
    size--;
    if (size == 0)
        return 0; /* HDF5 stores no empty chunk (H5Dwrite_chunk refuses it) */
    if (size > d->stored_max)
        return 0; /* nor one longer than its dataset's chunks can record */

    /* what the codec makes of it */
    gpulz_params p;
    gpulz_params_init(&p);
    p.threads = 1;
    p.backend = GPULZ_BACKEND_CPU;
    uint64_t declared = 0;
    size_t len = 0;
    int valid = gpulz_decompressed_size(data, size, &declared) == GPULZ_OK &&
                declared <= LEGACY_CAP &&
                gpulz_decompress(data, size, expected, (size_t)declared, &len, &p) == GPULZ_OK;
    if (valid && len != declared)
        BROKEN("the codec decoded %zu bytes of a chunk declaring %llu", len,
               (unsigned long long)declared);
    if (d->legacy && valid && declared > 0 && declared < d->chunk_bytes)
        return 0; /* the known limit of 0.1 datasets (see the top of the file) */

    /* store it and read its part of the dataset back through the filter */
    if (H5Dwrite_chunk(d->id, H5P_DEFAULT, 0, offset, size, data) < 0)
        BROKEN("H5Dwrite_chunk failed");
    hid_t fs = H5Dget_space(d->id), ms = H5Screate_simple(d->rank, count, NULL);
    if (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, offset, NULL, count, NULL) < 0)
        BROKEN("cannot select the chunk");
    unsigned long calls = reverse_calls;
    herr_t rc = H5Dread(d->id, d->type, ms, fs, H5P_DEFAULT, region);
    int gpulz_said = rc < 0 && stack_has_gpulz();
    H5Eclear2(H5E_DEFAULT);
    H5Sclose(ms);
    H5Sclose(fs);
    fuzz_h5read_outcome = rc >= 0 ? FUZZ_H5READ_OK : FUZZ_H5READ_REFUSED;

    if (reverse_calls != calls + 1)
        BROKEN("%lu calls of the filter for one chunk (a cached chunk?)", reverse_calls - calls);
    int right_size = d->legacy ? declared >= d->chunk_bytes : declared == d->chunk_bytes;
    if (rc < 0) {
        if (!gpulz_said)
            BROKEN("the read failed without a gpulz message");
        if (valid && right_size)
            BROKEN("a valid chunk of %llu bytes was refused", (unsigned long long)declared);
        return 0;
    }
    if (!valid)
        BROKEN("read, but the codec refuses it");
    if (!right_size)
        BROKEN("read, but it declares %llu bytes where the dataset's chunks hold %zu",
               (unsigned long long)declared, d->chunk_bytes);
    size_t elem = H5Tget_size(d->type), row = (size_t)count[1] * elem;
    size_t stride = (d->rank > 1 ? (size_t)d->chunk[1] : 1) * elem;
    if (d->rank == 1)
        row = (size_t)count[0] * elem;
    for (size_t r = 0; r < (d->rank > 1 ? (size_t)count[0] : 1); r++)
        if (memcmp(region + r * row, expected + r * stride, row) != 0)
            BROKEN("row %zu of the chunk differs from the codec's output", r);
    return 0;
}
