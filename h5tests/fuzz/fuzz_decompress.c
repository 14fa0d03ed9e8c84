/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_decompress.c - libFuzzer target of the chunk decoder: any input must
 * be rejected or decoded within the output buffer, never crash or read out
 * of bounds; a chunk whose size is declared decodes into a buffer of
 * exactly that size.  What decodes must also survive a round trip: compressed again
 * with the chunk's own parameters it must decompress to the same bytes.
 *
 * Built by `make fuzz` (clang -fsanitize=fuzzer,address,undefined); the
 * codec_corpus test links it into a plain program that replays the corpus.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz.h"

#define OUT_CAP (1u << 20) /* outputs above this are refused, not decoded */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *out, *again, *chunk;
    if (!out) {
        out = malloc(OUT_CAP);
        again = malloc(OUT_CAP);
        chunk = malloc(2 * OUT_CAP);
        if (!out || !again || !chunk)
            abort();
    }
    gpulz_params p;
    gpulz_params_init(&p);
    p.threads = 1;
    p.backend = GPULZ_BACKEND_CPU;

    gpulz_chunk_info info;
    int irc = gpulz_chunk_info_get(data, size, &info);
    uint64_t declared = 0;
    size_t len = 0;
    int rc;
    if (gpulz_decompressed_size(data, size, &declared) == GPULZ_OK && declared <= OUT_CAP) {
        /* into exactly the declared size, so that the sanitizers see a
         * write past it (the larger buffer would hide one) */
        uint8_t *exact = malloc(declared ? (size_t)declared : 1);
        if (!exact)
            abort();
        rc = gpulz_decompress(data, size, exact, (size_t)declared, &len, &p);
        if (rc == GPULZ_OK && len <= OUT_CAP)
            memcpy(out, exact, len);
        free(exact);
    } else {
        rc = gpulz_decompress(data, size, out, OUT_CAP, &len, &p);
    }
    if (rc != GPULZ_OK) {
        if (!gpulz_last_error()[0])
            abort(); /* every failure says why */
        return 0;
    }
    if (irc != GPULZ_OK || len != info.uncompressed_size || len > OUT_CAP)
        abort();

    p.symbol_size = info.symbol_size;
    p.block_symbols = info.block_symbols;
    /* a format 2 chunk again in its shape (bit 2 of its flags: LZSS); its
     * window is 0 without LZSS */
    if (info.format_version == 2)
        p.mode = info.flags & 0x04 ? GPULZ_MODE_RATIO : GPULZ_MODE_FAST;
    if (info.window)
        p.window = info.window;
    size_t clen = 0, len2 = 0;
    if (gpulz_compress(out, len, chunk, 2 * OUT_CAP, &clen, &p) != GPULZ_OK)
        abort();
    if (gpulz_decompress(chunk, clen, again, OUT_CAP, &len2, &p) != GPULZ_OK || len2 != len ||
        memcmp(out, again, len) != 0)
        abort();
    return 0;
}
