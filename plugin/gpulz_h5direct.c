/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_h5direct.c - direct chunk I/O of libh5gpulz (gpulz_h5filter.h):
 * whole chunks compressed or decompressed in batches by the codec's batched
 * API and moved with H5Dwrite_chunk/H5Dread_chunk, around HDF5's filter
 * pipeline, which hands the filter one chunk at a time.
 *
 * The chunks are the filter's bytes: the settings come from the dataset's
 * stored cd_values through the filter's own code (H5Z_gpulz_encoder_params),
 * the input is the chunk HDF5 would hand the filter (edge chunks at full size,
 * padded with the fill value as HDF5 pads them), an optional filter's chunk
 * that does not shrink (or fails) is stored unfiltered with bit 0 of its
 * filter mask set, as HDF5 stores it.  So the files are ordinary and any
 * reader with the filter reads them.
 *
 * Whatever the chunk path cannot do exactly goes through H5Dwrite/H5Dread
 * instead (gpulz_h5filter.h lists the cases).  Host and device buffers share
 * one path; only the copies differ (mem_* below).
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GPULZ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "H5Zgpulz.h"
#include "gpulz_copy.h"
#include "gpulz_grow.h"
#include "h5_compat.h"

/* ---- what a call works on --------------------------------------------------- */

typedef struct plan {
    hid_t dset;
    hid_t dcpl;
    hid_t type; /* the dataset's */
    int rank;
    hsize_t dims[H5S_MAX_RANK];
    hsize_t chunk[H5S_MAX_RANK];
    hsize_t start[H5S_MAX_RANK]; /* the selected box: first element */
    hsize_t block[H5S_MAX_RANK]; /* and its extent */
    hsize_t grid[H5S_MAX_RANK];  /* chunks of the box per dimension */
    hsize_t nchunks;
    hssize_t npoints;
    size_t esize;
    size_t chunk_bytes;
    int optional; /* the filter is H5Z_FLAG_OPTIONAL */
    gpulz_params p;
    uint8_t *fill; /* a chunk of the fill value (host memory), NULL for zeros */
    int keep_unallocated; /* reading: leave the buffer where no chunk is allocated (fill time never) */
    int write_through; /* writing the call's only chunk through HDF5's filter (refresh_last says why) */
    int misreports;    /* H5Dget_chunk_info_by_coord may answer for another chunk (index_faults) */
    int all_ranks;     /* through HDF5 on every rank (all_ranks_call) */
#ifdef H5_HAVE_PARALLEL
    MPI_Comm comm; /* with all_ranks, the file's communicator (a copy), for ranks_agree */
#endif
} plan;

/* One chunk of the box. */
typedef struct chunk_at {
    hsize_t offset[H5S_MAX_RANK]; /* in the dataset */
    hsize_t rel[H5S_MAX_RANK];    /* in the box */
    hsize_t valid[H5S_MAX_RANK];  /* the part inside the box */
    int edge;                     /* valid is less than the chunk somewhere */
} chunk_at;

static void chunk_locate(const plan *P, hsize_t k, chunk_at *c)
{
    c->edge = 0;
    for (int d = P->rank - 1; d >= 0; d--) {
        hsize_t g = k % P->grid[d];
        k /= P->grid[d];
        c->rel[d] = g * P->chunk[d];
        c->offset[d] = P->start[d] + c->rel[d];
        hsize_t left = P->block[d] - c->rel[d];
        c->valid[d] = left < P->chunk[d] ? left : P->chunk[d];
        c->edge |= c->valid[d] != P->chunk[d];
    }
}

/*
 * Where a whole chunk is one run of the caller's buffer (the chunk spans
 * the box in every dimension after its first longer than 1), its byte
 * offset there, else -1: such chunks are compressed in place, not gathered.
 */
static long long chunk_run(const plan *P, const chunk_at *c)
{
    int d = 0;
    if (c->edge)
        return -1;
    while (d < P->rank - 1 && P->chunk[d] == 1)
        d++;
    for (int e = d + 1; e < P->rank; e++)
        if (P->chunk[e] != P->block[e])
            return -1;
    unsigned long long at = 0;
    for (int e = 0; e < P->rank; e++)
        at = at * P->block[e] + c->rel[e];
    return (long long)(at * P->esize);
}

/* HDF5 clears its error stack on entry to most API calls, closes among
 * them: what a failure pushed is set aside around the closes after it. */
static hid_t errors_aside(void)
{
    return H5Eget_num(H5E_DEFAULT) > 0 ? H5Eget_current_stack() : -1;
}

static void errors_back(hid_t errors)
{
    if (errors >= 0)
        H5Eset_current_stack(errors);
}

static void plan_close(plan *P)
{
    const hid_t errors = errors_aside();
#ifdef H5_HAVE_PARALLEL
    if (P->comm != MPI_COMM_NULL)
        MPI_Comm_free(&P->comm);
#endif
    if (P->dcpl >= 0)
        H5Pclose(P->dcpl);
    if (P->type >= 0)
        H5Tclose(P->type);
    free(P->fill);
    errors_back(errors);
}

/* A chunk of fill value for edge chunks and unallocated ones, as HDF5 makes
 * it: the fill value where one is defined (and, writing, where HDF5 would
 * write it), else zeros. */
static herr_t plan_fill(plan *P, int writing)
{
    herr_t ret_value = 0;
    H5D_fill_value_t status;
    H5D_fill_time_t when;
    if (H5Pfill_value_defined(P->dcpl, &status) < 0 || H5Pget_fill_time(P->dcpl, &when) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's fill value");
    if (status != H5D_FILL_VALUE_USER_DEFINED)
        goto done;
    if (writing && when == H5D_FILL_TIME_NEVER)
        goto done;
    if (!(P->fill = malloc(P->chunk_bytes)))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a chunk of fill value");
    if (H5Pget_fill_value(P->dcpl, P->type, P->fill) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's fill value");
    for (size_t at = P->esize; at < P->chunk_bytes; at += P->esize)
        memcpy(P->fill + at, P->fill, P->esize);
done:
    return ret_value;
}

/*
 * Whether this call must go through H5Dwrite/H5Dread on every rank, an empty
 * selection's too: 1, 0, or -1 on an error.  So it must in a file open with
 * MPI-IO when writing, and when reading with a collective transfer.  There
 * H5Dwrite_chunk from one rank changes the chunk index and allocates file
 * space on that rank alone, while parallel HDF5 keeps metadata consistent
 * only where every rank makes the same change: HDF5 1.10.8 closes such a
 * file without an error and with every chunk wrong (docs/usage.md section
 * 9).  With a collective transfer, H5Dread_chunk fails (MPI_ERR_TYPE), and
 * a rank whose selection sent it to H5Dread would wait for ranks that took
 * the chunk path; with an empty selection, for a rank that called nothing.
 */
/* Sets P->all_ranks, and with it P->comm.  The file's access list, and its
 * communicator, are asked only where every rank makes the call: with MPI-IO
 * HDF5 duplicates the communicator for each (MPI_Comm_dup, collective), so
 * an independent read, the rank's own, must not ask (a rank reading alone
 * waited in it for the others for ever). */
static int all_ranks_call(plan *P, hid_t dset, hid_t dxpl, int writing)
{
    int ret_value = 0;
#ifdef H5_HAVE_PARALLEL
    hid_t file = -1, fapl = -1, driver;
    H5FD_mpio_xfer_t xfer = H5FD_MPIO_INDEPENDENT;
    MPI_Info info = MPI_INFO_NULL;
    if (!writing &&
        H5Pget_dxpl_mpio(dxpl == H5P_DEFAULT ? H5P_DATASET_XFER_DEFAULT : dxpl, &xfer) < 0)
        PUSH_AND_GOTO(H5E_PLIST, H5E_CANTGET, -1, "gpulz: cannot get the transfer mode");
    if (!writing && xfer != H5FD_MPIO_COLLECTIVE)
        goto done;
    if ((file = H5Iget_file_id(dset)) < 0 || (fapl = H5Fget_access_plist(file)) < 0 ||
        (driver = H5Pget_driver(fapl)) < 0)
        PUSH_AND_GOTO(H5E_FILE, H5E_CANTGET, -1, "gpulz: cannot get the file's driver");
    if (driver != H5FD_MPIO)
        goto done;
    if (H5Pget_fapl_mpio(fapl, &P->comm, &info) < 0)
        PUSH_AND_GOTO(H5E_FILE, H5E_CANTGET, -1, "gpulz: cannot get the file's MPI communicator");
    ret_value = 1;
done:;
    const hid_t errors = errors_aside();
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file >= 0)
        H5Fclose(file);
    errors_back(errors);
#else
    (void)P, (void)dset, (void)dxpl, (void)writing; /* a serial HDF5 opens no file with MPI-IO */
#endif
    return P->all_ranks = ret_value;
}

/*
 * In a call every rank makes (all_ranks_call), just before HDF5's collective
 * call: whether every rank is ready for it, ok being this rank's answer.  0
 * when all are; else -1, with the reason on the stack of each rank that was
 * ready (a rank that was not has its own).  A rank that fails before the
 * collective call (a staging allocation, a copy from the device, a plan
 * that fails on that rank alone) answers here instead of leaving the others
 * in that call for ever.  Itself collective: every rank of the file's
 * communicator calls it once per such call.
 */
static herr_t ranks_agree(const plan *P, int ok, int writing)
{
    herr_t ret_value = ok ? 0 : -1;
#ifdef H5_HAVE_PARALLEL
    /* MPI only, no HDF5 call: a rank that was not ready keeps its reason */
    int all = ok != 0;
    if (MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, P->comm) != MPI_SUCCESS)
        PUSH_AND_GOTO(H5E_DATASET, H5E_MPI, -1, "gpulz: the ranks could not tell each other they were ready");
    if (ok && !all)
        PUSH_AND_GOTO(H5E_DATASET, writing ? H5E_WRITEERROR : H5E_READERROR, -1,
                      "gpulz: another rank failed before the collective %s: no rank %s", writing ? "write" : "read",
                      writing ? "wrote" : "read");
done:
#else
    (void)P, (void)writing; /* no other rank to tell */
#endif
    return ret_value;
}

/*
 * Whether values of type t hold anything whose memory form is not its
 * stored form: variable-length sequences or strings, or references, at any
 * depth of compound members and array elements (H5Tdetect_class finds no
 * variable-length string, which is of class STRING).  1, 0, or -1.
 */
static int type_not_as_stored(hid_t t)
{
    const H5T_class_t cls = H5Tget_class(t);
    int ret_value = 0;
    switch (cls) {
    case H5T_NO_CLASS:
        return -1;
    case H5T_VLEN:
    case H5T_REFERENCE:
        return 1;
    case H5T_STRING:
        return H5Tis_variable_str(t) != 0;
    case H5T_ARRAY: {
        const hid_t base = H5Tget_super(t);
        if (base < 0)
            return -1;
        ret_value = type_not_as_stored(base);
        H5Tclose(base);
        return ret_value;
    }
    case H5T_COMPOUND: {
        const int n = H5Tget_nmembers(t);
        if (n < 0)
            return -1;
        for (int i = 0; i < n && ret_value == 0; i++) {
            const hid_t m = H5Tget_member_type(t, (unsigned)i);
            if (m < 0)
                return -1;
            ret_value = type_not_as_stored(m);
            H5Tclose(m);
        }
        return ret_value;
    }
    default:
        return 0;
    }
}

/*
 * What HDF5 1.10.8 gets wrong about dset's chunk index, each 1 or 0:
 * *misreports, where H5Dget_chunk_info_by_coord answers for another chunk
 * (an extensible-array index, one unlimited dimension in file format 1.10
 * or later, whose unlimited dimension is not the first: HDF5 matches the
 * coordinates asked for against the index's own order, which puts that
 * dimension first), and *single, the single-chunk index (fixed dimensions
 * that are the chunk's, file format 1.10 or later), under which H5Dread on
 * the same handle right after H5Dwrite_chunk returns the stored bytes as
 * they are, compressed, until the dataset is reopened.  Checked rather than
 * assumed fixed in later versions.
 */
static herr_t index_faults(hid_t dset, int rank, int *misreports, int *single)
{
    herr_t ret_value = 0;
    hid_t space = -1;
    hsize_t maxdims[H5S_MAX_RANK];
    H5D_chunk_index_t idx;
    if (H5Dget_chunk_index_type(dset, &idx) < 0 || (space = H5Dget_space(dset)) < 0 ||
        H5Sget_simple_extent_dims(space, NULL, maxdims) != rank)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's chunk index");
    *misreports = rank > 1 && idx == H5D_CHUNK_IDX_EARRAY && maxdims[0] != H5S_UNLIMITED;
    *single = idx == H5D_CHUNK_IDX_SINGLE;
done:;
    const hid_t errors = errors_aside();
    if (space >= 0)
        H5Sclose(space);
    errors_back(errors);
    return ret_value;
}

/*
 * Whether dxpl sets a data transform (H5Pset_data_transform), which H5Dwrite
 * and H5Dread apply to every element, with a conversion or without, and
 * H5Dwrite_chunk/H5Dread_chunk never do: 1 or 0.  HDF5 answers "not set"
 * with a failure (and an error on its stack, cleared here), so a failure
 * reads as no transform; a list that is no transfer list goes to HDF5 as
 * one with a transform does, for HDF5 to refuse.
 */
static int transforms(hid_t dxpl)
{
    ssize_t n = -1;
    if (dxpl == H5P_DEFAULT)
        return 0;
    if (H5Pisa_class(dxpl, H5P_DATASET_XFER) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return 1;
    }
    H5E_BEGIN_TRY
    {
        n = H5Pget_data_transform(dxpl, NULL, 0);
    }
    H5E_END_TRY;
    if (n < 0)
        H5Eclear2(H5E_DEFAULT);
    return n > 0;
}

/*
 * Whether dset's file is open for writing: 1, 0, or -1.  HDF5 1.10.8's
 * H5Dwrite_chunk does not ask: in a file open read-only it allocated the
 * chunk in the index held in memory, failed its write (EBADF), and left
 * the dataset unreadable, the file failing to close and the program
 * crashing at exit, where H5Dwrite refuses at once ("no write intent").
 */
static int file_writable(hid_t dset)
{
    int ret_value = 1;
    unsigned intent = 0;
    const hid_t file = H5Iget_file_id(dset);
    if (file < 0 || H5Fget_intent(file, &intent) < 0)
        PUSH_AND_GOTO(H5E_FILE, H5E_CANTGET, -1, "gpulz: cannot tell whether the file is open for writing");
    ret_value = (intent & H5F_ACC_RDWR) != 0;
done:;
    const hid_t errors = errors_aside();
    if (file >= 0)
        H5Fclose(file);
    errors_back(errors);
    return ret_value;
}

/*
 * Whether the chunk path can do this call exactly: 1 (P filled), 0 for the
 * path through H5Dwrite/H5Dread (P->npoints still set), -1 on an error.
 */
static int plan_make(plan *P, hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, int writing)
{
    int ret_value = 1;
    hid_t space = -1, now = -1;
    unsigned cd[8], config;
    size_t ncd = 8;
    *P = (plan){.dset = dset, .dcpl = -1, .type = -1};
#ifdef H5_HAVE_PARALLEL
    P->comm = MPI_COMM_NULL;
#endif
    gpulz_params_init(&P->p);
    /* first: a call every rank makes must answer ranks_agree whatever fails
     * after this */
    if (all_ranks_call(P, dset, dxpl, writing) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot tell the file's driver");
    space = file_space == H5S_ALL ? H5Dget_space(dset) : H5Scopy(file_space);
    if (space < 0 || (P->npoints = H5Sget_select_npoints(space)) < 0)
        PUSH_AND_GOTO(H5E_DATASPACE, H5E_CANTGET, -1, "gpulz: cannot get the selection");
    if ((P->dcpl = H5Dget_create_plist(dset)) < 0 || (P->type = H5Dget_type(dset)) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's properties");
    if (P->npoints == 0 || H5Pget_layout(P->dcpl) != H5D_CHUNKED || P->all_ranks)
        ret_value = 0;
    /* gpulz alone in the pipeline, so that the stored chunk is gpulz's output */
    else if (H5Pget_nfilters(P->dcpl) != 1)
        ret_value = 0;
    else {
        unsigned flags;
        H5Z_filter_t id = H5Pget_filter2(P->dcpl, 0, &flags, &ncd, cd, 0, NULL, &config);
        if (id != GPULZ_ID && id != H5Z_FILTER_GPULZ_PROVISIONAL)
            ret_value = 0;
        P->optional = (flags & H5Z_FLAG_OPTIONAL) != 0;
    }
    if (ret_value != 1)
        goto done;
    /* no conversion, and no variable-length data or references (whose
     * memory form is not their stored form) */
    htri_t same = H5Tequal(mem_type, P->type);
    const int unlike = type_not_as_stored(P->type);
    if (same < 0 || unlike < 0)
        PUSH_AND_GOTO(H5E_DATATYPE, H5E_CANTCOMPARE, -1, "gpulz: cannot compare the datatypes");
    /* a data transform, which only HDF5's path applies; a file open
     * read-only, which H5Dwrite refuses cleanly (asked only of a call the
     * chunk path could still take) */
    if (!same || unlike || transforms(dxpl)) {
        ret_value = 0;
    } else if (writing) {
        const int writable = file_writable(dset);
        if (writable < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the file's intent");
        ret_value = writable;
    }
    /* HDF5 stores such edge chunks unfiltered without a mask bit saying so */
    unsigned opts = 0;
    if (H5Pget_chunk_opts(P->dcpl, &opts) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the chunk options");
    if (opts & H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS)
        ret_value = 0;
    if (ret_value != 1)
        goto done;
    P->rank = H5Pget_chunk(P->dcpl, H5S_MAX_RANK, P->chunk);
    if (P->rank <= 0 || H5Sget_simple_extent_dims(space, P->dims, NULL) != P->rank ||
        !(P->esize = H5Tget_size(P->type)))
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the chunk or dataset shape");
    /* a file_space of another extent than the dataset's now (taken before it
     * grew, say): H5Dwrite places it in the dataset as it is now */
    if (file_space != H5S_ALL) {
        hsize_t cur[H5S_MAX_RANK];
        if ((now = H5Dget_space(dset)) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's extent");
        if (H5Sget_simple_extent_dims(now, cur, NULL) != P->rank)
            ret_value = 0;
        for (int d = 0; d < P->rank && ret_value == 1; d++)
            if (cur[d] != P->dims[d])
                ret_value = 0;
    }
    /* points are in the caller's order, which may repeat one: only boxes
     * (all, or hyperslabs, which are sets) are laid out as the chunks are */
    const H5S_sel_type sel = H5Sget_select_type(space);
    if (sel != H5S_SEL_ALL && sel != H5S_SEL_HYPERSLABS)
        ret_value = 0;
    if (ret_value != 1)
        goto done;
    /* the selection must be one box whose sides fall on chunk borders or
     * the dataset's end */
    hsize_t end[H5S_MAX_RANK];
    if (H5Sget_select_bounds(space, P->start, end) < 0)
        PUSH_AND_GOTO(H5E_DATASPACE, H5E_CANTGET, -1, "gpulz: cannot get the selection's bounds");
    hsize_t box = 1;
    P->nchunks = 1;
    P->chunk_bytes = P->esize;
    for (int d = 0; d < P->rank; d++) {
        P->block[d] = end[d] - P->start[d] + 1;
        box *= P->block[d];
        /* a selection past the extent is HDF5's to refuse */
        if (end[d] >= P->dims[d] || P->start[d] % P->chunk[d] ||
            ((end[d] + 1) % P->chunk[d] && end[d] + 1 != P->dims[d]))
            ret_value = 0;
        P->grid[d] = (P->block[d] + P->chunk[d] - 1) / P->chunk[d];
        P->nchunks *= P->grid[d];
        P->chunk_bytes *= P->chunk[d];
    }
    if (box != (hsize_t)P->npoints || ret_value != 1) {
        ret_value = 0;
        goto done;
    }
    /* reading, HDF5 leaves the caller's buffer as it is where a chunk is
     * not allocated and the fill value is never written: so does the chunk
     * path (keep_unallocated), which every allocated chunk still takes.  An
     * undefined fill value goes through HDF5's own path. */
    if (!writing) {
        H5D_fill_value_t status;
        H5D_fill_time_t when;
        if (H5Pfill_value_defined(P->dcpl, &status) < 0 || H5Pget_fill_time(P->dcpl, &when) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's fill value");
        if (status == H5D_FILL_VALUE_UNDEFINED) {
            ret_value = 0;
            goto done;
        }
        P->keep_unallocated = when == H5D_FILL_TIME_NEVER;
    }
    /* reading finds chunks with H5Dget_chunk_info_by_coord; writing asks
     * it for chunks' masks before (write_one and store_chunk say why) */
    int wrong = 0, single = 0;
    if (index_faults(dset, P->rank, &wrong, &single) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get the dataset's chunk index");
    P->misreports = wrong;
    if (wrong && !writing) {
        ret_value = 0;
        goto done;
    }
    if (writing && P->nchunks == 1) {
        P->write_through = P->optional || wrong || single;
        if (!P->write_through) {
            hsize_t size = 0;
            haddr_t addr = HADDR_UNDEF;
            unsigned mask = 0;
            if (H5Dget_chunk_info_by_coord(dset, P->start, &mask, &addr, &size) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get a chunk's filter mask");
            P->write_through = addr != HADDR_UNDEF && (mask & 1u);
        }
    }
    if (writing &&
        (H5Z_gpulz_environment_params(&P->p) < 0 || H5Z_gpulz_encoder_params(ncd, cd, &P->p) < 0))
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: cannot take the filter's settings");
    if (!writing && H5Z_gpulz_environment_params(&P->p) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: bad environment setting");
    if (plan_fill(P, writing) < 0)
        ret_value = -1;
done:;
    const hid_t errors = errors_aside();
    if (space >= 0)
        H5Sclose(space);
    if (now >= 0)
        H5Sclose(now);
    errors_back(errors);
    return ret_value;
}

/* ---- host or device memory ------------------------------------------------ */

typedef struct mem {
    int device;
    void *stream;
} mem;

#if GPULZ_HAVE_CUDA
#define CUDA_OR_GOTO(call)                                                                   \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            (void)cudaGetLastError(); /* not left for the codec's next launch check */       \
            PUSH_AND_GOTO(H5E_RESOURCE, H5E_CANTCOPY, -1, "gpulz: %s: %s", #call,              \
                          cudaGetErrorString(e_));                                           \
        }                                                                                    \
    } while (0)
#define CUDA_STREAM(M) ((cudaStream_t)(M)->stream)
#endif

static herr_t mem_alloc(const mem *M, uint8_t **out, size_t n)
{
    (void)M; /* host memory only without CUDA */
    herr_t ret_value = 0;
    *out = NULL;
    n = n ? n : 1;
#if GPULZ_HAVE_CUDA
    if (M->device) {
        CUDA_OR_GOTO(cudaMalloc((void **)out, n));
        goto done;
    }
#endif
    if (!(*out = malloc(n)))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate %zu bytes", n);
done:
    return ret_value;
}

static void mem_free(const mem *M, uint8_t *buf)
{
    (void)M; /* host memory only without CUDA */
#if GPULZ_HAVE_CUDA
    if (M->device) {
        cudaFree(buf);
        return;
    }
#endif
    free(buf);
}

/* height rows of width bytes, between buffers of the call's memory */
static herr_t mem_copy2d(const mem *M, uint8_t *dst, size_t dpitch, const uint8_t *src, size_t spitch,
                         size_t width, size_t height)
{
    (void)M; /* host memory only without CUDA */
    herr_t ret_value = 0;
#if GPULZ_HAVE_CUDA
    if (M->device) {
        CUDA_OR_GOTO(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDeviceToDevice,
                                       CUDA_STREAM(M)));
        goto done;
    }
#endif
    for (size_t r = 0; r < height; r++)
        gpulz_copy_bulk(dst + r * dpitch, src + r * spitch, width);
    goto done;
done:
    return ret_value;
}

/* n bytes of host memory into the call's memory, or back; both wait for
 * the work queued before them, so host buffers may be reused at once */
static herr_t mem_put(const mem *M, uint8_t *dst, const uint8_t *host, size_t n)
{
    (void)M; /* host memory only without CUDA */
    herr_t ret_value = 0;
#if GPULZ_HAVE_CUDA
    if (M->device) {
        CUDA_OR_GOTO(cudaMemcpyAsync(dst, host, n, cudaMemcpyHostToDevice, CUDA_STREAM(M)));
        CUDA_OR_GOTO(cudaStreamSynchronize(CUDA_STREAM(M)));
        goto done;
    }
#endif
    gpulz_copy_bulk(dst, host, n);
    goto done;
done:
    return ret_value;
}

static herr_t mem_get(const mem *M, uint8_t *host, const uint8_t *src, size_t n)
{
    (void)M; /* host memory only without CUDA */
    herr_t ret_value = 0;
#if GPULZ_HAVE_CUDA
    if (M->device) {
        CUDA_OR_GOTO(cudaMemcpyAsync(host, src, n, cudaMemcpyDeviceToHost, CUDA_STREAM(M)));
        CUDA_OR_GOTO(cudaStreamSynchronize(CUDA_STREAM(M)));
        goto done;
    }
#endif
    gpulz_copy_bulk(host, src, n);
    goto done;
done:
    return ret_value;
}

/* A chunk of fill value (zeros without one) at dst, in the call's memory. */
static herr_t mem_fill(const mem *M, const plan *P, uint8_t *dst)
{
    herr_t ret_value = 0;
    if (P->fill)
        return mem_put(M, dst, P->fill, P->chunk_bytes);
#if GPULZ_HAVE_CUDA
    if (M->device) {
        CUDA_OR_GOTO(cudaMemsetAsync(dst, 0, P->chunk_bytes, CUDA_STREAM(M)));
        goto done;
    }
#endif
    memset(dst, 0, P->chunk_bytes);
    goto done;
done:
    return ret_value;
}

/*
 * The part of chunk c inside the box, between the caller's buffer (the box
 * in row-major order) and a chunk buffer: the last two dimensions as one
 * strided copy, the others looped over.
 */
static herr_t region_copy(const mem *M, const plan *P, const chunk_at *c, uint8_t *buf, uint8_t *chunk,
                          int into_chunk)
{
    herr_t ret_value = 0;
    const int r = P->rank;
    const size_t es = P->esize;
    size_t bstride[H5S_MAX_RANK], cstride[H5S_MAX_RANK];
    bstride[r - 1] = cstride[r - 1] = es;
    for (int d = r - 2; d >= 0; d--) {
        bstride[d] = bstride[d + 1] * (size_t)P->block[d + 1];
        cstride[d] = cstride[d + 1] * (size_t)P->chunk[d + 1];
    }
    size_t width = (size_t)c->valid[r - 1] * es;
    size_t height = r >= 2 ? (size_t)c->valid[r - 2] : 1;
    size_t bpitch = r >= 2 ? bstride[r - 2] : width, cpitch = r >= 2 ? cstride[r - 2] : width;
    hsize_t idx[H5S_MAX_RANK] = {0};
    for (;;) {
        size_t boff = 0, coff = 0;
        for (int d = 0; d < r; d++) {
            hsize_t i = d < r - 2 ? idx[d] : 0;
            boff += (size_t)(c->rel[d] + i) * bstride[d];
            coff += (size_t)i * cstride[d];
        }
        if (into_chunk ? mem_copy2d(M, chunk + coff, cpitch, buf + boff, bpitch, width, height) < 0
                       : mem_copy2d(M, buf + boff, bpitch, chunk + coff, cpitch, width, height) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_CANTCOPY, -1, "gpulz: cannot move a chunk's elements");
        /* the next index of the dimensions before the last two */
        int d = r - 3;
        while (d >= 0 && ++idx[d] == c->valid[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
done:
    return ret_value;
}

/* The chunks of the batch from chunk first: most (gpulz_batch_chunks), or
 * those left. */
static size_t batch_len(const plan *P, size_t most, hsize_t first)
{
    hsize_t left = P->nchunks - first;
    return left < most ? (size_t)left : most;
}

/* ---- the codec beside HDF5 ---------------------------------------------------- */

/*
 * Batches are pipelined: while HDF5 stores (or reads) the chunks of one
 * batch on the calling thread, a thread of the call's runs the codec on the
 * next, so that the one waits on the other only where it is the slower.
 * The codec's thread makes no HDF5 call (HDF5 may not be thread-safe); its
 * failures are handed back as text and pushed on HDF5's stack by the caller.
 */
typedef struct codec_thread {
    pthread_t thread;
    int running;
} codec_thread;

static herr_t codec_start(codec_thread *T, void *(*run)(void *), void *job)
{
    herr_t ret_value = 0;
    if (pthread_create(&T->thread, NULL, run, job) != 0)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_CANTINIT, -1, "gpulz: cannot start the codec's thread");
    T->running = 1;
done:
    return ret_value;
}

static void codec_join(codec_thread *T)
{
    if (T->running)
        pthread_join(T->thread, NULL);
    T->running = 0;
}

/* The calling thread's CUDA device for the codec's thread: a batch of host
 * chunks runs where a call on the calling thread would. */
static void codec_device_take(int *device)
{
    *device = -1;
#if GPULZ_HAVE_CUDA
    if (gpulz_gpu_available() && cudaGetDevice(device) != cudaSuccess)
        *device = -1;
#endif
}

static void codec_device_set(int device)
{
#if GPULZ_HAVE_CUDA
    if (device >= 0)
        cudaSetDevice(device);
#else
    (void)device;
#endif
}

/* ---- host memory kept between calls ------------------------------------------ */

/*
 * The host side of a batch: the compressed chunks as HDF5 stores or reads
 * them, and the compressed output of host calls.  Memory fresh from malloc
 * costs a page fault per page at first touch, and pageable memory crosses
 * PCIe at 7.5-12 GB/s against 55 GB/s pinned (H100 machine), while pinning
 * costs about 0.5 ms per MB: so these buffers outlive the call, up to
 * KEPT_BUFFERS of them (the two batches of a write or a read), pinned for
 * device calls.  A call that finds none kept grows its own, and keeps them
 * where there is room, for the process's lifetime, as the codec keeps its
 * staging.  None of this pushes on HDF5's error stack: the codec's thread
 * grows them too.
 */
#define KEPT_BUFFERS 4

typedef struct host_buf {
    uint8_t *p;
    size_t cap;
    int pinned;
} host_buf;

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static host_buf kept[KEPT_BUFFERS]; /* p == NULL: an empty place */

static void host_buf_release(host_buf *b)
{
#if GPULZ_HAVE_CUDA
    if (b->pinned && b->p)
        cudaFreeHost(b->p);
    else
        free(b->p);
#else
    free(b->p);
#endif
    b->p = NULL;
    b->cap = 0;
}

/* A kept buffer of that kind, the largest, else an empty one. */
static void host_take(host_buf *b, int pinned)
{
    b->p = NULL;
    b->cap = 0;
    b->pinned = pinned;
    pthread_mutex_lock(&kept_lock);
    int best = -1;
    for (int k = 0; k < KEPT_BUFFERS; k++)
        if (kept[k].p && kept[k].pinned == pinned && (best < 0 || kept[k].cap > kept[best].cap))
            best = k;
    if (best >= 0) {
        *b = kept[best];
        kept[best].p = NULL;
        kept[best].cap = 0;
    }
    pthread_mutex_unlock(&kept_lock);
}

/* Kept for the next call where there is room, else freed. */
static void host_give(host_buf *b)
{
    if (!b->p)
        return;
    pthread_mutex_lock(&kept_lock);
    for (int k = 0; k < KEPT_BUFFERS && b->p; k++)
        if (!kept[k].p) {
            kept[k] = *b;
            b->p = NULL;
        }
    pthread_mutex_unlock(&kept_lock);
    host_buf_release(b);
}

/* At least need bytes: 0, or -1 without memory.  Pinned memory is portable,
 * so that a buffer kept by a call on one GPU serves a call on another; where
 * the driver cannot pin that much, pageable memory does the same, slower. */
static int host_grow(host_buf *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    host_buf_release(b);
    need = gpulz_grown(need);
#if GPULZ_HAVE_CUDA
    if (b->pinned) {
        if (cudaHostAlloc((void **)&b->p, need, cudaHostAllocPortable) == cudaSuccess) {
            b->cap = need;
            return 0;
        }
        /* the refusal is the thread's last CUDA error until read: left,
         * the codec's next launch check on this thread would fail on it */
        (void)cudaGetLastError();
        b->p = NULL;
        b->pinned = 0;
    }
#endif
    if (!(b->p = malloc(need)))
        return -1;
    b->cap = need;
    return 0;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct write_batch {
    const mem *M;
    const plan *P;
    size_t n;               /* chunks in the batch */
    hsize_t first;          /* the first one's number in the box */
    const void **src;
    size_t *src_len, *dst_cap, *dst_len, *pos;
    void **dst;
    int *statuses;
    chunk_at *at;
    uint8_t *raw;           /* gathered chunks, the call's memory */
    uint8_t *out;           /* the compressed chunks, the call's memory (host calls: host_out's) */
    host_buf host_out;      /* the compressed chunks on the host; device calls: chunk j at pos[j] */
    uint8_t *host_raw;      /* device calls: one raw chunk on the host */
    size_t bound;
    int device;
    const char *failed;     /* set by the codec's thread: what it could not do */
    char detail[256];       /* the batch's first failure, or the failure above */
} write_batch;

static void write_batch_free(write_batch *W)
{
    free(W->src);
    free(W->src_len);
    free(W->dst_cap);
    free(W->dst_len);
    free(W->pos);
    free(W->dst);
    free(W->statuses);
    free(W->at);
    if (W->M) {
        mem_free(W->M, W->raw);
        if (W->M->device)
            mem_free(W->M, W->out);
        host_give(&W->host_out);
    }
    free(W->host_raw);
}

static herr_t write_batch_open(const mem *M, const plan *P, size_t most, size_t bound, write_batch *W)
{
    herr_t ret_value = 0;
    W->M = M;
    W->P = P;
    W->bound = bound;
    W->src = calloc(most, sizeof *W->src);
    W->src_len = calloc(most, sizeof *W->src_len);
    W->dst_cap = calloc(most, sizeof *W->dst_cap);
    W->dst_len = calloc(most, sizeof *W->dst_len);
    W->pos = calloc(most, sizeof *W->pos);
    W->dst = calloc(most, sizeof *W->dst);
    W->statuses = calloc(most, sizeof *W->statuses);
    W->at = calloc(most, sizeof *W->at);
    if (!W->src || !W->src_len || !W->dst_cap || !W->dst_len || !W->pos || !W->dst || !W->statuses || !W->at)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a batch of %zu chunks", most);
    host_take(&W->host_out, M->device);
    if (mem_alloc(M, &W->raw, most * P->chunk_bytes) < 0)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a batch's buffers");
    if (M->device ? mem_alloc(M, &W->out, most * bound) < 0 : host_grow(&W->host_out, most * bound) < 0)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a batch's compressed chunks");
    if (!M->device)
        W->out = W->host_out.p;
    if (M->device && !(W->host_raw = malloc(P->chunk_bytes)))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a chunk's staging");
done:
    return ret_value;
}

/* The chunks of batch first .. first + n - 1 where the codec reads them:
 * in place where a chunk is one run of buf, else gathered (edge chunks
 * holding the fill value beyond the dataset, as HDF5 pads them). */
static herr_t write_batch_gather(write_batch *W, const uint8_t *buf, hsize_t first, size_t n)
{
    herr_t ret_value = 0;
    const plan *P = W->P;
    W->first = first;
    W->n = n;
    for (size_t j = 0; j < n; j++) {
        uint8_t *staged = W->raw + j * P->chunk_bytes;
        chunk_locate(P, first + j, &W->at[j]);
        long long run = chunk_run(P, &W->at[j]);
        if (run >= 0) {
            W->src[j] = buf + run;
        } else {
            if ((W->at[j].edge && mem_fill(W->M, P, staged) < 0) ||
                region_copy(W->M, P, &W->at[j], (uint8_t *)buf, staged, 1) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot gather a chunk");
            W->src[j] = staged;
        }
        W->src_len[j] = P->chunk_bytes;
        W->dst[j] = W->out + j * W->bound;
        W->dst_cap[j] = W->bound;
    }
done:
    return ret_value;
}

/* The codec's thread: the batch compressed and, from device memory, the
 * compressed chunks brought to host memory in one wait. */
static void *write_batch_codec(void *arg)
{
    write_batch *W = arg;
    const mem *M = W->M;
    W->failed = NULL;
    W->detail[0] = 0;
    codec_device_set(W->device);
    /* each chunk's status is looked at by the caller; the call's is the first of them */
    if (gpulz_compress_batch(W->n, W->src, W->src_len, W->dst, W->dst_cap, W->dst_len, W->statuses, &W->P->p,
                             M->device ? GPULZ_MEMORY_DEVICE : GPULZ_MEMORY_HOST, M->stream, NULL, 0) != GPULZ_OK)
        snprintf(W->detail, sizeof W->detail, "%s", gpulz_last_error());
#if GPULZ_HAVE_CUDA
    if (M->device) {
        size_t sum = 0;
        for (size_t j = 0; j < W->n; j++) {
            W->pos[j] = sum;
            sum += W->statuses[j] == GPULZ_OK ? W->dst_len[j] : 0;
        }
        cudaError_t e = host_grow(&W->host_out, sum) < 0 ? cudaErrorMemoryAllocation : cudaSuccess;
        for (size_t j = 0; j < W->n && e == cudaSuccess; j++)
            if (W->statuses[j] == GPULZ_OK && W->dst_len[j])
                e = cudaMemcpyAsync(W->host_out.p + W->pos[j], W->dst[j], W->dst_len[j], cudaMemcpyDeviceToHost,
                                    CUDA_STREAM(M));
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(CUDA_STREAM(M));
        if (e != cudaSuccess) {
            W->failed = "cannot fetch the compressed chunks";
            snprintf(W->detail, sizeof W->detail, "%s", cudaGetErrorString(e));
        }
    }
#endif
    return NULL;
}

/*
 * HDF5 (1.10 to 2.0) caches the chunk H5Dwrite_chunk stored last in its
 * lookup cache before it sets the chunk's new filter mask, so the cache
 * keeps the mask the chunk had before (0 for a new one).  Where an optional
 * filter's chunk changed from unfiltered to compressed, the next read of it
 * took the compressed bytes for data; from compressed (or new) to
 * unfiltered, it ran the filter on raw bytes and failed ("bad magic"), until
 * the dataset was reopened or another chunk looked up.  So a call's chunks
 * end with a lookup of its first chunk (refresh_last), which H5Dwrite_chunk
 * took out of HDF5's chunk cache: HDF5 then reads that chunk's entry from
 * the index, masks right, into the lookup cache.  A call of one chunk has
 * no other chunk to look up: where its mask may change (an optional filter,
 * or a chunk stored unfiltered before), or HDF5 cannot be asked its mask
 * (index_faults), or the index is the single-chunk one, it goes through
 * HDF5's filter instead (write_through_filter), which caches what it stores.
 */
static herr_t refresh_last(const plan *P)
{
    herr_t ret_value = 0;
    chunk_at c;
    hsize_t size = 0;
    chunk_locate(P, 0, &c);
    if (H5Dget_chunk_storage_size(P->dset, c.offset, &size) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot look up the chunks just written");
done:
    return ret_value;
}

/* The part of chunk c inside the dataset, from raw (the whole chunk, host
 * memory), through H5Dwrite: HDF5's filter stores it as the direct path
 * would (refresh_last says when). */
static herr_t write_through_filter(const plan *P, hid_t dxpl, const chunk_at *c, const uint8_t *raw)
{
    herr_t ret_value = 0;
    hid_t mem_space = -1, file_space = -1;
    hsize_t zero[H5S_MAX_RANK] = {0};
    if ((mem_space = H5Screate_simple(P->rank, P->chunk, NULL)) < 0 ||
        H5Sselect_hyperslab(mem_space, H5S_SELECT_SET, zero, NULL, c->valid, NULL) < 0 ||
        (file_space = H5Dget_space(P->dset)) < 0 ||
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, c->offset, NULL, c->valid, NULL) < 0)
        PUSH_AND_GOTO(H5E_DATASPACE, H5E_CANTSELECT, -1, "gpulz: cannot select a chunk");
    if (H5Dwrite(P->dset, P->type, mem_space, file_space, dxpl, raw) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write a chunk through HDF5");
done:;
    const hid_t errors = errors_aside();
    if (mem_space >= 0)
        H5Sclose(mem_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    errors_back(errors);
    return ret_value;
}

/*
 * H5Dwrite_chunk of one chunk.  HDF5 (1.10 to 2.0) rewrites a chunk where
 * it is when its stored size does not change, and its index keeps the
 * filter mask it held: a chunk of the dataset's chunk size (unfiltered, or
 * compressed to exactly that size) over one of that size with the other
 * mask read back as gpulz's bytes taken for data, or as raw bytes the
 * filter failed to decode.  Such a chunk is first stored a byte longer,
 * which moves it and sets its mask; where HDF5 cannot be asked the old mask
 * (P->misreports), always.
 */
static herr_t store_chunk(const plan *P, hid_t dxpl, const hsize_t *offset, uint32_t mask, size_t size,
                          const void *bytes)
{
    herr_t ret_value = 0;
    uint8_t *longer = NULL;
    if (size == P->chunk_bytes) {
        int other = 1;
        if (!P->misreports) {
            unsigned old = 0;
            haddr_t addr = HADDR_UNDEF;
            hsize_t have = 0;
            if (H5Dget_chunk_info_by_coord(P->dset, offset, &old, &addr, &have) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get a chunk's filter mask");
            other = addr != HADDR_UNDEF && have == size && (old & 1u) != (mask & 1u);
        }
        if (other) {
            if (!(longer = calloc(size + 1, 1)))
                PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate %zu bytes", size + 1);
            if (H5Dwrite_chunk(P->dset, dxpl, mask, offset, size + 1, longer) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write a chunk");
        }
    }
    if (H5Dwrite_chunk(P->dset, dxpl, mask, offset, size, bytes) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write a chunk");
done:
    free(longer);
    return ret_value;
}

/* Store chunk j of the batch: compressed, or (optional filter, no gain or a
 * failure) unfiltered with the filter's mask bit, as HDF5 would; a call's
 * only chunk through HDF5 where P->write_through (refresh_last). */
static herr_t write_one(const plan *P, hid_t dxpl, write_batch *W, size_t j)
{
    herr_t ret_value = 0;
    const mem *M = W->M;
    const chunk_at *c = &W->at[j];
    int ok = W->statuses[j] == GPULZ_OK;
    if (!ok && !P->optional)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, -1, "gpulz: cannot compress the chunk at %llu: %s: %s",
                      (unsigned long long)c->offset[0], gpulz_strerror(W->statuses[j]), W->detail);
    const int through = P->write_through;
    if (!through && ok && !(P->optional && W->dst_len[j] >= P->chunk_bytes)) {
        const uint8_t *bytes = M->device ? W->host_out.p + W->pos[j] : (const uint8_t *)W->dst[j];
        if (store_chunk(P, dxpl, c->offset, 0, W->dst_len[j], bytes) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write a chunk");
        goto done;
    }
    const uint8_t *raw = (const uint8_t *)W->src[j];
    if (M->device) {
        if (mem_get(M, W->host_raw, raw, P->chunk_bytes) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot fetch a raw chunk");
        raw = W->host_raw;
    }
    if (through) {
        if (write_through_filter(P, dxpl, c, raw) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write the only chunk");
        goto done;
    }
    if (store_chunk(P, dxpl, c->offset, 1u, P->chunk_bytes, raw) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: cannot write an unfiltered chunk");
done:
    return ret_value;
}

static herr_t write_chunks(const mem *M, const plan *P, hid_t dxpl, const uint8_t *buf)
{
    herr_t ret_value = 0;
    write_batch W[2];
    codec_thread T = {0};
    const size_t most = gpulz_batch_chunks(P->chunk_bytes);
    size_t n = 0;
    memset(W, 0, sizeof W);
    const size_t bound = gpulz_compress_bound(P->chunk_bytes, &P->p);
    if (!bound)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: %s", gpulz_last_error());
    const int two = P->nchunks > most; /* a second batch buffer only where there is a second batch */
    if (write_batch_open(M, P, most, bound, &W[0]) < 0 || (two && write_batch_open(M, P, most, bound, &W[1]) < 0))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot set up the batches");
    codec_device_take(&W[0].device);
    W[1].device = W[0].device;
    n = batch_len(P, most, 0);
    if (write_batch_gather(&W[0], buf, 0, n) < 0 || codec_start(&T, write_batch_codec, &W[0]) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: direct chunk write failed");
    for (unsigned k = 0;; k++) {
        write_batch *cur = &W[k & 1], *next = &W[(k + 1) & 1];
        const hsize_t after = cur->first + cur->n;
        /* the next batch gathered while the codec runs on this one */
        if (after < P->nchunks) {
            n = batch_len(P, most, after);
            if (write_batch_gather(next, buf, after, n) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: direct chunk write failed");
        }
        codec_join(&T);
        if (cur->failed)
            PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: %s: %s", cur->failed, cur->detail);
        /* and compressed while HDF5 stores this one */
        if (after < P->nchunks && codec_start(&T, write_batch_codec, next) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: direct chunk write failed");
        for (size_t j = 0; j < cur->n; j++)
            if (write_one(P, dxpl, cur, j) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: direct chunk write failed");
        if (after >= P->nchunks)
            break;
    }
    if (P->nchunks > 1 && refresh_last(P) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_WRITEERROR, -1, "gpulz: direct chunk write failed");
done:
    codec_join(&T); /* nothing is freed under the codec */
    write_batch_free(&W[0]);
    write_batch_free(&W[1]);
    return ret_value;
}

/* ---- reading ---------------------------------------------------------------- */

enum { CHUNK_FILL, CHUNK_RAW, CHUNK_CODED };

typedef struct read_batch {
    const mem *M;
    const plan *P;
    size_t n, coded;        /* chunks in the batch, and coded ones among them */
    hsize_t first;
    size_t total;           /* bytes of stored chunks */
    const void **src;
    size_t *src_len, *dst_cap, *dst_len;
    void **dst;
    int *statuses, *kind;
    size_t *pos, *stored; /* a chunk's bytes in host_in, and how many */
    size_t *slot;         /* a coded chunk's place among the batch's coded ones */
    chunk_at *at;
    host_buf host_in;   /* the stored chunks as read */
    uint8_t *dev_in;    /* the same on the device (device calls) */
    size_t dev_cap;
    uint8_t *raw;       /* decoded chunks, the call's memory */
    int device;
    const char *failed; /* set by the codec's thread: what it could not do */
    char detail[256];   /* the batch's first failure, or the failure above */
} read_batch;

static void read_batch_free(read_batch *R)
{
    free(R->src);
    free(R->src_len);
    free(R->dst_cap);
    free(R->dst_len);
    free(R->dst);
    free(R->statuses);
    free(R->kind);
    free(R->pos);
    free(R->stored);
    free(R->slot);
    free(R->at);
    if (R->M) {
        host_give(&R->host_in);
        if (R->M->device)
            mem_free(R->M, R->dev_in);
        mem_free(R->M, R->raw);
    }
}

static herr_t read_batch_open(const mem *M, const plan *P, size_t most, read_batch *R)
{
    herr_t ret_value = 0;
    R->M = M;
    R->P = P;
    R->src = calloc(most, sizeof *R->src);
    R->src_len = calloc(most, sizeof *R->src_len);
    R->dst_cap = calloc(most, sizeof *R->dst_cap);
    R->dst_len = calloc(most, sizeof *R->dst_len);
    R->dst = calloc(most, sizeof *R->dst);
    R->statuses = calloc(most, sizeof *R->statuses);
    R->kind = calloc(most, sizeof *R->kind);
    R->pos = calloc(most, sizeof *R->pos);
    R->stored = calloc(most, sizeof *R->stored);
    R->slot = calloc(most, sizeof *R->slot);
    R->at = calloc(most, sizeof *R->at);
    host_take(&R->host_in, M->device);
    if (!R->src || !R->src_len || !R->dst_cap || !R->dst_len || !R->dst || !R->statuses || !R->kind || !R->pos ||
        !R->stored || !R->slot || !R->at)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a batch of %zu chunks", most);
    if (mem_alloc(M, &R->raw, most * P->chunk_bytes) < 0)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate a batch's buffers");
done:
    return ret_value;
}

/* The stored chunks of batch first .. first + n - 1 into R->host_in, each
 * one's kind noted, and the coded ones listed for the codec: decoded in
 * place where a chunk is one run of buf, else into raw and placed after. */
static herr_t read_stored(read_batch *R, hid_t dxpl, uint8_t *buf, hsize_t first, size_t n)
{
    herr_t ret_value = 0;
    const plan *P = R->P;
    size_t sum = 0;
    R->first = first;
    R->n = n;
    for (size_t j = 0; j < n; j++) {
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        chunk_locate(P, first + j, &R->at[j]);
        hsize_t size = 0;
        if (H5Dget_chunk_info_by_coord(P->dset, R->at[j].offset, &mask, &addr, &size) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_CANTGET, -1, "gpulz: cannot get a chunk's location");
        R->kind[j] = addr == HADDR_UNDEF ? CHUNK_FILL : (mask & 1u) ? CHUNK_RAW : CHUNK_CODED;
        if (R->kind[j] == CHUNK_FILL)
            continue;
        if (R->kind[j] == CHUNK_RAW && size != P->chunk_bytes)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1,
                          "gpulz: an unfiltered chunk holds %llu bytes where the dataset's chunks hold %zu",
                          (unsigned long long)size, P->chunk_bytes);
        if (size > SIZE_MAX - sum)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: stored chunks too large");
        R->pos[j] = sum;
        R->stored[j] = (size_t)size;
        sum += (size_t)size;
    }
    if (host_grow(&R->host_in, sum) < 0)
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate %zu bytes of stored chunks", sum);
    for (size_t j = 0; j < n; j++) {
        uint32_t mask = 0;
        if (R->kind[j] != CHUNK_FILL && gpulz_h5_read_chunk(P->dset, dxpl, R->at[j].offset, &mask,
                                                            R->host_in.p + R->pos[j], R->stored[j]) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: cannot read a chunk");
    }
    R->total = sum;
    R->coded = 0;
    for (size_t j = 0; j < n; j++) {
        if (R->kind[j] != CHUNK_CODED)
            continue;
        const long long run = chunk_run(P, &R->at[j]);
        R->slot[j] = R->coded;
        R->src_len[R->coded] = R->stored[j];
        R->dst[R->coded] = run >= 0 ? buf + run : R->raw + j * P->chunk_bytes;
        R->dst_cap[R->coded] = P->chunk_bytes;
        R->coded++;
    }
done:
    return ret_value;
}

/* Where the stored chunks are for the codec and for placing: host_in, or
 * its copy on the device. */
static uint8_t *read_batch_in(const read_batch *R)
{
    return R->M->device ? R->dev_in : R->host_in.p;
}

/* The codec's thread: the stored chunks sent to the device (device calls),
 * then the coded ones decompressed. */
static void *read_batch_codec(void *arg)
{
    read_batch *R = arg;
    const mem *M = R->M;
    R->failed = NULL;
    R->detail[0] = 0;
    codec_device_set(R->device);
#if GPULZ_HAVE_CUDA
    if (M->device) {
        cudaError_t e = cudaSuccess;
        if (R->total > R->dev_cap) {
            cudaFree(R->dev_in);
            R->dev_in = NULL;
            R->dev_cap = 0;
            if ((e = cudaMalloc((void **)&R->dev_in, R->total)) == cudaSuccess)
                R->dev_cap = R->total;
            else
                (void)cudaGetLastError(); /* as CUDA_OR_GOTO */
        }
        if (e == cudaSuccess && R->total)
            e = cudaMemcpyAsync(R->dev_in, R->host_in.p, R->total, cudaMemcpyHostToDevice, CUDA_STREAM(M));
        if (e != cudaSuccess) {
            R->failed = "cannot upload the stored chunks";
            snprintf(R->detail, sizeof R->detail, "%s", cudaGetErrorString(e));
            return NULL;
        }
    }
#endif
    uint8_t *in = read_batch_in(R);
    for (size_t j = 0; j < R->n; j++)
        if (R->kind[j] == CHUNK_CODED)
            R->src[R->slot[j]] = in + R->pos[j];
    if (gpulz_decompress_batch(R->coded, R->src, R->src_len, R->dst, R->dst_cap, R->dst_len, R->statuses,
                               &R->P->p, M->device ? GPULZ_MEMORY_DEVICE : GPULZ_MEMORY_HOST, M->stream, NULL,
                               0) != GPULZ_OK)
        snprintf(R->detail, sizeof R->detail, "%s", gpulz_last_error());
#if GPULZ_HAVE_CUDA
    /* host_in is read again by the next batch but one: its upload is over */
    cudaError_t e = M->device ? cudaStreamSynchronize(CUDA_STREAM(M)) : cudaSuccess;
    if (e != cudaSuccess) {
        R->failed = "cannot upload the stored chunks";
        snprintf(R->detail, sizeof R->detail, "%s", cudaGetErrorString(e));
    }
#endif
    return NULL;
}

/* The decoded, unfiltered and unallocated chunks of the batch into buf. */
static herr_t read_place(read_batch *R, uint8_t *buf)
{
    herr_t ret_value = 0;
    const plan *P = R->P;
    for (size_t j = 0; j < R->n; j++) {
        const chunk_at *c = &R->at[j];
        uint8_t *from = R->raw + j * P->chunk_bytes;
        const size_t s = R->slot[j];
        if (R->kind[j] == CHUNK_CODED && (R->statuses[s] != GPULZ_OK || R->dst_len[s] != P->chunk_bytes))
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, -1, "gpulz: cannot decompress the chunk at %llu: %s: %s",
                          (unsigned long long)c->offset[0],
                          R->statuses[s] != GPULZ_OK ? gpulz_strerror(R->statuses[s]) : "wrong size",
                          R->statuses[s] != GPULZ_OK ? R->detail
                                                     : "it declares another size than the dataset's chunks");
        if (R->kind[j] == CHUNK_CODED && R->dst[s] != from)
            continue; /* decoded where it belongs */
        if (R->kind[j] == CHUNK_FILL && P->keep_unallocated)
            continue; /* HDF5 leaves these elements as they are */
        if (R->kind[j] == CHUNK_RAW)
            from = read_batch_in(R) + R->pos[j];
        if (R->kind[j] == CHUNK_FILL && mem_fill(R->M, P, from) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: cannot fill a chunk");
        if (region_copy(R->M, P, c, buf, from, 0) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: cannot place a chunk");
    }
done:
    return ret_value;
}

static herr_t read_chunks(const mem *M, const plan *P, hid_t dxpl, uint8_t *buf)
{
    herr_t ret_value = 0;
    read_batch R[2];
    codec_thread T = {0};
    const size_t most = gpulz_batch_chunks(P->chunk_bytes);
    size_t n = 0;
    memset(R, 0, sizeof R);
    const int two = P->nchunks > most;
    if (read_batch_open(M, P, most, &R[0]) < 0 || (two && read_batch_open(M, P, most, &R[1]) < 0))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot set up the batches");
    codec_device_take(&R[0].device);
    R[1].device = R[0].device;
    n = batch_len(P, most, 0);
    if (read_stored(&R[0], dxpl, buf, 0, n) < 0 || codec_start(&T, read_batch_codec, &R[0]) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: direct chunk read failed");
    for (unsigned k = 0;; k++) {
        read_batch *cur = &R[k & 1], *next = &R[(k + 1) & 1];
        const hsize_t after = cur->first + cur->n;
        /* HDF5 reads the next batch while the codec decodes this one */
        if (after < P->nchunks) {
            n = batch_len(P, most, after);
            if (read_stored(next, dxpl, buf, after, n) < 0)
                PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: direct chunk read failed");
        }
        codec_join(&T);
        if (cur->failed)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: %s: %s", cur->failed, cur->detail);
        /* and decodes the next while this one is placed */
        if (after < P->nchunks && codec_start(&T, read_batch_codec, next) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: direct chunk read failed");
        if (read_place(cur, buf) < 0)
            PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: direct chunk read failed");
        if (after >= P->nchunks)
            break;
    }
#if GPULZ_HAVE_CUDA
    if (M->device)
        CUDA_OR_GOTO(cudaStreamSynchronize(CUDA_STREAM(M)));
#endif
done:
    codec_join(&T); /* nothing is freed under the codec */
#if GPULZ_HAVE_CUDA
    if (M->device)
        cudaStreamSynchronize(CUDA_STREAM(M)); /* nor under copies still queued */
#endif
    read_batch_free(&R[0]);
    read_batch_free(&R[1]);
    return ret_value;
}

/* ---- the calls ---------------------------------------------------------------- */

/*
 * Whether H5Dwrite/H5Dread will take this rank's arguments as far as they
 * check them on the rank alone, before any MPI call: a buffer (unless no
 * point is selected), a memory type with a conversion from or to the
 * dataset's, a transfer list, a selection inside its extent.  In a call
 * every rank makes, a rank refused there would leave the others waiting in
 * theirs for ever: it is asked before the ranks agree.
 */
static int hdf5_takes(const plan *P, int writing, hid_t mem_type, hid_t file_space, hid_t dxpl, const void *buf)
{
    H5T_cdata_t *cdata = NULL;
    if (!buf && P->npoints > 0)
        return 0;
    if (dxpl != H5P_DEFAULT && H5Pisa_class(dxpl, H5P_DATASET_XFER) <= 0)
        return 0;
    if (file_space != H5S_ALL && H5Sselect_valid(file_space) <= 0)
        return 0;
    return (writing ? H5Tfind(mem_type, P->type, &cdata) : H5Tfind(P->type, mem_type, &cdata)) != NULL;
}

/* HDF5's own path: the selection's points in order from or into buf.  An
 * empty selection makes no call, unless every rank must make it; then the
 * ranks first agree that each is ready. */
static herr_t through_hdf5(const plan *P, int writing, hid_t mem_type, hid_t file_space, hid_t dxpl, void *buf)
{
    herr_t ret_value = 0;
    hid_t mem_space = H5S_ALL;
    const hid_t dset = P->dset;
    hsize_t n = (hsize_t)P->npoints;
    if (P->npoints == 0 && !P->all_ranks)
        goto done;
    const int made = file_space == H5S_ALL || (mem_space = H5Screate_simple(1, &n, NULL)) >= 0;
    const int takes = !P->all_ranks || hdf5_takes(P, writing, mem_type, file_space, dxpl, buf);
    const int ready = P->all_ranks ? ranks_agree(P, made && takes, writing) == 0 : made;
    if (!made)
        PUSH_AND_GOTO(H5E_DATASPACE, H5E_CANTCREATE, -1, "gpulz: cannot make the memory dataspace");
    if (!takes)
        PUSH_AND_GOTO(H5E_ARGS, H5E_BADVALUE, -1,
                      "gpulz: HDF5 refuses this rank's buffer, memory type, transfer list or selection");
    if (!ready)
        PUSH_AND_GOTO(H5E_DATASET, writing ? H5E_WRITEERROR : H5E_READERROR, -1, "gpulz: %s through HDF5 failed",
                      writing ? "writing" : "reading");
    if (writing ? H5Dwrite(dset, mem_type, mem_space, file_space, dxpl, buf) < 0
                : H5Dread(dset, mem_type, mem_space, file_space, dxpl, buf) < 0)
        PUSH_AND_GOTO(H5E_DATASET, writing ? H5E_WRITEERROR : H5E_READERROR, -1,
                      "gpulz: %s through HDF5 failed", writing ? "writing" : "reading");
done:;
    const hid_t errors = errors_aside();
    if (mem_space != H5S_ALL && mem_space >= 0)
        H5Sclose(mem_space);
    errors_back(errors);
    return ret_value;
}

static herr_t host_direct(int writing, hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, void *buf,
                          int *direct)
{
    herr_t ret_value = 0;
    plan P;
    mem M = {0, NULL};
    int how = plan_make(&P, dset, mem_type, file_space, dxpl, writing);
    /* no buffer for the points: HDF5's to refuse ("no output buffer") */
    if (how == 1 && !buf)
        how = 0;
    if (direct)
        *direct = how == 1;
    if (how < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTINIT, -1, "gpulz: cannot set up direct chunk I/O");
    if (how == 0)
        ret_value = through_hdf5(&P, writing, mem_type, file_space, dxpl, buf);
    else if (writing)
        ret_value = write_chunks(&M, &P, dxpl, buf);
    else
        ret_value = read_chunks(&M, &P, dxpl, buf);
done:
    /* the other ranks wait in through_hdf5's agreement for this one's answer */
    if (how < 0 && P.all_ranks == 1)
        (void)ranks_agree(&P, 0, writing);
    plan_close(&P);
    return ret_value;
}

herr_t gpulz_h5_write_direct(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, const void *buf,
                             int *direct)
{
    return host_direct(1, dset, mem_type, file_space, dxpl, (void *)buf, direct);
}

herr_t gpulz_h5_read_direct(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, void *buf, int *direct)
{
    return host_direct(0, dset, mem_type, file_space, dxpl, buf, direct);
}

/*
 * Device buffers: the chunk path on the device where the GPU can run it,
 * else the whole selection through host memory and the host call.
 */
static herr_t device_direct(int writing, hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl,
                            void *d_buf, void *cuda_stream, int *direct)
{
    herr_t ret_value = 0;
    plan P;
    uint8_t *host = NULL;
    int how = plan_make(&P, dset, mem_type, file_space, dxpl, writing);
    /* a call every rank makes owes the others an answer until through_hdf5,
     * which gives it, runs */
    int answer_owed = P.all_ranks == 1;
    if (direct)
        *direct = 0;
    if (how < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_CANTINIT, -1, "gpulz: cannot set up direct chunk I/O");
    /* the batch codec would decode into it, the staging copy read it */
    if (!d_buf && P.npoints > 0)
        PUSH_AND_GOTO(H5E_ARGS, H5E_BADVALUE, -1, "gpulz: no device buffer for %lld selected points",
                      (long long)P.npoints);
#if GPULZ_HAVE_CUDA
    mem M = {1, cuda_stream};
    if (how == 1 && gpulz_gpu_available()) {
        if (direct)
            *direct = 1;
        ret_value = writing ? write_chunks(&M, &P, dxpl, d_buf) : read_chunks(&M, &P, dxpl, d_buf);
        goto done;
    }
    size_t esize = H5Tget_size(mem_type), bytes = (size_t)P.npoints * esize;
    if (!esize)
        PUSH_AND_GOTO(H5E_DATATYPE, H5E_CANTGET, -1, "gpulz: cannot get the memory datatype's size");
    if (!(host = malloc(bytes ? bytes : 1)))
        PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, -1, "gpulz: cannot allocate %zu bytes of staging", bytes);
    /* reading too: HDF5 leaves elements it writes no fill value into (fill
     * time never, no fill value defined) as they are, and they go back */
    if (bytes && mem_get(&M, host, d_buf, bytes) < 0)
        PUSH_AND_GOTO(H5E_DATASET, writing ? H5E_WRITEERROR : H5E_READERROR, -1,
                      "gpulz: cannot fetch the device buffer");
    answer_owed = 0;
    /* a call every rank makes goes on with this plan, and agrees on its
     * communicator: host_direct would plan again, asking the file for its
     * communicator again (MPI_Comm_dup, collective), which a rank that
     * failed above never does, so that each waited for the other for ever */
    if ((P.all_ranks == 1 ? through_hdf5(&P, writing, mem_type, file_space, dxpl, host)
                          : host_direct(writing, dset, mem_type, file_space, dxpl, host, direct)) < 0)
        PUSH_AND_GOTO(H5E_DATASET, writing ? H5E_WRITEERROR : H5E_READERROR, -1,
                      "gpulz: %s through host memory failed", writing ? "writing" : "reading");
    if (!writing && bytes && mem_put(&M, d_buf, host, bytes) < 0)
        PUSH_AND_GOTO(H5E_DATASET, H5E_READERROR, -1, "gpulz: cannot fill the device buffer");
#else
    (void)dxpl, (void)d_buf, (void)cuda_stream;
    PUSH_AND_GOTO(H5E_DATASET, H5E_UNSUPPORTED, -1, "gpulz: this libh5gpulz was built without CUDA");
#endif
done:
    if (answer_owed && ret_value < 0)
        (void)ranks_agree(&P, 0, writing);
    free(host);
    plan_close(&P);
    return ret_value;
}

herr_t gpulz_h5_write_direct_device(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl,
                                    const void *d_buf, void *cuda_stream, int *direct)
{
    return device_direct(1, dset, mem_type, file_space, dxpl, (void *)d_buf, cuda_stream, direct);
}

herr_t gpulz_h5_read_direct_device(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, void *d_buf,
                                   void *cuda_stream, int *direct)
{
    return device_direct(0, dset, mem_type, file_space, dxpl, d_buf, cuda_stream, direct);
}
