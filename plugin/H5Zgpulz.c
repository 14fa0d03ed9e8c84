/*
 * H5Zgpulz.c - the gpulz HDF5 filter: can_apply, set_local and the filter
 * function.  Only parameter resolution and buffer handling live here; the
 * codec (kernels/gpulz.h) does the work and the chunk describes itself
 * (docs/FORMAT.md), so decoding never depends on cd_values.
 *
 * Machine-specific knobs come from the environment, never from cd_values
 * (they would be frozen into files): GPULZ_BACKEND, GPULZ_THREADS,
 * GPULZ_VERBOSE.  Errors go to the HDF5 error stack; nothing is printed on
 * stdout, and stderr only with GPULZ_VERBOSE set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "H5Zgpulz.h"
#include "gpulz.h"
#ifdef GPULZ_H5_DYNAMIC
#include "h5_dynamic.h" /* the plugin module: HDF5 calls through the loader's table */
#endif

/* Push a message onto HDF5's error stack, set the return value, go to done. */
#define PUSH_AND_GOTO(MAJ, MIN, RET, ...)                                                    \
    do {                                                                                     \
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, MAJ, MIN,          \
                 __VA_ARGS__);                                                               \
        ret_value = RET;                                                                     \
        goto done;                                                                           \
    } while (0)

_Static_assert(H5Z_GPULZ_CD_VERSION_CURRENT == GPULZ_FORMAT_VERSION,
               "cd_values slot 0 holds the chunk format version");

/* Room for more values than we take, to tell "too many" from "just right". */
#define CD_CAPACITY 8

/* ---- parameters ------------------------------------------------------- */

herr_t H5Z_gpulz_check_user_params(unsigned symbol_size, unsigned window, unsigned block_symbols,
                                   unsigned flags)
{
    herr_t ret_value = 0;
    unsigned S = symbol_size, C = block_symbols;
    if (S != 0 && S != 1 && S != 2 && S != 4 && S != 8)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: symbol size %u (cd_values[1]) is not 0 (from the datatype), 1, 2, 4 or 8",
                      S);
    if (window > GPULZ_WINDOW_MAX)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: window %u (cd_values[2]) is not 0 (default %d) or %d..%d symbols",
                      window, GPULZ_WINDOW_DEFAULT, GPULZ_WINDOW_MIN, GPULZ_WINDOW_MAX);
    if (C != 0 && (C < GPULZ_BLOCK_MIN || C > GPULZ_BLOCK_MAX || (C & (C - 1))))
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: block size %u (cd_values[3]) is not 0 (default %d) or a power of two "
                      "in %d..%d symbols",
                      C, GPULZ_BLOCK_DEFAULT, GPULZ_BLOCK_MIN, GPULZ_BLOCK_MAX);
    if (flags & ~(unsigned)GPULZ_FLAGS_KNOWN)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: unknown flags 0x%x in cd_values[4] (known: 0x1 adaptive)",
                      flags & ~(unsigned)GPULZ_FLAGS_KNOWN);
done:
    return ret_value;
}

/*
 * Copy up to five cd_values into cd[] (missing ones 0) and check them.  Slot
 * 0 is the chunk format version; a vector made for a newer format is refused
 * for writing (its other slots may mean something else).  Reading never
 * looks at cd_values: the chunk says what it is.
 */
static herr_t cd_values_read(size_t n, const unsigned values[], unsigned cd[H5Z_GPULZ_CD_NELMTS])
{
    herr_t ret_value = 0;
    memset(cd, 0, H5Z_GPULZ_CD_NELMTS * sizeof cd[0]);
    if (n > H5Z_GPULZ_CD_NELMTS)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: takes at most %d cd_values (version, symbol size, window, block, "
                      "flags), got %zu",
                      H5Z_GPULZ_CD_NELMTS, n);
    for (size_t i = 0; i < n; i++)
        cd[i] = values[i];
    if (cd[H5Z_GPULZ_CD_VERSION] > H5Z_GPULZ_CD_VERSION_CURRENT)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: cd_values[0] asks for chunk format version %u, newer than this "
                      "filter's %d; upgrade gpulz",
                      cd[H5Z_GPULZ_CD_VERSION], H5Z_GPULZ_CD_VERSION_CURRENT);
    if (H5Z_gpulz_check_user_params(cd[H5Z_GPULZ_CD_SYMBOL], cd[H5Z_GPULZ_CD_WINDOW],
                                    cd[H5Z_GPULZ_CD_BLOCK], cd[H5Z_GPULZ_CD_FLAGS]) < 0)
        ret_value = -1;
done:
    return ret_value;
}

/* The user's cd_values for our filter in dcpl, and its pipeline flags. */
static herr_t cd_values_from_dcpl(hid_t dcpl, unsigned *pipeline_flags,
                                  unsigned cd[H5Z_GPULZ_CD_NELMTS])
{
    herr_t ret_value = 0;
    unsigned values[CD_CAPACITY] = {0};
    size_t n = CD_CAPACITY;
    if (H5Pget_filter_by_id2(dcpl, H5Z_FILTER_GPULZ, pipeline_flags, &n, values, 0, NULL, NULL) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1,
                      "gpulz: cannot read the filter's parameters from the property list");
    ret_value = cd_values_read(n, values, cd);
done:
    return ret_value;
}

/*
 * Symbol size for a datatype: the largest of 8, 4, 2, 1 dividing the size of
 * the element, or of an array's base element.  Fixed-length strings are
 * arrays of 1-byte characters, so they get 1.
 */
static herr_t symbol_size_from_type(hid_t type, unsigned *S)
{
    herr_t ret_value = 0;
    hid_t base = H5Tcopy(type);
    if (base < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot inspect the datatype");
    while (H5Tget_class(base) == H5T_ARRAY) {
        hid_t super = H5Tget_super(base);
        H5Tclose(base);
        base = super;
        if (base < 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get an array's base type");
    }
    H5T_class_t cls = H5Tget_class(base);
    size_t size = H5Tget_size(base);
    if (cls == H5T_NO_CLASS || size == 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get the datatype's class or size");
    if (cls == H5T_STRING)
        size = 1;
    *S = size % 8 == 0 ? 8 : size % 4 == 0 ? 4 : size % 2 == 0 ? 2 : 1;
done:
    if (base >= 0)
        H5Tclose(base);
    return ret_value;
}

/* ---- HDF5 callbacks --------------------------------------------------- */

/*
 * Advisory (HDF5 ignores a 0 for an optional filter and runs the filter on
 * whatever it gets): refuse only what cannot work, saying why.  Every
 * fixed-size type works, byte for byte.
 */
static htri_t H5Z_gpulz_can_apply(hid_t dcpl, hid_t type, hid_t space)
{
    htri_t ret_value = 1;
    unsigned pipeline_flags, cd[H5Z_GPULZ_CD_NELMTS];
    (void)space;
    H5T_class_t cls = H5Tget_class(type);
    if (cls == H5T_NO_CLASS)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get the datatype's class");
    if (cls == H5T_VLEN || (cls == H5T_STRING && H5Tis_variable_str(type) > 0))
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADTYPE, 0,
                      "gpulz: variable-length data cannot be compressed (only its heap references "
                      "would be)");
    if (cd_values_from_dcpl(dcpl, &pipeline_flags, cd) < 0)
        ret_value = 0;
done:
    return ret_value;
}

/* Resolve every 0 of the user's cd_values and store the full 5-slot vector. */
static herr_t H5Z_gpulz_set_local(hid_t dcpl, hid_t type, hid_t space)
{
    herr_t ret_value = 0;
    unsigned pipeline_flags, cd[H5Z_GPULZ_CD_NELMTS];
    (void)space;
    if (cd_values_from_dcpl(dcpl, &pipeline_flags, cd) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: invalid filter parameters");
    if (cd[H5Z_GPULZ_CD_SYMBOL] == 0 && symbol_size_from_type(type, &cd[H5Z_GPULZ_CD_SYMBOL]) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: cannot derive the symbol size");
    if (cd[H5Z_GPULZ_CD_WINDOW] == 0)
        cd[H5Z_GPULZ_CD_WINDOW] = GPULZ_WINDOW_DEFAULT;
    if (cd[H5Z_GPULZ_CD_BLOCK] == 0)
        cd[H5Z_GPULZ_CD_BLOCK] = GPULZ_BLOCK_DEFAULT;
    cd[H5Z_GPULZ_CD_VERSION] = H5Z_GPULZ_CD_VERSION_CURRENT;
    if (H5Pmodify_filter(dcpl, H5Z_FILTER_GPULZ, pipeline_flags, H5Z_GPULZ_CD_NELMTS, cd) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: cannot store the filter parameters");
done:
    return ret_value;
}

/* GPULZ_BACKEND and GPULZ_THREADS into p; GPULZ_VERBOSE into *verbose. */
static herr_t environment_read(gpulz_params *p, int *verbose)
{
    herr_t ret_value = 0;
    const char *backend = getenv("GPULZ_BACKEND");
    const char *threads = getenv("GPULZ_THREADS");
    const char *verb = getenv("GPULZ_VERBOSE");
    *verbose = verb && *verb && strcmp(verb, "0") != 0;
    if (!backend || !*backend || strcmp(backend, "auto") == 0)
        p->backend = GPULZ_BACKEND_AUTO;
    else if (strcmp(backend, "cpu") == 0)
        p->backend = GPULZ_BACKEND_CPU;
    else if (strcmp(backend, "gpu") == 0)
        p->backend = GPULZ_BACKEND_GPU;
    else
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: GPULZ_BACKEND=%s is not auto, cpu or gpu", backend);
    if (threads && *threads) {
        char *end;
        unsigned long t = strtoul(threads, &end, 10);
        if (*end || threads[0] == '-' || t > GPULZ_THREADS_MAX)
            PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                          "gpulz: GPULZ_THREADS=%s is not a thread count 0..4096 (0 = all cores)",
                          threads);
        p->threads = (unsigned)t;
    }
done:
    return ret_value;
}

/* One line per chunk on stderr with GPULZ_VERBOSE: what ran where, and why. */
static void verbose_line(const char *what, size_t in, size_t out, const char *note)
{
    const char *why;
    gpulz_backend b = gpulz_last_backend(&why);
    fprintf(stderr, "gpulz: %s %zu -> %zu bytes on the %s (%s)%s\n", what, in, out,
            b == GPULZ_BACKEND_GPU ? "GPU" : "CPU", why, note ? note : "");
}

/*
 * The filter.  Returns the number of valid bytes in *buf, or 0 on failure
 * (leaving *buf and *buf_size untouched) and, for an optional filter, when
 * the chunk would not shrink so that HDF5 stores it unfiltered.  A mandatory
 * filter always writes a gpulz chunk: blocks that do not shrink are stored
 * raw inside it.
 */
static size_t H5Z_filter_gpulz(unsigned flags, size_t cd_nelmts, const unsigned cd_values[],
                               size_t nbytes, size_t *buf_size, void **buf)
{
    size_t ret_value = 0;
    void *out = NULL;
    size_t out_cap = 0, out_len = 0;
    int verbose = 0, rc;
    gpulz_params p;
    gpulz_params_init(&p);
    if (environment_read(&p, &verbose) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0, "gpulz: bad environment setting");

    if (flags & H5Z_FLAG_REVERSE) {
        /* the header and block table are checked before the size they
         * declare is trusted with an allocation */
        gpulz_chunk_info info;
        rc = gpulz_chunk_info_get(*buf, nbytes, &info);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot decompress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        uint64_t size = info.uncompressed_size;
        if (size >= SIZE_MAX)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: chunk declares %llu bytes, more than this machine can address",
                          (unsigned long long)size);
        out_cap = size ? (size_t)size : 1;
        if (!(out = H5allocate_memory(out_cap, 0)))
            PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, 0,
                          "gpulz: cannot allocate %zu bytes for a decompressed chunk", out_cap);
        rc = gpulz_decompress(*buf, nbytes, out, out_cap, &out_len, &p);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot decompress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        if (verbose)
            verbose_line("decompressed", nbytes, out_len, NULL);
    } else {
        unsigned cd[H5Z_GPULZ_CD_NELMTS];
        if (cd_values_read(cd_nelmts, cd_values, cd) < 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0, "gpulz: invalid filter parameters");
        /* 0s remain only where set_local never ran (h5py's optional filter on
         * variable-length data): the defaults, symbol size 1 */
        p.symbol_size = cd[H5Z_GPULZ_CD_SYMBOL] ? cd[H5Z_GPULZ_CD_SYMBOL] : 1;
        p.window = cd[H5Z_GPULZ_CD_WINDOW] ? cd[H5Z_GPULZ_CD_WINDOW] : GPULZ_WINDOW_DEFAULT;
        p.block_symbols = cd[H5Z_GPULZ_CD_BLOCK] ? cd[H5Z_GPULZ_CD_BLOCK] : GPULZ_BLOCK_DEFAULT;
        p.flags = cd[H5Z_GPULZ_CD_FLAGS];
        out_cap = gpulz_compress_bound(nbytes, &p);
        if (out_cap == 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot compress a %zu-byte chunk: %s", nbytes,
                          gpulz_last_error());
        if (!(out = H5allocate_memory(out_cap, 0)))
            PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, 0,
                          "gpulz: cannot allocate %zu bytes for a compressed chunk", out_cap);
        rc = gpulz_compress(*buf, nbytes, out, out_cap, &out_len, &p);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot compress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        if ((flags & H5Z_FLAG_OPTIONAL) && out_len >= nbytes) {
            /* not a failure: HDF5 stores the chunk as it is and marks it in
             * the chunk's filter mask */
            if (verbose)
                verbose_line("compressed", nbytes, out_len, ", no gain: stored unfiltered");
            goto done;
        }
        if (verbose)
            verbose_line("compressed", nbytes, out_len, NULL);
    }
    H5free_memory(*buf);
    *buf = out;
    *buf_size = out_cap;
    out = NULL;
    ret_value = out_len;
done:
    if (out)
        H5free_memory(out);
    return ret_value;
}

const H5Z_class2_t H5Z_GPULZ[1] = {{
    H5Z_CLASS_T_VERS,
    (H5Z_filter_t)H5Z_FILTER_GPULZ,
    1, /* encoder present */
    1, /* decoder present */
    H5Z_GPULZ_NAME,
    H5Z_gpulz_can_apply,
    H5Z_gpulz_set_local,
    H5Z_filter_gpulz,
}};
