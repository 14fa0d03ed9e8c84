/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * H5Zgpulz.h - the filter core shared by the plugin modules (libH5Zgpulz,
 * libH5Zgpulz_provisional) and the linkable library (libh5gpulz).  Internal.
 */
#ifndef H5ZGPULZ_H
#define H5ZGPULZ_H

#include <hdf5.h>

#include "gpulz.h"
#include "gpulz_h5filter.h"

/* Push a message onto HDF5's error stack, set the return value, go to done:
 * the one error macro of the filter core and of direct chunk I/O (a
 * function using it has ret_value and a done label). */
#define PUSH_AND_GOTO(MAJ, MIN, RET, ...)                                                    \
    do {                                                                                     \
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, MAJ, MIN,          \
                 __VA_ARGS__);                                                               \
        ret_value = RET;                                                                     \
        goto done;                                                                           \
    } while (0)

/*
 * The IDs the core answers for come from gpulz_cd.h, except in the build that
 * h5tests/plugin.inc makes to test the move to a registered ID before one
 * exists: there GPULZ_TEST_FILTER_ID stands in for it.
 */
#ifdef GPULZ_TEST_FILTER_ID
#define GPULZ_ID GPULZ_TEST_FILTER_ID
#define GPULZ_NAME H5Z_GPULZ_NAME_REGISTERED
#else
#define GPULZ_ID H5Z_FILTER_GPULZ
#define GPULZ_NAME H5Z_GPULZ_NAME
#endif

/* Whether the provisional ID is another than the one written, and so needs a
 * filter class of its own. */
#define GPULZ_HAVE_PROVISIONAL_CLASS (GPULZ_ID != H5Z_FILTER_GPULZ_PROVISIONAL)

/* The filter class of GPULZ_ID; the plugin hands it to HDF5, gpulz_h5_register()
 * registers it. */
extern const H5Z_class2_t H5Z_GPULZ[1];

#if GPULZ_HAVE_PROVISIONAL_CLASS
/* The same filter answering for H5Z_FILTER_GPULZ_PROVISIONAL: what
 * libH5Zgpulz_provisional hands HDF5, and what gpulz_h5_register() registers
 * beside H5Z_GPULZ. */
extern const H5Z_class2_t H5Z_GPULZ_PROVISIONAL[1];
#endif

/*
 * The encoder's settings of a dataset from its stored cd_values, as the
 * filter resolves them for every chunk it compresses: symbol size, window,
 * block size, flags and mode into *p (backend and threads untouched).
 * Direct chunk I/O (gpulz_h5direct.c) calls it so that chunks it compresses
 * are the filter's bytes.  Returns 0, or -1 with the reason pushed.
 */
herr_t H5Z_gpulz_encoder_params(size_t cd_nelmts, const unsigned cd_values[], gpulz_params *p);

/*
 * gpulz_params_init() with what the filter takes from the environment
 * (GPULZ_BACKEND, GPULZ_THREADS), checked as the filter checks them.
 * Returns 0, or -1 with the reason pushed.
 */
herr_t H5Z_gpulz_environment_params(gpulz_params *p);

/*
 * Check user-level parameters (0 = default, as in cd_values; mode a gpulz_mode, 0 = lz) and
 * push the reason onto the HDF5 error stack when one is out of range.  Returns 0 or -1.
 */
herr_t H5Z_gpulz_check_user_params(unsigned symbol_size, unsigned window, unsigned block_symbols,
                                   unsigned flags, unsigned mode);

#endif
