/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_compat.h - the HDF5 calls whose signature differs among the versions
 * gpulz builds against (1.10.2 to 2.0), one wrapper each, for libh5gpulz and
 * the tests.  Private: not installed.
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
    (void)cap;
    return H5Dread_chunk(dset, dxpl, offset, mask, buf);
#endif
}

#endif /* GPULZ_H5_COMPAT_H */
