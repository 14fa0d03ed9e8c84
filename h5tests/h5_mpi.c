/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_mpi.c - the plugin in an MPI program, through parallel HDF5.
 *
 * Every rank writes its own band of rows of two 2-D chunked datasets through
 * gpulz with one collective H5Dwrite each (parallel HDF5 >= 1.10.2 filters
 * only collectively: it gathers each chunk's pieces on one rank, which runs
 * the filter).  The bands do not line up with the chunks, so chunks are
 * shared by two ranks, and both extents leave partial edge chunks.  The file
 * is then read back in parallel, collectively and independently, each rank
 * checking every value of its own band and of another rank's; rank 0 alone
 * reopens it with the sec2 driver and checks every value, the filter stored
 * in the dataset, each chunk's filter mask and the storage size.  Direct
 * chunk I/O (libh5gpulz) into a file open with MPI-IO does not take its
 * chunk path for writes (H5Dwrite_chunk from one rank breaks the file's
 * metadata), so a collective gpulz_h5_write_direct stores what H5Dwrite
 * does; gpulz_h5_read_direct of the whole dataset on every rank takes it.
 * With a collective transfer both calls go through HDF5 on every rank, the
 * ranks that select nothing too, whatever the others select.
 * Finally a dataset with an invalid window and a write whose filter cannot
 * run must fail on every rank with gpulz's reason on the HDF5 error stack.
 *
 * The filter ID comes from GPULZ_FILTER_ID (the test harness exports it) and
 * the plugin from HDF5_PLUGIN_PATH.  Usage: mpiexec -n N h5_mpi FILE
 * An unexpected HDF5 failure aborts the job; a wrong value fails the rank
 * that read it (exit 1).
 */
#include "config.h"

#include "h5_util.h"

#include <mpi.h>
#if GPULZ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static int rank, nranks;

/* h5_util.h's checks exit(); under MPI a failing rank must take the others
 * down with it rather than leave them waiting in a collective call. */
#undef CHECK
#undef CHECKF
#define CHECKF(cond, ...)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", rank, __FILE__, __LINE__,  \
                    #cond);                                                                  \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
            H5Eprint2(H5E_DEFAULT, stderr);                                                  \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                    \
        }                                                                                    \
    } while (0)
#define CHECK(cond) CHECKF(cond, "%s", "")

static H5Z_filter_t filter_id;

/*
 * One dataset of the test: an integer type, rows_per_rank rows per rank (so
 * nranks bands), cols columns, chunks of chunk[0] x chunk[1].  Values are a
 * function of the global index, so any rank can check any element.
 */
typedef struct {
    const char *name;
    hid_t type;      /* file and memory type (native) */
    size_t size;     /* bytes per element */
    hsize_t rows_per_rank, cols, chunk[2];
} dataset_spec;

/* Quantization-like codes: mostly the centre 512, sparse small deviations
 * and a slow drift, as an error-bounded quantizer leaves a smooth field. */
static uint16_t quant_value(uint64_t r, uint64_t c)
{
    uint64_t h = (r * 1000003u + c) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    int d = (h & 15) == 0 ? (int)((h >> 8) % 9) - 4 : 0;
    return (uint16_t)(512 + d + (int)((r / 8 + c / 32) % 3) - 1);
}

/* Records: a few large, negative and positive, 8-byte keys per row, repeated
 * along the row in runs of 16. */
static int64_t record_value(uint64_t r, uint64_t c)
{
    return ((int64_t)(r % 7) - 3) * 1000000007ll * 4096 + (int64_t)(c / 16) * 12345;
}

static void expected(const dataset_spec *d, uint64_t r, uint64_t c, void *out)
{
    if (d->size == 2) {
        uint16_t v = quant_value(r, c);
        memcpy(out, &v, 2);
    } else {
        int64_t v = record_value(r, c);
        memcpy(out, &v, 8);
    }
}

/* The band of rank b: rows [b * rows_per_rank, (b + 1) * rows_per_rank). */
static void *band_values(const dataset_spec *d, int b)
{
    size_t n = (size_t)(d->rows_per_rank * d->cols);
    unsigned char *buf = malloc(n * d->size);
    CHECK(buf);
    for (hsize_t i = 0; i < d->rows_per_rank; i++)
        for (hsize_t c = 0; c < d->cols; c++)
            expected(d, (uint64_t)b * d->rows_per_rank + i, c,
                     buf + (size_t)(i * d->cols + c) * d->size);
    return buf;
}

/* Count (and report the first of) the elements of got, rows [row0, row0 +
 * nrows), that differ from the expected values. */
static size_t mismatches(const dataset_spec *d, const void *got, hsize_t row0, hsize_t nrows,
                         const char *what)
{
    size_t bad = 0;
    const unsigned char *p = got;
    unsigned char want[8];
    for (hsize_t i = 0; i < nrows; i++)
        for (hsize_t c = 0; c < d->cols; c++, p += d->size) {
            expected(d, row0 + i, c, want);
            if (memcmp(p, want, d->size) != 0 && bad++ == 0)
                fprintf(stderr, "rank %d: %s %s: element (%llu, %llu) differs\n", rank, d->name,
                        what, (unsigned long long)(row0 + i), (unsigned long long)c);
        }
    if (bad)
        fprintf(stderr, "rank %d: %s %s: %zu of %llu elements differ\n", rank, d->name, what, bad,
                (unsigned long long)(nrows * d->cols));
    return bad;
}

static hid_t parallel_fapl(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(fapl >= 0);
    CHECK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0);
    return fapl;
}

static hid_t transfer(H5FD_mpio_xfer_t mode)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    CHECK(dxpl >= 0);
    CHECK(H5Pset_dxpl_mpio(dxpl, mode) >= 0);
    return dxpl;
}

/* HDF5 may quietly turn a collective transfer into independent ones (and
 * says why in the dxpl): a collective test must have been collective. */
static void check_was_collective(hid_t dxpl, const char *name, const char *what)
{
    H5D_mpio_actual_io_mode_t io_mode;
    uint32_t local = 0, global = 0;
    CHECK(H5Pget_mpio_actual_io_mode(dxpl, &io_mode) >= 0);
    CHECK(H5Pget_mpio_no_collective_cause(dxpl, &local, &global) >= 0);
    CHECKF(io_mode != H5D_MPIO_NO_COLLECTIVE && local == 0 && global == 0,
           "%s: %s was not collective (mode %d, causes 0x%x 0x%x)", name, what, (int)io_mode,
           local, global);
}

/* The file and memory dataspaces of band b. */
static void band_spaces(const dataset_spec *d, hid_t dset, int b, hid_t *file_space,
                        hid_t *mem_space)
{
    hsize_t start[2] = {(hsize_t)b * d->rows_per_rank, 0}, count[2] = {d->rows_per_rank, d->cols};
    *file_space = H5Dget_space(dset);
    CHECK(*file_space >= 0);
    CHECK(H5Sselect_hyperslab(*file_space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0);
    *mem_space = H5Screate_simple(2, count, NULL);
    CHECK(*mem_space >= 0);
}

static hid_t create_dcpl(const dataset_spec *d, const unsigned cd[5])
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl >= 0);
    CHECK(H5Pset_chunk(dcpl, 2, d->chunk) >= 0);
    CHECK(H5Pset_filter(dcpl, filter_id, H5Z_FLAG_MANDATORY, 5, cd) >= 0);
    return dcpl;
}

/* d's dataset, a band of rows for each rank, with gpulz's defaults. */
static hid_t banded_dataset(hid_t file, const dataset_spec *d)
{
    const unsigned defaults[5] = {0, 0, 0, 0, 0};
    hsize_t dims[2] = {d->rows_per_rank * (hsize_t)nranks, d->cols};
    hid_t space = H5Screate_simple(2, dims, NULL), dcpl = create_dcpl(d, defaults);
    hid_t dset = H5Dcreate2(file, d->name, d->type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECKF(dset >= 0, "%s: create", d->name);
    H5Pclose(dcpl);
    H5Sclose(space);
    return dset;
}

/* Every rank writes its band, collectively. */
static void write_dataset(hid_t file, const dataset_spec *d)
{
    hid_t dset = banded_dataset(file, d);
    hid_t fs, ms, dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    band_spaces(d, dset, rank, &fs, &ms);
    void *buf = band_values(d, rank);
    CHECKF(H5Dwrite(dset, d->type, ms, fs, dxpl, buf) >= 0, "%s: collective write", d->name);
    check_was_collective(dxpl, d->name, "the write");
    free(buf);
    H5Sclose(fs);
    H5Sclose(ms);
    H5Pclose(dxpl);
    CHECK(H5Dclose(dset) >= 0);
}

/* Read band b of an open dataset with the given transfer mode and check it. */
static size_t read_band(hid_t dset, const dataset_spec *d, int b, H5FD_mpio_xfer_t mode)
{
    char what[64];
    snprintf(what, sizeof what, "band %d, %s read", b,
             mode == H5FD_MPIO_COLLECTIVE ? "collective" : "independent");
    hid_t fs, ms, dxpl = transfer(mode);
    band_spaces(d, dset, b, &fs, &ms);
    size_t n = (size_t)(d->rows_per_rank * d->cols);
    void *buf = calloc(n, d->size);
    CHECK(buf);
    CHECKF(H5Dread(dset, d->type, ms, fs, dxpl, buf) >= 0, "%s: %s", d->name, what);
    if (mode == H5FD_MPIO_COLLECTIVE)
        check_was_collective(dxpl, d->name, what);
    size_t bad = mismatches(d, buf, (hsize_t)b * d->rows_per_rank, d->rows_per_rank, what);
    free(buf);
    H5Sclose(fs);
    H5Sclose(ms);
    H5Pclose(dxpl);
    return bad;
}

/* Every rank reads its own band and the next rank's, both ways. */
static size_t read_parallel(hid_t file, const dataset_spec *d)
{
    hid_t dset = H5Dopen2(file, d->name, H5P_DEFAULT);
    CHECKF(dset >= 0, "%s: open", d->name);
    int other = (rank + 1) % nranks;
    size_t bad = read_band(dset, d, rank, H5FD_MPIO_COLLECTIVE);
    bad += read_band(dset, d, other, H5FD_MPIO_COLLECTIVE);
    bad += read_band(dset, d, rank, H5FD_MPIO_INDEPENDENT);
    bad += read_band(dset, d, other, H5FD_MPIO_INDEPENDENT);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/*
 * Rank 0, sec2 driver: every value; the stored filter is ours with the
 * documented defaults resolved (S = the element size for these types, W 128,
 * C 2048) and the chunk size recorded; every chunk went through it (filter
 * mask 0) and shrank.
 */
static size_t check_serial(hid_t file, const dataset_spec *d)
{
    size_t bad = 0;
    hsize_t rows = d->rows_per_rank * (hsize_t)nranks;
    hid_t dset = H5Dopen2(file, d->name, H5P_DEFAULT);
    CHECKF(dset >= 0, "%s: open", d->name);
    void *buf = calloc((size_t)(rows * d->cols), d->size);
    CHECK(buf);
    CHECKF(H5Dread(dset, d->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0, "%s: read", d->name);
    bad += mismatches(d, buf, 0, rows, "whole dataset, sec2 read");
    free(buf);

    hid_t dcpl = H5Dget_create_plist(dset);
    CHECK(dcpl >= 0);
    unsigned cd[8] = {0}, flags = 0, config = 0;
    size_t ncd = 8;
    char name[128] = "";
    CHECKF(H5Pget_filter_by_id2(dcpl, filter_id, &flags, &ncd, cd, sizeof name, name, &config) >= 0,
           "%s: filter %d not in the dataset's pipeline", d->name, (int)filter_id);
    /* five 0s: the defaults, mode auto (chunk format 2) */
    CHECKF(ncd == 7 && cd[0] == 2 && cd[1] == d->size && cd[2] == 128 && cd[3] == 2048 && cd[4] == 0 &&
               cd[5] == d->chunk[0] * d->chunk[1] * d->size && cd[6] == H5Z_GPULZ_CD_MODE_AUTO,
           "%s: stored cd_values %zu: {%u, %u, %u, %u, %u, %u, %u}", d->name, ncd, cd[0], cd[1],
           cd[2], cd[3], cd[4], cd[5], cd[6]);
    CHECKF(strstr(name, "gpulz") != NULL, "%s: stored filter name '%s'", d->name, name);
    H5Pclose(dcpl);

    hsize_t raw = rows * d->cols * d->size, stored = H5Dget_storage_size(dset);
    CHECKF(stored > 0 && stored < raw / 2, "%s: %llu bytes stored for %llu raw", d->name,
           (unsigned long long)stored, (unsigned long long)raw);

    hid_t space = H5Dget_space(dset);
    hsize_t nchunks = 0, want_chunks = ((rows + d->chunk[0] - 1) / d->chunk[0]) *
                                       ((d->cols + d->chunk[1] - 1) / d->chunk[1]);
    CHECK(H5Dget_num_chunks(dset, space, &nchunks) >= 0);
    CHECKF(nchunks == want_chunks, "%s: %llu chunks, not %llu", d->name,
           (unsigned long long)nchunks, (unsigned long long)want_chunks);
    hsize_t chunk_raw = d->chunk[0] * d->chunk[1] * d->size;
    for (hsize_t i = 0; i < nchunks; i++) {
        hsize_t offset[2], size = 0;
        unsigned mask = ~0u;
        haddr_t addr;
        CHECK(H5Dget_chunk_info(dset, space, i, offset, &mask, &addr, &size) >= 0);
        CHECKF(mask == 0 && size > 0 && size < chunk_raw, "%s: chunk (%llu, %llu): mask %u, %llu bytes of %llu",
               d->name, (unsigned long long)offset[0], (unsigned long long)offset[1], mask,
               (unsigned long long)size, (unsigned long long)chunk_raw);
    }
    H5Sclose(space);
    printf("%s: %llu x %llu in %llu chunks, %llu bytes stored for %llu raw (ratio %.2f)\n", d->name,
           (unsigned long long)rows, (unsigned long long)d->cols, (unsigned long long)nchunks,
           (unsigned long long)stored, (unsigned long long)raw, (double)raw / (double)stored);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/*
 * Every rank writes its band, whole chunks that the chunk path could take
 * in a serial file, with gpulz_h5_write_direct and a collective transfer:
 * in a file open with MPI-IO the call must go through H5Dwrite (direct =
 * 0).  Every rank then reads the whole dataset with gpulz_h5_read_direct,
 * by its chunk path (reads change no metadata).
 */
static size_t direct_in_parallel(hid_t file)
{
    const dataset_spec d = {"direct", H5T_NATIVE_UINT16, 2, 32, 600, {16, 300}};
    const hsize_t rows = d.rows_per_rank * (hsize_t)nranks;
    hid_t dset = banded_dataset(file, &d);
    hid_t fs, ms, dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    band_spaces(&d, dset, rank, &fs, &ms);
    void *buf = band_values(&d, rank);
    int direct = -1;
    CHECK(gpulz_h5_write_direct(dset, d.type, fs, dxpl, buf, &direct) >= 0);
    CHECKF(direct == 0, "gpulz_h5_write_direct took its chunk path in a file open with MPI-IO");
    free(buf);
    H5Sclose(fs);
    H5Sclose(ms);
    H5Pclose(dxpl);
    CHECK(H5Dclose(dset) >= 0);
    dset = H5Dopen2(file, d.name, H5P_DEFAULT);
    CHECK(dset >= 0);
    void *all = calloc((size_t)(rows * d.cols), d.size);
    CHECK(all);
    direct = -1;
    CHECK(gpulz_h5_read_direct(dset, d.type, H5S_ALL, H5P_DEFAULT, all, &direct) >= 0);
    CHECKF(direct == 1, "gpulz_h5_read_direct of a file open with MPI-IO did not take its chunk path");
    size_t bad = mismatches(&d, all, 0, rows, "direct read of a direct write");
    free(all);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/* Rows [row0, row0 + nrows) of dset selected, or none where nrows is 0. */
static hid_t rows_selected(const dataset_spec *d, hid_t dset, hsize_t row0, hsize_t nrows)
{
    hsize_t start[2] = {row0, 0}, count[2] = {nrows, d->cols};
    hid_t fs = H5Dget_space(dset);
    CHECK(fs >= 0);
    CHECK(nrows ? H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0
                : H5Sselect_none(fs) >= 0);
    return fs;
}

/*
 * Independent reads are a rank's own: rank 0 alone reads its band of the
 * dataset direct_in_parallel wrote, with gpulz_h5_read_direct and the
 * default transfer, then an independent one, the others reading nothing.
 * Before, each call asked the file for its access list to learn its driver,
 * and with MPI-IO that duplicates the file's communicator, a collective
 * call: rank 0 waited for the others in it for ever (3 ranks).
 */
static size_t direct_read_alone(hid_t file)
{
    const dataset_spec d = {"direct", H5T_NATIVE_UINT16, 2, 32, 600, {16, 300}};
    hid_t dset = H5Dopen2(file, d.name, H5P_DEFAULT);
    CHECK(dset >= 0);
    size_t bad = 0;
    if (rank == 0) {
        hid_t dxpl = transfer(H5FD_MPIO_INDEPENDENT), fs = rows_selected(&d, dset, 0, d.rows_per_rank);
        void *got = calloc((size_t)(d.rows_per_rank * d.cols), d.size);
        CHECK(got);
        const hid_t how[2] = {H5P_DEFAULT, dxpl};
        for (int i = 0; i < 2; i++) {
            int direct = -1;
            memset(got, 0, (size_t)(d.rows_per_rank * d.cols) * d.size);
            CHECKF(gpulz_h5_read_direct(dset, d.type, fs, how[i], got, &direct) >= 0, "read alone %d", i);
            CHECKF(direct == 1, "read alone %d: not by the chunk path", i);
            bad += mismatches(&d, got, 0, d.rows_per_rank, "independent read by one rank");
        }
        free(got);
        H5Sclose(fs);
        H5Pclose(dxpl);
    }
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/*
 * gpulz_h5_write_direct and _read_direct with a collective transfer, where
 * some ranks select nothing and others select whole chunks or not: every
 * rank must make HDF5's collective call, an empty selection's too, or the
 * others wait for it for ever.  Two writes: the last rank first selects
 * nothing while the others write their bands, then writes its band while
 * the others select nothing.  Then two collective reads: rank 0 rows that
 * start inside a chunk (HDF5's path), the middle ranks their bands (whole
 * chunks), the last nothing; then every rank its band, where a chunk read
 * would fail (H5Dread_chunk cannot take a collective transfer).  None may
 * take the chunk path.
 */
static size_t direct_collective(hid_t file)
{
    const dataset_spec d = {"direct_collective", H5T_NATIVE_UINT16, 2, 32, 600, {16, 300}};
    const int last = nranks > 1 ? nranks - 1 : -1; /* the rank that writes alone */
    hid_t dset = banded_dataset(file, &d);
    hid_t dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    void *buf = band_values(&d, rank);
    hsize_t row0 = (hsize_t)rank * d.rows_per_rank;
    for (int pass = 0; pass < 2; pass++) {
        int mine = (rank == last) == (pass == 1);
        hid_t fs = rows_selected(&d, dset, row0, mine ? d.rows_per_rank : 0);
        int direct = -1;
        CHECKF(gpulz_h5_write_direct(dset, d.type, fs, dxpl, buf, &direct) >= 0, "write %d", pass);
        CHECKF(direct == 0, "write %d: gpulz_h5_write_direct took its chunk path with MPI-IO", pass);
        H5Sclose(fs);
    }
    size_t bad = 0, n = (size_t)(d.rows_per_rank * d.cols);
    void *got = calloc(n, d.size);
    CHECK(got);
    for (int pass = 0; pass < 2; pass++) {
        hsize_t first = row0, nrows = d.rows_per_rank;
        if (pass == 0 && rank == 0)
            first = 3, nrows -= 3;
        else if (pass == 0 && rank == last)
            nrows = 0;
        hid_t fs = rows_selected(&d, dset, first, nrows);
        int direct = -1;
        CHECKF(gpulz_h5_read_direct(dset, d.type, fs, dxpl, got, &direct) >= 0, "read %d", pass);
        CHECKF(direct == 0, "read %d: gpulz_h5_read_direct took its chunk path with a collective transfer",
               pass);
        bad += mismatches(&d, got, first, nrows, pass ? "collective read" : "mixed collective read");
        H5Sclose(fs);
    }
    free(got);
    free(buf);
    H5Pclose(dxpl);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/* An HDF5 call that must fail: its return value, with HDF5's printing off. */
#define EXPECT_FAIL(expr, call)                                                              \
    do {                                                                                     \
        H5E_auto2_t fn_;                                                                     \
        void *data_;                                                                         \
        H5Eget_auto2(H5E_DEFAULT, &fn_, &data_);                                             \
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);                                               \
        (call) = (expr);                                                                     \
        H5Eset_auto2(H5E_DEFAULT, fn_, data_);                                               \
    } while (0)

/* What the last rank passes where the others pass their bands: a selection
 * that is no dataspace (a property list), a memory type of its own (< 0:
 * the dataset's) or a NULL buffer; and the reason its own stack must then
 * carry (NULL: not looked at). */
typedef struct last_rank_args {
    const char *what;
    int selection_not_a_space;
    hid_t type;
    int null_buffer;
    const char *own_reason;
} last_rank_args;

/*
 * A rank that fails before HDF5's collective call, or whose arguments
 * HDF5 refuses on that rank alone, must not leave the others waiting in it
 * for ever: for each case, the last rank passes what it says, the others
 * their bands, with a collective transfer.  Every rank's
 * gpulz_h5_write_direct, then _read_direct, must come back failing, the
 * others saying that another rank failed, and the dataset must hold what
 * the write before them wrote.
 */
static size_t last_rank_wrong(hid_t file, const char *name, const last_rank_args *cases, int ncases)
{
    const dataset_spec d = {name, H5T_NATIVE_UINT16, 2, 20, 300, {16, 128}};
    const int last = nranks - 1;
    hid_t dset = banded_dataset(file, &d);
    hid_t dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    void *buf = band_values(&d, rank);
    const hsize_t row0 = (hsize_t)rank * d.rows_per_rank;
    hid_t fs = rows_selected(&d, dset, row0, d.rows_per_rank);
    CHECKF(gpulz_h5_write_direct(dset, d.type, fs, dxpl, buf, NULL) >= 0, "%s: the first write", name);
    /* the later writes' values differ: a rank that wrote them would show */
    const size_t n = (size_t)(d.rows_per_rank * d.cols);
    uint16_t *other = malloc(n * d.size);
    CHECK(other);
    for (size_t i = 0; i < n; i++)
        other[i] = (uint16_t)(((const uint16_t *)buf)[i] ^ 0x5A5A);
    for (int k = 0; k < ncases; k++) {
        const last_rank_args *c = &cases[k];
        const int mine = rank == last;
        const hid_t sel = mine && c->selection_not_a_space ? dxpl : fs;
        const hid_t type = mine && c->type >= 0 ? c->type : d.type;
        void *arg = mine && c->null_buffer ? NULL : other;
        for (int writing = 1; writing >= 0; writing--) {
            const char *call = writing ? "write" : "read";
            herr_t st;
            if (writing)
                EXPECT_FAIL(gpulz_h5_write_direct(dset, type, sel, dxpl, arg, NULL), st);
            else
                EXPECT_FAIL(gpulz_h5_read_direct(dset, type, sel, dxpl, arg, NULL), st);
            CHECKF(st < 0, "%s, %s: rank %d's call succeeded though rank %d had %s", name, call, rank, last,
                   c->what);
            char others[64];
            snprintf(others, sizeof others, "another rank failed before the collective %s", call);
            if (!mine)
                CHECKF(strstr(h5u_error_text(), others) != NULL,
                       "%s, %s, %s: no word of the other rank's failure on the stack:\n%s", name, call, c->what,
                       h5u_error_text());
            else if (c->own_reason) /* past the agreement, whose calls into HDF5 would clear the stack */
                CHECKF(strstr(h5u_error_text(), c->own_reason) != NULL,
                       "%s, %s, %s: the rank's own reason is not on its stack:\n%s", name, call, c->what,
                       h5u_error_text());
        }
    }
    /* what the first write stored, and nothing of the others */
    memset(other, 0, n * d.size);
    CHECKF(gpulz_h5_read_direct(dset, d.type, fs, dxpl, other, NULL) >= 0, "%s: the read after", name);
    size_t bad = mismatches(&d, other, row0, d.rows_per_rank, "read after the last rank's wrong calls");
    free(other);
    free(buf);
    H5Sclose(fs);
    H5Pclose(dxpl);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/* The last rank's plan fails (its selection is no dataspace).  Before the
 * ranks agreed, the others waited in H5Dwrite and the job hung (h5_mpi.sh's
 * time limit). */
static size_t direct_rank_fails(hid_t file)
{
    const last_rank_args c[] = {{"a selection that is no dataspace", 1, -1, 0, "cannot get the selection"}};
    return last_rank_wrong(file, "direct_rank_fails", c, 1);
}

/* Arguments HDF5's collective call refuses on the last rank alone, before
 * any MPI call of its own: a memory type with no conversion to or from the
 * dataset's (a string), then a NULL buffer.  Before, the ranks agreed that
 * each was ready, the last rank's H5Dwrite or H5Dread failed at once and the
 * others waited in theirs for ever. */
static size_t direct_rank_refused(hid_t file)
{
    hid_t text = H5Tcopy(H5T_C_S1);
    CHECK(text >= 0 && H5Tset_size(text, 2) >= 0);
    const last_rank_args c[] = {{"a string memory type", 0, text, 0, NULL}, {"a NULL buffer", 0, -1, 1, NULL}};
    size_t bad = last_rank_wrong(file, "direct_rank_refused", c, 2);
    H5Tclose(text);
    return bad;
}

/* bytes of host in device memory, or NULL where there is no GPU (or no CUDA) */
static void *device_copy(const void *host, size_t bytes)
{
    void *dev = NULL;
#if GPULZ_HAVE_CUDA
    if (cudaMalloc(&dev, bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
#else
    (void)host, (void)bytes;
#endif
    return dev;
}

static void device_back(void *host, const void *dev, size_t bytes)
{
#if GPULZ_HAVE_CUDA
    CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
#else
    (void)host, (void)dev, (void)bytes;
#endif
}

static void device_free(void *dev)
{
#if GPULZ_HAVE_CUDA
    cudaFree(dev);
#else
    (void)dev;
#endif
}

/* Whether st says success, the same on every rank. */
static int alike(herr_t st, const char *what)
{
    int ok = st >= 0, lo = 0, hi = 0;
    MPI_Allreduce(&ok, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&ok, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "%s: rank %d %s, another rank did not", what, rank, ok ? "succeeded" : "failed");
    return ok;
}

/*
 * The device variants with a collective transfer, where the ranks are not
 * all ready alike.  First the last rank selects nothing while the others
 * write, then read, their bands: with a GPU every call succeeds; without
 * one (or without CUDA) every rank's call fails, the ranks with a band
 * failing on their device buffer before HDF5's call.  Then the last rank's
 * selection is no dataspace, and every rank's call must fail.  Every rank
 * must come back either way.  Before, a call every rank makes went on from
 * its staging copy into the host call, which planned again and so asked
 * the file for its communicator again (a collective MPI_Comm_dup), while a
 * rank whose plan, staging or device copy had failed waited in the
 * agreement on the first plan's communicator: the job hung (a CUDA build
 * without a GPU hung in the first write, with a GPU in the last).
 */
static size_t direct_device_ranks(hid_t file)
{
    const dataset_spec d = {"direct_device", H5T_NATIVE_UINT16, 2, 32, 600, {16, 300}};
    const int last = nranks - 1;
    hid_t dset = banded_dataset(file, &d);
    hid_t dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    const size_t n = (size_t)(d.rows_per_rank * d.cols), bytes = n * d.size;
    void *buf = band_values(&d, rank), *got = calloc(n, d.size);
    CHECK(got);
    void *dev = device_copy(buf, bytes);
    const hsize_t row0 = (hsize_t)rank * d.rows_per_rank, nrows = rank == last ? 0 : d.rows_per_rank;
    hid_t fs = rows_selected(&d, dset, row0, nrows);
    size_t bad = 0;
    herr_t st;
    EXPECT_FAIL(gpulz_h5_write_direct_device(dset, d.type, fs, dxpl, dev ? dev : buf, NULL, NULL), st);
    const int wrote = alike(st, "device write, the last rank selecting nothing");
    if (dev) {
        device_free(dev);
        dev = device_copy(got, bytes); /* zeros */
        CHECK(dev);
    }
    void *arg = dev ? dev : got;
    EXPECT_FAIL(gpulz_h5_read_direct_device(dset, d.type, fs, dxpl, arg, NULL, NULL), st);
    const int read = alike(st, "device read, the last rank selecting nothing");
    if (wrote && read) {
        if (dev)
            device_back(got, dev, bytes);
        bad += mismatches(&d, got, row0, nrows, "device read of a device write");
    }
    const hid_t sel = rank == last ? dxpl : fs; /* a property list, not a dataspace */
    EXPECT_FAIL(gpulz_h5_write_direct_device(dset, d.type, sel, dxpl, arg, NULL, NULL), st);
    CHECKF(!alike(st, "device write, the last rank's selection wrong"), "a device write succeeded");
    EXPECT_FAIL(gpulz_h5_read_direct_device(dset, d.type, sel, dxpl, arg, NULL, NULL), st);
    CHECKF(!alike(st, "device read, the last rank's selection wrong"), "a device read succeeded");
    device_free(dev);
    free(got);
    free(buf);
    H5Sclose(fs);
    H5Pclose(dxpl);
    CHECK(H5Dclose(dset) >= 0);
    return bad;
}

/*
 * Failures: all ranks must see them, with the reason, and come back (a rank
 * left waiting in a collective call would hang the job: the runner's time
 * limit catches that).
 */
static void check_failures(const char *path, const dataset_spec *d)
{
    hid_t fapl = parallel_fapl();
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file >= 0);
    hsize_t dims[2] = {d->rows_per_rank * (hsize_t)nranks, d->cols};
    hid_t space = H5Screate_simple(2, dims, NULL);

    /* window 300 (cd_values[2], 1..255): refused when the dataset is created */
    const unsigned bad_window[5] = {0, 0, 300, 0, 0};
    hid_t dcpl = create_dcpl(d, bad_window), dset;
    EXPECT_FAIL(H5Dcreate2(file, "bad_window", d->type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                dset);
    CHECKF(dset < 0, "a dataset with window 300 was created");
    CHECKF(strstr(h5u_error_text(), "window") != NULL, "no gpulz reason on the stack:\n%s",
           h5u_error_text());
    H5Pclose(dcpl);

    /* a filter that cannot run: a collective write must fail on every rank */
    const unsigned defaults[5] = {0, 0, 0, 0, 0};
    dcpl = create_dcpl(d, defaults);
    dset = H5Dcreate2(file, "bad_backend", d->type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(dset >= 0);
    const char *saved = getenv("GPULZ_BACKEND");
    char *keep = saved ? strdup(saved) : NULL;
    CHECK(setenv("GPULZ_BACKEND", "bogus", 1) == 0);
    hid_t fs, ms, dxpl = transfer(H5FD_MPIO_COLLECTIVE);
    band_spaces(d, dset, rank, &fs, &ms);
    void *buf = band_values(d, rank);
    herr_t st;
    EXPECT_FAIL(H5Dwrite(dset, d->type, ms, fs, dxpl, buf), st);
    CHECKF(st < 0, "a collective write through a failing filter succeeded");
    CHECKF(strstr(h5u_error_text(), "GPULZ_BACKEND=bogus") != NULL,
           "no gpulz reason on the stack:\n%s", h5u_error_text());
    if (keep)
        setenv("GPULZ_BACKEND", keep, 1);
    else
        unsetenv("GPULZ_BACKEND");
    free(keep);
    free(buf);
    H5Sclose(fs);
    H5Sclose(ms);
    H5Pclose(dxpl);
    H5Pclose(dcpl);
    H5Sclose(space);
    /* after a failed write the dataset and file may not close cleanly; they
     * must still come back on every rank */
    EXPECT_FAIL(H5Dclose(dset), st);
    EXPECT_FAIL(H5Fclose(file), st);
    H5Pclose(fapl);
}

int main(int argc, char **argv)
{
    CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    CHECKF(argc == 2, "usage: mpiexec -n N %s FILE", argv[0]);
    const char *id = getenv("GPULZ_FILTER_ID");
    filter_id = id && *id ? (H5Z_filter_t)atoi(id) : H5Z_FILTER_GPULZ;
    CHECKF(filter_id >= 256 && filter_id <= 65535, "GPULZ_FILTER_ID=%s", id);

    /* band heights that are not multiples of the chunk height: chunks span
     * two ranks, and the last chunk row and column are partial */
    const dataset_spec specs[2] = {
        {"quant", H5T_NATIVE_UINT16, 2, 50, 600, {16, 256}},
        {"records", H5T_NATIVE_INT64, 8, 23, 150, {10, 64}},
    };
    const char *path = argv[1];
    size_t bad = 0;

    hid_t fapl = parallel_fapl();
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECKF(file >= 0, "create %s", path);
    for (int i = 0; i < 2; i++)
        write_dataset(file, &specs[i]);
    CHECK(H5Fclose(file) >= 0);
    CHECKF(H5Zfilter_avail(filter_id) > 0, "filter %d is not available after writing",
           (int)filter_id);

    file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    CHECKF(file >= 0, "reopen %s", path);
    for (int i = 0; i < 2; i++)
        bad += read_parallel(file, &specs[i]);
    CHECK(H5Fclose(file) >= 0);

    char direct_path[4096];
    snprintf(direct_path, sizeof direct_path, "%s.direct.h5", path);
    file = H5Fcreate(direct_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECKF(file >= 0, "create %s", direct_path);
    bad += direct_in_parallel(file);
    bad += direct_read_alone(file);
    bad += direct_collective(file);
    bad += direct_rank_fails(file);
    bad += direct_rank_refused(file);
    bad += direct_device_ranks(file);
    CHECK(H5Fclose(file) >= 0);
    H5Pclose(fapl);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        remove(direct_path);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        CHECKF(file >= 0, "reopen %s with sec2", path);
        for (int i = 0; i < 2; i++)
            bad += check_serial(file, &specs[i]);
        CHECK(H5Fclose(file) >= 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    char fail_path[4096];
    snprintf(fail_path, sizeof fail_path, "%s.fail.h5", path);
    check_failures(fail_path, &specs[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        remove(fail_path);

    unsigned long mine = bad, total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d rank(s): %s (%lu wrong values in all)\n", nranks, total ? "FAILED" : "all values match",
               total);
    MPI_Finalize();
    return bad ? 1 : 0;
}
