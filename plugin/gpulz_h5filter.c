/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_h5filter.c - the API of libh5gpulz for programs that link the filter:
 * the DCPL helpers and a register function (declared in gpulz_h5filter.h).
 */
#include "H5Zgpulz.h"

herr_t gpulz_h5_set_dcpl_mode(hid_t dcpl, unsigned symbol_size, unsigned window,
                              unsigned block_symbols, unsigned flags, unsigned mode)
{
    /* as every HDF5 call does, so that a refusal's reason is not read below
     * errors of calls before this one */
    H5Eclear2(H5E_DEFAULT);
    if (flags & ~GPULZ_H5_FLAGS_KNOWN) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_PLINE, H5E_BADVALUE,
                 "gpulz: unknown flags 0x%x (known: GPULZ_H5_ADAPTIVE, GPULZ_H5_NO_CHECKSUM, "
                 "GPULZ_H5_OPTIONAL)",
                 flags & ~GPULZ_H5_FLAGS_KNOWN);
        return -1;
    }
    unsigned stored = flags & H5Z_GPULZ_CD_FLAGS_KNOWN;
    if (H5Z_gpulz_check_user_params(symbol_size, window, block_symbols, stored, mode) < 0)
        return -1;
    /* lz: the five values of gpulz 0.1, slot 0 saying format 1 (which makes
     * them lz, H5Z_gpulz_cd_mode()); another mode needs the seventh slot (the
     * sixth is set_local's chunk size) */
    int lz = mode == H5Z_GPULZ_CD_MODE_LZ;
    const unsigned cd[H5Z_GPULZ_CD_NELMTS_STORED] = {
        [H5Z_GPULZ_CD_VERSION] = lz ? H5Z_GPULZ_CD_VERSION_LZ : H5Z_GPULZ_CD_VERSION_CURRENT,
        [H5Z_GPULZ_CD_SYMBOL] = symbol_size, [H5Z_GPULZ_CD_WINDOW] = window,
        [H5Z_GPULZ_CD_BLOCK] = block_symbols, [H5Z_GPULZ_CD_FLAGS] = stored,
        [H5Z_GPULZ_CD_MODE] = mode};
    size_t n = lz ? H5Z_GPULZ_CD_NELMTS : H5Z_GPULZ_CD_NELMTS_STORED;
    return H5Pset_filter(dcpl, GPULZ_ID,
                         (flags & GPULZ_H5_OPTIONAL) ? H5Z_FLAG_OPTIONAL : H5Z_FLAG_MANDATORY, n,
                         cd);
}

herr_t gpulz_h5_set_dcpl(hid_t dcpl, unsigned symbol_size, unsigned window,
                         unsigned block_symbols, unsigned flags)
{
    return gpulz_h5_set_dcpl_mode(dcpl, symbol_size, window, block_symbols, flags,
                                  H5Z_GPULZ_CD_MODE_DEFAULT);
}

herr_t gpulz_h5_register(void)
{
#if GPULZ_HAVE_PROVISIONAL_CLASS
    /* files written before the registered ID carry the provisional one */
    if (H5Zregister(H5Z_GPULZ_PROVISIONAL) < 0)
        return -1;
#endif
    return H5Zregister(H5Z_GPULZ);
}
