/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_golden.h - the text form of the golden vectors in h5tests/golden/:
 * "symbol_size N", "window N", "block_symbols N", then "input" and "output"
 * followed by hex bytes ("XX", or "XX*N" for N copies); '#' starts a comment.
 * Format 2's vectors (h5tests/golden2/) add "mode WORD" and "checksum 0|1",
 * and may leave out the window (fast mode has none).
 */
#ifndef CODEC_GOLDEN_H
#define CODEC_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct golden {
    unsigned S, W, C;
    char mode[16]; /* "" when the vector names none (format 1) */
    int checksum;  /* -1 when the vector names none */
    uint8_t *in, *out;
    size_t in_len, out_len;
} golden;

/* Parse text into g (buffers malloc'd); 0 on success, -1 with a message in err. */
int golden_parse(const char *text, golden *g, char *err, size_t errlen);
void golden_free(golden *g);

/* Read the file at path and parse it; as golden_parse, "cannot read" in err. */
int golden_load(const char *path, golden *g, char *err, size_t errlen);

/* The names of the .hex files of dir, sorted, malloc'd, at most max of
 * them; *missing receives the first of required[0..nreq) not among them (NULL
 * when all are).  -1 when dir cannot be opened. */
int golden_list(const char *dir, char **names, size_t max, size_t *count,
                const char *const *required, size_t nreq, const char **missing);

#endif
