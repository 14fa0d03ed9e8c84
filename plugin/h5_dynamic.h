/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_dynamic.h - the HDF5 functions and error classes the filter uses, taken
 * at run time from the HDF5 library that loads the plugin.  One plugin file
 * then serves whichever libhdf5 the program runs: the system's, or the copy
 * inside a pip wheel of h5py, which a plugin linked to the system library
 * cannot use (its IDs mean nothing to another library).  HDF5 1.10 and later
 * share what the filter relies on: 64-bit hid_t, H5Z_class2_t and these
 * functions' signatures.
 *
 * H5Zgpulz.c includes this after hdf5.h when built for the plugin module
 * (GPULZ_H5_DYNAMIC); the macros below then send each call through the
 * table.  libh5gpulz, which programs link with their HDF5, calls HDF5
 * directly.
 */
#ifndef H5_DYNAMIC_H
#define H5_DYNAMIC_H

#include <hdf5.h>

typedef struct gpulz_h5_api {
    __typeof__(H5open) *open;
    __typeof__(H5Epush2) *Epush2;
    __typeof__(H5Pget_chunk) *Pget_chunk;
    __typeof__(H5Pget_filter_by_id2) *Pget_filter_by_id2;
    __typeof__(H5Pget_filter2) *Pget_filter2;
    __typeof__(H5Pget_nfilters) *Pget_nfilters;
    __typeof__(H5Pmodify_filter) *Pmodify_filter;
    __typeof__(H5Tclose) *Tclose;
    __typeof__(H5Tcopy) *Tcopy;
    __typeof__(H5Tget_class) *Tget_class;
    __typeof__(H5Tget_size) *Tget_size;
    __typeof__(H5Tget_super) *Tget_super;
    __typeof__(H5Tis_variable_str) *Tis_variable_str;
    __typeof__(H5allocate_memory) *allocate_memory;
    __typeof__(H5free_memory) *free_memory;
    /* the library's error class and the major and minor errors pushed */
    hid_t *ERR_CLS, *PLINE, *RESOURCE, *BADTYPE, *BADVALUE, *CANTFILTER, *CANTGET, *NOSPACE, *SETLOCAL;
} gpulz_h5_api;

extern gpulz_h5_api gpulz_h5;

/*
 * Fill gpulz_h5 from the HDF5 library that contains the code at caller (the
 * return address of H5PLget_plugin_info), else from the program's global
 * symbols.  0 on success, -1 if no HDF5 1.10 or later with every function
 * and error class is found that way (H5PLget_plugin_info then gives no
 * filter).  A success holds for the life of the process; a failure is not
 * kept, so a caller outside HDF5 (Python's ctypes) that asks first does not
 * spoil the binding for HDF5 itself, or for gpulz_h5_api_load_named().
 */
int gpulz_h5_api_load(const void *caller);

/*
 * Bind to the HDF5 library named libname, a path or soname given to dlopen()
 * (hdf5plugin's init_filter convention: Python passes h5py's h5z extension,
 * which pulls in h5py's libhdf5).  0 on success or when already bound to the
 * same library; -1 if it cannot be loaded, is not HDF5 1.10 or later, or the
 * plugin is already bound to another HDF5.
 */
int gpulz_h5_api_load_named(const char *libname);

#ifdef GPULZ_H5_DYNAMIC
#define H5open (*gpulz_h5.open)
#define H5Epush2 (*gpulz_h5.Epush2)
#define H5Pget_chunk (*gpulz_h5.Pget_chunk)
#define H5Pget_filter_by_id2 (*gpulz_h5.Pget_filter_by_id2)
#define H5Pget_filter2 (*gpulz_h5.Pget_filter2)
#define H5Pget_nfilters (*gpulz_h5.Pget_nfilters)
#define H5Pmodify_filter (*gpulz_h5.Pmodify_filter)
#define H5Tclose (*gpulz_h5.Tclose)
#define H5Tcopy (*gpulz_h5.Tcopy)
#define H5Tget_class (*gpulz_h5.Tget_class)
#define H5Tget_size (*gpulz_h5.Tget_size)
#define H5Tget_super (*gpulz_h5.Tget_super)
#define H5Tis_variable_str (*gpulz_h5.Tis_variable_str)
#define H5allocate_memory (*gpulz_h5.allocate_memory)
#define H5free_memory (*gpulz_h5.free_memory)
/* H5E_PLINE is (H5OPEN H5E_PLINE_g): the globals become the table's */
#define H5E_ERR_CLS_g (*gpulz_h5.ERR_CLS)
#define H5E_PLINE_g (*gpulz_h5.PLINE)
#define H5E_RESOURCE_g (*gpulz_h5.RESOURCE)
#define H5E_BADTYPE_g (*gpulz_h5.BADTYPE)
#define H5E_BADVALUE_g (*gpulz_h5.BADVALUE)
#define H5E_CANTFILTER_g (*gpulz_h5.CANTFILTER)
#define H5E_CANTGET_g (*gpulz_h5.CANTGET)
#define H5E_NOSPACE_g (*gpulz_h5.NOSPACE)
#define H5E_SETLOCAL_g (*gpulz_h5.SETLOCAL)
#endif

#endif
