/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * H5Zgpulz_plugin.c - the two entry points HDF5 looks up when it opens the
 * plugin, and hdf5plugin's init_filter() for callers that are not HDF5.  HDF5
 * opens every plugin in its search path whenever it looks for any filter, so
 * these do little: the class is constant data, and the first
 * H5PLget_plugin_info() binds the filter to the HDF5 library calling it
 * (h5_dynamic.h), which is why the module does not link libhdf5.
 *
 * Built twice where gpulz has a registered ID: libH5Zgpulz hands HDF5 the
 * filter with that ID, libH5Zgpulz_provisional (GPULZ_PLUGIN_PROVISIONAL) the
 * same filter with the provisional ID, for the files that carry it.  A module
 * answers for one ID only, because HDF5 asks each for a single class.
 */
#include <H5PLextern.h>

#include "H5Zgpulz.h"
#include "h5_dynamic.h"

#ifdef GPULZ_PLUGIN_PROVISIONAL
#if !GPULZ_HAVE_PROVISIONAL_CLASS
#error "the provisional module is built only where the provisional ID is not the one written"
#endif
#define PLUGIN_CLASS H5Z_GPULZ_PROVISIONAL
#else
#define PLUGIN_CLASS H5Z_GPULZ
#endif

H5PL_type_t H5PLget_plugin_type(void)
{
    return H5PL_TYPE_FILTER;
}

/* noinline: the return address must be the caller's, inside libhdf5 */
__attribute__((noinline)) const void *H5PLget_plugin_info(void)
{
    /* NULL makes HDF5 report that the plugin gave no filter */
    if (gpulz_h5_api_load(__builtin_return_address(0)) != 0)
        return NULL;
    return PLUGIN_CLASS;
}

/*
 * hdf5plugin's convention for a plugin loaded by a program rather than by
 * HDF5 (Python through ctypes, which then hands H5PLget_plugin_info()'s class
 * to h5py.h5z.register_filter): bind to the HDF5 that libname (a path or
 * soname for dlopen, such as h5py's h5z extension module) carries.  0 on
 * success, -1 on failure.
 */
int init_filter(const char *libname)
{
    return gpulz_h5_api_load_named(libname);
}
