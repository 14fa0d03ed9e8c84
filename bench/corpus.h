/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * corpus.h - the benchmark corpus as the benchmark programs read it: the
 * MANIFEST that bench/data/make_corpus.py writes (one array per line:
 * name dtype shape bytes sha256) and the little-endian array files beside it
 * (<name>.<f32|f64|u16|i16|i32|u8>).
 */
#ifndef GPULZ_BENCH_CORPUS_H
#define GPULZ_BENCH_CORPUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CORPUS_MAX_RANK 8

typedef struct corpus_array {
    char name[128];
    char dtype[16]; /* float32, float64, uint16, int16, int32, uint8 */
    char shape[128];
    size_t bytes;   /* the array's size, checked against shape and dtype */
    unsigned elsize;
    int rank;
    uint64_t dims[CORPUS_MAX_RANK];
    void *data;     /* malloc'd by corpus_next, freed by the caller */
} corpus_array;

typedef struct corpus {
    FILE *manifest;
    char dir[4096];   /* where the array files are */
    const char *only; /* comma-separated names, NULL or "" for all */
    const char *prog; /* prefix of the messages on stderr */
} corpus;

/* Whether name is in the comma-separated list (NULL or "" holds every name). */
int corpus_in_list(const char *list, const char *name);

/*
 * Open a manifest; the arrays are read from datadir, or from the manifest's
 * folder when datadir is NULL.  0, or -1 with a message on stderr.
 */
int corpus_open(corpus *c, const char *prog, const char *manifest, const char *datadir, const char *only);

/*
 * The next listed array, loaded: 1 (a is filled, a->data to free), 0 at the
 * end, -1 when this entry cannot be used (message on stderr; call again for
 * the next one).
 */
int corpus_next(corpus *c, corpus_array *a);

void corpus_close(corpus *c);

#ifdef __cplusplus
}
#endif
#endif
