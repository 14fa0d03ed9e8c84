/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_golden.h - the text form of the golden vectors in h5tests/golden/:
 * "symbol_size N", "window N", "block_symbols N", then "input" and "output"
 * followed by hex bytes ("XX", or "XX*N" for N copies); '#' starts a comment.
 */
#ifndef CODEC_GOLDEN_H
#define CODEC_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct golden {
    unsigned S, W, C;
    uint8_t *in, *out;
    size_t in_len, out_len;
} golden;

/* Parse text into g (buffers malloc'd); 0 on success, -1 with a message in err. */
int golden_parse(const char *text, golden *g, char *err, size_t errlen);
void golden_free(golden *g);

#endif
