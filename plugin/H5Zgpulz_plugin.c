/*
 * H5Zgpulz_plugin.c - the two entry points HDF5 looks up when it opens the
 * plugin.  HDF5 opens every plugin in its search path whenever it looks for
 * any filter, so these do no work: the class is constant data.
 */
#include <H5PLextern.h>

#include "H5Zgpulz.h"

H5PL_type_t H5PLget_plugin_type(void)
{
    return H5PL_TYPE_FILTER;
}

const void *H5PLget_plugin_info(void)
{
    return H5Z_GPULZ;
}
