/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * H5Zgpulz.h - the filter core shared by the plugin module (libH5Zgpulz) and
 * the linkable library (libh5gpulz).  Internal.
 */
#ifndef H5ZGPULZ_H
#define H5ZGPULZ_H

#include <hdf5.h>

#include "gpulz_h5filter.h"

/* The filter class; the plugin hands it to HDF5, gpulz_h5_register() registers it. */
extern const H5Z_class2_t H5Z_GPULZ[1];

/*
 * Check user-level parameters (0 = default, as in cd_values; mode 0 = lz) and push the
 * reason onto the HDF5 error stack when one is out of range.  Returns 0 or -1.
 */
herr_t H5Z_gpulz_check_user_params(unsigned symbol_size, unsigned window, unsigned block_symbols,
                                   unsigned flags, unsigned mode);

#endif
