/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_h5filter.h - the gpulz HDF5 filter for programs that link libh5gpulz:
 * helpers that add the filter to a dataset creation property list, and a
 * register function for programs that link the filter instead of loading the
 * plugin.  The filter's contract (its ID, its name, the meaning of its
 * cd_values, the flags of gpulz_h5_set_dcpl()) is gpulz_cd.h, which needs no
 * HDF5 and is included here.
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
 * property list dcpl.
 * symbol_size, window, block_symbols: 0 for the defaults (symbol size from
 * the datatype, window 128, block 2048).  flags: GPULZ_H5_ADAPTIVE and/or
 * GPULZ_H5_OPTIONAL (GPULZ_H5_NO_CHECKSUM is taken and means nothing for
 * mode lz, whose chunks never carry a checksum).  The filter itself comes from the plugin (HDF5_PLUGIN_PATH)
 * or from gpulz_h5_register().  Returns a negative value, with the reason on
 * the HDF5 error stack, when a parameter is out of range.
 */
herr_t gpulz_h5_set_dcpl(hid_t dcpl, unsigned symbol_size, unsigned window,
                         unsigned block_symbols, unsigned flags);

/*
 * gpulz_h5_set_dcpl() with the encoder's mode: H5Z_GPULZ_CD_MODE_LZ (what
 * gpulz_h5_set_dcpl() writes: chunk format 1, gpulz 0.1's bytes),
 * H5Z_GPULZ_CD_MODE_FAST, _RATIO or _AUTO (chunk format 2; docs/FORMAT.md
 * section 19).  Every mode runs on the GPU and the CPU, with the same bytes.  flags may also hold
 * GPULZ_H5_NO_CHECKSUM: format 2 chunks without their checksum.  Readers
 * need a gpulz that knows format 2 for the modes other than lz.
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

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_H5FILTER_H */
