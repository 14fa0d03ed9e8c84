/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_util.h - small helpers shared by the C tests of the HDF5 filter.
 * A failed check prints where and why, plus the HDF5 error stack, to stderr
 * and exits 1 (Automake's FAIL).
 */
#ifndef H5_UTIL_H
#define H5_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "gpulz_h5filter.h"
#include "h5_compat.h"

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
            H5Eprint2(H5E_DEFAULT, stderr);                                                  \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* CHECK with a formatted note. */
#define CHECKF(cond, ...)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
            H5Eprint2(H5E_DEFAULT, stderr);                                                  \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* Deterministic pseudo-random bytes (xorshift64*), incompressible by LZSS. */
static inline void h5u_random(void *buf, size_t n, uint64_t seed)
{
    uint8_t *p = buf;
    uint64_t x = seed * 2685821657736338717ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        p[i] = (uint8_t)((x * 2685821657736338717ull) >> 56);
    }
}

/* The messages of the default error stack, joined with newlines, for strstr. */
static herr_t h5u_collect(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    char *text = data;
    size_t used = strlen(text);
    if (e->desc && used + strlen(e->desc) + 2 < 8192) {
        strcat(text, e->desc);
        strcat(text, "\n");
    }
    return 0;
}

static inline const char *h5u_error_text(void)
{
    static char text[8192];
    text[0] = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, h5u_collect, text);
    return text;
}

/* The cd_values stored for filter id in a dataset's creation property list. */
static inline size_t h5u_stored_cd_id(hid_t dset, H5Z_filter_t id, unsigned cd[8],
                                      unsigned *flags, char *name, size_t name_len)
{
    hid_t dcpl = H5Dget_create_plist(dset);
    CHECK(dcpl >= 0);
    size_t n = 8;
    unsigned fl = 0, config;
    CHECKF(H5Pget_filter_by_id2(dcpl, id, &fl, &n, cd, name ? name_len : 0, name, &config) >= 0,
           "no filter %d in the dataset's pipeline", (int)id);
    if (flags)
        *flags = fl;
    H5Pclose(dcpl);
    return n;
}

/* The cd_values stored for gpulz (the ID this build writes). */
static inline size_t h5u_stored_cd(hid_t dset, unsigned cd[8], unsigned *flags, char *name,
                                   size_t name_len)
{
    return h5u_stored_cd_id(dset, H5Z_FILTER_GPULZ, cd, flags, name, name_len);
}

/* H5Dget_chunk_info for chunk index i (1.10 wants a real dataspace, not H5S_ALL). */
static inline void h5u_chunk_info(hid_t dset, hsize_t i, hsize_t *offset, unsigned *mask,
                                  haddr_t *addr, hsize_t *size)
{
    hid_t space = H5Dget_space(dset);
    CHECK(space >= 0);
    CHECKF(H5Dget_chunk_info(dset, space, i, offset, mask, addr, size) >= 0, "chunk %llu",
           (unsigned long long)i);
    H5Sclose(space);
}

/* A chunked dcpl of rank dims with gpulz added by H5Pset_filter. */
static inline hid_t h5u_dcpl(int rank, const hsize_t *chunk, unsigned filter_flags, size_t ncd,
                             const unsigned *cd)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(dcpl >= 0);
    CHECK(H5Pset_chunk(dcpl, rank, chunk) >= 0);
    CHECK(H5Pset_filter(dcpl, H5Z_FILTER_GPULZ, filter_flags, ncd, cd) >= 0);
    return dcpl;
}

/* Total raw bytes of a chunk of the given shape. */
static inline size_t h5u_chunk_bytes(int rank, const hsize_t *chunk, size_t elem)
{
    size_t n = elem;
    for (int i = 0; i < rank; i++)
        n *= (size_t)chunk[i];
    return n;
}

#endif
