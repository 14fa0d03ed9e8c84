/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * H5Zgpulz.c - the gpulz HDF5 filter: can_apply, set_local and the filter
 * function.  Only parameter resolution and buffer handling live here; the
 * codec (kernels/gpulz.h) does the work and the chunk describes itself
 * (docs/FORMAT.md), so decoding never depends on cd_values.
 *
 * The one thing decoding takes from cd_values is the dataset's chunk size
 * (slot H5Z_GPULZ_CD_CHUNK_BYTES, written by set_local; with Fletcher-32
 * before gpulz 4 bytes more, and 0 behind a filter that changes the size):
 * HDF5 pads or cuts whatever a filter returns to that size, so a chunk
 * declaring another size is refused before anything is allocated for it.
 *
 * Machine-specific knobs come from the environment, never from cd_values
 * (they would be frozen into files): GPULZ_BACKEND, GPULZ_THREADS,
 * GPULZ_VERBOSE, GPULZ_LEGACY_CHUNK_MAX.  A bad value fails can_apply, so
 * that it stops H5Dcreate even where the filter is optional (whose failures
 * HDF5 would otherwise answer by storing chunks raw, without a word).
 * Errors go to the HDF5 error stack; nothing is printed on stdout, and
 * stderr only with GPULZ_VERBOSE set.
 *
 * One filter answers for up to two IDs (H5Zgpulz.h): the one new datasets
 * get and, once gpulz has a registered ID, the provisional one that older
 * files carry.  can_apply and set_local find their cd_values in the dcpl by
 * ID, so each class has its own two-line callbacks around the shared ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "H5Zgpulz.h"
#include "gpulz.h"
#include "gpulz_env.h"
#ifdef GPULZ_H5_DYNAMIC
#include "h5_dynamic.h" /* the plugin module: HDF5 calls through the loader's table */
#endif

/* gpulz_cd.h includes neither HDF5 nor gpulz.h, so what its contract shares
 * with the codec is tied here, where both are seen. */
_Static_assert(H5Z_GPULZ_CD_VERSION_CURRENT == GPULZ_FORMAT_VERSION &&
                   H5Z_GPULZ_CD_VERSION_LZ == GPULZ_FORMAT_VERSION_LZ,
               "cd_values slot 0 holds the chunk format version");
_Static_assert(GPULZ_H5_ADAPTIVE == GPULZ_FLAG_ADAPTIVE,
               "the adaptive flag is the same bit in cd_values and in gpulz_params.flags");
_Static_assert(GPULZ_H5_NO_CHECKSUM == GPULZ_FLAG_NO_CHECKSUM,
               "the no-checksum flag is the same bit in cd_values and in gpulz_params.flags");
_Static_assert(H5Z_GPULZ_CD_FLAGS_KNOWN == GPULZ_FLAGS_KNOWN,
               "cd_values slot 4 holds exactly the codec's flags");
_Static_assert(H5Z_GPULZ_CD_MODE_LZ == GPULZ_MODE_LZ && H5Z_GPULZ_CD_MODE_FAST == GPULZ_MODE_FAST &&
                   H5Z_GPULZ_CD_MODE_RATIO == GPULZ_MODE_RATIO &&
                   H5Z_GPULZ_CD_MODE_AUTO == GPULZ_MODE_AUTO &&
                   H5Z_GPULZ_CD_MODE_MAX == GPULZ_MODE_COUNT - 1,
               "cd_values slot 6 holds the codec's mode");
_Static_assert(H5Z_GPULZ_CD_MODE_DEFAULT == GPULZ_MODE_DEFAULT &&
                   H5Z_GPULZ_CD_MODE_DEFAULT != H5Z_GPULZ_CD_MODE_LZ,
               "the filter's default is the codec's, and a vector's 0s cannot ask for lz and the "
               "default at once");
_Static_assert((GPULZ_H5_FLAGS_KNOWN & ~GPULZ_H5_OPTIONAL) == H5Z_GPULZ_CD_FLAGS_KNOWN &&
                   !(GPULZ_H5_OPTIONAL & H5Z_GPULZ_CD_FLAGS_KNOWN),
               "GPULZ_H5_OPTIONAL is the one flag of gpulz_h5_set_dcpl() not stored");
#ifdef GPULZ_TEST_FILTER_ID
_Static_assert(GPULZ_TEST_FILTER_ID >= 32768 && GPULZ_TEST_FILTER_ID <= 65535 &&
                   GPULZ_TEST_FILTER_ID != H5Z_FILTER_GPULZ_PROVISIONAL,
               "the test's stand-in for a registered ID is an untracked one, not the provisional");
#endif
_Static_assert(H5Z_GPULZ_CD_CHUNK_BYTES == H5Z_GPULZ_CD_NELMTS &&
                   H5Z_GPULZ_CD_MODE == H5Z_GPULZ_CD_CHUNK_BYTES + 1 &&
                   H5Z_GPULZ_CD_NELMTS_STORED == H5Z_GPULZ_CD_MODE + 1,
               "set_local stores the user's slots, the chunk size, then the mode");

/* Room for more values than we take, to tell "too many" from "just right". */
#define CD_CAPACITY 8

/* HDF5 refuses chunks of 4 GiB or more; the chunk size slot is 32 bits. */
#define CHUNK_BYTES_MAX 0xffffffffu

/* ---- parameters ------------------------------------------------------- */

herr_t H5Z_gpulz_check_user_params(unsigned symbol_size, unsigned window, unsigned block_symbols,
                                   unsigned flags, unsigned mode)
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
    if (flags & ~(unsigned)H5Z_GPULZ_CD_FLAGS_KNOWN)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: unknown flags 0x%x in cd_values[4] (known: 0x1 adaptive, 0x2 no "
                      "checksum)",
                      flags & ~(unsigned)H5Z_GPULZ_CD_FLAGS_KNOWN);
    if (mode > H5Z_GPULZ_CD_MODE_MAX)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: mode %u (cd_values[6]) is not 0 (lz where cd_values[0] is 1, else "
                      "the default, auto), 1 (fast), 2 (ratio) or 3 (auto)",
                      mode);
done:
    return ret_value;
}

/*
 * Copy up to seven cd_values into cd[] (missing ones 0), resolve the mode
 * into slot 6 (H5Z_gpulz_cd_mode(): a stored lz vector stays lz, one that
 * names no mode gets the default) and check them.  Slot 0 is the chunk
 * format version; a vector made for a newer format is refused for writing
 * (its other slots may mean something else).  Reading takes only the chunk
 * size from cd_values (chunk_bytes_stored): the chunk says the rest.
 */
static herr_t cd_values_read(size_t n, const unsigned values[],
                             unsigned cd[H5Z_GPULZ_CD_NELMTS_STORED])
{
    herr_t ret_value = 0;
    memset(cd, 0, H5Z_GPULZ_CD_NELMTS_STORED * sizeof cd[0]);
    if (n > H5Z_GPULZ_CD_NELMTS_STORED)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: takes at most %d cd_values (version, symbol size, window, block, "
                      "flags, the chunk size that set_local writes, and the mode), got %zu",
                      H5Z_GPULZ_CD_NELMTS_STORED, n);
    for (size_t i = 0; i < n; i++)
        cd[i] = values[i];
    if (cd[H5Z_GPULZ_CD_VERSION] > H5Z_GPULZ_CD_VERSION_CURRENT)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: cd_values[0] asks for chunk format version %u, newer than this "
                      "filter's %d; upgrade gpulz",
                      cd[H5Z_GPULZ_CD_VERSION], H5Z_GPULZ_CD_VERSION_CURRENT);
    cd[H5Z_GPULZ_CD_MODE] = H5Z_gpulz_cd_mode(n, values);
    if (H5Z_gpulz_check_user_params(cd[H5Z_GPULZ_CD_SYMBOL], cd[H5Z_GPULZ_CD_WINDOW],
                                    cd[H5Z_GPULZ_CD_BLOCK], cd[H5Z_GPULZ_CD_FLAGS],
                                    cd[H5Z_GPULZ_CD_MODE]) < 0)
        ret_value = -1;
done:
    return ret_value;
}

herr_t H5Z_gpulz_encoder_params(size_t cd_nelmts, const unsigned cd_values[], gpulz_params *p)
{
    herr_t ret_value = 0;
    unsigned cd[H5Z_GPULZ_CD_NELMTS_STORED];
    if (cd_values_read(cd_nelmts, cd_values, cd) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: invalid filter parameters");
    /* 0s remain only where set_local never ran (h5py's optional filter on
     * variable-length data): the defaults, symbol size 1 */
    p->symbol_size = cd[H5Z_GPULZ_CD_SYMBOL] ? cd[H5Z_GPULZ_CD_SYMBOL] : 1;
    p->window = cd[H5Z_GPULZ_CD_WINDOW] ? cd[H5Z_GPULZ_CD_WINDOW] : GPULZ_WINDOW_DEFAULT;
    p->block_symbols = cd[H5Z_GPULZ_CD_BLOCK] ? cd[H5Z_GPULZ_CD_BLOCK] : GPULZ_BLOCK_DEFAULT;
    p->flags = cd[H5Z_GPULZ_CD_FLAGS];
    p->mode = (gpulz_mode)cd[H5Z_GPULZ_CD_MODE];
done:
    return ret_value;
}

/* The user's cd_values for filter id in dcpl, and its pipeline flags. */
static herr_t cd_values_from_dcpl(H5Z_filter_t id, hid_t dcpl, unsigned *pipeline_flags,
                                  unsigned cd[H5Z_GPULZ_CD_NELMTS_STORED])
{
    herr_t ret_value = 0;
    unsigned values[CD_CAPACITY] = {0};
    size_t n = CD_CAPACITY;
    if (H5Pget_filter_by_id2(dcpl, id, pipeline_flags, &n, values, 0, NULL, NULL) < 0)
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
    const H5T_class_t cls = H5Tget_class(base);
    size_t size = H5Tget_size(base);
    /* closed before any reason is pushed: a close clears HDF5's error stack */
    H5Tclose(base);
    base = -1;
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

/*
 * The dataset's chunk size in bytes: what HDF5 hands the filter to compress
 * and expects back from decompression (edge chunks are full chunks; partial
 * ones that HDF5 is told not to filter never reach the filter).
 */
static herr_t chunk_bytes_from_dcpl(hid_t dcpl, hid_t type, unsigned *bytes)
{
    herr_t ret_value = 0;
    hsize_t dims[H5S_MAX_RANK];
    int rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, dims);
    size_t size = H5Tget_size(type);
    if (rank <= 0 || size == 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1,
                      "gpulz: cannot get the chunk dimensions or the datatype's size");
    uint64_t total = size;
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 0 || total > CHUNK_BYTES_MAX / dims[i])
            PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                          "gpulz: a chunk of this dataset would hold %s bytes (HDF5 allows "
                          "under 4 GiB)",
                          dims[i] == 0 ? "0" : "4 GiB or more");
        total *= dims[i];
    }
    *bytes = (unsigned)total;
done:
    return ret_value;
}

/* The filters of dcpl's pipeline, in the order HDF5 runs them when
 * writing, into ids: their count, or -1. */
static int pipeline_ids(hid_t dcpl, H5Z_filter_t ids[H5Z_MAX_NFILTERS])
{
    int ret_value = H5Pget_nfilters(dcpl);
    if (ret_value < 0 || ret_value > H5Z_MAX_NFILTERS)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get the dataset's filters");
    for (int i = 0; i < ret_value; i++) {
        unsigned flags, config;
        size_t ncd = 0;
        if ((ids[i] = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, NULL, 0, NULL, &config)) < 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get the dataset's filter %d", i);
    }
done:
    return ret_value;
}

/*
 * What HDF5 hands the filter to compress in dataset dcpl, whose chunks hold
 * chunk_bytes: the filters before it in the pipeline (HDF5 runs them in the
 * order they were added) keep the size (shuffle) or append 4 bytes
 * (Fletcher-32); any other (deflate, scaleoffset, n-bit, a plugin) changes it
 * chunk by chunk, and *bytes is 0: no exact size, the cap of section 2 of
 * docs/usage.md instead.  Before this rule every chunk behind such a filter
 * was refused as the wrong size.
 */
static herr_t input_bytes_from_dcpl(H5Z_filter_t id, hid_t dcpl, unsigned chunk_bytes, unsigned *bytes)
{
    herr_t ret_value = 0;
    H5Z_filter_t ids[H5Z_MAX_NFILTERS];
    const int n = pipeline_ids(dcpl, ids);
    uint64_t total = chunk_bytes;
    if (n < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot size what the filters before gpulz hand it");
    for (int i = 0; i < n; i++) {
        const H5Z_filter_t f = ids[i];
        if (f == id)
            break;
        if (f == H5Z_FILTER_FLETCHER32)
            total += 4;
        else if (f != H5Z_FILTER_SHUFFLE) {
            total = 0;
            break;
        }
    }
    /* only Fletcher-32 can take a chunk of under 4 GiB past the slot's 32
     * bits; recording 0 would send it to the read cap, which no such chunk
     * passes, and set_local named deflate and scaleoffset as the reason */
    if (total > CHUNK_BYTES_MAX)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: Fletcher-32 before gpulz hands it chunks of %llu bytes (%u and the "
                      "checksum), 4 GiB or more, which the chunk size slot (cd_values[%d], 32 bits) "
                      "cannot record: use chunks of at most %u bytes, or put Fletcher-32 after gpulz",
                      (unsigned long long)total, chunk_bytes, H5Z_GPULZ_CD_CHUNK_BYTES,
                      (unsigned)(CHUNK_BYTES_MAX - (total - chunk_bytes)));
    *bytes = (unsigned)total;
done:
    return ret_value;
}

/* The input size set_local recorded (input_bytes_from_dcpl), or 0 where it
 * did not (gpulz 0.1's five slots; variable-length data, for which HDF5
 * skips set_local; a filter before gpulz that changes the size). */
static size_t chunk_bytes_stored(size_t cd_nelmts, const unsigned cd_values[])
{
    return cd_nelmts > H5Z_GPULZ_CD_CHUNK_BYTES ? cd_values[H5Z_GPULZ_CD_CHUNK_BYTES] : 0;
}

/*
 * n-bit and scale-offset after gpulz: both take the number of elements in a
 * chunk from their own cd_values (fixed at creation) and read that many
 * elements from the buffer, whatever size the filter before them returned.
 * Behind gpulz they read its compressed bytes and then whatever follows in
 * its buffer, and hand that back on reading, where gpulz refuses the bytes
 * after its chunk: every chunk written is unreadable (and, in HDF5 1.10.8,
 * their decoders read past HDF5's buffers).  Deflate and the plugins that
 * ignore trailing bytes hide the same misuse.  SZIP after gpulz codes its
 * bytes as whole pixels of the dataset's datatype (bits per pixel fixed at
 * creation), and the bytes past the last whole pixel, which gpulz's chunks
 * mostly have, come back altered: written without an error, every such
 * chunk failed to read back.  Refused at creation.
 */
static herr_t later_filters_check(H5Z_filter_t id, hid_t dcpl)
{
    herr_t ret_value = 0;
    H5Z_filter_t ids[H5Z_MAX_NFILTERS];
    const int n = pipeline_ids(dcpl, ids);
    int seen = 0;
    if (n < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot check the filters after gpulz");
    for (int i = 0; i < n; i++) {
        const H5Z_filter_t f = ids[i];
        if (f == id)
            seen = 1;
        else if (seen && (f == H5Z_FILTER_NBIT || f == H5Z_FILTER_SCALEOFFSET))
            PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                          "gpulz: %s comes after gpulz in the filter pipeline: it reads a chunk as "
                          "the dataset's elements, not gpulz's compressed bytes, and the chunks "
                          "could not be read back; add it before gpulz",
                          f == H5Z_FILTER_NBIT ? "n-bit" : "scale-offset");
        else if (seen && f == H5Z_FILTER_SZIP)
            PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                          "gpulz: SZIP comes after gpulz in the filter pipeline: it codes a chunk as "
                          "whole pixels of the dataset's datatype, and gpulz's compressed bytes past "
                          "the last whole pixel would come back altered, so the chunks could not be "
                          "read back; add it before gpulz");
    }
done:
    return ret_value;
}

/* ---- the environment --------------------------------------------------- */

/* How and where the filter works, from GPULZ_* (never from the file). */
typedef struct filter_env {
    gpulz_params params; /* backend and threads set */
    int verbose;
    size_t legacy_max; /* largest chunk accepted where its size is not recorded */
} filter_env;

/* A byte count with an optional K, M or G suffix, 1..CHUNK_BYTES_MAX; 0 if not one. */
static size_t parse_bytes(const char *s)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return 0;
    unsigned long long v = strtoull(s, &end, 10), unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1ull << 10, end++;
    else if (*end == 'M' || *end == 'm')
        unit = 1ull << 20, end++;
    else if (*end == 'G' || *end == 'g')
        unit = 1ull << 30, end++;
    if (*end || v == 0 || v > CHUNK_BYTES_MAX / unit)
        return 0;
    return (size_t)(v * unit);
}

/* Every GPULZ_* variable the filter reads, checked; -1 with the reason pushed. */
static herr_t environment_read(filter_env *e)
{
    herr_t ret_value = 0;
    const char *backend = getenv("GPULZ_BACKEND");
    const char *threads = getenv("GPULZ_THREADS");
    const char *verb = getenv("GPULZ_VERBOSE");
    const char *legacy = getenv("GPULZ_LEGACY_CHUNK_MAX");
    unsigned long long min_bytes = 0;
    unsigned lanes;
    gpulz_devices devices;
    gpulz_params_init(&e->params);
    e->verbose = verb && *verb && strcmp(verb, "0") != 0;
    e->legacy_max = H5Z_GPULZ_LEGACY_CHUNK_MAX_DEFAULT;
    /* unset or empty: the defaults of gpulz_params_init() */
    if (backend && *backend && gpulz_backend_parse(backend, &e->params.backend) != GPULZ_OK)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: GPULZ_BACKEND=%s is not auto, cpu or gpu", backend);
    if (threads && *threads && gpulz_threads_parse(threads, &e->params.threads) != GPULZ_OK)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: GPULZ_THREADS=%s is not a thread count 0..%d (0 = all cores)",
                      threads, GPULZ_THREADS_MAX);
    if (legacy && *legacy && !(e->legacy_max = parse_bytes(legacy)))
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: GPULZ_LEGACY_CHUNK_MAX=%s is not a size of 1 byte to 4 GiB - 1 "
                      "(a number, optionally with K, M or G)",
                      legacy);
    /* read again by the codec at each call; checked here so that a typo is
     * not silently the default */
    if (gpulz_env_uint("GPULZ_GPU_MIN_BYTES", SIZE_MAX, &min_bytes) != GPULZ_OK)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: %s", gpulz_last_error());
    if (gpulz_env_gpu_lanes(&lanes) != GPULZ_OK)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: %s", gpulz_last_error());
    /* its form only: which devices exist is the codec's to say, and a
     * machine without a GPU runs auto's chunks on the CPU whatever it names */
    if (gpulz_env_devices(GPULZ_DEVICES_MAX, &devices) != GPULZ_OK)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1, "gpulz: %s", gpulz_last_error());
done:
    return ret_value;
}

herr_t H5Z_gpulz_environment_params(gpulz_params *p)
{
    filter_env env;
    if (environment_read(&env) < 0)
        return -1;
    *p = env.params;
    return 0;
}

/* ---- HDF5 callbacks --------------------------------------------------- */

/*
 * A 0 is advisory (HDF5 ignores it for an optional filter and runs the filter
 * on whatever it gets): it refuses only what cannot work, saying why; every
 * fixed-size type works, byte for byte.  A negative value fails H5Dcreate
 * whatever the filter's flags: a setting that would make every chunk fail
 * (an optional filter's chunks then stored raw, silently) is reported here.
 */
static htri_t can_apply(H5Z_filter_t id, hid_t dcpl, hid_t type)
{
    htri_t ret_value = 1;
    unsigned pipeline_flags, cd[H5Z_GPULZ_CD_NELMTS_STORED];
    filter_env env;
    if (environment_read(&env) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: a GPULZ_* environment variable is invalid, so the filter would fail "
                      "on every chunk");
    if (env.params.backend == GPULZ_BACKEND_GPU && !gpulz_gpu_available())
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: GPULZ_BACKEND=gpu but no GPU is usable (%s); unset it or set auto "
                      "or cpu",
                      gpulz_last_error());
    H5T_class_t cls = H5Tget_class(type);
    if (cls == H5T_NO_CLASS)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTGET, -1, "gpulz: cannot get the datatype's class");
    if (cls == H5T_VLEN || (cls == H5T_STRING && H5Tis_variable_str(type) > 0))
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADTYPE, 0,
                      "gpulz: variable-length data cannot be compressed (only its heap references "
                      "would be)");
    if (later_filters_check(id, dcpl) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_BADVALUE, -1,
                      "gpulz: the filters after gpulz cannot take its output");
    if (cd_values_from_dcpl(id, dcpl, &pipeline_flags, cd) < 0)
        ret_value = 0;
done:
    return ret_value;
}

/* Resolve every 0 of the user's cd_values, add the chunk size and store all seven,
 * the mode last (the default where the vector names none, H5Z_gpulz_cd_mode()). */
static herr_t set_local(H5Z_filter_t id, hid_t dcpl, hid_t type)
{
    herr_t ret_value = 0;
    unsigned pipeline_flags, cd[H5Z_GPULZ_CD_NELMTS_STORED];
    if (cd_values_from_dcpl(id, dcpl, &pipeline_flags, cd) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: invalid filter parameters");
    if (cd[H5Z_GPULZ_CD_SYMBOL] == 0 && symbol_size_from_type(type, &cd[H5Z_GPULZ_CD_SYMBOL]) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: cannot derive the symbol size");
    if (cd[H5Z_GPULZ_CD_WINDOW] == 0)
        cd[H5Z_GPULZ_CD_WINDOW] = GPULZ_WINDOW_DEFAULT;
    if (cd[H5Z_GPULZ_CD_BLOCK] == 0)
        cd[H5Z_GPULZ_CD_BLOCK] = GPULZ_BLOCK_DEFAULT;
    /* the version the mode writes: lz keeps gpulz 0.1's format */
    cd[H5Z_GPULZ_CD_VERSION] = cd[H5Z_GPULZ_CD_MODE] == H5Z_GPULZ_CD_MODE_LZ
                                   ? H5Z_GPULZ_CD_VERSION_LZ
                                   : H5Z_GPULZ_CD_VERSION_CURRENT;
    unsigned chunk_bytes;
    filter_env env;
    if (chunk_bytes_from_dcpl(dcpl, type, &chunk_bytes) < 0 ||
        input_bytes_from_dcpl(id, dcpl, chunk_bytes, &cd[H5Z_GPULZ_CD_CHUNK_BYTES]) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: cannot record the chunk size");
    /* behind a filter that changes the size, chunks are read with the cap
     * (declared_size_check), and such a filter may hand gpulz a little more
     * than the chunk (deflate's worst case, scaleoffset's header): a chunk
     * size that could pass the cap is refused now, not found unreadable
     * after the data is written */
    if (environment_read(&env) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: a GPULZ_* environment variable is invalid");
    if (!cd[H5Z_GPULZ_CD_CHUNK_BYTES] &&
        (uint64_t)chunk_bytes + chunk_bytes / 64 + 4096 > (uint64_t)env.legacy_max)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1,
                      "gpulz: behind a filter that changes the chunk's size (deflate, scaleoffset, ...), "
                      "chunks of %u bytes could not be read back under the %zu-byte cap "
                      "(GPULZ_LEGACY_CHUNK_MAX): use smaller chunks, or put gpulz first",
                      chunk_bytes, env.legacy_max);
    if (H5Pmodify_filter(dcpl, id, pipeline_flags, H5Z_GPULZ_CD_NELMTS_STORED, cd) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_SETLOCAL, -1, "gpulz: cannot store the filter parameters");
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
 * The size a stored chunk may decompress to: exactly what set_local recorded
 * (input_bytes_from_dcpl), else (0.1 files, a filter before gpulz that
 * changes the size, variable-length data) 1 byte up to the legacy cap.
 * from_01: the dataset holds gpulz 0.1's five values; fewer are a vector
 * set_local never saw (variable-length data), not a 0.1 file, for which
 * applying the filter again would record nothing.  Checked before the
 * declared size is trusted with an allocation.
 */
static herr_t declared_size_check(uint64_t declared, size_t expected, size_t legacy_max, int from_01)
{
    herr_t ret_value = 0;
    if (expected && declared != expected)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, -1,
                      "gpulz: the chunk declares %llu uncompressed bytes but this dataset's chunks "
                      "hold %zu: a damaged or forged chunk",
                      (unsigned long long)declared, expected);
    /* an empty chunk would decode to 0 bytes, which HDF5 takes for a failure
     * of the filter with nothing on the error stack to say why */
    if (!expected && declared == 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, -1,
                      "gpulz: the chunk declares 0 uncompressed bytes but no dataset has empty "
                      "chunks: a damaged or forged chunk");
    /* why this dataset records no size, and what recording it would take */
    if (!expected && declared > legacy_max)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, -1,
                      "gpulz: the chunk declares %llu uncompressed bytes, over the %zu-byte cap for "
                      "datasets that do not record their chunk size (%s); raise "
                      "GPULZ_LEGACY_CHUNK_MAX if the file is trusted%s",
                      (unsigned long long)declared, legacy_max,
                      from_01 ? "written by gpulz 0.1"
                              : "a filter before gpulz changes it, or the data has variable length",
                      from_01 ? ", then apply the filter again (h5repack -f DATASET:UD=<id>,0,5,<its "
                                "PARAMS>) to record the size"
                              : "");
done:
    return ret_value;
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
    int rc;
    filter_env env;
    gpulz_params *p = &env.params;
    size_t expected = chunk_bytes_stored(cd_nelmts, cd_values);
    if (environment_read(&env) < 0)
        PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0, "gpulz: bad environment setting");

    if (flags & H5Z_FLAG_REVERSE) {
        /* the size the header declares is checked against the dataset's
         * before it is trusted with an allocation (gpulz_decompressed_size
         * has held it against format 2's stream headers); format 1's block
         * table the decoder checks as it reads it, so it is not walked here
         * first as well: the size check already bounds what a damaged chunk
         * can make the filter allocate */
        uint64_t declared = 0; /* set on success; zeroed for -flto's -Wmaybe-uninitialized */
        rc = gpulz_decompressed_size(*buf, nbytes, &declared);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot decompress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        if (declared_size_check(declared, expected, env.legacy_max, cd_nelmts == H5Z_GPULZ_CD_NELMTS) < 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: refusing a %zu-byte stored chunk", nbytes);
        out_cap = declared ? (size_t)declared : 1;
        if (!(out = H5allocate_memory(out_cap, 0)))
            PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, 0,
                          "gpulz: cannot allocate %zu bytes for a decompressed chunk", out_cap);
        rc = gpulz_decompress(*buf, nbytes, out, out_cap, &out_len, p);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot decompress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        if (env.verbose)
            verbose_line("decompressed", nbytes, out_len, NULL);
    } else {
        if (H5Z_gpulz_encoder_params(cd_nelmts, cd_values, p) < 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0, "gpulz: invalid filter parameters");
        /* what could not be read back */
        if (expected && nbytes != expected)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: asked to compress %zu bytes where this dataset's chunks hold %zu",
                          nbytes, expected);
        /* no size recorded (variable-length data, whose set_local HDF5 skips; a
         * 0.1 dataset; a second gpulz in the pipeline): reading holds such a
         * chunk to the cap, so one over it is refused here rather than written
         * for no reader to read (an optional filter's chunk is stored raw) */
        if (!expected && nbytes > env.legacy_max)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: a %zu-byte chunk of a dataset that does not record its chunk size "
                          "could not be read back under the %zu-byte cap (GPULZ_LEGACY_CHUNK_MAX)",
                          nbytes, env.legacy_max);
        out_cap = gpulz_compress_bound(nbytes, p);
        if (out_cap == 0)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot compress a %zu-byte chunk: %s", nbytes,
                          gpulz_last_error());
        if (!(out = H5allocate_memory(out_cap, 0)))
            PUSH_AND_GOTO(H5E_RESOURCE, H5E_NOSPACE, 0,
                          "gpulz: cannot allocate %zu bytes for a compressed chunk", out_cap);
        rc = gpulz_compress(*buf, nbytes, out, out_cap, &out_len, p);
        if (rc != GPULZ_OK)
            PUSH_AND_GOTO(H5E_PLINE, H5E_CANTFILTER, 0,
                          "gpulz: cannot compress a %zu-byte chunk: %s: %s", nbytes,
                          gpulz_strerror(rc), gpulz_last_error());
        if ((flags & H5Z_FLAG_OPTIONAL) && out_len >= nbytes) {
            /* not a failure: HDF5 stores the chunk as it is and marks it in
             * the chunk's filter mask */
            if (env.verbose)
                verbose_line("compressed", nbytes, out_len, ", no gain: stored unfiltered");
            goto done;
        }
        if (env.verbose)
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

/* ---- the filter classes ------------------------------------------------ */

static htri_t H5Z_gpulz_can_apply(hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    return can_apply(GPULZ_ID, dcpl, type);
}

static herr_t H5Z_gpulz_set_local(hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    return set_local(GPULZ_ID, dcpl, type);
}

const H5Z_class2_t H5Z_GPULZ[1] = {{
    H5Z_CLASS_T_VERS,
    (H5Z_filter_t)GPULZ_ID,
    1, /* encoder present */
    1, /* decoder present */
    GPULZ_NAME,
    H5Z_gpulz_can_apply,
    H5Z_gpulz_set_local,
    H5Z_filter_gpulz,
}};

#if GPULZ_HAVE_PROVISIONAL_CLASS
static htri_t H5Z_gpulz_provisional_can_apply(hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    return can_apply(H5Z_FILTER_GPULZ_PROVISIONAL, dcpl, type);
}

static herr_t H5Z_gpulz_provisional_set_local(hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    return set_local(H5Z_FILTER_GPULZ_PROVISIONAL, dcpl, type);
}

/*
 * An encoder too, not only a decoder: HDF5 runs a dataset's own filter when
 * an existing dataset is written to or extended, and h5repack when it changes
 * a dataset's layout (-l) but not its filters, so files with the provisional
 * ID keep working in full until they are moved to the registered ID.
 */
const H5Z_class2_t H5Z_GPULZ_PROVISIONAL[1] = {{
    H5Z_CLASS_T_VERS,
    (H5Z_filter_t)H5Z_FILTER_GPULZ_PROVISIONAL,
    1, /* encoder present */
    1, /* decoder present */
    H5Z_GPULZ_NAME_PROVISIONAL,
    H5Z_gpulz_provisional_can_apply,
    H5Z_gpulz_provisional_set_local,
    H5Z_filter_gpulz,
}};
#endif
