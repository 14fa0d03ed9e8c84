/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_bench - gpulz in an MPI program through parallel HDF5: the speed of
 * writing and reading one array of quantization codes from every rank, by
 * the filter and by direct chunk I/O, so that 1, 2 and 4 ranks with a GPU
 * each can be compared on the same data (issue 15).
 *
 *   none           collective H5Dwrite/H5Dread into one shared file, no
 *                  filter: what MPI-IO and HDF5 cost
 *   filter         the same through the gpulz filter: HDF5 gives each chunk
 *                  to one rank, which compresses it on its GPU
 *   direct-own     every rank its own file (no MPI-IO), its part of the
 *                  array by gpulz_h5_write_direct/_read_direct
 *   direct-device  the same with each rank's part in its GPU's memory
 *                  (gpulz_h5_write_direct_device/_read_direct_device): data
 *                  made on the GPUs, only compressed chunks cross PCIe
 *   direct-shared  one shared file: every rank compresses its own chunks
 *                  (gpulz_compress_batch, on its GPU), the compressed chunks
 *                  are gathered on every rank (MPI_Allgatherv), and every
 *                  rank stores every chunk with H5Dwrite_chunk, the same
 *                  calls in the same order; each rank reads its own part
 *                  with gpulz_h5_read_direct
 *
 * Why direct-shared writes each chunk from every rank: H5Dwrite_chunk
 * allocates file space and changes the chunk index, metadata that parallel
 * HDF5 keeps consistent only where every rank makes the same change.  Ranks
 * that each write only their own chunks leave one another's metadata stale:
 * with HDF5 1.10.8, two ranks writing half the chunks each closed a file in
 * which every chunk was wrong, without an error (docs/usage.md section 9).
 * So the compressed bytes are written once per rank, to the same places.
 *
 * Files: disk (--dir, local disk; writes end in the page cache, H5Fflush
 * does not sync) and memory (HDF5's core driver without a backing store).
 * The core driver is serial, so in memory only direct-own runs (each rank
 * its own in-memory file); the shared paths' rows there say so.
 *
 * Data: --size bytes of uint16 codes (default 4 GiB, a multiple of 64 MiB)
 * in one 1-D dataset.  Of its 64 MiB pieces, rank r of n makes and writes
 * pieces r*P/n to (r+1)*P/n - 1: the codes h5direct_bench makes with the
 * same --seed in one process, whatever the number of ranks.  Chunk sizes
 * divide 64 MiB, so that no chunk belongs to two ranks.
 *
 * Timed with MPI_Wtime between barriers: the write call(s) and H5Fflush,
 * and the read call; one untimed warm-up pass (it allocates the chunks),
 * then --repeats passes, medians.  GB/s are 1e9 bytes of uncompressed data
 * of all ranks per second of the slowest.  Every read is compared with what
 * was written, untimed.  The codec runs where GPULZ_BACKEND and
 * GPULZ_DEVICE put it; GPULZ_DEVICE=local-rank gives each rank its own GPU.
 *
 * Rank 0 prints a header (each rank's host, local rank and device), a
 * table, and writes the CSV (--csv).  Exit status 0, 1 when a pass failed
 * or read back wrong bytes, 2 for bad options.
 */
#include "config.h"

#include <errno.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if GPULZ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "gpulz.h"
#include "gpulz_env.h"
#include "gpulz_h5filter.h"
#include "bench_args.h"
#include "quant_gen.h"

#define MIB ((size_t)1 << 20)
#define MAX_REPEATS 20
#define MAX_CHUNKS 8
/* direct-shared: raw bytes a rank compresses in one round, and compressed
 * bytes one round gathers from all ranks at most (MPI counts are ints) */
#define ROUND_BYTES ((size_t)256 << 20)
#define GATHER_BYTES ((size_t)1 << 30)

typedef enum { PATH_NONE, PATH_FILTER, PATH_DIRECT_OWN, PATH_DIRECT_SHARED, PATH_DIRECT_DEVICE, PATH_COUNT } io_path;
static const char *const path_names[PATH_COUNT] = {"none", "filter", "direct-own", "direct-shared", "direct-device"};

/* The paths whose ranks each write a file of their own. */
static int own_file(io_path path)
{
    return path == PATH_DIRECT_OWN || path == PATH_DIRECT_DEVICE;
}

typedef enum { FILE_DISK, FILE_MEMORY, FILE_COUNT } file_kind;
static const char *const file_names[FILE_COUNT] = {"disk", "memory"};

typedef struct options {
    size_t size;
    uint64_t seed;
    size_t chunk_bytes[MAX_CHUNKS];
    int nchunks;
    int paths[PATH_COUNT];
    int files[FILE_COUNT];
    char dir[2048];
    const char *csv_path;
    int repeats;
    unsigned mode;
} options;

typedef struct result {
    file_kind file;
    size_t chunk_bytes;
    io_path path;
    double ratio, write_gbs, read_gbs, write_gbs_max, read_gbs_max, write_s, read_s;
    char status[128];
} result;

/* This rank's part of the array, and a buffer to read it back into; for
 * direct-device, copies of both in its GPU's memory (NULL: no usable GPU). */
typedef struct part {
    uint8_t *data, *back;
    void *d_data, *d_back;
    size_t bytes;
    size_t offset; /* of its first byte in the array */
} part;

static int rank, nranks, local_rank, local_size;
static unsigned gpus_used; /* distinct (host, device) pairs the ranks' codec runs on; 0: the CPU */



/* Whether every rank says ok (ok: 1 or 0). */
static int all_ok(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* ---- where each rank runs ------------------------------------------------------ */

#define LINE 256

/*
 * Each rank's host, local rank and the device its codec runs on (the first
 * of GPULZ_DEVICE's, else its current one), printed by rank 0; counts the
 * distinct devices in use.
 */
static void describe_ranks(FILE *out)
{
    char line[LINE], key[LINE] = "", host[128] = "?";
    unsigned long long lr = 0;
    const char *from = NULL, *backend = getenv("GPULZ_BACKEND");
    gethostname(host, sizeof host - 1);
    gpulz_local_rank(&lr, &from);
    int n = snprintf(line, sizeof line, "# rank %d: host %s, local rank %d (%s=%llu): ", rank, host, local_rank,
                     from ? from : "no launcher variable", lr);
#if GPULZ_HAVE_CUDA
    int visible = 0;
    gpulz_devices d = {0, {0}};
    if (gpulz_gpu_available() && cudaGetDeviceCount(&visible) == cudaSuccess && visible > 0 &&
        gpulz_env_devices(visible, &d) == GPULZ_OK) {
        struct cudaDeviceProp prop;
        if (d.count == 0) {
            d.count = 1;
            cudaGetDevice(&d.dev[0]);
        }
        if (cudaGetDeviceProperties(&prop, d.dev[0]) != cudaSuccess)
            snprintf(prop.name, sizeof prop.name, "?");
        snprintf(line + n, sizeof line - (size_t)n, "device %d %s%s", d.dev[0], prop.name,
                 backend && !strcmp(backend, "cpu") ? " (GPULZ_BACKEND=cpu: not used)" : "");
        if (!backend || strcmp(backend, "cpu"))
            snprintf(key, sizeof key, "%s:%d", host, d.dev[0]);
    } else {
        snprintf(line + n, sizeof line - (size_t)n, "no usable GPU (%s)", gpulz_last_error());
    }
#else
    (void)backend;
    snprintf(line + n, sizeof line - (size_t)n, "no GPU (this build has no CUDA)");
#endif
    char *lines = rank == 0 ? malloc((size_t)nranks * LINE * 2) : NULL;
    if (rank == 0 && !lines)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Gather(line, LINE, MPI_CHAR, lines, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Gather(key, LINE, MPI_CHAR, lines ? lines + (size_t)nranks * LINE : NULL, LINE, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    if (rank == 0) {
        const char *keys = lines + (size_t)nranks * LINE;
        gpus_used = 0;
        for (int r = 0; r < nranks; r++) {
            fprintf(out, "%s\n", lines + (size_t)r * LINE);
            int seen = !keys[(size_t)r * LINE];
            for (int q = 0; q < r && !seen; q++)
                seen = !strcmp(keys + (size_t)q * LINE, keys + (size_t)r * LINE);
            gpus_used += !seen;
        }
        free(lines);
    }
    MPI_Bcast(&gpus_used, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
}

/* ---- direct-device: each rank's part on its GPU ------------------------------------- */

/*
 * Copies of the rank's part and of its read-back buffer on the device its
 * codec runs on (GPULZ_DEVICE's first, else the current one), made current
 * for the rank, as the device-buffer calls run where their buffers are.
 * Left NULL where no GPU is usable (the rows say so).
 */
static void device_setup(part *P)
{
#if GPULZ_HAVE_CUDA
    int visible = 0;
    gpulz_devices d = {0, {0}};
    const char *backend = getenv("GPULZ_BACKEND");
    if ((backend && !strcmp(backend, "cpu")) || !gpulz_gpu_available() ||
        cudaGetDeviceCount(&visible) != cudaSuccess || visible <= 0 || gpulz_env_devices(visible, &d) != GPULZ_OK)
        return;
    if (d.count && cudaSetDevice(d.dev[0]) != cudaSuccess)
        return;
    size_t n = P->bytes ? P->bytes : 1;
    if (cudaMalloc(&P->d_data, n) != cudaSuccess || cudaMalloc(&P->d_back, n) != cudaSuccess ||
        cudaMemcpy(P->d_data, P->data, P->bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        cudaFree(P->d_data);
        cudaFree(P->d_back);
        P->d_data = P->d_back = NULL;
    }
#else
    (void)P;
#endif
}

static void device_free(part *P)
{
#if GPULZ_HAVE_CUDA
    cudaFree(P->d_data);
    cudaFree(P->d_back);
#endif
    P->d_data = P->d_back = NULL;
}

/* 0 or -1 */
static int device_zero(void *d, size_t bytes)
{
#if GPULZ_HAVE_CUDA
    return cudaMemset(d, 0, bytes) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
#else
    (void)d;
    (void)bytes;
    return -1;
#endif
}

static int device_fetch(void *h, const void *d, size_t bytes)
{
#if GPULZ_HAVE_CUDA
    return cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
#else
    (void)h;
    (void)d;
    (void)bytes;
    return -1;
#endif
}

/* Where the filter ran each rank's last chunk (gpulz_last_backend), on stderr by rank 0. */
static void report_filter_backends(void)
{
    char line[LINE];
    const char *why = "";
    gpulz_backend b = gpulz_last_backend(&why);
    snprintf(line, sizeof line, "mpi_bench: rank %d: the filter's last chunk on the %s (%s)", rank,
             b == GPULZ_BACKEND_GPU ? "GPU" : "CPU", why);
    char *lines = rank == 0 ? malloc((size_t)nranks * LINE) : NULL;
    if (rank == 0 && !lines)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Gather(line, LINE, MPI_CHAR, lines, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < nranks; r++)
            fprintf(stderr, "%s\n", lines + (size_t)r * LINE);
        free(lines);
    }
}

/* ---- one file, one dataset -------------------------------------------------------- */

/* An open dataset: in the shared file with this rank's selection, or in the rank's own. */
typedef struct target {
    hid_t fapl, file, dcpl, dapl, dset, fspace, mspace, dxpl;
    int shared;
    char name[2200];
} target;

static void target_close(target *T, int remove_file)
{
    if (T->dset >= 0)
        H5Dclose(T->dset);
    if (T->fspace >= 0)
        H5Sclose(T->fspace);
    if (T->mspace >= 0)
        H5Sclose(T->mspace);
    if (T->dxpl >= 0)
        H5Pclose(T->dxpl);
    if (T->dapl >= 0)
        H5Pclose(T->dapl);
    if (T->dcpl >= 0)
        H5Pclose(T->dcpl);
    if (T->file >= 0)
        H5Fclose(T->file);
    if (T->fapl >= 0)
        H5Pclose(T->fapl);
    T->dset = T->fspace = T->mspace = T->dxpl = T->dapl = T->dcpl = T->file = T->fapl = -1;
    /* a shared file is removed by one rank once every rank has closed it */
    if (remove_file && T->name[0]) {
        if (T->shared)
            MPI_Barrier(MPI_COMM_WORLD);
        if (!T->shared || rank == 0)
            remove(T->name);
    }
}

/* Create the file and the dataset of path on file kind fk; 0 or -1 (the
 * shared paths' calls are collective: every rank gets here). */
static int target_open(const options *o, io_path path, file_kind fk, size_t chunk_bytes, const part *P,
                       target *T)
{
    *T = (target){-1, -1, -1, -1, -1, -1, -1, -1, !own_file(path), ""};
    hsize_t total = o->size / 2, mine = P->bytes / 2, start = P->offset / 2;
    hsize_t dims[1] = {T->shared ? total : mine}, cdims[1] = {chunk_bytes / 2};
    hid_t space = -1;
    int rc = -1;
    if (T->shared)
        snprintf(T->name, sizeof T->name, "%s/mpi_bench.%s.h5", o->dir, path_names[path]);
    else if (fk == FILE_DISK)
        snprintf(T->name, sizeof T->name, "%s/mpi_bench.%s.rank%d.h5", o->dir, path_names[path], rank);
    else
        snprintf(T->name, sizeof T->name, "mpi_bench.memory.rank%d.h5", rank);
    if ((T->fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0)
        goto done;
    if (T->shared && H5Pset_fapl_mpio(T->fapl, MPI_COMM_WORLD, MPI_INFO_NULL) < 0)
        goto done;
    /* in memory: no backing store, grown in large steps */
    if (!T->shared && fk == FILE_MEMORY && H5Pset_fapl_core(T->fapl, 256 * MIB, 0) < 0)
        goto done;
    if ((T->file = H5Fcreate(T->name, H5F_ACC_TRUNC, H5P_DEFAULT, T->fapl)) < 0)
        goto done;
    if (fk == FILE_MEMORY)
        T->name[0] = 0; /* nothing to remove */
    if ((space = H5Screate_simple(1, dims, NULL)) < 0 || (T->dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(T->dcpl, 1, cdims) < 0 || (T->dapl = H5Pcreate(H5P_DATASET_ACCESS)) < 0)
        goto done;
    /* every chunk is written by every pass: no fill value to write first
     * (parallel HDF5 allocates chunks when the dataset is made) */
    if (H5Pset_fill_time(T->dcpl, H5D_FILL_TIME_NEVER) < 0)
        goto done;
    if (path != PATH_NONE && gpulz_h5_set_dcpl_mode(T->dcpl, 0, 0, 0, 0, o->mode) < 0)
        goto done;
    /* the filter path's chunk cache holds one chunk: each is compressed once */
    if (H5Pset_chunk_cache(T->dapl, 12421, chunk_bytes + MIB, 1.0) < 0)
        goto done;
    if ((T->dset = H5Dcreate2(T->file, "codes", H5T_STD_U16LE, space, H5P_DEFAULT, T->dcpl, T->dapl)) < 0)
        goto done;
    if (T->shared) {
        hsize_t count[1] = {mine};
        if ((T->fspace = H5Dget_space(T->dset)) < 0 ||
            H5Sselect_hyperslab(T->fspace, H5S_SELECT_SET, &start, NULL, count, NULL) < 0 ||
            (T->mspace = H5Screate_simple(1, count, NULL)) < 0 || (T->dxpl = H5Pcreate(H5P_DATASET_XFER)) < 0 ||
            H5Pset_dxpl_mpio(T->dxpl, H5FD_MPIO_COLLECTIVE) < 0)
            goto done;
    }
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* The dataset closed and opened again, so that no chunk is read from a cache. */
static int target_reopen(target *T)
{
    if (H5Dclose(T->dset) < 0) {
        T->dset = -1;
        return -1;
    }
    T->dset = H5Dopen2(T->file, "codes", T->dapl);
    return T->dset >= 0 ? 0 : -1;
}

/* ---- direct-shared: every rank's chunks through every rank ------------------------- */

typedef struct shared_write {
    size_t chunk_bytes, bound, per_round; /* chunks a rank compresses in a round */
    size_t my_chunks, my_first;           /* this rank's chunks, the first's number in the array */
    unsigned long long *firsts;           /* every rank's first chunk */
    const void **src;
    void **dst;
    size_t *src_len, *dst_cap, *dst_len;
    int *statuses;
    uint8_t *out;                         /* a round's compressed chunks, packed */
    unsigned long long *sizes, *all_sizes;
    uint8_t *all;                         /* every rank's compressed chunks of the round */
    size_t all_cap;
    int *counts, *displs, *byte_counts, *byte_displs;
    gpulz_params p;
} shared_write;

static void shared_free(shared_write *S)
{
    free(S->firsts);
    free(S->src);
    free(S->dst);
    free(S->src_len);
    free(S->dst_cap);
    free(S->dst_len);
    free(S->statuses);
    free(S->out);
    free(S->sizes);
    free(S->all_sizes);
    free(S->all);
    free(S->counts);
    free(S->displs);
    free(S->byte_counts);
    free(S->byte_displs);
}

/* The encoder settings the filter takes from the dataset (gpulz_h5_set_dcpl_mode
 * with zeros: S from uint16, the default window and block), and the backend
 * and threads from the environment as the filter reads them. */
static int shared_params(const options *o, gpulz_params *p)
{
    const char *b = getenv("GPULZ_BACKEND"), *t = getenv("GPULZ_THREADS");
    gpulz_params_init(p);
    p->symbol_size = 2;
    p->mode = (gpulz_mode)o->mode;
    if ((b && *b && gpulz_backend_parse(b, &p->backend) != GPULZ_OK) ||
        (t && *t && gpulz_threads_parse(t, &p->threads) != GPULZ_OK))
        return -1;
    return gpulz_params_check(p) == GPULZ_OK ? 0 : -1;
}

static int shared_setup(const options *o, size_t chunk_bytes, const part *P, shared_write *S)
{
    memset(S, 0, sizeof *S);
    S->chunk_bytes = chunk_bytes;
    if (shared_params(o, &S->p) != 0 || !(S->bound = gpulz_compress_bound(chunk_bytes, &S->p)))
        return -1;
    size_t round = ROUND_BYTES < GATHER_BYTES / (size_t)nranks ? ROUND_BYTES : GATHER_BYTES / (size_t)nranks;
    S->per_round = round / S->bound ? round / S->bound : 1;
    S->my_chunks = P->bytes / chunk_bytes;
    S->my_first = P->offset / chunk_bytes;
    unsigned long long first = S->my_first;
    size_t k = S->per_round;
    if (!(S->firsts = calloc((size_t)nranks, sizeof *S->firsts)) || !(S->src = calloc(k, sizeof *S->src)) ||
        !(S->dst = calloc(k, sizeof *S->dst)) || !(S->src_len = calloc(k, sizeof *S->src_len)) ||
        !(S->dst_cap = calloc(k, sizeof *S->dst_cap)) || !(S->dst_len = calloc(k, sizeof *S->dst_len)) ||
        !(S->statuses = calloc(k, sizeof *S->statuses)) || !(S->out = malloc(k * S->bound)) ||
        !(S->sizes = calloc(k, sizeof *S->sizes)) ||
        !(S->all_sizes = calloc(k * (size_t)nranks, sizeof *S->all_sizes)) ||
        !(S->counts = calloc((size_t)nranks, sizeof *S->counts)) ||
        !(S->displs = calloc((size_t)nranks, sizeof *S->displs)) ||
        !(S->byte_counts = calloc((size_t)nranks, sizeof *S->byte_counts)) ||
        !(S->byte_displs = calloc((size_t)nranks, sizeof *S->byte_displs)))
        return -1;
    MPI_Allgather(&first, 1, MPI_UNSIGNED_LONG_LONG, S->firsts, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    return 0;
}

/*
 * One write of the whole array: rounds in which every rank compresses up to
 * per_round of its chunks, the compressed chunks are gathered on every rank,
 * and every rank writes every chunk of the round, in rank order.  Every rank
 * goes through the same rounds (an empty share where its chunks ran out) and
 * stops together where one failed.  0 or -1.
 */
static int shared_write_all(const part *P, hid_t dset, shared_write *S)
{
    unsigned long long mine = S->my_chunks, most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    for (size_t k0 = 0; k0 < most; k0 += S->per_round) {
        size_t n = k0 >= S->my_chunks ? 0 : S->my_chunks - k0 < S->per_round ? S->my_chunks - k0 : S->per_round;
        int ok = 1;
        for (size_t j = 0; j < n; j++) {
            S->src[j] = P->data + (k0 + j) * S->chunk_bytes;
            S->src_len[j] = S->chunk_bytes;
            S->dst[j] = S->out + j * S->bound;
            S->dst_cap[j] = S->bound;
        }
        if (n && gpulz_compress_batch(n, S->src, S->src_len, S->dst, S->dst_cap, S->dst_len, S->statuses, &S->p,
                                      GPULZ_MEMORY_HOST, NULL, NULL, 0) != GPULZ_OK) {
            fprintf(stderr, "mpi_bench: rank %d: compression failed: %s\n", rank, gpulz_last_error());
            ok = 0;
        }
        /* packed: each chunk's bytes right after the one before */
        size_t packed = 0;
        for (size_t j = 0; ok && j < n; j++) {
            memmove(S->out + packed, S->dst[j], S->dst_len[j]);
            S->sizes[j] = S->dst_len[j];
            packed += S->dst_len[j];
        }
        if (!all_ok(ok))
            return -1;
        int cnt = (int)n, bytes = (int)packed;
        MPI_Allgather(&cnt, 1, MPI_INT, S->counts, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Allgather(&bytes, 1, MPI_INT, S->byte_counts, 1, MPI_INT, MPI_COMM_WORLD);
        size_t total = 0;
        for (int r = 0, at = 0; r < nranks; r++) {
            S->displs[r] = at;
            at += S->counts[r];
            S->byte_displs[r] = (int)total;
            total += (size_t)S->byte_counts[r];
        }
        ok = 1;
        if (total > S->all_cap) {
            free(S->all);
            S->all_cap = 0;
            if ((S->all = malloc(total)))
                S->all_cap = total;
            else
                ok = 0;
        }
        if (!all_ok(ok))
            return -1;
        MPI_Allgatherv(S->sizes, cnt, MPI_UNSIGNED_LONG_LONG, S->all_sizes, S->counts, S->displs,
                       MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
        MPI_Allgatherv(S->out, bytes, MPI_BYTE, S->all, S->byte_counts, S->byte_displs, MPI_BYTE, MPI_COMM_WORLD);
        /* the same calls, in the same order, on every rank */
        const uint8_t *at = S->all;
        for (int r = 0; r < nranks && ok; r++)
            for (int j = 0; j < S->counts[r] && ok; j++) {
                unsigned long long size = S->all_sizes[S->displs[r] + j];
                hsize_t off[1] = {(hsize_t)(S->firsts[r] + k0 + (size_t)j) * (S->chunk_bytes / 2)};
                ok = H5Dwrite_chunk(dset, H5P_DEFAULT, 0, off, (size_t)size, at) >= 0;
                at += size;
            }
        if (!all_ok(ok))
            return -1;
    }
    return 0;
}

/* ---- one measurement ---------------------------------------------------------------- */

static int write_pass(io_path path, const part *P, target *T, shared_write *S, double *secs)
{
    int ok = 1, direct = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    switch (path) {
    case PATH_NONE:
    case PATH_FILTER:
        ok = H5Dwrite(T->dset, H5T_STD_U16LE, T->mspace, T->fspace, T->dxpl, P->data) >= 0;
        break;
    case PATH_DIRECT_OWN:
        ok = gpulz_h5_write_direct(T->dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, P->data, &direct) >= 0 && direct;
        break;
    case PATH_DIRECT_DEVICE:
        ok = gpulz_h5_write_direct_device(T->dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, P->d_data, NULL, &direct) >=
                 0 &&
             direct;
        break;
    default:
        ok = shared_write_all(P, T->dset, S) == 0;
        break;
    }
    /* collective for the shared file: every rank flushes, whatever its write did */
    ok = H5Fflush(T->file, H5F_SCOPE_LOCAL) >= 0 && ok;
    MPI_Barrier(MPI_COMM_WORLD);
    *secs = MPI_Wtime() - t0;
    return all_ok(ok) ? 0 : -1;
}

static int read_pass(io_path path, const part *P, target *T, double *secs, int *wrong)
{
    int ok = 1, direct = 1;
    memset(P->back, 0, P->bytes);
    if (path == PATH_DIRECT_DEVICE)
        ok = device_zero(P->d_back, P->bytes) == 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    switch (path) {
    case PATH_NONE:
    case PATH_FILTER:
        ok = H5Dread(T->dset, H5T_STD_U16LE, T->mspace, T->fspace, T->dxpl, P->back) >= 0;
        break;
    case PATH_DIRECT_OWN:
        ok = gpulz_h5_read_direct(T->dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, P->back, &direct) >= 0 && direct;
        break;
    case PATH_DIRECT_DEVICE:
        ok = ok && gpulz_h5_read_direct_device(T->dset, H5T_STD_U16LE, H5S_ALL, H5P_DEFAULT, P->d_back, NULL,
                                               &direct) >= 0 &&
             direct;
        break;
    default:
        /* reading changes no metadata: each rank its own chunks, independently */
        ok = gpulz_h5_read_direct(T->dset, H5T_STD_U16LE, T->fspace, H5P_DEFAULT, P->back, &direct) >= 0 && direct;
        break;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    *secs = MPI_Wtime() - t0;
    if (ok && path == PATH_DIRECT_DEVICE)
        ok = device_fetch(P->back, P->d_back, P->bytes) == 0;
    int same = ok && memcmp(P->back, P->data, P->bytes) == 0;
    if (ok && !same)
        fprintf(stderr, "mpi_bench: rank %d: %s read back different bytes\n", rank, path_names[path]);
    /* wrong bytes only where the read succeeded (by the path it was to take) */
    *wrong = !all_ok(!ok || same);
    return all_ok(ok) ? 0 : -1;
}

static void measure(const options *o, file_kind fk, size_t chunk_bytes, io_path path, const part *P, result *r)
{
    target T;
    shared_write S;
    double wt[MAX_REPEATS], rt[MAX_REPEATS];
    memset(r, 0, sizeof *r);
    memset(&S, 0, sizeof S);
    r->file = fk;
    r->chunk_bytes = chunk_bytes;
    r->path = path;
    snprintf(r->status, sizeof r->status, "error");
    if (fk == FILE_MEMORY && !own_file(path)) {
        snprintf(r->status, sizeof r->status, "skipped: the core driver is serial (no shared file in memory)");
        return;
    }
    if (path == PATH_DIRECT_DEVICE && !all_ok(P->d_data != NULL)) {
        snprintf(r->status, sizeof r->status, "skipped: no usable GPU on every rank (device buffers)");
        return;
    }
    int ok = path != PATH_DIRECT_SHARED || shared_setup(o, chunk_bytes, P, &S) == 0;
    if (!all_ok(ok)) {
        snprintf(r->status, sizeof r->status, "error: cannot set up the shared direct write");
        shared_free(&S);
        return;
    }
    if (!all_ok(target_open(o, path, fk, chunk_bytes, P, &T) == 0)) {
        snprintf(r->status, sizeof r->status, "error: cannot create the file or the dataset");
        if (rank == 0)
            H5Eprint2(H5E_DEFAULT, stderr);
        goto done;
    }
    for (int pass = 0; pass <= o->repeats; pass++) {
        double w = 0, rd = 0;
        int wrong = 0;
        if (write_pass(path, P, &T, &S, &w) != 0) {
            snprintf(r->status, sizeof r->status, "error: write failed (pass %d)", pass);
            goto done;
        }
        if (pass == 0 && path == PATH_FILTER)
            report_filter_backends();
        if (!all_ok(target_reopen(&T) == 0)) {
            snprintf(r->status, sizeof r->status, "error: cannot reopen the dataset");
            goto done;
        }
        if (read_pass(path, P, &T, &rd, &wrong) != 0 || wrong) {
            snprintf(r->status, sizeof r->status, wrong ? "wrong bytes read back" : "error: read failed (pass %d)",
                     pass);
            goto done;
        }
        if (pass > 0) {
            wt[pass - 1] = w;
            rt[pass - 1] = rd;
        }
    }
    /* stored bytes: the shared dataset's, or the sum of the ranks' own */
    double stored = (double)H5Dget_storage_size(T.dset), sum = stored;
    if (own_file(path))
        MPI_Allreduce(&stored, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    r->ratio = sum > 0 ? (double)o->size / sum : 0;
    r->write_s = bench_median(wt, o->repeats);
    r->read_s = bench_median(rt, o->repeats);
    r->write_gbs = (double)o->size / r->write_s / 1e9;
    r->read_gbs = (double)o->size / r->read_s / 1e9;
    r->write_gbs_max = (double)o->size / bench_smallest(wt, o->repeats) / 1e9;
    r->read_gbs_max = (double)o->size / bench_smallest(rt, o->repeats) / 1e9;
    snprintf(r->status, sizeof r->status, "ok");
done:
    target_close(&T, 1);
    shared_free(&S);
}

/* ---- output ----------------------------------------------------------------------- */


static int ok_row(const result *r)
{
    return !strcmp(r->status, "ok");
}

static unsigned row_gpus(const result *r)
{
    return r->path == PATH_NONE ? 0 : gpus_used;
}

static void header(FILE *out, const options *o)
{
    unsigned maj = 0, min = 0, rel = 0;
    char when[64], lib[MPI_MAX_LIBRARY_VERSION_STRING] = "?";
    int len = 0;
    time_t t = time(NULL);
    const char *backend = getenv("GPULZ_BACKEND"), *dev = getenv("GPULZ_DEVICE"), *threads = getenv("GPULZ_THREADS");
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    H5get_libversion(&maj, &min, &rel);
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    if (rank == 0) {
        fprintf(out, "# mpi_bench, gpulz %s, HDF5 %u.%u.%u (parallel), %s, %d ranks, %s\n", gpulz_version_string(),
                maj, min, rel, lib, nranks, when);
        fprintf(out, "# data: %zu bytes of uint16 quantization codes (generator \"quant\", seed %llu), %zu per rank\n",
                o->size, (unsigned long long)o->seed, o->size / (size_t)nranks);
        fprintf(out, "# gpulz mode %s, GPULZ_BACKEND=%s, GPULZ_DEVICE=%s, GPULZ_THREADS=%s; %d timed passes after a "
                     "warm-up\n",
                gpulz_mode_name((gpulz_mode)o->mode), backend ? backend : "(unset: auto)", dev ? dev : "(unset: the current device)",
                threads ? threads : "(unset: all cores)", o->repeats);
        fprintf(out, "# timed (MPI_Wtime between barriers): write call(s) + H5Fflush; read call; bytes compared "
                     "untimed; GB/s = 1e9 B/s of uncompressed data of all ranks, median\n");
        fprintf(out, "# disk files in %s (page cache: H5Fflush does not sync); memory: the core driver, serial, so "
                     "direct-own and direct-device only\n",
                o->dir);
        fprintf(out, "# direct-shared: compressed chunks gathered on every rank, every rank writes every chunk "
                     "(H5Dwrite_chunk changes metadata, which parallel HDF5 needs every rank to change alike)\n");
    }
    describe_ranks(out);
}

static void table(FILE *out, const result *R, int n)
{
    fprintf(out, "\n%5s %-7s %6s %-14s %4s %7s %11s %11s %s\n", "ranks", "file", "chunk", "path", "gpus", "ratio",
            "write GB/s", "read GB/s", "status");
    for (int i = 0; i < n; i++) {
        const result *r = &R[i];
        if (ok_row(r))
            fprintf(out, "%5d %-7s %3g MiB %-14s %4u %7.3f %11.2f %11.2f %s\n", nranks, file_names[r->file],
                    (double)r->chunk_bytes / MIB, path_names[r->path], row_gpus(r), r->ratio, r->write_gbs,
                    r->read_gbs, r->status);
        else
            fprintf(out, "%5d %-7s %3g MiB %-14s %4u %7s %11s %11s %s\n", nranks, file_names[r->file],
                    (double)r->chunk_bytes / MIB, path_names[r->path], row_gpus(r), "-", "-", "-", r->status);
    }
}

static void csv_header(FILE *out)
{
    fprintf(out, "ranks,file,path,gpus,mode,chunk_mib,chunk_bytes,size_bytes,ratio,write_gbs,read_gbs,"
                 "write_gbs_max,read_gbs_max,write_s,read_s,repeats,status\n");
}

static void csv_row(FILE *out, const options *o, const result *r)
{
    fprintf(out, "%d,%s,%s,%u,%s,%g,%zu,%zu,%.4f,%.3f,%.3f,%.3f,%.3f,%.6f,%.6f,%d,%s\n", nranks,
            file_names[r->file], path_names[r->path], row_gpus(r), r->path == PATH_NONE ? "-" : gpulz_mode_name((gpulz_mode)o->mode),
            (double)r->chunk_bytes / MIB, r->chunk_bytes, o->size, r->ratio, r->write_gbs, r->read_gbs,
            r->write_gbs_max, r->read_gbs_max, r->write_s, r->read_s, o->repeats, r->status);
}

/* ---- options -------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mpiexec -n N mpi_bench [options]\n"
            "  --size N          bytes of uint16 codes in all, a multiple of 64 MiB (K, M, G; default 4G)\n"
            "  --seed N          generator seed (default 1, as h5direct_bench's)\n"
            "  --chunks LIST     chunk sizes in MiB dividing 64, comma-separated (default 4,16)\n"
            "  --paths LIST      of none,filter,direct-own,direct-shared,direct-device (default all;\n"
            "                    direct-device: each rank's part in its GPU's memory)\n"
            "  --files LIST      of disk,memory (default both; memory: the own-file paths only)\n"
            "  --dir DIR         where the disk files go (default /tmp); removed after each row\n"
            "  --repeats N       timed passes after the warm-up (default 2, at most %d)\n"
            "  --mode M          gpulz mode lz, fast, ratio or auto (default lz, as h5direct_bench)\n"
            "  --csv FILE        the CSV, written by rank 0 (default mpi_bench.csv; - for stdout)\n",
            MAX_REPEATS);
}



/* Every rank parses the same arguments alike, so all agree without a word. */
static int parse_options(int argc, char **argv, options *o)
{
    o->size = (size_t)4 << 30;
    o->seed = 1;
    o->nchunks = 2;
    o->chunk_bytes[0] = 4 * MIB;
    o->chunk_bytes[1] = 16 * MIB;
    for (int i = 0; i < PATH_COUNT; i++)
        o->paths[i] = 1;
    for (int i = 0; i < FILE_COUNT; i++)
        o->files[i] = 1;
    snprintf(o->dir, sizeof o->dir, "/tmp");
    o->csv_path = "mpi_bench.csv";
    o->repeats = 2;
    o->mode = H5Z_GPULZ_CD_MODE_LZ;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            if (rank == 0)
                usage(stdout);
            return 1;
        }
        if (!v) {
            if (rank == 0)
                fprintf(stderr, "mpi_bench: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--size")) {
            if (bench_parse_size(v, &o->size) != 0 || o->size == 0 || o->size % QUANT_GEN_PIECE) {
                if (rank == 0)
                    fprintf(stderr, "mpi_bench: bad --size %s (a multiple of 64 MiB)\n", v);
                return -1;
            }
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--chunks")) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            o->nchunks = 0;
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                double mib = strtod(tok, NULL);
                size_t bytes = (size_t)(mib * (double)MIB);
                if (o->nchunks == MAX_CHUNKS || bytes < 2 || QUANT_GEN_PIECE % bytes) {
                    if (rank == 0)
                        fprintf(stderr, "mpi_bench: bad --chunks %s (sizes that divide 64 MiB)\n", v);
                    return -1;
                }
                o->chunk_bytes[o->nchunks++] = bytes;
            }
            if (!o->nchunks)
                return -1;
        } else if (!strcmp(a, "--paths")) {
            if (bench_parse_list("mpi_bench", rank == 0, v, path_names, PATH_COUNT, o->paths) != 0)
                return -1;
        } else if (!strcmp(a, "--files")) {
            if (bench_parse_list("mpi_bench", rank == 0, v, file_names, FILE_COUNT, o->files) != 0)
                return -1;
        } else if (!strcmp(a, "--dir")) {
            snprintf(o->dir, sizeof o->dir, "%s", v);
        } else if (!strcmp(a, "--repeats")) {
            o->repeats = atoi(v);
            if (o->repeats < 1 || o->repeats > MAX_REPEATS) {
                if (rank == 0)
                    fprintf(stderr, "mpi_bench: --repeats is 1..%d\n", MAX_REPEATS);
                return -1;
            }
        } else if (!strcmp(a, "--mode")) {
            static const char *const modes[] = {"lz", "fast", "ratio", "auto"};
            unsigned m = 0;
            while (m < 4 && strcmp(v, modes[m]) != 0)
                m++;
            if (m == 4) {
                if (rank == 0)
                    fprintf(stderr, "mpi_bench: unknown mode %s\n", v);
                return -1;
            }
            o->mode = m;
        } else if (!strcmp(a, "--csv")) {
            o->csv_path = v;
        } else {
            if (rank == 0) {
                fprintf(stderr, "mpi_bench: unknown option %s\n", a);
                usage(stderr);
            }
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    part P = {0};
    result *R = NULL;
    int nresults = 0, failures = 0, status = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_free(&node);
    memset(&o, 0, sizeof o);
    int parsed = parse_options(argc, argv, &o);
    if (parsed != 0) {
        MPI_Finalize();
        return parsed > 0 ? 0 : 2;
    }
    if (H5open() < 0 || gpulz_h5_register() < 0) {
        fprintf(stderr, "mpi_bench: rank %d: cannot register the gpulz filter with HDF5\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* this rank's 64 MiB pieces */
    size_t pieces = o.size / QUANT_GEN_PIECE;
    size_t p0 = pieces * (size_t)rank / (size_t)nranks, p1 = pieces * (size_t)(rank + 1) / (size_t)nranks;
    P.offset = p0 * QUANT_GEN_PIECE;
    P.bytes = (p1 - p0) * QUANT_GEN_PIECE;
    int ok = (P.data = malloc(P.bytes ? P.bytes : 1)) && (P.back = malloc(P.bytes ? P.bytes : 1)) &&
             (R = calloc(FILE_COUNT * MAX_CHUNKS * PATH_COUNT, sizeof *R));
    if (!all_ok(ok)) {
        if (rank == 0)
            fprintf(stderr, "mpi_bench: cannot allocate 2 x %zu bytes on every rank\n", P.bytes);
        goto done;
    }
    if (pieces < (size_t)nranks) {
        if (rank == 0)
            fprintf(stderr, "mpi_bench: --size gives %zu pieces of 64 MiB for %d ranks\n", pieces, nranks);
        goto done;
    }
    /* the node's cores shared among its ranks */
    long cores = sysconf(_SC_NPROCESSORS_ONLN) / local_size;
    if (!all_ok(quant_gen(P.data, P.bytes, o.seed, p0, cores > 0 ? (unsigned)cores : 1) == 0)) {
        if (rank == 0)
            fprintf(stderr, "mpi_bench: cannot make the codes\n");
        goto done;
    }
    if (o.paths[PATH_DIRECT_DEVICE])
        device_setup(&P);
    /* the CSV gets each row as it is measured: a run cut short keeps them */
    FILE *csv_out = NULL;
    if (rank == 0 && strcmp(o.csv_path, "-") != 0 && !(csv_out = fopen(o.csv_path, "w")))
        fprintf(stderr, "mpi_bench: cannot write %s: %s\n", o.csv_path, strerror(errno));
    if (!all_ok(rank != 0 || csv_out || !strcmp(o.csv_path, "-")))
        goto done;
    if (csv_out) {
        csv_header(csv_out);
        fflush(csv_out);
    }
    header(stdout, &o);
    fflush(stdout);
    for (int fk = 0; fk < FILE_COUNT; fk++) {
        if (!o.files[fk])
            continue;
        for (int c = 0; c < o.nchunks; c++)
            for (int p = 0; p < PATH_COUNT; p++) {
                if (!o.paths[p])
                    continue;
                result *r = &R[nresults++];
                double t0 = MPI_Wtime();
                measure(&o, (file_kind)fk, o.chunk_bytes[c], (io_path)p, &P, r);
                failures += !ok_row(r) && strncmp(r->status, "skipped", 7) != 0;
                if (csv_out) {
                    csv_row(csv_out, &o, r);
                    fflush(csv_out);
                }
                if (rank == 0)
                    fprintf(stderr, "mpi_bench: %d ranks %-6s %3g MiB %-13s write %7.2f read %7.2f GB/s  %s (%.1f s)\n",
                            nranks, file_names[fk], (double)o.chunk_bytes[c] / MIB, path_names[p], r->write_gbs,
                            r->read_gbs, r->status, MPI_Wtime() - t0);
            }
    }
    status = failures ? 1 : 0;
    if (rank == 0) {
        table(stdout, R, nresults);
        if (!csv_out) {
            fputc('\n', stdout);
            csv_header(stdout);
            for (int i = 0; i < nresults; i++)
                csv_row(stdout, &o, &R[i]);
        } else if (fclose(csv_out) != 0) {
            status = 1;
        }
    }
done:
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    device_free(&P);
    free(P.data);
    free(P.back);
    free(R);
    MPI_Finalize();
    return status;
}
