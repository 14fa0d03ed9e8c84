/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_h5read.h - what the filter read-path fuzz target (fuzz_h5read.c)
 * shares with its seed generator (gen_corpus_h5read.c) and its corpus replay
 * test (h5_read_corpus.c).
 */
#ifndef FUZZ_H5READ_H
#define FUZZ_H5READ_H

/* Byte 0 of an input picks dataset byte0 % FUZZ_H5READ_DATASETS and chunk
 * byte0 / FUZZ_H5READ_DATASETS modulo the dataset's chunk count (row-major). */
#define FUZZ_H5READ_DATASETS 6

/* Per dataset: its name, chunk size in bytes, chunk count and symbol size. */
#define FUZZ_H5READ_NAMES {"i32", "u16_2d", "f64", "u8_optional", "0.1/int32_defaults", "0.1/u16_2d"}
#define FUZZ_H5READ_CHUNK_BYTES {1024, 182, 65536, 600, 32768, 2048}
#define FUZZ_H5READ_CHUNKS {4, 9, 2, 3, 4, 6}
#define FUZZ_H5READ_SYMBOLS {4, 2, 8, 2, 4, 2}
#define FUZZ_H5READ_LEGACY {0, 0, 0, 0, 1, 1}

/* What the last input did (for the replay test). */
enum {
    FUZZ_H5READ_NOT_READ = -1, /* empty, a 0.1 chunk shorter than its dataset's, or one
                                  longer than HDF5 stores for the dataset (not fed) */
    FUZZ_H5READ_REFUSED = 0,   /* written, and the read failed with a gpulz message */
    FUZZ_H5READ_OK = 1         /* written, and read back as the codec decodes it */
};
extern int fuzz_h5read_outcome;

#endif
