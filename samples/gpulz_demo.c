/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_demo.c - the gpulz filter on real data, end to end through HDF5.
 *
 * Writes the bundled sample data (samples/data: TPC-H lineitem columns, text
 * and quantization codes) into an HDF5 file with the gpulz filter, loaded as
 * a plugin (HDF5_PLUGIN_PATH or HDF5's plugin directory), reads every dataset
 * back, checks it byte for byte, and prints per dataset the compression
 * ratio, the write and read speed and which backend ran.  The backend comes
 * from the filter itself: with GPULZ_VERBOSE=1 it writes one line per chunk
 * on stderr, which the demo collects.
 *
 * Usage: gpulz-demo [DATADIR [OUTFILE]]   (defaults: samples/data, gpulz-demo.h5)
 * Exit status: 0 all verified, 1 a mismatch or an HDF5 error, 2 bad usage or data.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "gpulz_cd.h" /* the filter ID and cd_values: HDF5 loads the plugin */

typedef struct sample {
    const char *file;    /* in DATADIR */
    const char *dataset; /* in the HDF5 file */
    hid_t *type;         /* file (= memory) type, little-endian */
    int rank;
    hsize_t dims[3];     /* 0 in dims[0]: from the file size */
    hsize_t chunk[3];    /* 0: the whole extent */
} sample;

/* One chunk per dataset: the samples are small (0.3-0.5 MB), and bigger
 * chunks give the codec more blocks to spread over threads or a GPU.  Real
 * files want chunks of 1-16 MiB (docs/usage.md). */

static const sample samples[] = {
    {"l_orderkey.i32", "tpch/l_orderkey", &H5T_STD_I32LE_g, 1, {0}, {0}},
    {"l_partkey.i32", "tpch/l_partkey", &H5T_STD_I32LE_g, 1, {0}, {0}},
    {"l_suppkey.i32", "tpch/l_suppkey", &H5T_STD_I32LE_g, 1, {0}, {0}},
    {"l_quantity.i32", "tpch/l_quantity", &H5T_STD_I32LE_g, 1, {0}, {0}},
    {"l_comment.txt", "tpch/l_comment", &H5T_STD_U8LE_g, 1, {0}, {0}},
    {"quant_64x64x64.u16", "quant", &H5T_STD_U16LE_g, 3, {64, 64, 64}, {0, 0, 0}},
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    void *buf = size > 0 ? malloc((size_t)size) : NULL;
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = buf ? (size_t)size : 0;
    return buf;
}

/* ---- which backend ran: the filter's GPULZ_VERBOSE lines on stderr ---- */

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

/* Summarise the captured lines as "CPU (no usable GPU)" or "GPU 3, CPU 1 (...)". */
static void capture_end(char *summary, size_t cap)
{
    fflush(stderr);
    snprintf(summary, cap, "?");
    if (saved_stderr >= 0) {
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
    if (!capture_file)
        return;
    rewind(capture_file);
    char line[512], why[200] = "";
    int gpu = 0, cpu = 0;
    while (fgets(line, sizeof line, capture_file)) {
        if (strncmp(line, "gpulz: ", 7) != 0) {
            fputs(line, stderr); /* not ours: pass it on */
            continue;
        }
        const char *open = strchr(line, '(');
        const char *close = open ? strchr(open, ')') : NULL;
        if (strstr(line, " on the GPU "))
            gpu++;
        else
            cpu++;
        if (open && close && !strstr(line, "on the GPU"))
            snprintf(why, sizeof why, "%.*s", (int)(close - open - 1), open + 1);
    }
    fclose(capture_file);
    capture_file = NULL;
    if (gpu && !cpu)
        snprintf(summary, cap, "GPU");
    else if (cpu && !gpu)
        snprintf(summary, cap, "CPU (%s)", why);
    else if (gpu && cpu)
        snprintf(summary, cap, "GPU %d, CPU %d (%s)", gpu, cpu, why);
    else
        snprintf(summary, cap, "none");
}

/* ---- one dataset ------------------------------------------------------ */

static int run(hid_t file, const char *datadir, const sample *s, double totals[3])
{
    char path[4096], wrote[256], read[256];
    size_t n;
    snprintf(path, sizeof path, "%s/%s", datadir, s->file);
    uint8_t *data = read_all(path, &n);
    if (!data) {
        fprintf(stderr, "gpulz-demo: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    hid_t type = *s->type;
    size_t esize = H5Tget_size(type);
    hsize_t dims[3] = {s->dims[0], s->dims[1], s->dims[2]};
    if (dims[0] == 0)
        dims[0] = n / esize;
    hsize_t chunk[3];
    size_t elems = 1;
    for (int i = 0; i < s->rank; i++) {
        elems *= (size_t)dims[i];
        chunk[i] = s->chunk[i] ? s->chunk[i] : dims[i];
    }
    if (elems * esize != n) {
        fprintf(stderr, "gpulz-demo: %s holds %zu bytes, not %zu\n", path, n, elems * esize);
        free(data);
        return 2;
    }
    uint8_t *back = malloc(n);
    int rc = 1, same = 0, compared = 0;
    hid_t space = H5Screate_simple(s->rank, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    hid_t d = -1;
    /* all zeros: symbol size from the datatype, window 128, block 2048 */
    const unsigned cd[H5Z_GPULZ_CD_NELMTS] = {0, 0, 0, 0, 0};
    if (!back || space < 0 || dcpl < 0 || lcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0 ||
        H5Pset_chunk(dcpl, s->rank, chunk) < 0 ||
        H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, H5Z_FLAG_MANDATORY, H5Z_GPULZ_CD_NELMTS, cd) < 0)
        goto done;

    capture_begin();
    double t0 = now();
    d = H5Dcreate2(file, s->dataset, type, space, lcpl, dcpl, H5P_DEFAULT);
    herr_t w = d >= 0 ? H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : -1;
    if (d >= 0 && H5Dclose(d) < 0) /* closing flushes the last chunks through the filter */
        w = -1;
    d = -1;
    double t_write = now() - t0;
    capture_end(wrote, sizeof wrote);
    if (w < 0)
        goto done;

    /* a fresh open: no chunk comes from the dataset's chunk cache */
    capture_begin();
    t0 = now();
    d = H5Dopen2(file, s->dataset, H5P_DEFAULT);
    herr_t r = d >= 0 ? H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) : -1;
    double t_read = now() - t0;
    capture_end(read, sizeof read);
    if (r < 0)
        goto done;
    hsize_t stored = H5Dget_storage_size(d);
    compared = 1;
    same = memcmp(data, back, n) == 0;
    printf("%-16s %-7s %8.3f %9.3f %7.2f %9.1f %9.1f  %-3s  %s / %s\n", s->dataset,
           esize == 1 ? "uint8" : esize == 2 ? "uint16" : "int32", n / 1e6, stored / 1e6,
           stored ? (double)n / (double)stored : 0.0, n / 1e6 / t_write, n / 1e6 / t_read,
           same ? "ok" : "BAD", wrote, read);
    totals[0] += (double)n;
    totals[1] += (double)stored;
    rc = same ? 0 : 1;
    if (!same)
        fprintf(stderr, "gpulz-demo: %s differs from %s\n", s->dataset, path);
done:
    if (!compared) /* an HDF5 call failed */
        H5Eprint2(H5E_DEFAULT, stderr);
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
    free(data);
    free(back);
    return rc;
}

int main(int argc, char **argv)
{
    const char *datadir = argc > 1 ? argv[1] : "samples/data";
    const char *out = argc > 2 ? argv[2] : "gpulz-demo.h5";
    if (argc > 3 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: gpulz-demo [DATADIR [OUTFILE]]\n");
        return 2;
    }
    setenv("GPULZ_VERBOSE", "1", 1); /* the filter says where each chunk ran */
    H5open();
    if (H5Zfilter_avail(H5Z_FILTER_GPULZ) <= 0) {
        fprintf(stderr,
                "gpulz-demo: HDF5 cannot find the gpulz filter (ID %d).\n"
                "Set HDF5_PLUGIN_PATH to the directory holding libH5Zgpulz.so "
                "(see docs/troubleshooting.md).\n",
                H5Z_FILTER_GPULZ);
        return 1;
    }
    hid_t file = H5Fcreate(out, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        return 1;
    unsigned maj, min, rel;
    H5get_libversion(&maj, &min, &rel);
    printf("gpulz-demo: HDF5 %u.%u.%u, filter %d, writing %s\n\n", maj, min, rel,
           H5Z_FILTER_GPULZ, out);
    printf("%-16s %-7s %8s %9s %7s %9s %9s  %-3s  %s\n", "dataset", "type", "raw MB", "stored MB",
           "ratio", "write MB/s", "read MB/s", "ok", "backend (write / read)");
    double totals[3] = {0, 0, 0};
    int rc = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0] && rc != 2; i++) {
        int r = run(file, datadir, &samples[i], totals);
        if (r > rc)
            rc = r;
    }
    if (H5Fclose(file) < 0)
        rc = rc ? rc : 1;
    if (totals[1] > 0)
        printf("\nall datasets: %.3f MB -> %.3f MB, ratio %.2f; %s\n", totals[0] / 1e6,
               totals[1] / 1e6, totals[0] / totals[1],
               rc == 0 ? "every dataset verified" : "VERIFICATION FAILED");
    return rc;
}
