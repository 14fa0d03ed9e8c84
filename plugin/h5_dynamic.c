/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_dynamic.c - binds the plugin to the HDF5 library that loaded it (see
 * h5_dynamic.h): the library is found from an address inside it (dladdr),
 * reopened without loading anything (RTLD_NOLOAD) and asked for each symbol.
 */

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "h5_dynamic.h"

gpulz_h5_api gpulz_h5;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int bound; /* gpulz_h5 is filled; never undone (HDF5 may be using it) */

/* The handle of the library holding caller, else of the program's globals. */
static void *library_of(const void *caller)
{
    Dl_info info;
    void *lib = NULL;
    if (caller && dladdr(caller, &info) && info.dli_fname && *info.dli_fname)
        lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (lib && !dlsym(lib, "H5open")) {
        dlclose(lib);
        lib = NULL;
    }
    if (!lib) /* HDF5 linked into the program itself */
        lib = dlopen(NULL, RTLD_LAZY);
    return lib;
}

static int bind_all(void *lib)
{
    static const struct {
        const char *name;
        size_t offset;
    } table[] = {
        {"H5open", offsetof(gpulz_h5_api, open)},
        {"H5Epush2", offsetof(gpulz_h5_api, Epush2)},
        {"H5Pget_chunk", offsetof(gpulz_h5_api, Pget_chunk)},
        {"H5Pget_filter_by_id2", offsetof(gpulz_h5_api, Pget_filter_by_id2)},
        {"H5Pget_filter2", offsetof(gpulz_h5_api, Pget_filter2)},
        {"H5Pget_nfilters", offsetof(gpulz_h5_api, Pget_nfilters)},
        {"H5Pmodify_filter", offsetof(gpulz_h5_api, Pmodify_filter)},
        {"H5Tclose", offsetof(gpulz_h5_api, Tclose)},
        {"H5Tcopy", offsetof(gpulz_h5_api, Tcopy)},
        {"H5Tget_class", offsetof(gpulz_h5_api, Tget_class)},
        {"H5Tget_size", offsetof(gpulz_h5_api, Tget_size)},
        {"H5Tget_super", offsetof(gpulz_h5_api, Tget_super)},
        {"H5Tis_variable_str", offsetof(gpulz_h5_api, Tis_variable_str)},
        {"H5allocate_memory", offsetof(gpulz_h5_api, allocate_memory)},
        {"H5free_memory", offsetof(gpulz_h5_api, free_memory)},
        {"H5E_ERR_CLS_g", offsetof(gpulz_h5_api, ERR_CLS)},
        {"H5E_PLINE_g", offsetof(gpulz_h5_api, PLINE)},
        {"H5E_RESOURCE_g", offsetof(gpulz_h5_api, RESOURCE)},
        {"H5E_BADTYPE_g", offsetof(gpulz_h5_api, BADTYPE)},
        {"H5E_BADVALUE_g", offsetof(gpulz_h5_api, BADVALUE)},
        {"H5E_CANTFILTER_g", offsetof(gpulz_h5_api, CANTFILTER)},
        {"H5E_CANTGET_g", offsetof(gpulz_h5_api, CANTGET)},
        {"H5E_NOSPACE_g", offsetof(gpulz_h5_api, NOSPACE)},
        {"H5E_SETLOCAL_g", offsetof(gpulz_h5_api, SETLOCAL)},
    };
    /* 1.8 and older pass 32-bit hid_t to the callbacks: not this filter's ABI */
    __typeof__(H5get_libversion) *libversion = (__typeof__(H5get_libversion) *)dlsym(lib, "H5get_libversion");
    unsigned major = 0, minor = 0, release = 0;
    if (!libversion || libversion(&major, &minor, &release) < 0 || (major == 1 && minor < 10) || major < 1)
        return -1;
    gpulz_h5_api api;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        void *sym = dlsym(lib, table[i].name);
        if (!sym)
            return -1;
        /* every field is a pointer (to a function or a global) */
        *(void **)((char *)&api + table[i].offset) = sym;
    }
    gpulz_h5 = api;
    return 0;
}

int gpulz_h5_api_load(const void *caller)
{
    int rc = 0;
    pthread_mutex_lock(&load_lock);
    if (!bound) {
        /* a failure is tried again next time: the first caller may not be
         * HDF5 (ctypes asking before init_filter) */
        void *lib = library_of(caller);
        bound = lib && bind_all(lib) == 0;
        rc = bound ? 0 : -1;
        /* kept open only where the table points into it; the handle is one
         * more reference to a library loaded already (RTLD_NOLOAD, or the
         * program), so closing it unloads nothing */
        if (lib && !bound)
            dlclose(lib);
    } else {
        /* A second HDF5 in the process (two wheels' copies, say) would have
         * the filter call into the first with its own identifiers: it gets
         * no filter.  A caller that is no HDF5 (ctypes) is let through. */
        void *lib = library_of(caller);
        void *open = lib ? dlsym(lib, "H5open") : NULL;
        if (open && open != (void *)gpulz_h5.open)
            rc = -1;
        if (lib)
            dlclose(lib);
    }
    pthread_mutex_unlock(&load_lock);
    return rc;
}

int gpulz_h5_api_load_named(const char *libname)
{
    int rc = -1;
    if (!libname || !*libname)
        return -1;
    pthread_mutex_lock(&load_lock);
    /* kept open for good: the table points into it */
    void *lib = dlopen(libname, RTLD_LAZY | RTLD_LOCAL);
    if (lib) {
        if (bound)
            rc = dlsym(lib, "H5open") == (void *)gpulz_h5.open ? 0 : -1;
        else if (bind_all(lib) == 0)
            bound = 1, rc = 0;
    }
    pthread_mutex_unlock(&load_lock);
    return rc;
}
