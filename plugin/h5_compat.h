/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_compat.h - the HDF5 calls whose signature differs among the versions
 * gpulz builds against (1.10.2 to 2.0), one wrapper each, for libh5gpulz,
 * gpulz-h5bench and the tests.  Private: not installed.
 */
#ifndef GPULZ_H5_COMPAT_H
#define GPULZ_H5_COMPAT_H

#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

/*
 * The stored bytes of the chunk at offset into buf, which holds cap bytes,
 * and its filter mask: H5Dread_chunk of 1.10 to 1.14 (and of 2.0 built for
 * an older API), or 2.0's H5Dread_chunk2, which reads nothing into a buffer
 * too small for the chunk and says how large it must be; that is a failure
 * here too (a negative value, nothing pushed on HDF5's stack).
 */
static inline herr_t gpulz_h5_read_chunk(hid_t dset, hid_t dxpl, const hsize_t *offset, uint32_t *mask, void *buf,
                                         size_t cap)
{
#if defined(H5Dread_chunk_vers) && H5Dread_chunk_vers >= 2
    size_t need = cap;
    if (H5Dread_chunk2(dset, dxpl, offset, mask, buf, &need) < 0)
        return -1;
    return need <= cap ? 0 : -1;
#else
    /* H5Dread_chunk writes the whole chunk, whatever buf holds: its size
     * first, from the same lookup (not H5Dget_chunk_info_by_coord, which
     * misreports some chunk indexes in HDF5 1.10) */
    hsize_t need = 0;
    if (H5Dget_chunk_storage_size(dset, offset, &need) < 0 || need > cap)
        return -1;
    return H5Dread_chunk(dset, dxpl, offset, mask, buf);
#endif
}

/*
 * Which object one is, to tell two names of one object from two objects
 * (hard links, soft links): the number HDF5 gives its file while open, and
 * the object's place in that file, the header's address before 1.12 and an
 * opaque token since (H5Oget_info3), which only H5Otoken_cmp may compare.
 * The numbered names, since 1.12 maps H5Oget_info and H5O_info_t by its API
 * default, and 1.10.2 has no H5Oget_info2 (1.10.3's H5Oget_info is deprecated).
 */
typedef struct gpulz_h5_objid {
    unsigned long fileno;
#if H5_VERSION_GE(1, 12, 0)
    H5O_token_t token;
#else
    haddr_t addr;
#endif
} gpulz_h5_objid;

static inline herr_t gpulz_h5_objid_get(hid_t obj, gpulz_h5_objid *id)
{
#if H5_VERSION_GE(1, 12, 0)
    H5O_info2_t info;
    if (H5Oget_info3(obj, &info, H5O_INFO_BASIC) < 0)
        return -1;
    id->token = info.token;
#elif H5_VERSION_GE(1, 10, 3)
    /* H5O_INFO_BASIC: the address, not the times, counts and sizes */
    H5O_info_t info;
    if (H5Oget_info2(obj, &info, H5O_INFO_BASIC) < 0)
        return -1;
    id->addr = info.addr;
#else
    H5O_info_t info;
    if (H5Oget_info(obj, &info) < 0)
        return -1;
    id->addr = info.addr;
#endif
    id->fileno = info.fileno;
    return 0;
}

/* *cmp: below, at or above 0 as a orders before b, is b, or orders after it
 * (an order to sort and search by, no more); loc: an object of the file of
 * either. */
static inline herr_t gpulz_h5_objid_cmp(hid_t loc, const gpulz_h5_objid *a, const gpulz_h5_objid *b,
                                        int *cmp)
{
    if (a->fileno != b->fileno) {
        *cmp = a->fileno < b->fileno ? -1 : 1;
        return 0;
    }
#if H5_VERSION_GE(1, 12, 0)
    return H5Otoken_cmp(loc, &a->token, &b->token, cmp);
#else
    (void)loc;
    *cmp = a->addr < b->addr ? -1 : a->addr > b->addr;
    return 0;
#endif
}

#endif /* GPULZ_H5_COMPAT_H */
