/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_h5filter.h - the gpulz HDF5 filter for programs that link libh5gpulz:
 * helpers that add the filter to a dataset creation property list, a
 * register function for programs that link the filter instead of loading the
 * plugin, and direct chunk I/O with the batched codec.  The filter's
 * contract (its ID, its name, the meaning of its cd_values, the flags of
 * gpulz_h5_set_dcpl()) is gpulz_cd.h, which needs no HDF5 and is included
 * here.
 */
#ifndef GPULZ_H5FILTER_H
#define GPULZ_H5FILTER_H

#include <hdf5.h>

#include "gpulz_cd.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Add the gpulz filter, H5Z_FILTER_GPULZ, to the chunked dataset creation
 * property list dcpl, in the default mode (H5Z_GPULZ_CD_MODE_DEFAULT: auto,
 * chunk format 2, which readers need a gpulz newer than 0.1 for; before
 * that default it was lz, which gpulz_h5_set_dcpl_mode() still writes).
 * symbol_size, window, block_symbols: 0 for the defaults (symbol size from
 * the datatype, window 128, block 2048).  flags: GPULZ_H5_ADAPTIVE,
 * GPULZ_H5_NO_CHECKSUM and/or GPULZ_H5_OPTIONAL.  The filter itself comes
 * from the plugin (HDF5_PLUGIN_PATH) or from gpulz_h5_register().  Returns a
 * negative value, with the reason on the HDF5 error stack, when a parameter
 * is out of range.
 */
herr_t gpulz_h5_set_dcpl(hid_t dcpl, unsigned symbol_size, unsigned window,
                         unsigned block_symbols, unsigned flags);

/*
 * gpulz_h5_set_dcpl() with the encoder's mode: H5Z_GPULZ_CD_MODE_LZ (chunk
 * format 1, gpulz 0.1's bytes, which every gpulz reads; stored as 0.1's five
 * values), H5Z_GPULZ_CD_MODE_FAST, _RATIO or _AUTO (chunk format 2;
 * docs/FORMAT.md section 19).  Every mode runs on the GPU and the CPU, with
 * the same bytes.  GPULZ_H5_NO_CHECKSUM means format 2 chunks without their
 * checksum, and nothing for lz, whose chunks never carry one.  Readers need
 * a gpulz that knows format 2 for the modes other than lz.
 */
herr_t gpulz_h5_set_dcpl_mode(hid_t dcpl, unsigned symbol_size, unsigned window,
                              unsigned block_symbols, unsigned flags, unsigned mode);

/*
 * Register the filter linked into this program with HDF5, so that no plugin
 * needs to be found: for H5Z_FILTER_GPULZ and, where that is a registered ID,
 * also for H5Z_FILTER_GPULZ_PROVISIONAL, which older files carry.  Call it
 * once after HDF5 is initialised (any H5 call, or H5open()); calling it again
 * is harmless.  Returns a negative value on failure.
 */
herr_t gpulz_h5_register(void);

/*
 * Direct chunk I/O: a dataset whose filter pipeline is gpulz alone, written
 * and read a batch of whole chunks at a time (the codec's batched API of
 * gpulz.h, then H5Dwrite_chunk or H5Dread_chunk), not a chunk at a time
 * through HDF5's pipeline.  The files are ordinary: the stored chunks are
 * the bytes the filter would have stored (settings from the dataset's
 * stored cd_values, resolved by the filter's own code; edge chunks
 * compressed at full chunk size, padded with the fill value as HDF5 pads
 * them; filter mask 0, or bit 0 set for an optional filter's chunk that did
 * not shrink, as HDF5 stores those), so any reader with the filter, on the
 * CPU too, reads them through H5Dread, and these calls read any file the
 * filter wrote.
 *
 * buf holds the selected elements of file_space in row-major order of the
 * selection, packed (as H5Dwrite/H5Dread with a memory dataspace of as many
 * elements); file_space may be H5S_ALL (the whole dataset, buf then in its
 * shape).  dxpl goes to every HDF5 call (H5P_DEFAULT for none).  The call
 * returns when buf may be reused (written) or holds the data (read); the
 * caller keeps ownership of every buffer and identifier.
 *
 * The chunk path is taken when the selection is one box (H5S_ALL, or one
 * hyperslab block; not points) inside the dataset whose every side starts on
 * a chunk border and ends on one or at the dataset's extent, file_space has the dataset's
 * current extent, mem_type equals the dataset's datatype (H5Tequal: no
 * conversion) and holds no variable-length data or reference at any depth,
 * dxpl sets no data transform (H5Pset_data_transform), the layout is chunked,
 * the pipeline holds the gpulz filter alone, the dataset does not set
 * H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS, writing, the file is open for
 * writing (H5Dwrite refuses a read-only one) and not open
 * with MPI-IO (H5Dwrite_chunk on one rank breaks parallel HDF5's metadata:
 * write a file per rank, or see docs/usage.md section 9), and, reading, the
 * transfer is not collective in such a file (H5Dread_chunk cannot take
 * one), the fill value is defined and the chunk index is not an extensible array
 * whose unlimited dimension is other than the first (HDF5's
 * H5Dget_chunk_info_by_coord misreports those chunks).  Reading a dataset whose fill value is never
 * written (H5D_FILL_TIME_NEVER) leaves the buffer as it is where no chunk is
 * allocated, as HDF5 does.  Otherwise the
 * same call is made through H5Dwrite/H5Dread (with an MPI-IO file, as
 * collectively as dxpl says, and then by a rank that selects nothing too),
 * correctly and at HDF5's speed.  *direct (may
 * be NULL) receives 1 when the chunk path was taken, else 0.  The host
 * calls spread the codec's batches over the GPUs a GPULZ_DEVICE list names.
 *
 * Writing replaces each chunk of the box whole: elements of an edge chunk
 * beyond the dataset's extent become the fill value.  The codec runs where
 * the filter would (GPULZ_BACKEND, GPULZ_THREADS), on the whole batch at
 * once: over every core on the CPU, or through the GPU's copy engines and
 * SMs at once (gpulz.h, gpulz_compress_batch); batches are pipelined, the
 * codec running on a thread of the call (no HDF5 call there) while HDF5
 * stores or reads the batch before on the calling thread.  Reading gives unallocated
 * chunks the fill value (zeros without one) and copies unfiltered chunks
 * (filter mask bit 0) as stored; a chunk that cannot be decoded, or
 * declares another size than the dataset's chunks, fails the call.
 * Failures return a negative value with the reason on the HDF5 error
 * stack; chunks written before a failure stay written.
 */
herr_t gpulz_h5_write_direct(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, const void *buf,
                             int *direct);
herr_t gpulz_h5_read_direct(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, void *buf,
                            int *direct);

/*
 * The same with d_buf in device memory (cudaMalloc), the GPU's work queued
 * on cuda_stream (a cudaStream_t of d_buf's device; NULL: CUDA's default
 * stream, after the caller's work there).  Chunks are gathered from and
 * placed into d_buf on the device with strided copies, compressed and
 * decompressed there in batches (gpulz_compress_batch with
 * GPULZ_MEMORY_DEVICE); only the compressed chunks cross PCIe.  Where the
 * chunk path is not taken, or cannot run on the GPU (no usable GPU), the
 * selection is moved through host memory
 * and the host call above does the rest.  The call returns with the stream's
 * work for it done.  A libh5gpulz built without CUDA fails these calls.
 */
herr_t gpulz_h5_write_direct_device(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl,
                                    const void *d_buf, void *cuda_stream, int *direct);
herr_t gpulz_h5_read_direct_device(hid_t dset, hid_t mem_type, hid_t file_space, hid_t dxpl, void *d_buf,
                                   void *cuda_stream, int *direct);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_H5FILTER_H */
