/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5direct_bench - direct chunk I/O (gpulz_h5_write_direct and friends)
 * beside HDF5's filter pipeline and beside no filter, on the same data in
 * the same run: issue 12's measurement.
 *
 * The data are quantization codes (uint16; the generator's "quant" kind, or
 * a file), one 1-D dataset of them.  For each file kind (memory: the core
 * driver without a backing store; disk: a file on local disk), each chunk
 * size and each path
 *
 *   none           H5Dwrite/H5Dread, no filter
 *   filter         H5Dwrite/H5Dread through the gpulz filter (registered
 *                  from libh5gpulz; backend from GPULZ_BACKEND as usual)
 *   direct-host    gpulz_h5_write_direct/_read_direct from host buffers
 *   direct-device  the _device variants from cudaMalloc'd buffers
 *                  (skipped where no GPU is usable)
 *
 * (and, with --gpus, each GPU count for direct-host: GPULZ_DEVICE is set to
 * the first N of the devices before the row, so that one run measures the
 * same data on 1, 2 and 4 GPUs; the other paths run on the first device)
 * it creates the file and the dataset, then runs one untimed warm-up pass
 * and --repeats timed passes.  Each pass overwrites the whole dataset (its
 * chunks are allocated by the warm-up, so a timed write measures the I/O
 * path, not the first touch of the file's memory), closes and reopens the
 * dataset (so no chunk is read from the chunk cache), reads it all back
 * into a buffer cleared beforehand and compares every byte, untimed.
 *
 * Timed: the write call plus H5Fflush (and fsync with --fsync), and the read
 * call; wall clock (CLOCK_MONOTONIC).  The device calls return with their
 * stream's work done, so no GPU work is left outside the time.  GB/s are
 * 1e9 bytes of uncompressed data per second, median of the passes; ratio
 * is data bytes / H5Dget_storage_size.  Disk writes reach the page cache
 * (H5Fflush does not sync) and reads of a file just written come from it,
 * unless --fsync, which also drops the file's pages after each write.
 *
 * The chunk cache (H5Pset_chunk_cache on the dataset access list) is one
 * chunk plus 1 MiB by default: every path moves whole chunks, so a chunk
 * never needs to be held past its own write or read; a cache that can hold
 * a chunk keeps the filter path from decompressing one twice when a
 * selection covers it in pieces.  --cache-mib sets another size (0: HDF5's
 * 1 MiB default).
 *
 * The host buffers (the data written and the buffer read into) are
 * pageable, from malloc, unless --pinned, which takes them from
 * cudaHostAlloc: the host paths' copies then skip the library's staging
 * (the CSV's memory column says "pinned").
 *
 * Output: a header (device, HDF5, sizes, settings), a readable table with
 * each direct path's factor over the filter path, and the targets;
 * the CSV (--csv, default h5direct.csv) has one row per file, chunk size,
 * path and GPU count.  Exit status 0, or 1 when a pass failed or read back wrong bytes,
 * or 77 when only the device path was asked for and no GPU is usable.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#if GPULZ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "datagen.h"
#include "gpulz.h"
#include "gpulz_env.h"
#include "gpulz_h5filter.h"
#include "bench_args.h"
#include "quant_gen.h"

#define MAX_REPEATS 50
#define MAX_CHUNKS 8
#define MAX_GPU_COUNTS 8
#define MIB ((size_t)1 << 20)
#define TMPFS_MAGIC_NUMBER 0x01021994

typedef enum { PATH_NONE, PATH_FILTER, PATH_DIRECT_HOST, PATH_DIRECT_DEVICE, PATH_COUNT } io_path;
static const char *const path_names[PATH_COUNT] = {"none", "filter", "direct-host", "direct-device"};

typedef enum { FILE_MEMORY, FILE_DISK, FILE_COUNT } file_kind;
static const char *const file_names[FILE_COUNT] = {"memory", "disk"};

typedef struct options {
    size_t size;       /* bytes of codes */
    const char *input; /* a file of codes instead of the generator */
    uint64_t seed;
    size_t chunk_bytes[MAX_CHUNKS];
    int nchunks;
    int paths[PATH_COUNT];
    int files[FILE_COUNT];
    char disk_path[4096];
    const char *csv_path;
    int repeats;
    unsigned mode; /* H5Z_GPULZ_CD_MODE_* */
    long cache_mib; /* -1: one chunk plus 1 MiB */
    int fsync_writes;
    int pinned; /* --pinned: the host buffers from cudaHostAlloc */
    int optional; /* --optional: the filter optional (incompressible chunks stored unfiltered) */
    unsigned gpu_counts[MAX_GPU_COUNTS]; /* --gpus: direct-host on the first N devices */
    int ngpu_counts;
} options;

/* What one file kind, chunk size and path measured. */
typedef struct result {
    file_kind file;
    size_t chunk_bytes;
    io_path path;
    double write_gbs, read_gbs, write_gbs_max, read_gbs_max;
    double write_s, read_s; /* medians */
    double ratio;
    size_t cache_bytes;
    int direct; /* the chunk path was taken on every pass (-1: not a direct path) */
    unsigned gpus; /* devices the row's GPULZ_DEVICE named (0: no GPU used) */
    const char *status;
    char why[96]; /* a status made for the row */
} result;

/* The data, in host memory and (where a GPU is usable) on the device. */
typedef struct dataset_data {
    uint8_t *host, *back;
    void *d_src, *d_back;
    size_t bytes;
    int pinned; /* host and back are cudaHostAlloc's */
} dataset_data;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}





/* ---- the data ----------------------------------------------------------------- */

static int read_input(const char *path, uint8_t *buf, size_t bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "h5direct_bench: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t got = fread(buf, 1, bytes, f);
    fclose(f);
    if (got != bytes) {
        fprintf(stderr, "h5direct_bench: %s holds %zu bytes, fewer than --size %zu\n", path, got, bytes);
        return -1;
    }
    return 0;
}

/* ---- the GPU, where there is one ---------------------------------------------------- */

static int gpu_usable;
/* The devices the rows may use: GPULZ_DEVICE's list where it is set, else
 * with --gpus every visible device, without it the current device. */
static gpulz_devices devices;

/* GPULZ_DEVICE for the first n of the devices ("0,1"); unset for none. */
static void devices_use(unsigned n)
{
    char list[GPULZ_DEVICES_MAX * 4] = "";
    size_t at = 0;
    for (unsigned k = 0; k < n && k < devices.count; k++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", k ? "," : "", devices.dev[k]);
    setenv("GPULZ_DEVICE", list, 1);
}

#if GPULZ_HAVE_CUDA
#define CUDA_OK(call) ((call) == cudaSuccess)
#endif

/* The devices of the rows; none where no GPU is usable. */
static void devices_find(const options *o)
{
    devices.count = 0;
#if GPULZ_HAVE_CUDA
    int visible = 0;
    /* gpulz_gpu_available() has parsed GPULZ_DEVICE: a bad one leaves no GPU usable */
    if (!gpu_usable || !CUDA_OK(cudaGetDeviceCount(&visible)) || visible < 1 ||
        gpulz_env_devices(visible, &devices) != GPULZ_OK)
        return;
    if (devices.count == 0 && o->ngpu_counts) {
        gpulz_devices_parse("all", visible, 0, &devices);
    } else if (devices.count == 0) {
        devices.count = 1;
        cudaGetDevice(&devices.dev[0]);
    }
    /* the device buffers of direct-device on the first device, as the rest */
    cudaSetDevice(devices.dev[0]);
#else
    (void)o;
#endif
}

static void describe_device(FILE *out)
{
#if GPULZ_HAVE_CUDA
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    for (unsigned k = 0; gpu_usable && k < devices.count; k++) {
        struct cudaDeviceProp prop;
        int dev = devices.dev[k];
        if (CUDA_OK(cudaGetDeviceProperties(&prop, dev)))
            fprintf(out, "# device: %d %s, %d SMs, %.1f GiB, compute %d.%d; CUDA runtime %d, driver %d\n", dev,
                    prop.name, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30), prop.major,
                    prop.minor, rt, drv);
        else
            fprintf(out, "# device: %d (no properties: %s)\n", dev, cudaGetErrorString(cudaGetLastError()));
    }
    if (gpu_usable && devices.count)
        return;
    fprintf(out, "# device: no usable GPU (%s)\n", gpulz_last_error());
#else
    fprintf(out, "# device: none (this build has no CUDA)\n");
#endif
}

/* The host buffers: pinned (--pinned, with a usable GPU; portable, for --gpus) or pageable. */
static int host_alloc(dataset_data *D, int pinned)
{
#if GPULZ_HAVE_CUDA
    if (pinned) {
        D->pinned = 1;
        if (!gpu_usable || !CUDA_OK(cudaHostAlloc((void **)&D->host, D->bytes, cudaHostAllocPortable)) ||
            !CUDA_OK(cudaHostAlloc((void **)&D->back, D->bytes, cudaHostAllocPortable))) {
            fprintf(stderr, "h5direct_bench: --pinned: cannot pin 2 x %zu bytes (%s)\n", D->bytes,
                    gpu_usable ? cudaGetErrorString(cudaGetLastError()) : "no usable GPU");
            return -1;
        }
        return 0;
    }
#endif
    if (pinned) {
        fprintf(stderr, "h5direct_bench: --pinned needs a build with CUDA\n");
        return -1;
    }
    return (D->host = malloc(D->bytes)) && (D->back = malloc(D->bytes)) ? 0 : -1;
}

static void host_free(dataset_data *D)
{
#if GPULZ_HAVE_CUDA
    if (D->pinned) {
        cudaFreeHost(D->host);
        cudaFreeHost(D->back);
        D->host = D->back = NULL;
        return;
    }
#endif
    free(D->host);
    free(D->back);
    D->host = D->back = NULL;
}

static int device_alloc(dataset_data *D)
{
#if GPULZ_HAVE_CUDA
    if (!CUDA_OK(cudaMalloc(&D->d_src, D->bytes)) || !CUDA_OK(cudaMalloc(&D->d_back, D->bytes)) ||
        !CUDA_OK(cudaMemcpy(D->d_src, D->host, D->bytes, cudaMemcpyHostToDevice))) {
        fprintf(stderr, "h5direct_bench: cannot put %zu bytes on the device\n", D->bytes);
        return -1;
    }
    return 0;
#else
    (void)D;
    return -1;
#endif
}

static void device_free(dataset_data *D)
{
#if GPULZ_HAVE_CUDA
    cudaFree(D->d_src);
    cudaFree(D->d_back);
#endif
    D->d_src = D->d_back = NULL;
}

static int device_clear(dataset_data *D)
{
#if GPULZ_HAVE_CUDA
    return CUDA_OK(cudaMemset(D->d_back, 0, D->bytes)) && CUDA_OK(cudaDeviceSynchronize()) ? 0 : -1;
#else
    (void)D;
    return -1;
#endif
}

static int device_fetch(dataset_data *D)
{
#if GPULZ_HAVE_CUDA
    return CUDA_OK(cudaMemcpy(D->back, D->d_back, D->bytes, cudaMemcpyDeviceToHost)) ? 0 : -1;
#else
    (void)D;
    return -1;
#endif
}

/* ---- one measurement ---------------------------------------------------------------- */

/* The bytes of the disk file reach the disk, and leave the page cache so
 * that the next read comes from the disk. */
static int sync_file(hid_t file)
{
    void *handle = NULL;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle)
        return -1;
    int fd = *(int *)handle;
    if (fsync(fd) != 0)
        return -1;
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    return 0;
}

static int write_pass(io_path path, hid_t file, hid_t dset, dataset_data *D, int fsync_it,
                      double *secs, int *direct)
{
    int ok = -1, taken = 1;
    double t0 = now();
    switch (path) {
    case PATH_NONE:
    case PATH_FILTER:
        ok = H5Dwrite(dset, H5T_STD_U16LE, H5S_ALL, H5S_ALL, H5P_DEFAULT, D->host) >= 0 ? 0 : -1;
        break;
    case PATH_DIRECT_HOST:
        ok = gpulz_h5_write_direct(dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, D->host, &taken) >= 0 ? 0 : -1;
        break;
    default:
        ok = gpulz_h5_write_direct_device(dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, D->d_src, NULL, &taken) >= 0
                 ? 0
                 : -1;
        break;
    }
    if (ok == 0 && H5Fflush(file, H5F_SCOPE_LOCAL) < 0)
        ok = -1;
    if (ok == 0 && fsync_it && sync_file(file) != 0)
        ok = -1;
    *secs = now() - t0;
    if (!taken)
        *direct = 0;
    return ok;
}

static int read_pass(io_path path, hid_t dset, dataset_data *D, double *secs, int *direct)
{
    int ok = -1, taken = 1;
    if (path == PATH_DIRECT_DEVICE ? device_clear(D) != 0 : (memset(D->back, 0, D->bytes), 0))
        return -1;
    double t0 = now();
    switch (path) {
    case PATH_NONE:
    case PATH_FILTER:
        ok = H5Dread(dset, H5T_STD_U16LE, H5S_ALL, H5S_ALL, H5P_DEFAULT, D->back) >= 0 ? 0 : -1;
        break;
    case PATH_DIRECT_HOST:
        ok = gpulz_h5_read_direct(dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, D->back, &taken) >= 0 ? 0 : -1;
        break;
    default:
        ok = gpulz_h5_read_direct_device(dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, D->d_back, NULL, &taken) >= 0
                 ? 0
                 : -1;
        break;
    }
    *secs = now() - t0;
    if (!taken)
        *direct = 0;
    if (ok == 0 && path == PATH_DIRECT_DEVICE && device_fetch(D) != 0)
        ok = -1;
    if (ok == 0 && memcmp(D->back, D->host, D->bytes) != 0) {
        fprintf(stderr, "h5direct_bench: %s read back different bytes\n", path_names[path]);
        ok = -2;
    }
    return ok;
}

static size_t cache_bytes_for(const options *o, size_t chunk_bytes)
{
    if (o->cache_mib < 0)
        return chunk_bytes + MIB;
    return o->cache_mib == 0 ? MIB : (size_t)o->cache_mib * MIB;
}

static void measure(const options *o, file_kind fk, size_t chunk_bytes, io_path path, dataset_data *D, result *r)
{
    hid_t fapl = -1, file = -1, space = -1, dcpl = -1, dapl = -1, dset = -1;
    double wt[MAX_REPEATS], rt[MAX_REPEATS];
    char mem_name[64];
    const char *name = o->disk_path;
    memset(r, 0, sizeof *r);
    r->file = fk;
    r->chunk_bytes = chunk_bytes;
    r->path = path;
    r->direct = path >= PATH_DIRECT_HOST ? 1 : -1;
    r->cache_bytes = cache_bytes_for(o, chunk_bytes);
    r->status = "error";
    if (path == PATH_DIRECT_DEVICE && !gpu_usable) {
        r->status = "skipped: no usable GPU";
        r->direct = -1;
        return;
    }
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0)
        goto done;
    if (fk == FILE_MEMORY) {
        /* no backing store: the file lives and dies in memory; growing it
         * in large steps keeps the warm-up from copying it again and again */
        snprintf(mem_name, sizeof mem_name, "h5direct-memory-%ld.h5", (long)getpid());
        name = mem_name;
        if (H5Pset_fapl_core(fapl, 256 * MIB, 0) < 0)
            goto done;
    }
    hsize_t dims[1] = {D->bytes / 2}, cdims[1] = {chunk_bytes / 2};
    if (cdims[0] > dims[0])
        cdims[0] = dims[0];
    if ((file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0 ||
        (space = H5Screate_simple(1, dims, NULL)) < 0 || (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(dcpl, 1, cdims) < 0 || (dapl = H5Pcreate(H5P_DATASET_ACCESS)) < 0 ||
        H5Pset_chunk_cache(dapl, 12421, r->cache_bytes, 1.0) < 0)
        goto done;
    if (path != PATH_NONE && gpulz_h5_set_dcpl_mode(dcpl, 0, 0, 0, o->optional ? GPULZ_H5_OPTIONAL : 0, o->mode) < 0)
        goto done;
    if ((dset = H5Dcreate2(file, "codes", H5T_STD_U16LE, space, H5P_DEFAULT, dcpl, dapl)) < 0)
        goto done;
    for (int pass = 0; pass <= o->repeats; pass++) {
        double w = 0, rd = 0;
        int rc = write_pass(path, file, dset, D, o->fsync_writes && fk == FILE_DISK, &w, &r->direct);
        /* a reopened dataset starts with an empty chunk cache */
        if (rc == 0 && (H5Dclose(dset) < 0 || (dset = H5Dopen2(file, "codes", dapl)) < 0))
            rc = -1;
        if (rc == 0)
            rc = read_pass(path, dset, D, &rd, &r->direct);
        if (rc != 0) {
            r->status = rc == -2 ? "wrong bytes read back" : "error";
            fprintf(stderr, "h5direct_bench: %s file, %zu MiB chunks, %s: pass %d failed\n", file_names[fk],
                    chunk_bytes / MIB, path_names[path], pass);
            H5Eprint2(H5E_DEFAULT, stderr);
            goto done;
        }
        if (pass > 0) {
            wt[pass - 1] = w;
            rt[pass - 1] = rd;
        }
    }
    hsize_t stored = H5Dget_storage_size(dset);
    r->ratio = stored ? (double)D->bytes / (double)stored : 0;
    r->write_s = bench_median(wt, o->repeats);
    r->read_s = bench_median(rt, o->repeats);
    r->write_gbs = (double)D->bytes / r->write_s / 1e9;
    r->read_gbs = (double)D->bytes / r->read_s / 1e9;
    r->write_gbs_max = (double)D->bytes / bench_smallest(wt, o->repeats) / 1e9;
    r->read_gbs_max = (double)D->bytes / bench_smallest(rt, o->repeats) / 1e9;
    r->status = r->direct == 0 ? "ok, chunk path not taken" : "ok";
done:
    if (dset >= 0)
        H5Dclose(dset);
    if (dapl >= 0)
        H5Pclose(dapl);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (file >= 0)
        H5Fclose(file);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fk == FILE_DISK)
        remove(name);
}

/* The GPUs a row of path p runs on with n devices named: 0 where it runs on
 * the CPU, 1 for the paths that take one device, n for direct-host. */
static unsigned row_gpus(io_path p, unsigned n)
{
    const char *b = getenv("GPULZ_BACKEND");
    if (p == PATH_NONE || !gpu_usable || (b && !strcmp(b, "cpu")))
        return 0;
    return p == PATH_DIRECT_HOST ? n : 1;
}

/* A row that does not run, and why. */
static void skip_row(result *r, file_kind fk, size_t chunk_bytes, io_path path, const char *why)
{
    memset(r, 0, sizeof *r);
    r->file = fk;
    r->chunk_bytes = chunk_bytes;
    r->path = path;
    r->direct = -1;
    snprintf(r->why, sizeof r->why, "skipped: %s", why);
    r->status = r->why;
}

/* ---- output --------------------------------------------------------------------- */


static void header(FILE *out, const options *o, const dataset_data *D)
{
    unsigned maj = 0, min = 0, rel = 0;
    const char *backend = getenv("GPULZ_BACKEND"), *threads = getenv("GPULZ_THREADS");
    char host[256] = "?";
    time_t t = time(NULL);
    char when[64];
    gethostname(host, sizeof host - 1);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    H5get_libversion(&maj, &min, &rel);
    fprintf(out, "# h5direct_bench, gpulz %s, HDF5 %u.%u.%u, host %s, %ld cores, %s\n", gpulz_version_string(), maj,
            min, rel, host, sysconf(_SC_NPROCESSORS_ONLN), when);
    describe_device(out);
    fprintf(out, "# data: %zu bytes of uint16 quantization codes (%s)\n", D->bytes,
            o->input ? o->input : "generator \"quant\"");
    fprintf(out, "# gpulz mode %s, filter %s, GPULZ_BACKEND=%s, GPULZ_THREADS=%s; %d timed passes after a warm-up\n",
            gpulz_mode_name((gpulz_mode)o->mode), o->optional ? "optional" : "mandatory", backend ? backend : "(unset: auto)", threads ? threads : "(unset: all cores)",
            o->repeats);
    fprintf(out, "# host buffers: %s\n", o->pinned ? "pinned (cudaHostAlloc)" : "pageable (malloc)");
    fprintf(out, "# timed: write call + H5Fflush%s; read call (bytes compared untimed); GB/s = 1e9 B/s of "
                 "uncompressed data, median\n",
            o->fsync_writes ? " + fsync and page drop (disk)" : "");
    if (o->files[FILE_DISK]) {
        /* tmpfs is memory: a disk row measured there would not be one */
        struct statfs fs;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", o->disk_path);
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else
            slash[slash == dir] = 0;
        int tmpfs = statfs(dir, &fs) == 0 && (unsigned long)fs.f_type == TMPFS_MAGIC_NUMBER;
        fprintf(out, "# disk file: %s%s\n", o->disk_path, tmpfs ? " (WARNING: tmpfs, not a disk)" : "");
    }
    if (o->ngpu_counts) {
        fprintf(out, "# GPUs: direct-host with GPULZ_DEVICE set to the first");
        for (int i = 0; i < o->ngpu_counts; i++)
            fprintf(out, "%s%u", i ? ", " : " ", o->gpu_counts[i]);
        fprintf(out, " of devices");
        for (unsigned k = 0; k < devices.count; k++)
            fprintf(out, "%s%d", k ? "," : " ", devices.dev[k]);
        if (!devices.count)
            fprintf(out, " (none usable: the first count on the CPU)");
        fprintf(out, "; the other paths on the first\n");
    } else {
        const char *dev = getenv("GPULZ_DEVICE");
        fprintf(out, "# GPUs: GPULZ_DEVICE=%s\n", dev && *dev ? dev : "(unset: the current device)");
    }
    if (o->cache_mib < 0)
        fprintf(out, "# chunk cache: one chunk + 1 MiB per dataset, w0 1.0\n");
    else
        fprintf(out, "# chunk cache: %ld MiB per dataset, w0 1.0\n", o->cache_mib ? o->cache_mib : 1);
}

static const result *find(const result *R, int n, file_kind fk, size_t chunk_bytes, io_path path)
{
    for (int i = 0; i < n; i++)
        if (R[i].file == fk && R[i].chunk_bytes == chunk_bytes && R[i].path == path)
            return &R[i];
    return NULL;
}

static int ok_row(const result *r)
{
    return r && strncmp(r->status, "ok", 2) == 0;
}

static void csv(FILE *out, const options *o, const result *R, int n, size_t bytes)
{
    fprintf(out, "file,path,memory,gpus,mode,chunk_mib,chunk_bytes,size_bytes,cache_bytes,ratio,write_gbs,read_gbs,"
                 "write_gbs_max,read_gbs_max,write_s,read_s,repeats,direct,vs_filter_write,vs_filter_read,status\n");
    for (int i = 0; i < n; i++) {
        const result *r = &R[i], *f = find(R, n, r->file, r->chunk_bytes, PATH_FILTER);
        int both = ok_row(r) && ok_row(f);
        fprintf(out, "%s,%s,%s,%u,%s,%g,%zu,%zu,%zu,%.4f,%.3f,%.3f,%.3f,%.3f,%.6f,%.6f,%d,%s,%.2f,%.2f,%s\n",
                file_names[r->file], path_names[r->path],
                r->path == PATH_DIRECT_DEVICE ? "device" : o->pinned ? "pinned" : "host",
                r->gpus, r->path == PATH_NONE ? "-" : gpulz_mode_name((gpulz_mode)o->mode), (double)r->chunk_bytes / MIB, r->chunk_bytes,
                bytes, r->cache_bytes, r->ratio, r->write_gbs, r->read_gbs, r->write_gbs_max, r->read_gbs_max,
                r->write_s, r->read_s, o->repeats, r->direct < 0 ? "-" : r->direct ? "1" : "0",
                both ? r->write_gbs / f->write_gbs : 0, both ? r->read_gbs / f->read_gbs : 0, r->status);
    }
}

static void table(FILE *out, const result *R, int n)
{
    fprintf(out, "\n%-7s %6s %-14s %4s %7s %11s %11s %12s %s\n", "file", "chunk", "path", "gpus", "ratio",
            "write GB/s", "read GB/s", "x filter w/r", "status");
    for (int i = 0; i < n; i++) {
        const result *r = &R[i], *f = find(R, n, r->file, r->chunk_bytes, PATH_FILTER);
        char factor[32] = "";
        if (r->path >= PATH_DIRECT_HOST && ok_row(r) && ok_row(f))
            snprintf(factor, sizeof factor, "%.1f/%.1f", r->write_gbs / f->write_gbs, r->read_gbs / f->read_gbs);
        if (ok_row(r))
            fprintf(out, "%-7s %3g MiB %-14s %4u %7.3f %11.2f %11.2f %12s %s\n", file_names[r->file],
                    (double)r->chunk_bytes / MIB, path_names[r->path], r->gpus, r->ratio, r->write_gbs, r->read_gbs,
                    factor, r->status);
        else
            fprintf(out, "%-7s %3g MiB %-14s %4u %7s %11s %11s %12s %s\n", file_names[r->file],
                    (double)r->chunk_bytes / MIB, path_names[r->path], r->gpus, "-", "-", "-", "", r->status);
    }
}

/* Issue 12: memory file, 4-16 MiB chunks: direct from host >= 15 GB/s and
 * from device >= 25 GB/s, writing and reading, each >= 5x the filter's. */
static void targets(FILE *out, const result *R, int n)
{
    fprintf(out, "\nissue 12 targets (memory file, 4-16 MiB chunks):\n");
    for (int i = 0; i < n; i++) {
        const result *r = &R[i], *f = find(R, n, r->file, r->chunk_bytes, PATH_FILTER);
        if (r->file != FILE_MEMORY || r->path < PATH_DIRECT_HOST || r->chunk_bytes < 4 * MIB ||
            r->chunk_bytes > 16 * MIB)
            continue;
        double want = r->path == PATH_DIRECT_HOST ? 15 : 25;
        if (!ok_row(r)) {
            fprintf(out, "  %-14s %3zu MiB, %u GPU(s): %s\n", path_names[r->path], r->chunk_bytes / MIB, r->gpus,
                    r->status);
            continue;
        }
        int speed = r->write_gbs >= want && r->read_gbs >= want;
        int factor = ok_row(f) && r->write_gbs >= 5 * f->write_gbs && r->read_gbs >= 5 * f->read_gbs;
        fprintf(out, "  %-14s %3zu MiB, %u GPU(s): write %.2f read %.2f GB/s (>= %.0f: %s), x filter %s (>= 5: %s)\n",
                path_names[r->path], r->chunk_bytes / MIB, r->gpus, r->write_gbs, r->read_gbs, want, speed ? "met" : "NOT met",
                ok_row(f) ? "measured" : "no filter row", factor ? "met" : "NOT met");
    }
}

/* ---- options -------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: h5direct_bench [options]\n"
            "  --size N          bytes of uint16 codes (K, M, G suffixes; default 1G)\n"
            "  --input FILE      read the codes from FILE instead of generating them\n"
            "  --seed N          generator seed (default 1)\n"
            "  --chunks LIST     chunk sizes in MiB, comma-separated (default 1,4,16)\n"
            "  --paths LIST      of none,filter,direct-host,direct-device (default all)\n"
            "  --files LIST      of memory,disk (default both)\n"
            "  --disk PATH       the disk file (default /tmp/h5direct_bench.<pid>.h5; removed after)\n"
            "  --repeats N       timed passes after the warm-up (default 3, at most %d)\n"
            "  --mode M          gpulz mode lz, fast, ratio or auto (default lz, gpulz 0.1's; the filter's default is auto)\n"
            "  --cache-mib N     chunk cache per dataset in MiB (default one chunk + 1 MiB; 0: HDF5's)\n"
            "  --fsync           disk writes include fsync; the file's pages are dropped before reads\n"
            "  --pinned          the host buffers pinned (cudaHostAlloc), not from malloc\n"
            "  --optional        the filter optional: a chunk it cannot shrink is stored unfiltered\n"
            "  --gpus LIST       GPU counts for direct-host, e.g. 1,2,4: GPULZ_DEVICE is set to the first N\n"
            "                    of its own list, or of every visible device (default: GPULZ_DEVICE as set)\n"
            "  --csv FILE        the CSV (default h5direct.csv; - for stdout)\n",
            MAX_REPEATS);
}


static int parse_options(int argc, char **argv, options *o)
{
    o->size = (size_t)1 << 30;
    o->seed = 1;
    o->nchunks = 3;
    o->chunk_bytes[0] = MIB;
    o->chunk_bytes[1] = 4 * MIB;
    o->chunk_bytes[2] = 16 * MIB;
    for (int i = 0; i < PATH_COUNT; i++)
        o->paths[i] = 1;
    for (int i = 0; i < FILE_COUNT; i++)
        o->files[i] = 1;
    snprintf(o->disk_path, sizeof o->disk_path, "/tmp/h5direct_bench.%ld.h5", (long)getpid());
    o->csv_path = "h5direct.csv";
    o->repeats = 3;
    o->mode = H5Z_GPULZ_CD_MODE_LZ;
    o->cache_mib = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--fsync") == 0) {
            o->fsync_writes = 1;
            continue;
        } else if (strcmp(a, "--pinned") == 0) {
            o->pinned = 1;
            continue;
        } else if (strcmp(a, "--optional") == 0) {
            o->optional = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "h5direct_bench: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--size") == 0) {
            if (bench_parse_size(v, &o->size) != 0 || o->size < 2) {
                fprintf(stderr, "h5direct_bench: bad --size %s\n", v);
                return -1;
            }
        } else if (strcmp(a, "--input") == 0) {
            o->input = v;
        } else if (strcmp(a, "--seed") == 0) {
            o->seed = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--chunks") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            o->nchunks = 0;
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                double mib = strtod(tok, NULL);
                size_t bytes = (size_t)(mib * (double)MIB) & ~(size_t)1;
                if (o->nchunks == MAX_CHUNKS || bytes < 2) {
                    fprintf(stderr, "h5direct_bench: bad --chunks %s\n", v);
                    return -1;
                }
                o->chunk_bytes[o->nchunks++] = bytes;
            }
            if (!o->nchunks)
                return -1;
        } else if (strcmp(a, "--paths") == 0) {
            if (bench_parse_list("h5direct_bench", 1, v, path_names, PATH_COUNT, o->paths) != 0)
                return -1;
        } else if (strcmp(a, "--files") == 0) {
            if (bench_parse_list("h5direct_bench", 1, v, file_names, FILE_COUNT, o->files) != 0)
                return -1;
        } else if (strcmp(a, "--disk") == 0) {
            snprintf(o->disk_path, sizeof o->disk_path, "%s", v);
        } else if (strcmp(a, "--repeats") == 0) {
            o->repeats = atoi(v);
            if (o->repeats < 1 || o->repeats > MAX_REPEATS) {
                fprintf(stderr, "h5direct_bench: --repeats is 1..%d\n", MAX_REPEATS);
                return -1;
            }
        } else if (strcmp(a, "--mode") == 0) {
            static const char *const modes[] = {"lz", "fast", "ratio", "auto"};
            unsigned m = 0;
            while (m < 4 && strcmp(v, modes[m]) != 0)
                m++;
            if (m == 4) {
                fprintf(stderr, "h5direct_bench: unknown mode %s\n", v);
                return -1;
            }
            o->mode = m;
        } else if (strcmp(a, "--cache-mib") == 0) {
            o->cache_mib = atol(v);
            if (o->cache_mib < 0)
                return -1;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv_path = v;
        } else if (strcmp(a, "--gpus") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            o->ngpu_counts = 0;
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                char *end;
                unsigned long n = strtoul(tok, &end, 10);
                if (*end || n < 1 || n > GPULZ_DEVICES_MAX || o->ngpu_counts == MAX_GPU_COUNTS) {
                    fprintf(stderr, "h5direct_bench: bad --gpus %s (counts 1..%d, at most %d of them)\n", v,
                            GPULZ_DEVICES_MAX, MAX_GPU_COUNTS);
                    return -1;
                }
                o->gpu_counts[o->ngpu_counts++] = (unsigned)n;
            }
            if (!o->ngpu_counts) {
                fprintf(stderr, "h5direct_bench: bad --gpus %s\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "h5direct_bench: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
    }
    o->size &= ~(size_t)1;
    return 0;
}

int main(int argc, char **argv)
{
    options o = {0};
    dataset_data D = {0};
    result *R = NULL;
    int nresults = 0, failures = 0, status = 1;
    FILE *csv_out = NULL;
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    if (H5open() < 0 || gpulz_h5_register() < 0) {
        fprintf(stderr, "h5direct_bench: cannot register the gpulz filter with HDF5\n");
        return 1;
    }
    gpu_usable = gpulz_gpu_available();
    devices_find(&o);
    int only_device = o.paths[PATH_DIRECT_DEVICE];
    for (int p = 0; p < PATH_DIRECT_DEVICE; p++)
        only_device = only_device && !o.paths[p];
    if (only_device && !gpu_usable) {
        printf("h5direct_bench: only the device path asked for and no usable GPU: skipped\n");
        return 77;
    }
    D.bytes = o.size;
    if (host_alloc(&D, o.pinned) != 0 ||
        !(R = calloc((size_t)(FILE_COUNT * MAX_CHUNKS * (PATH_COUNT + MAX_GPU_COUNTS)), sizeof *R))) {
        fprintf(stderr, "h5direct_bench: cannot allocate 2 x %zu bytes\n", D.bytes);
        goto done;
    }
    double t0 = now();
    if (o.input ? read_input(o.input, D.host, D.bytes) != 0 : quant_gen(D.host, D.bytes, o.seed, 0, 0) != 0)
        goto done;
    fprintf(stderr, "h5direct_bench: %zu bytes of codes ready in %.1f s\n", D.bytes, now() - t0);
    if (o.paths[PATH_DIRECT_DEVICE] && gpu_usable && device_alloc(&D) != 0)
        goto done;
    header(stdout, &o, &D);
    fflush(stdout);
    for (int fk = 0; fk < FILE_COUNT; fk++) {
        if (!o.files[fk])
            continue;
        for (int c = 0; c < o.nchunks; c++) {
            for (int p = 0; p < PATH_COUNT; p++) {
                if (!o.paths[p])
                    continue;
                /* with --gpus, direct-host once per GPU count, the rest on the first device */
                int rounds = p == PATH_DIRECT_HOST && o.ngpu_counts ? o.ngpu_counts : 1;
                for (int g = 0; g < rounds; g++) {
                    unsigned n = !o.ngpu_counts ? devices.count : p == PATH_DIRECT_HOST ? o.gpu_counts[g] : 1;
                    result *r = &R[nresults++];
                    double t1 = now();
                    char why[64];
                    if (o.ngpu_counts && !gpu_usable && g > 0) {
                        skip_row(r, (file_kind)fk, o.chunk_bytes[c], (io_path)p, "no usable GPU");
                        r->gpus = n;
                    } else if (o.ngpu_counts && gpu_usable && n > devices.count) {
                        snprintf(why, sizeof why, "%u GPUs asked (%u usable)", n, devices.count);
                        skip_row(r, (file_kind)fk, o.chunk_bytes[c], (io_path)p, why);
                        r->gpus = n;
                    } else {
                        if (o.ngpu_counts && gpu_usable)
                            devices_use(n);
                        measure(&o, (file_kind)fk, o.chunk_bytes[c], (io_path)p, &D, r);
                        r->gpus = row_gpus((io_path)p, n);
                    }
                    failures += !ok_row(r) && strncmp(r->status, "skipped", 7) != 0;
                    fprintf(stderr,
                            "h5direct_bench: %-6s %3g MiB %-13s %u GPU(s) write %7.2f read %7.2f GB/s  %s (%.1f s)\n",
                            file_names[fk], (double)o.chunk_bytes[c] / MIB, path_names[p], r->gpus, r->write_gbs,
                            r->read_gbs, r->status, now() - t1);
                }
            }
        }
    }
    table(stdout, R, nresults);
    if (o.files[FILE_MEMORY] && o.paths[PATH_FILTER] && (o.paths[PATH_DIRECT_HOST] || o.paths[PATH_DIRECT_DEVICE]))
        targets(stdout, R, nresults);
    csv_out = strcmp(o.csv_path, "-") == 0 ? stdout : fopen(o.csv_path, "w");
    if (!csv_out) {
        fprintf(stderr, "h5direct_bench: cannot write %s: %s\n", o.csv_path, strerror(errno));
        goto done;
    }
    if (csv_out == stdout)
        fputc('\n', stdout);
    csv(csv_out, &o, R, nresults, D.bytes);
    status = failures ? 1 : 0;
done:
    if (csv_out && csv_out != stdout && fclose(csv_out) != 0)
        status = 1;
    device_free(&D);
    host_free(&D);
    free(R);
    return status;
}
