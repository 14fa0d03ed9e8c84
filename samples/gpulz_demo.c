/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_demo.c - gpulz beside HDF5's own filters, on real scientific data,
 * end to end through HDF5.
 *
 * Reads two fields from Debian's ferret-datasets (ETOPO5 relief and the
 * Levitus ocean temperature, netCDF classic, float32) and derives from each
 * the quantization codes an error-bounded lossy compressor hands to its
 * lossless stage (uint16, as bench/data/make_corpus.py makes them).  Every
 * array is written through HDF5 with the gpulz filter at its defaults (no
 * cd_values: whatever mode the library takes by default), with deflate-6,
 * with shuffle+deflate-6 and with no filter; each is read back and compared
 * byte for byte.  One table on stdout gives per dataset and filter the
 * ratio, the write and read speed and where gpulz ran (the filter says so
 * per chunk on stderr with GPULZ_VERBOSE=1, which the demo collects); a
 * closing line sums it up.  Errors, HDF5's error stack included, go to
 * stderr.
 *
 * Build:  cc gpulz_demo.c $(pkg-config --cflags --libs hdf5) -lm -o gpulz-demo
 *         (gpulz_cd.h, installed with gpulz, gives the filter ID and the rule
 *          naming the mode a dataset records; no gpulz library is linked:
 *          HDF5 loads the plugin)
 * Usage:  gpulz-demo [--data DIR] [--file PATH] [--quick] [--inject-mismatch]
 *         (--help says more; `make demo` runs it in the build tree)
 * Exit status: 0 every dataset verified, 1 a mismatch or an HDF5 error,
 * 2 bad usage or missing data.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "gpulz_cd.h" /* the filter ID and cd_values: HDF5 loads the plugin */

#define DEFAULT_DATA_DIR "/usr/share/ferret-vis/data"
#define DATA_DIR_ENV "GPULZ_DEMO_DATA"

/* Chunks of about 4 MiB: well above GPULZ_GPU_MIN_BYTES (1 MiB by default),
 * so that a GPU, where there is one, takes them, and in the 1-16 MiB that
 * docs/usage.md advises. */
#define CHUNK_TARGET_BYTES ((size_t)4 << 20)
/* --quick keeps the leading slices of each field up to this many bytes */
#define QUICK_FIELD_BYTES ((size_t)4 << 20)
/* the untimed first write and read, above GPULZ_GPU_MIN_BYTES */
#define WARM_UP_BYTES ((size_t)2 << 20)
/* the relative error bound of the quantization codes, and their radius
 * (cuSZ's defaults; bench/data/make_corpus.py) */
#define CODES_ERROR_BOUND 1e-3
#define CODES_RADIUS 512

/* Report a failure, with HDF5's error stack where an HDF5 call failed (it is
 * empty otherwise), and go to the function's cleanup with status set. */
#define FAIL_IF(cond, code, ...)                                                                   \
    do {                                                                                           \
        if (cond) {                                                                                \
            H5Eprint2(H5E_DEFAULT, stderr);                                                        \
            fprintf(stderr, "gpulz-demo: " __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                                   \
            status = (code);                                                                       \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

/* exit statuses: a byte read back differs or HDF5 failed; bad usage or missing data */
enum { EXIT_FAILED = 1, EXIT_USAGE_OR_DATA = 2 };

/* ---- the data ------------------------------------------------------------ */

typedef struct source {
    const char *file;     /* in the data directory */
    const char *variable; /* a float variable of 2 or 3 dimensions, not a record one */
    const char *name;     /* of the dataset; the codes get "_q1e-3" added */
    const char *what;
} source;

/* The names are those of the benchmark corpus (bench/data/MANIFEST), where
 * the same arrays are measured against more compressors. */
static const source sources[] = {
    {"etopo5.cdf", "ROSE", "etopo5", "ETOPO5 relief (m)"},
    {"levitus_climatology.cdf", "TEMP", "levitus_temp", "Levitus ocean temperature (deg C)"},
};
#define SOURCE_COUNT (sizeof sources / sizeof sources[0])

typedef struct array {
    char name[64];
    hid_t mem_type, file_type; /* native in memory, little-endian in the file */
    const char *type_name;
    int rank;
    hsize_t dims[3];
    size_t bytes;
    void *values;
} array;

/* A float32 variable of a netCDF classic file, with its fill values. */
typedef struct field {
    int rank;
    size_t dims[3];
    size_t count;
    float *values;
    float fills[2];
    int fill_count;
} field;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *read_whole_file(const char *path, size_t *size)
{
    void *contents = NULL;
    FILE *f = fopen(path, "rb");
    long length = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        length = ftell(f);
    if (f && length > 0 && fseek(f, 0, SEEK_SET) == 0 && (contents = malloc((size_t)length)) &&
        fread(contents, 1, (size_t)length, f) != (size_t)length) {
        free(contents);
        contents = NULL;
    }
    if (f)
        fclose(f);
    *size = contents ? (size_t)length : 0;
    return contents;
}

/* ---- a netCDF classic reader, enough for ferret-datasets ----------------- */
/* The format: https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html.
 * Big-endian throughout; names and values are padded to 4 bytes. */

typedef struct cursor {
    const uint8_t *at, *end;
    int offset_bytes; /* 4 (CDF-1) or 8 (CDF-2, 64-bit offsets) */
    int bad;          /* set by a read past the end: the header is damaged */
} cursor;

static uint64_t take_be(cursor *c, int bytes)
{
    uint64_t v = 0;
    if (c->bad || c->end - c->at < bytes) {
        c->bad = 1;
        return 0;
    }
    for (int i = 0; i < bytes; i++)
        v = v << 8 | c->at[i];
    c->at += bytes;
    return v;
}

static void skip_padded(cursor *c, uint64_t bytes)
{
    uint64_t padded = (bytes + 3) & ~(uint64_t)3;
    if (c->bad || bytes > (uint64_t)(c->end - c->at) || padded > (uint64_t)(c->end - c->at))
        c->bad = 1;
    else
        c->at += padded;
}

/* Reads a name; 1 when it equals want. */
static int take_name(cursor *c, const char *want)
{
    uint64_t length = take_be(c, 4);
    const uint8_t *name = c->at;
    skip_padded(c, length);
    return !c->bad && strlen(want) == length && memcmp(name, want, length) == 0;
}

static float float_from_be(const uint8_t *p)
{
    uint32_t bits = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Byte sizes of the classic types NC_BYTE .. NC_DOUBLE (1..6). */
static const unsigned nc_type_bytes[7] = {0, 1, 1, 2, 4, 4, 8};
#define NC_FLOAT 5
#define NC_DIMENSION 0x0A
#define NC_VARIABLE 0x0B
#define NC_ATTRIBUTE 0x0C
#define NC_MAX_DIMS 64

/* An attribute list; the float _FillValue and missing_value of a variable go to out. */
static void take_attributes(cursor *c, field *out)
{
    uint64_t tag = take_be(c, 4), count = take_be(c, 4);
    if (tag != NC_ATTRIBUTE && !(tag == 0 && count == 0))
        c->bad = 1;
    for (uint64_t i = 0; i < count && !c->bad; i++) {
        uint64_t length = take_be(c, 4);
        const uint8_t *name = c->at;
        skip_padded(c, length);
        uint64_t type = take_be(c, 4), values = take_be(c, 4);
        if (c->bad || type < 1 || type > 6) {
            c->bad = 1;
            break;
        }
        const uint8_t *value = c->at;
        skip_padded(c, values * nc_type_bytes[type]);
        int is_fill = (length == 10 && memcmp(name, "_FillValue", 10) == 0) ||
                      (length == 13 && memcmp(name, "missing_value", 13) == 0);
        if (out && is_fill && type == NC_FLOAT && values == 1 && out->fill_count < 2 && !c->bad)
            out->fills[out->fill_count++] = float_from_be(value);
    }
}

/* Reads the float variable named variable of the netCDF classic file at path. */
static int read_netcdf_float(const char *path, const char *variable, field *out)
{
    int status = 0;
    size_t size;
    errno = 0;
    uint8_t *contents = read_whole_file(path, &size);
    memset(out, 0, sizeof *out);
    FAIL_IF(!contents, EXIT_USAGE_OR_DATA, "cannot read %s: %s", path,
            errno ? strerror(errno) : "empty");
    FAIL_IF(size < 8 || memcmp(contents, "CDF", 3) != 0 || (contents[3] != 1 && contents[3] != 2),
            EXIT_USAGE_OR_DATA, "%s is not a netCDF classic file", path);
    cursor c = {contents + 8, contents + size, contents[3] == 2 ? 8 : 4, 0};

    uint64_t dim_lengths[NC_MAX_DIMS];
    uint64_t tag = take_be(&c, 4), dim_count = take_be(&c, 4);
    FAIL_IF((tag != NC_DIMENSION && !(tag == 0 && dim_count == 0)) || dim_count > NC_MAX_DIMS,
            EXIT_USAGE_OR_DATA, "%s: a netCDF header this reader does not take", path);
    for (uint64_t i = 0; i < dim_count; i++) {
        take_name(&c, "");
        dim_lengths[i] = take_be(&c, 4); /* 0: the record dimension */
    }
    take_attributes(&c, NULL); /* the global ones */
    tag = take_be(&c, 4);
    uint64_t var_count = take_be(&c, 4);
    FAIL_IF(c.bad || (tag != NC_VARIABLE && !(tag == 0 && var_count == 0)), EXIT_USAGE_OR_DATA,
            "%s: a damaged netCDF header", path);
    for (uint64_t v = 0; v < var_count && !c.bad; v++) {
        int wanted = take_name(&c, variable);
        uint64_t rank = take_be(&c, 4);
        size_t dims[NC_MAX_DIMS], count = 1;
        FAIL_IF(rank > NC_MAX_DIMS, EXIT_USAGE_OR_DATA, "%s: a damaged netCDF header", path);
        for (uint64_t d = 0; d < rank; d++) {
            uint64_t id = take_be(&c, 4);
            dims[d] = id < dim_count ? (size_t)dim_lengths[id] : 0;
            count *= dims[d];
        }
        take_attributes(&c, wanted ? out : NULL);
        uint64_t type = take_be(&c, 4);
        take_be(&c, 4); /* vsize: rounded, and wrong for big variables; the dims say it */
        uint64_t begin = take_be(&c, c.offset_bytes);
        if (!wanted || c.bad)
            continue;
        FAIL_IF(type != NC_FLOAT || rank < 2 || rank > 3 || count == 0, EXIT_USAGE_OR_DATA,
                "%s: %s is not a 2-D or 3-D float variable of fixed size", path, variable);
        FAIL_IF(begin > size || count > (size - begin) / 4, EXIT_USAGE_OR_DATA,
                "%s: %s reaches past the end of the file (truncated?)", path, variable);
        FAIL_IF(!(out->values = malloc(count * sizeof(float))), EXIT_FAILED,
                "out of memory for %s", variable);
        for (size_t i = 0; i < count; i++)
            out->values[i] = float_from_be(contents + begin + 4 * i);
        out->rank = (int)rank;
        memcpy(out->dims, dims, (size_t)rank * sizeof dims[0]);
        out->count = count;
        goto cleanup;
    }
    FAIL_IF(1, EXIT_USAGE_OR_DATA, "%s: %s", path,
            c.bad ? "a damaged netCDF header" : "no such variable (another package version?)");
cleanup:
    if (status) {
        free(out->values);
        out->values = NULL;
    }
    free(contents);
    return status;
}

/* ---- quantization codes -------------------------------------------------- */

static int is_valid(const field *f, float v)
{
    if (!isfinite(v))
        return 0;
    for (int i = 0; i < f->fill_count; i++)
        if (v == f->fills[i])
            return 0;
    return 1;
}

/*
 * cuSZ-style codes of f at a relative error bound, bit for bit those of
 * bench/data/make_corpus.py (its MANIFEST has their checksums): values
 * prequantized to multiples of 2 eb in float32, as cuSZ does; N-D Lorenzo
 * prediction on those integers; code = error + radius, 0 for an outlier.
 * Fill values become the smallest valid value, so masked regions (land, no
 * observation) turn into constant areas coded as the radius.
 */
static int quantization_codes(const field *f, double relative_bound, uint16_t *codes)
{
    int status = 0;
    int64_t *q = malloc(f->count * sizeof *q);
    float lo = INFINITY, hi = -INFINITY;
    FAIL_IF(!q, EXIT_FAILED, "out of memory for the quantization codes");
    for (size_t i = 0; i < f->count; i++)
        if (is_valid(f, f->values[i])) {
            lo = f->values[i] < lo ? f->values[i] : lo;
            hi = f->values[i] > hi ? f->values[i] : hi;
        }
    FAIL_IF(lo > hi, EXIT_USAGE_OR_DATA, "a field without a valid value");
    /* the range in float32, the bound in double, the step in float32: numpy's order */
    const float range = hi - lo;
    const float step = (float)(2.0 * (relative_bound * (double)range));
    for (size_t i = 0; i < f->count; i++) {
        float v = is_valid(f, f->values[i]) ? f->values[i] : lo;
        q[i] = (int64_t)rintf(v / step);
    }
    /* a 2-D field is a 3-D one of depth 1: the terms reaching depth -1 are 0 */
    const size_t nz = f->rank == 3 ? f->dims[0] : 1, ny = f->dims[f->rank - 2],
                 nx = f->dims[f->rank - 1];
#define Q(z, y, x)                                                                                 \
    ((z) < 0 || (y) < 0 || (x) < 0 ? 0 : q[((size_t)(z) * ny + (size_t)(y)) * nx + (size_t)(x)])
    for (ptrdiff_t z = 0; z < (ptrdiff_t)nz; z++)
        for (ptrdiff_t y = 0; y < (ptrdiff_t)ny; y++)
            for (ptrdiff_t x = 0; x < (ptrdiff_t)nx; x++) {
                int64_t prediction = Q(z - 1, y, x) + Q(z, y - 1, x) + Q(z, y, x - 1) -
                                     Q(z - 1, y - 1, x) - Q(z - 1, y, x - 1) -
                                     Q(z, y - 1, x - 1) + Q(z - 1, y - 1, x - 1);
                int64_t code = Q(z, y, x) - prediction + CODES_RADIUS;
                codes[((size_t)z * ny + (size_t)y) * nx + (size_t)x] =
                    code <= 0 || code >= 2 * CODES_RADIUS ? 0 : (uint16_t)code;
            }
#undef Q
cleanup:
    free(q);
    return status;
}

/* The field (its leading slices under --quick) and its codes, as two arrays. */
static int load_source(const char *data_dir, const source *s, int quick, array out[2])
{
    int status = 0;
    char path[4096];
    field f;
    snprintf(path, sizeof path, "%s/%s", data_dir, s->file);
    if ((status = read_netcdf_float(path, s->variable, &f)) != 0)
        return status;
    if (quick) {
        size_t slice = f.count / f.dims[0];
        size_t keep = QUICK_FIELD_BYTES / (slice * sizeof(float));
        if (keep >= 1 && keep < f.dims[0]) {
            f.dims[0] = keep;
            f.count = keep * slice;
        }
    }
    for (int k = 0; k < 2; k++) {
        out[k].rank = f.rank;
        for (int d = 0; d < f.rank; d++)
            out[k].dims[d] = f.dims[d];
    }
    snprintf(out[0].name, sizeof out[0].name, "%s", s->name);
    out[0].mem_type = H5T_NATIVE_FLOAT;
    out[0].file_type = H5T_IEEE_F32LE;
    out[0].type_name = "float32";
    out[0].bytes = f.count * sizeof(float);
    out[0].values = f.values;
    snprintf(out[1].name, sizeof out[1].name, "%s_q1e-3", s->name);
    out[1].mem_type = H5T_NATIVE_UINT16;
    out[1].file_type = H5T_STD_U16LE;
    out[1].type_name = "uint16";
    out[1].bytes = f.count * sizeof(uint16_t);
    out[1].values = malloc(out[1].bytes);
    FAIL_IF(!out[1].values, EXIT_FAILED, "out of memory for the codes of %s", s->name);
    status = quantization_codes(&f, CODES_ERROR_BOUND, out[1].values);
cleanup:
    return status;
}

/* ---- which backend ran: the filter's GPULZ_VERBOSE lines on stderr ------- */

typedef struct backend_count {
    int gpu, cpu;
    char cpu_reason[160]; /* why the CPU: "no usable GPU", "below the GPU threshold", ... */
} backend_count;

static FILE *capture_file;
static int saved_stderr = -1;

static void capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_stderr = dup(2);
    if (capture_file && saved_stderr >= 0)
        dup2(fileno(capture_file), 2);
}

/* Counts the chunks the captured lines put on the GPU and on the CPU, and
 * passes on every other line (HDF5's own messages) to the real stderr. */
static void capture_end(backend_count *count)
{
    fflush(stderr);
    if (saved_stderr >= 0) {
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
    if (!capture_file)
        return;
    rewind(capture_file);
    char line[512];
    while (fgets(line, sizeof line, capture_file)) {
        if (strncmp(line, "gpulz: ", 7) != 0) {
            fputs(line, stderr);
            continue;
        }
        if (strstr(line, " on the GPU ")) {
            count->gpu++;
            continue;
        }
        count->cpu++;
        const char *open = strchr(line, '(');
        const char *close = open ? strchr(open, ')') : NULL;
        if (open && close)
            snprintf(count->cpu_reason, sizeof count->cpu_reason, "%.*s",
                     (int)(close - open - 1), open + 1);
    }
    fclose(capture_file);
    capture_file = NULL;
}

/* "GPU", "CPU (why)", "GPU 3, CPU 1 (why)" or "none". */
static void describe_backend(const backend_count *count, char *text, size_t cap)
{
    if (count->gpu && !count->cpu)
        snprintf(text, cap, "GPU");
    else if (count->cpu && !count->gpu)
        snprintf(text, cap, "CPU (%s)", count->cpu_reason);
    else if (count->gpu && count->cpu)
        snprintf(text, cap, "GPU %d, CPU %d (%s)", count->gpu, count->cpu, count->cpu_reason);
    else
        snprintf(text, cap, "none");
}

/* ---- one dataset through one filter -------------------------------------- */

typedef enum filter_kind {
    FILTER_GPULZ,
    FILTER_DEFLATE,
    FILTER_SHUFFLE_DEFLATE,
    FILTER_NONE,
    FILTER_COUNT
} filter_kind;

static const char *const filter_names[FILTER_COUNT] = {"gpulz", "deflate-6",
                                                        "shuffle+deflate-6", "none"};
#define DEFLATE_LEVEL 6

typedef struct result {
    double raw_bytes, stored_bytes, write_seconds, read_seconds;
    int verified;
    char mode[32];              /* gpulz's mode as the dataset records it */
    backend_count write, read;  /* gpulz's chunks */
} result;

/* The mode the filter recorded for the dataset (cd_values slot 6; set_local
 * resolves the default there), as its name. */
static void recorded_mode(hid_t dataset, char *name, size_t cap)
{
    unsigned cd[H5Z_GPULZ_CD_NELMTS_STORED + 4] = {0};
    size_t cd_count = sizeof cd / sizeof cd[0];
    unsigned flags;
    hid_t dcpl = H5Dget_create_plist(dataset);
    snprintf(name, cap, "?");
    if (dcpl >= 0 &&
        H5Pget_filter_by_id2(dcpl, H5Z_FILTER_GPULZ, &flags, &cd_count, cd, 0, NULL, NULL) >= 0) {
        /* the filter's own rule (docs/usage.md section 2) */
        unsigned mode = H5Z_gpulz_cd_mode(cd_count, cd);
        const char *known = mode == H5Z_GPULZ_CD_MODE_LZ      ? "lz"
                            : mode == H5Z_GPULZ_CD_MODE_FAST  ? "fast"
                            : mode == H5Z_GPULZ_CD_MODE_RATIO ? "ratio"
                            : mode == H5Z_GPULZ_CD_MODE_AUTO  ? "auto"
                                                              : NULL;
        if (known)
            snprintf(name, cap, "%s", known);
        else
            snprintf(name, cap, "mode %u", mode);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
}

/* 0 when got holds the n bytes of want; else 1, and the offset of the first
 * byte that differs in *first. */
static int bytes_differ(const void *want, const void *got, size_t n, size_t *first)
{
    const uint8_t *a = want, *b = got;
    if (memcmp(a, b, n) == 0)
        return 0;
    size_t i = 0;
    while (a[i] == b[i])
        i++;
    *first = i;
    return 1;
}

static int add_filter(hid_t dcpl, filter_kind kind)
{
    switch (kind) {
    case FILTER_GPULZ:
        /* no cd_values at all: every parameter, the mode included, is the
         * library's default, whatever that is in this version */
        return H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, 0, NULL) < 0 ? -1 : 0;
    case FILTER_SHUFFLE_DEFLATE:
        if (H5Pset_shuffle(dcpl) < 0)
            return -1;
        /* fall through */
    case FILTER_DEFLATE:
        return H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0 ? -1 : 0;
    default:
        return 0;
    }
}

/*
 * Writes a through one filter as dataset PATH in file, reads it back into
 * back (a.bytes) and compares.  The write is timed from H5Dcreate to
 * H5Dclose and a flush of the file, the read from H5Dopen to the end of
 * H5Dread.  inject_mismatch changes one byte read back before the check.
 * Returns 0 verified, EXIT_FAILED for a difference or an HDF5 failure.
 */
static int write_and_read(hid_t file, const array *a, filter_kind kind, void *back,
                          int inject_mismatch, result *r)
{
    int status = 0;
    char path[128];
    hid_t space = -1, dcpl = -1, dataset = -1;
    snprintf(path, sizeof path, "%s/%s", filter_names[kind], a->name);
    memset(r, 0, sizeof *r);
    hsize_t chunk[3] = {a->dims[0], a->rank > 1 ? a->dims[1] : 1, a->rank > 2 ? a->dims[2] : 1};
    size_t chunks = (a->bytes + CHUNK_TARGET_BYTES / 2) / CHUNK_TARGET_BYTES;
    if (chunks > 1) /* near-equal chunks along the slowest dimension */
        chunk[0] = (a->dims[0] + chunks - 1) / chunks;

    space = H5Screate_simple(a->rank, a->dims, NULL);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    FAIL_IF(space < 0 || dcpl < 0 || H5Pset_chunk(dcpl, a->rank, chunk) < 0 ||
                add_filter(dcpl, kind) < 0,
            EXIT_FAILED, "cannot set up %s", path);

    if (kind == FILTER_GPULZ)
        capture_begin();
    double t0 = now();
    dataset = H5Dcreate2(file, path, a->file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int written = dataset >= 0 &&
                  H5Dwrite(dataset, a->mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a->values) >= 0;
    if (written && kind == FILTER_GPULZ)
        recorded_mode(dataset, r->mode, sizeof r->mode);
    /* closing sends the chunks still in the chunk cache through the filter */
    if (written && (H5Dclose(dataset) < 0 || H5Fflush(file, H5F_SCOPE_LOCAL) < 0))
        written = 0;
    if (written)
        dataset = -1;
    r->write_seconds = now() - t0;
    if (kind == FILTER_GPULZ)
        capture_end(&r->write);
    FAIL_IF(!written, EXIT_FAILED, "cannot write %s", path);

    /* what a failed read leaves unwritten differs from every byte of a */
    for (size_t i = 0; i < a->bytes; i++)
        ((uint8_t *)back)[i] = (uint8_t)~((const uint8_t *)a->values)[i];
    if (kind == FILTER_GPULZ)
        capture_begin();
    t0 = now();
    dataset = H5Dopen2(file, path, H5P_DEFAULT);
    int read_back = dataset >= 0 &&
                    H5Dread(dataset, a->mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0;
    r->read_seconds = now() - t0;
    if (kind == FILTER_GPULZ)
        capture_end(&r->read);
    FAIL_IF(!read_back, EXIT_FAILED, "cannot read %s back", path);
    r->raw_bytes = (double)a->bytes;
    r->stored_bytes = (double)H5Dget_storage_size(dataset);

    if (inject_mismatch)
        ((uint8_t *)back)[a->bytes / 2] ^= 0x01;
    size_t first;
    FAIL_IF(bytes_differ(a->values, back, a->bytes, &first), EXIT_FAILED,
            "%s read back differs from what was written, first at byte %zu of %zu%s", path,
            first, a->bytes, inject_mismatch ? " (--inject-mismatch)" : "");
    r->verified = 1;
cleanup:
    if (dataset >= 0)
        H5Dclose(dataset);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return status;
}

/* ---- the table ----------------------------------------------------------- */

#define ROW_FORMAT "%-19s %-7s %-12s %8s  %-17s %6s %10s %10s  %-8s  %s\n"

static void print_row(const array *a, filter_kind kind, const result *r)
{
    char shape[32], raw_mb[16], filter[40], ratio[16], write_speed[16], read_speed[16];
    char backend[400] = "-";
    if (a->rank == 3)
        snprintf(shape, sizeof shape, "%llux%llux%llu", (unsigned long long)a->dims[0],
                 (unsigned long long)a->dims[1], (unsigned long long)a->dims[2]);
    else
        snprintf(shape, sizeof shape, "%llux%llu", (unsigned long long)a->dims[0],
                 (unsigned long long)a->dims[1]);
    snprintf(raw_mb, sizeof raw_mb, "%.2f", (double)a->bytes / 1e6);
    if (kind == FILTER_GPULZ)
        snprintf(filter, sizeof filter, "gpulz (%s)", r->mode[0] ? r->mode : "?");
    else
        snprintf(filter, sizeof filter, "%s", filter_names[kind]);
    snprintf(ratio, sizeof ratio, "%.2f", r->stored_bytes > 0 ? r->raw_bytes / r->stored_bytes : 0);
    snprintf(write_speed, sizeof write_speed, "%.1f",
             r->write_seconds > 0 ? r->raw_bytes / 1e6 / r->write_seconds : 0);
    snprintf(read_speed, sizeof read_speed, "%.1f",
             r->read_seconds > 0 ? r->raw_bytes / 1e6 / r->read_seconds : 0);
    if (kind == FILTER_GPULZ) {
        char w[190], rd[190];
        describe_backend(&r->write, w, sizeof w);
        describe_backend(&r->read, rd, sizeof rd);
        snprintf(backend, sizeof backend, "%s / %s", w, rd);
    } else if (kind != FILTER_NONE) {
        snprintf(backend, sizeof backend, "CPU (HDF5's zlib)");
    }
    printf(ROW_FORMAT, a->name, a->type_name, shape, raw_mb, filter, ratio, write_speed,
           read_speed, r->verified ? "verified" : "MISMATCH", backend);
}

/* GB/s with three significant digits at most, so slow filters still show. */
static void format_speed(double bytes, double seconds, char *text, size_t cap)
{
    double gbps = seconds > 0 ? bytes / 1e9 / seconds : 0;
    snprintf(text, cap, gbps >= 1 ? "%.2f" : gbps >= 0.1 ? "%.2f" : "%.3f", gbps);
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: gpulz-demo [--data DIR] [--file PATH] [--quick] [--inject-mismatch]\n"
            "\n"
            "Writes real scientific arrays through HDF5 with gpulz (its defaults), deflate-6,\n"
            "shuffle+deflate-6 and no filter, reads each back, checks every byte and prints\n"
            "ratio, write and read speed and backend per dataset and filter.\n"
            "\n"
            "  --data DIR         where etopo5.cdf and levitus_climatology.cdf of Debian's\n"
            "                     ferret-datasets are (default: $" DATA_DIR_ENV ", else\n"
            "                     " DEFAULT_DATA_DIR ")\n"
            "  --file PATH        write an HDF5 file on disk at PATH and keep it (default: a file\n"
            "                     in memory, HDF5's core driver, so the speeds are the filters')\n"
            "  --quick            only the leading 4 MiB of each field (for the test suite)\n"
            "  --inject-mismatch  change one byte of every array read back before the check,\n"
            "                     which must then fail (for the test suite)\n"
            "  --help             this text\n"
            "\n"
            "The gpulz filter is loaded as a plugin (HDF5_PLUGIN_PATH or HDF5's plugin\n"
            "directory).  Exit status: 0 every dataset verified, 1 a mismatch or an HDF5\n"
            "error, 2 bad usage or missing data.\n");
}

int main(int argc, char **argv)
{
    int status = 0, quick = 0, inject_mismatch = 0;
    const char *data_dir = getenv(DATA_DIR_ENV), *disk_path = NULL;
    array arrays[2 * SOURCE_COUNT];
    size_t array_count = 0;
    void *back = NULL;
    hid_t fapl = -1, file = -1;
    memset(arrays, 0, sizeof arrays);
    if (!data_dir || !*data_dir)
        data_dir = DEFAULT_DATA_DIR;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data_dir = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc)
            disk_path = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--inject-mismatch") == 0)
            inject_mismatch = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return EXIT_USAGE_OR_DATA;
        }
    }

    /* the filter says per chunk where it ran; errors are printed where they
     * are met, once, by FAIL_IF */
    setenv("GPULZ_VERBOSE", "1", 1);
    H5open();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    FAIL_IF(H5Zfilter_avail(H5Z_FILTER_GPULZ) <= 0, EXIT_FAILED,
            "HDF5 cannot find the gpulz filter (ID %d).\n"
            "Set HDF5_PLUGIN_PATH to the directory holding libH5Zgpulz.so "
            "(see docs/troubleshooting.md).",
            H5Z_FILTER_GPULZ);
    FAIL_IF(H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0 || H5Zfilter_avail(H5Z_FILTER_SHUFFLE) <= 0,
            EXIT_FAILED, "this HDF5 has no deflate or no shuffle filter");

    for (size_t s = 0; s < SOURCE_COUNT; s++) {
        int loaded = load_source(data_dir, &sources[s], quick, &arrays[array_count]);
        array_count += 2;
        FAIL_IF(loaded == EXIT_USAGE_OR_DATA, EXIT_USAGE_OR_DATA,
                "the demo's data is missing or unreadable in %s.\n"
                "It comes from Debian's ferret-datasets package (./setup.sh installs it: "
                "apt-get install ferret-datasets);\n"
                "elsewhere copy etopo5.cdf and levitus_climatology.cdf from it into a folder "
                "and pass --data DIR or set " DATA_DIR_ENV ".",
                data_dir);
        FAIL_IF(loaded != 0, EXIT_FAILED, "cannot prepare the arrays of %s", sources[s].file);
    }
    size_t largest = 0, total = 0;
    for (size_t i = 0; i < array_count; i++) {
        largest = arrays[i].bytes > largest ? arrays[i].bytes : largest;
        total += arrays[i].bytes;
    }
    FAIL_IF(!(back = malloc(largest)), EXIT_FAILED, "out of memory");

    fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* in memory, never written out; one increment holds every dataset of
     * every filter (none stores them raw, the others hardly more), so that
     * no write is timed with the whole file being copied to a bigger buffer;
     * the pages are taken from the system only as they are written */
    size_t core_increment = FILTER_COUNT * total + ((size_t)64 << 20);
    FAIL_IF(fapl < 0 || (!disk_path && H5Pset_fapl_core(fapl, core_increment, 0) < 0),
            EXIT_FAILED, "cannot set up the file access");
    file = H5Fcreate(disk_path ? disk_path : "gpulz-demo-in-memory.h5", H5F_ACC_TRUNC,
                     H5P_DEFAULT, fapl);
    FAIL_IF(file < 0, EXIT_FAILED, "cannot create %s",
            disk_path ? disk_path : "the file in memory");
    for (int k = 0; k < FILTER_COUNT; k++)
        FAIL_IF(H5Gclose(H5Gcreate2(file, filter_names[k], H5P_DEFAULT, H5P_DEFAULT,
                                    H5P_DEFAULT)) < 0,
                EXIT_FAILED, "cannot create group %s", filter_names[k]);

    /* loading the plugin and, where there is one, starting the GPU take a
     * while once per process: a first write and read outside the table */
    {
        array warm = arrays[1];
        result ignored;
        snprintf(warm.name, sizeof warm.name, "warm-up");
        warm.rank = 1;
        warm.bytes = warm.bytes < WARM_UP_BYTES ? warm.bytes : WARM_UP_BYTES;
        warm.dims[0] = warm.bytes / sizeof(uint16_t);
        FAIL_IF(write_and_read(file, &warm, FILTER_GPULZ, back, 0, &ignored) != 0, EXIT_FAILED,
                "the warm-up write and read failed");
    }

    unsigned major, minor, release;
    H5get_libversion(&major, &minor, &release);
    printf("gpulz-demo: HDF5 %u.%u.%u, gpulz filter %d (plugin), %ld CPU cores%s\n", major, minor,
           release, H5Z_FILTER_GPULZ, sysconf(_SC_NPROCESSORS_ONLN),
           quick ? ", --quick (leading 4 MiB of each field)" : "");
    printf("data: %s (Debian's ferret-datasets):\n"
           "      %s, %s, and their quantization codes (uint16, error bound 1e-3, as cuSZ's)\n",
           data_dir, sources[0].what, sources[1].what);
    if (disk_path)
        printf("file: on disk, %s: speeds include the disk (or the page cache)\n", disk_path);
    else
        printf("file: in memory (HDF5's core driver): speeds of the filters and HDF5, no disk\n");
    printf("speeds: raw MB per second of wall time; write: H5Dcreate to H5Dclose + H5Fflush; "
           "read: H5Dopen + H5Dread;\n        chunks of about %zu MiB\n\n",
           CHUNK_TARGET_BYTES >> 20);
    printf(ROW_FORMAT, "dataset", "type", "shape", "raw MB", "filter", "ratio", "write MB/s",
           "read MB/s", "check", "backend (write / read)");

    result totals[FILTER_COUNT];
    backend_count gpulz_chunks = {0, 0, ""}; /* written and read, over all the datasets */
    int failed = 0;
    memset(totals, 0, sizeof totals);
    for (size_t i = 0; i < array_count; i++)
        for (int k = 0; k < FILTER_COUNT; k++) {
            result r;
            int rc = write_and_read(file, &arrays[i], (filter_kind)k, back, inject_mismatch, &r);
            /* an HDF5 failure (said above) ends the demo; a mismatch only fails it */
            FAIL_IF(rc != 0 && !r.raw_bytes, EXIT_FAILED, "stopped at %s", arrays[i].name);
            failed += rc != 0;
            print_row(&arrays[i], (filter_kind)k, &r);
            totals[k].raw_bytes += r.raw_bytes;
            totals[k].stored_bytes += r.stored_bytes;
            totals[k].write_seconds += r.write_seconds;
            totals[k].read_seconds += r.read_seconds;
            gpulz_chunks.gpu += r.write.gpu + r.read.gpu;
            gpulz_chunks.cpu += r.write.cpu + r.read.cpu;
            if (k == FILTER_GPULZ && !totals[k].mode[0])
                snprintf(totals[k].mode, sizeof totals[k].mode, "%s", r.mode);
        }
    fflush(stdout);
    FAIL_IF(failed, EXIT_FAILED, "%d of %zu datasets did NOT read back as written", failed,
            array_count * FILTER_COUNT);

    /* the line to quote: each filter over all the datasets */

    printf("\nevery dataset verified (%zu arrays, %.1f MB, x %d filters); all datasets together:\n",
           array_count, (double)total / 1e6, FILTER_COUNT);
    printf("gpulz (%s, %s)", totals[FILTER_GPULZ].mode,
           gpulz_chunks.gpu && !gpulz_chunks.cpu  ? "GPU"
           : gpulz_chunks.gpu && gpulz_chunks.cpu ? "GPU and CPU"
                                                  : "CPU");
    for (int k = 0; k < FILTER_NONE; k++) {
        char write_speed[16], read_speed[16];
        format_speed(totals[k].raw_bytes, totals[k].write_seconds, write_speed, sizeof write_speed);
        format_speed(totals[k].raw_bytes, totals[k].read_seconds, read_speed, sizeof read_speed);
        printf("%s%s: ratio %.2f at %s GB/s write, %s GB/s read", k ? "; " : "",
               k ? filter_names[k] : "", totals[k].raw_bytes / totals[k].stored_bytes, write_speed,
               read_speed);
    }
    printf("\n");
cleanup:
    if (file >= 0)
        H5Fclose(file);
    if (fapl >= 0)
        H5Pclose(fapl);
    for (size_t i = 0; i < array_count; i++)
        free(arrays[i].values);
    free(back);
    return status;
}
