/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5bench - HDF5-level benchmark of compression filters, gpulz among them.
 *
 * For each array of the corpus (bench/data/MANIFEST), each filter setting and
 * each chunk size, it writes the array as one chunked dataset with H5Dwrite
 * into a file held in memory (core driver, no backing store, so that the
 * filter and HDF5's chunk machinery are measured, not a disk), reads it back
 * with H5Dread, checks the bytes and prints one CSV row: ratio (array bytes /
 * stored bytes), write and read throughput in GB/s (1e9 bytes of the
 * uncompressed array per second, dataset create/open to close), median of
 * --repeats runs after one untimed warm-up run.
 *
 * gpulz runs through its HDF5 plugin, found like any other on
 * HDF5_PLUGIN_PATH; its backend and thread count come from the environment
 * (GPULZ_BACKEND, GPULZ_THREADS), so each gpulz setting runs in a child
 * process with its own environment, set before the plugin does any work.
 * The child is also what lets another build of the plugin (--baseline-plugin,
 * a release to compare with) answer for the same filter ID in the same run:
 * HDF5 reads HDF5_PLUGIN_PATH once, when the library starts, and keeps the
 * plugin it found for an ID until the process ends, so the baseline's child
 * puts the baseline's folder first (H5PLprepend) before HDF5 looks for gpulz.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"
#include "gpulz.h"
#include "gpulz_cd.h"

#define MAX_RANK CORPUS_MAX_RANK
#define MAX_REPEATS 25
#define MIB (1024.0 * 1024.0)

#define H5Z_FILTER_LZF 32000
#define H5Z_FILTER_BLOSC 32001
#define H5Z_FILTER_LZ4 32004
#define H5Z_FILTER_BSHUF 32008
#define BLOSC_LZ4 1
#define BLOSC_ZSTD 5
#define BSHUF_LZ4 2

/* How a gpulz row runs: the environment its child process gets. */
typedef enum { RUN_HERE, RUN_GPULZ_CPU1, RUN_GPULZ_CPUALL, RUN_GPULZ_GPU } run_mode;

/* What a gpulz row's dataset must store, so that a row cannot pass on the
 * bytes of another plugin build or mode than its name says. */
typedef enum {
    STORED_ANY,      /* not gpulz */
    STORED_CURRENT,  /* this build's set_local: seven values, slot 6 the mode */
    STORED_BASELINE, /* 0.1's set_local: the five values it was given */
} stored_kind;

typedef struct filter_spec {
    const char *name; /* CSV label and --filters key */
    int shuffle;      /* HDF5's byte shuffle first */
    int deflate;      /* deflate level, -1 for none */
    H5Z_filter_t id;  /* a dynamically loaded filter, 0 for none */
    size_t ncd;
    unsigned cd[8];
    run_mode mode;
    stored_kind stored;
    int baseline; /* runs through --baseline-plugin's build; needs that option */
} filter_spec;

/* cd_values of gpulz 0.1 and of mode lz (format 1, 0.1's bytes): format
 * version 1, symbol size 0 (from the datatype), window, block symbols, flags */
#define CD_LZ {1, 0, 128, 2048, 0}
/* What gpulz_h5_set_dcpl() writes with every default: format 2, mode auto
 * (H5Z_GPULZ_CD_MODE_DEFAULT), checksum on; slot 5 is set_local's */
#define CD_AUTO {H5Z_GPULZ_CD_VERSION_CURRENT, 0, 0, 0, 0, 0, H5Z_GPULZ_CD_MODE_AUTO}

/* the baseline rows' names are made from --baseline-label */
static char baseline_cpu_name[64] = "gpulz-0.1-cpu-all", baseline_gpu_name[64] = "gpulz-0.1-gpu";

static filter_spec filters[] = {
    {"none", 0, -1, 0, 0, {0}, RUN_HERE, STORED_ANY, 0},
    {"deflate-1", 0, 1, 0, 0, {0}, RUN_HERE, STORED_ANY, 0},
    {"deflate-6", 0, 6, 0, 0, {0}, RUN_HERE, STORED_ANY, 0},
    {"shuffle+deflate-1", 1, 1, 0, 0, {0}, RUN_HERE, STORED_ANY, 0},
    {"lz4", 0, -1, H5Z_FILTER_LZ4, 0, {0}, RUN_HERE, STORED_ANY, 0},
    /* block size 0 (automatic), LZ4; the plugin's set_local prepends its
     * version and the element size (h5dump shows 0 3 <size> 0 2) */
    {"bitshuffle+lz4", 0, -1, H5Z_FILTER_BSHUF, 2, {0, BSHUF_LZ4}, RUN_HERE, STORED_ANY, 0},
    /* slots 0-3 are Blosc's own; level 5, byte shuffle, compressor */
    {"blosc-lz4+shuffle", 0, -1, H5Z_FILTER_BLOSC, 7, {0, 0, 0, 0, 5, 1, BLOSC_LZ4}, RUN_HERE,
     STORED_ANY, 0},
    {"blosc-zstd+shuffle", 0, -1, H5Z_FILTER_BLOSC, 7, {0, 0, 0, 0, 5, 1, BLOSC_ZSTD}, RUN_HERE,
     STORED_ANY, 0},
    {"lzf", 0, -1, H5Z_FILTER_LZF, 0, {0}, RUN_HERE, STORED_ANY, 0},
    /* mode lz keeps the names the rows had before format 2, so that rounds
     * stay comparable; the default mode's rows say auto */
    {"gpulz-cpu-1t", 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS, CD_LZ, RUN_GPULZ_CPU1,
     STORED_CURRENT, 0},
    {"gpulz-cpu-all", 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS, CD_LZ, RUN_GPULZ_CPUALL,
     STORED_CURRENT, 0},
    {"gpulz-auto-cpu-all", 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS_STORED, CD_AUTO,
     RUN_GPULZ_CPUALL, STORED_CURRENT, 0},
    {baseline_cpu_name, 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS, CD_LZ, RUN_GPULZ_CPUALL,
     STORED_BASELINE, 1},
    /* the GPU rows one after the other, so that the comparison with the
     * baseline sees the machine in the same state */
    {"gpulz-gpu", 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS, CD_LZ, RUN_GPULZ_GPU,
     STORED_CURRENT, 0},
    {"gpulz-auto-gpu", 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS_STORED, CD_AUTO, RUN_GPULZ_GPU,
     STORED_CURRENT, 0},
    {baseline_gpu_name, 0, -1, H5Z_FILTER_GPULZ, H5Z_GPULZ_CD_NELMTS, CD_LZ, RUN_GPULZ_GPU,
     STORED_BASELINE, 1},
};
#define NFILTERS (sizeof filters / sizeof filters[0])

/* A corpus array as HDF5 sees it. */
typedef struct array {
    const corpus_array *c;
    hid_t type;              /* file and memory type, little-endian */
    hsize_t dims[MAX_RANK];  /* c->dims as HDF5 takes them */
} array;

typedef struct options {
    const char *manifest;
    const char *datadir;
    const char *only;    /* comma-separated names, NULL for all */
    const char *filters; /* comma-separated filter names, NULL for all */
    double chunks_mib[8];
    int nchunks;
    int repeats;
    /* the gpulz rows' own, where the CPU filters are measured less (they take
     * most of the time, and their ratios are what a round needs of them) */
    double gpulz_chunks_mib[8];
    int gpulz_nchunks; /* 0: as --chunks */
    int gpulz_repeats; /* 0: as --repeats */
    const char *baseline_dir; /* another build's plugin folder, NULL for none */
    int header;
} options;

/* The chunk sizes and repeats of a filter setting's rows. */
static const double *chunks_of(const filter_spec *fs, const options *o, int *n, int *repeats)
{
    int gp = fs->mode != RUN_HERE;
    *n = gp && o->gpulz_nchunks ? o->gpulz_nchunks : o->nchunks;
    *repeats = gp && o->gpulz_repeats ? o->gpulz_repeats : o->repeats;
    return gp && o->gpulz_nchunks ? o->gpulz_chunks_mib : o->chunks_mib;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The HDF5 view of a corpus array (which keeps its data); -1 with a message if unusable. */
static int from_corpus(array *a, const corpus_array *c)
{
    static const struct {
        const char *dtype;
        hid_t *type; /* HDF5's predefined types are globals set at H5open */
    } types[] = {{"float32", &H5T_IEEE_F32LE_g}, {"uint16", &H5T_STD_U16LE_g}, {"int16", &H5T_STD_I16LE_g},
                 {"int32", &H5T_STD_I32LE_g},   {"uint8", &H5T_STD_U8LE_g},   {"float64", &H5T_IEEE_F64LE_g}};
    a->c = c;
    a->type = -1;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(c->dtype, types[i].dtype) == 0)
            a->type = *types[i].type;
    if (a->type < 0) {
        fprintf(stderr, "h5bench: %s: unknown dtype %s\n", c->name, c->dtype);
        return -1;
    }
    for (int i = 0; i < c->rank; i++)
        a->dims[i] = (hsize_t)c->dims[i];
    return 0;
}

/* Chunk dims of at most target bytes: whole trailing dims, a slab of the
 * leading ones, so each chunk is one contiguous run of the array. */
static size_t chunk_dims(const array *a, double target_bytes, hsize_t *cd)
{
    size_t inner = a->c->elsize;
    for (int i = a->c->rank - 1; i >= 0; i--) {
        cd[i] = a->dims[i];
        inner *= (size_t)a->dims[i];
    }
    size_t bytes = inner;
    for (int i = 0; i < a->c->rank; i++) {
        inner /= (size_t)a->dims[i]; /* bytes of one index of dim i */
        if ((double)inner * (double)a->dims[i] <= target_bytes)
            break;
        hsize_t k = (hsize_t)(target_bytes / (double)inner);
        cd[i] = k < 1 ? 1 : k;
        bytes = inner * (size_t)cd[i];
        if (k >= 1)
            break;
    }
    return bytes;
}

static hid_t make_dcpl(const array *a, const filter_spec *fs, const hsize_t *cd)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_chunk(dcpl, a->c->rank, cd) < 0)
        goto fail;
    if (fs->shuffle && H5Pset_shuffle(dcpl) < 0)
        goto fail;
    if (fs->deflate >= 0 && H5Pset_deflate(dcpl, (unsigned)fs->deflate) < 0)
        goto fail;
    /* optional, as H5Pset_deflate and h5py set compression filters: a chunk
     * the filter cannot shrink is stored as is */
    if (fs->id && H5Pset_filter(dcpl, fs->id, H5Z_FLAG_OPTIONAL, fs->ncd, fs->cd) < 0)
        goto fail;
    return dcpl;
fail:
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return -1;
}

typedef struct result {
    double ratio, write_gbs, read_gbs;
    const char *status; /* "ok", "mismatch" or what failed */
} result;

/*
 * Whether the dataset's stored gpulz parameters are those fs->stored names:
 * NULL if so, else the status of the row.  The plugin that wrote a dataset
 * leaves its mark there (0.1 keeps five values, later builds seven with the
 * mode in slot 6), the one thing in the file that tells two builds apart.
 */
static const char *stored_mismatch(hid_t dset, const filter_spec *fs)
{
    static char why[128];
    unsigned flags, cd[16], cfg;
    size_t n = sizeof cd / sizeof cd[0];
    char name[64];
    if (fs->stored == STORED_ANY)
        return NULL;
    hid_t dcpl = H5Dget_create_plist(dset);
    herr_t rc = dcpl < 0 ? -1
                         : H5Pget_filter_by_id2(dcpl, fs->id, &flags, &n, cd, sizeof name, name, &cfg);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (rc < 0)
        return "stored parameters unreadable";
    if (fs->stored == STORED_BASELINE && n != H5Z_GPULZ_CD_NELMTS)
        snprintf(why, sizeof why,
                 "wrong plugin: %zu cd_values stored; the baseline (0.1) stores %d", n,
                 H5Z_GPULZ_CD_NELMTS);
    else if (fs->stored == STORED_CURRENT && n != H5Z_GPULZ_CD_NELMTS_STORED)
        snprintf(why, sizeof why, "wrong plugin: %zu cd_values stored; this build stores %d", n,
                 H5Z_GPULZ_CD_NELMTS_STORED);
    else if (fs->stored == STORED_CURRENT &&
             cd[H5Z_GPULZ_CD_MODE] != H5Z_gpulz_cd_mode(fs->ncd, fs->cd))
        snprintf(why, sizeof why, "stored mode %u; the row asks for %u", cd[H5Z_GPULZ_CD_MODE],
                 H5Z_gpulz_cd_mode(fs->ncd, fs->cd));
    else
        return NULL;
    return why;
}

/* Write, read back and check the array once per repeat. */
static result measure(const array *a, const filter_spec *fs, const hsize_t *cd, int repeats,
                      void *back)
{
    result r = {0, 0, 0, "ok"};
    double tw[MAX_REPEATS], tr[MAX_REPEATS];
    hsize_t stored = 0;

    /* run 0 is a warm-up: it loads the plugin, grows the allocator's pools
     * and the GPU context, and is not timed */
    for (int k = -1; k < repeats; k++) {
        hid_t fapl = -1, fid = -1, space = -1, dcpl = -1, dset = -1;
        memset(back, 0xA5, a->c->bytes); /* also maps the pages before timing */
        r.status = "file";
        fapl = H5Pcreate(H5P_FILE_ACCESS);
        if (fapl < 0 || H5Pset_fapl_core(fapl, a->c->bytes + (1u << 20), 0) < 0)
            goto fail;
        fid = H5Fcreate("h5bench-in-memory.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        space = H5Screate_simple(a->c->rank, a->dims, NULL);
        r.status = "filter setup";
        if (fid < 0 || space < 0 || (dcpl = make_dcpl(a, fs, cd)) < 0)
            goto fail;

        r.status = "write";
        double t0 = now();
        dset = H5Dcreate2(fid, "data", a->type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        if (dset < 0 || H5Dwrite(dset, a->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a->c->data) < 0)
            goto fail;
        if (H5Dclose(dset) < 0) {
            dset = -1;
            goto fail;
        }
        if (k >= 0)
            tw[k] = now() - t0;

        r.status = "read";
        t0 = now();
        dset = H5Dopen2(fid, "data", H5P_DEFAULT);
        if (dset < 0 || H5Dread(dset, a->type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0)
            goto fail;
        if (k >= 0)
            tr[k] = now() - t0;
        stored = H5Dget_storage_size(dset);
        const char *wrong = k < 0 ? stored_mismatch(dset, fs) : NULL;
        H5Dclose(dset);
        H5Pclose(dcpl);
        H5Sclose(space);
        H5Fclose(fid);
        H5Pclose(fapl);
        if (memcmp(back, a->c->data, a->c->bytes) != 0) {
            r.status = "mismatch";
            return r;
        }
        if (wrong) {
            r.status = wrong;
            return r;
        }
        r.status = "ok";
        continue;
    fail:
        H5Eprint2(H5E_DEFAULT, stderr);
        if (dset >= 0)
            H5Dclose(dset);
        if (dcpl >= 0)
            H5Pclose(dcpl);
        if (space >= 0)
            H5Sclose(space);
        if (fid >= 0)
            H5Fclose(fid);
        if (fapl >= 0)
            H5Pclose(fapl);
        return r;
    }
    r.ratio = stored ? (double)a->c->bytes / (double)stored : 0;
    r.write_gbs = (double)a->c->bytes / median(tw, repeats) / 1e9;
    r.read_gbs = (double)a->c->bytes / median(tr, repeats) / 1e9;
    return r;
}

static void print_row(FILE *out, const array *a, const char *filter, double mib, size_t cbytes,
                      const result *r, const char *status)
{
    fprintf(out, "%s,%s,", a->c->name, a->c->dtype);
    for (int i = 0; i < a->c->rank; i++)
        fprintf(out, "%s%llu", i ? "x" : "", (unsigned long long)a->dims[i]);
    fprintf(out, ",%zu,%s,%g,%zu,", a->c->bytes, filter, mib, cbytes);
    if (r)
        fprintf(out, "%.4f,%.4f,%.4f,%s\n", r->ratio, r->write_gbs, r->read_gbs, r->status);
    else
        fprintf(out, ",,,%s\n", status);
    fflush(out);
}

/* Why a filter cannot run here, or NULL when it can. */
static const char *unavailable(const filter_spec *fs)
{
    if (fs->deflate >= 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
        return "skipped: deflate not in this HDF5";
    if (fs->id && H5Zfilter_avail(fs->id) <= 0)
        return "skipped: filter not available (HDF5_PLUGIN_PATH)";
    return NULL;
}

/* Can the gpulz codec run on a GPU in this process?  Probed in the child that
 * runs the GPU rows, never in the parent (CUDA does not survive a fork). */
static const char *gpu_unusable(void)
{
    static char why[256];
    unsigned char in[1 << 16], outb[1 << 17];
    size_t outlen = 0;
    gpulz_params p;
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)(i * 7 / 13);
    gpulz_params_init(&p);
    p.backend = GPULZ_BACKEND_GPU;
    int rc = gpulz_compress(in, sizeof in, outb, sizeof outb, &outlen, &p);
    if (rc == GPULZ_OK)
        return NULL;
    snprintf(why, sizeof why, "skipped: %s: %s", gpulz_strerror(rc), gpulz_last_error());
    for (char *c = why; *c; c++)
        if (*c == ',' || *c == '\n')
            *c = ';';
    return why;
}

/* One row per chunk size of fs, each with status why (a setting that cannot run here). */
static void print_skipped(FILE *out, const array *a, const filter_spec *fs, const options *o,
                          const char *why)
{
    int n, repeats;
    const double *mib = chunks_of(fs, o, &n, &repeats);
    for (int c = 0; c < n; c++) {
        hsize_t cd[MAX_RANK];
        size_t cbytes = chunk_dims(a, mib[c] * MIB, cd);
        print_row(out, a, fs->name, mib[c], cbytes, NULL, why);
    }
}

/* Measure one filter setting at every chunk size; the number of rows that failed. */
static int run_filter(FILE *out, const array *a, const filter_spec *fs, const options *o,
                      void *back)
{
    const char *why = unavailable(fs);
    int n, repeats, failed = 0;
    const double *mib = chunks_of(fs, o, &n, &repeats);
    if (why) {
        print_skipped(out, a, fs, o, why);
        return 0;
    }
    for (int c = 0; c < n; c++) {
        hsize_t cd[MAX_RANK];
        size_t cbytes = chunk_dims(a, mib[c] * MIB, cd);
        result r = measure(a, fs, cd, repeats, back);
        print_row(out, a, fs->name, mib[c], cbytes, &r, NULL);
        failed += strcmp(r.status, "ok") != 0;
    }
    return failed;
}

/* gpulz settings: run in a child with the backend's environment. */
static int run_gpulz(FILE *out, const array *a, const filter_spec *fs, const options *o,
                     void *back)
{
    fflush(out);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("h5bench: fork");
        return -1;
    }
    if (pid == 0) {
        char nthreads[32];
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(nthreads, sizeof nthreads, "%ld", ncpu > 0 ? ncpu : 1);
        setenv("GPULZ_BACKEND", fs->mode == RUN_GPULZ_GPU ? "gpu" : "cpu", 1);
        setenv("GPULZ_THREADS", fs->mode == RUN_GPULZ_CPU1 ? "1" : nthreads, 1);
        const char *why = NULL;
        if (fs->baseline && H5PLprepend(o->baseline_dir) < 0)
            why = "skipped: H5PLprepend refused the baseline folder";
        if (!why)
            why = unavailable(fs);
        int failed = 0;
        if (!why && fs->mode == RUN_GPULZ_GPU)
            why = gpu_unusable();
        if (why)
            print_skipped(out, a, fs, o, why);
        else
            failed = run_filter(out, a, fs, o, back);
        fflush(out);
        _exit(failed ? 1 : 0);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "h5bench: %s on %s: failed\n", fs->name, a->c->name);
        return -1;
    }
    return 0;
}

/* Report the first name in list that is no filter setting here; 1 if any. */
static int unknown_filter(const char *list, const options *o)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t f = 0;
        while (f < NFILTERS && strcmp(filters[f].name, t) != 0)
            f++;
        if (f == NFILTERS) {
            fprintf(stderr, "h5bench: unknown filter setting '%s' (see --list)\n", t);
            return 1;
        }
        if (filters[f].baseline && !o->baseline_dir) {
            fprintf(stderr, "h5bench: filter setting '%s' needs --baseline-plugin DIR\n", t);
            return 1;
        }
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: h5bench [options]\n"
            "  --manifest FILE    corpus list: name dtype shape bytes sha256 (default "
            "bench/data/cache/MANIFEST)\n"
            "  --data DIR         folder of the arrays (default: the manifest's folder)\n"
            "  --only A,B,...     only these arrays\n"
            "  --filters F,G,...  only these filter settings (--list shows them)\n"
            "  --chunks 1,4,16    chunk sizes in MiB\n"
            "  --repeats N        runs per measurement, median reported (default 3)\n"
            "  --gpulz-chunks L   chunk sizes of the gpulz rows (default: --chunks)\n"
            "  --gpulz-repeats N  runs per measurement of the gpulz rows (default: --repeats)\n"
            "  --gpulz-cd V,S,W,C,F  cd_values of the lz and baseline rows (default "
            "1,0,128,2048,0,\n"
            "                     gpulz 0.1's); the auto rows take the defaults of "
            "gpulz_h5_set_dcpl()\n"
            "  --baseline-plugin DIR  also run the rows LABEL-cpu-all and LABEL-gpu (lz's "
            "cd_values)\n"
            "                     through the gpulz plugin in DIR, another build that "
            "stores five\n"
            "                     cd_values, as 0.1 does (the rows check it)\n"
            "  --baseline-label LABEL  their name, starting with 'gpulz' (default gpulz-0.1)\n"
            "  --no-header        no CSV header line\n"
            "  --list             list the filter settings and exit\n"
            "gpulz rows: gpulz-cpu-1t, gpulz-cpu-all and gpulz-gpu write mode lz (chunk format "
            "1, the\n"
            "bytes of gpulz 0.1) on one core, every core and the GPU; gpulz-auto-cpu-all and\n"
            "gpulz-auto-gpu the default mode, auto (format 2, checksum on). A gpulz row fails\n"
            "('wrong plugin') where its dataset stores other parameters than its build and "
            "mode write.\n"
            "Output: CSV on stdout. Status 'ok' or why a row was skipped or failed.\n"
            "Filters are looked up on HDF5_PLUGIN_PATH; gpulz filter ID %d.\n",
            H5Z_FILTER_GPULZ);
}

static int parse_numbers(const char *s, double *v, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        v[n] = strtod(s, &end);
        if (end == s || v[n] <= 0)
            return -1;
        n++;
        if (*end != ',')
            return *end ? -1 : n;
        s = end + 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    options o = {"bench/data/cache/MANIFEST", NULL, NULL, NULL, {1, 4, 16}, 3, 3,
                 {0},                         0,    0,    NULL, 1};
    int failures = 0, list = 0;
    const char *label = "gpulz-0.1";
    static char baseline_dir[4096];

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--list")) {
            list = 1;
        } else if (!strcmp(arg, "--no-header")) {
            o.header = 0;
        } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return 0;
        } else if (!val) {
            usage(stderr);
            return 2;
        } else if (!strcmp(arg, "--manifest")) {
            o.manifest = val, i++;
        } else if (!strcmp(arg, "--data")) {
            o.datadir = val, i++;
        } else if (!strcmp(arg, "--only")) {
            o.only = val, i++;
        } else if (!strcmp(arg, "--filters")) {
            o.filters = val, i++;
        } else if (!strcmp(arg, "--chunks")) {
            o.nchunks = parse_numbers(val, o.chunks_mib, 8), i++;
        } else if (!strcmp(arg, "--repeats")) {
            o.repeats = atoi(val), i++;
        } else if (!strcmp(arg, "--gpulz-chunks")) {
            o.gpulz_nchunks = parse_numbers(val, o.gpulz_chunks_mib, 8), i++;
            if (o.gpulz_nchunks <= 0) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(arg, "--gpulz-repeats")) {
            o.gpulz_repeats = atoi(val), i++;
            if (o.gpulz_repeats < 1 || o.gpulz_repeats > MAX_REPEATS) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(arg, "--baseline-plugin")) {
            /* absolute, as the child's HDF5 may look for it from anywhere */
            if (!realpath(val, baseline_dir)) {
                fprintf(stderr, "h5bench: --baseline-plugin %s: %s\n", val, strerror(errno));
                return 2;
            }
            o.baseline_dir = baseline_dir, i++;
        } else if (!strcmp(arg, "--baseline-label")) {
            label = val, i++;
        } else if (!strcmp(arg, "--gpulz-cd")) {
            unsigned cd[5];
            char tail;
            if (sscanf(val, "%u,%u,%u,%u,%u%c", &cd[0], &cd[1], &cd[2], &cd[3], &cd[4], &tail) != 5) {
                usage(stderr);
                return 2;
            }
            for (size_t f = 0; f < NFILTERS; f++)
                if (filters[f].mode != RUN_HERE && filters[f].ncd == H5Z_GPULZ_CD_NELMTS)
                    memcpy(filters[f].cd, cd, sizeof cd);
            i++;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (o.nchunks <= 0 || o.repeats < 1 || o.repeats > MAX_REPEATS) {
        usage(stderr);
        return 2;
    }
    /* tables.py tells gpulz rows from the CPU filters by the prefix */
    if (strncmp(label, "gpulz", 5) != 0 || strlen(label) > 40 || strchr(label, ',')) {
        fprintf(stderr, "h5bench: --baseline-label '%s': must start with 'gpulz', without "
                        "commas, at most 40 characters\n",
                label);
        return 2;
    }
    snprintf(baseline_cpu_name, sizeof baseline_cpu_name, "%s-cpu-all", label);
    snprintf(baseline_gpu_name, sizeof baseline_gpu_name, "%s-gpu", label);
    for (size_t f = 0; f < NFILTERS; f++)
        if (!filters[f].baseline && (!strcmp(filters[f].name, baseline_cpu_name) ||
                                     !strcmp(filters[f].name, baseline_gpu_name))) {
            fprintf(stderr, "h5bench: --baseline-label '%s' names rows of this build\n", label);
            return 2;
        }
    if (list) {
        for (size_t f = 0; f < NFILTERS; f++)
            if (!filters[f].baseline || o.baseline_dir)
                printf("%s\n", filters[f].name);
        return 0;
    }
    if (o.filters && unknown_filter(o.filters, &o))
        return 2;

    corpus cor;
    if (corpus_open(&cor, "h5bench", o.manifest, o.datadir, o.only) < 0)
        return 1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

    FILE *out = stdout;
    if (o.header)
        fprintf(out, "dataset,dtype,shape,bytes,filter,chunk_mib,chunk_bytes,ratio,write_gbs,"
                     "read_gbs,status\n");
    corpus_array ca;
    for (int got; (got = corpus_next(&cor, &ca)) != 0;) {
        array a;
        if (got < 0 || from_corpus(&a, &ca) < 0) {
            free(ca.data);
            failures++;
            continue;
        }
        void *back = malloc(a.c->bytes);
        if (!back) {
            fprintf(stderr, "h5bench: out of memory for %s\n", a.c->name);
            free(a.c->data);
            failures++;
            continue;
        }
        for (size_t f = 0; f < NFILTERS; f++) {
            const filter_spec *fs = &filters[f];
            if (!corpus_in_list(o.filters, fs->name) || (fs->baseline && !o.baseline_dir))
                continue;
            if (fs->mode == RUN_HERE)
                failures += run_filter(out, &a, fs, &o, back);
            else if (run_gpulz(out, &a, fs, &o, back) < 0)
                failures++;
        }
        free(back);
        free(a.c->data);
    }
    corpus_close(&cor);
    return failures ? 1 : 0;
}
