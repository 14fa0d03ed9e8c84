/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_corpus_h5read.c - writes the seed corpus of the filter's read-path fuzz
 * target (fuzz_h5read.c): for each of its datasets, byte 0 picking dataset
 * and chunk, then a stored chunk.  Valid chunks of exactly the dataset's chunk
 * size, edge chunks, chunks declaring another size, a chunk over the 0.1 cap,
 * an empty one, truncated and foreign ones.  The name says what the read must
 * do: ok- reads back, bad- is refused with a gpulz message, skip- is not fed
 * (a short chunk of a 0.1 dataset, or one longer than HDF5 stores);
 * h5_read_corpus checks it.
 * Usage: gen_corpus_h5read DIR  (h5tests/fuzz/corpus_h5read)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "fuzz_h5read.h"
#include "gpulz.h"

static const char *const names[] = FUZZ_H5READ_NAMES;
static const size_t chunk_bytes[] = FUZZ_H5READ_CHUNK_BYTES;
static const unsigned symbols[] = FUZZ_H5READ_SYMBOLS;
static const unsigned legacy[] = FUZZ_H5READ_LEGACY;
static const unsigned last_chunk_plus1[] = FUZZ_H5READ_CHUNKS;
static const char *dir;

/* Write selector byte + bytes as DIR/<what>-<dataset>-c<chunk>-<note>.bin. */
static int put(const char *what, int ds, unsigned chunk, const char *note, const uint8_t *b,
               size_t len)
{
    char path[4096], name[64];
    snprintf(name, sizeof name, "%s", names[ds]);
    for (char *c = name; *c; c++)
        if (*c == '/')
            *c = '-';
    snprintf(path, sizeof path, "%s/%s-%s-c%u-%s.bin", dir, what, name,
             chunk % last_chunk_plus1[ds], note);
    unsigned sel = (unsigned)ds + FUZZ_H5READ_DATASETS * chunk;
    FILE *f = sel < 256 ? fopen(path, "wb") : NULL;
    int bad = !f || fputc((int)sel, f) == EOF || fwrite(b, 1, len, f) != len;
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "%s: cannot write\n", path);
    return bad;
}

/* A chunk of n bytes, compressed with S (and W, C): kind for the first 1 KiB,
 * zeros after (keeps the seeds of the large chunks small); its length in *len. */
static uint8_t *chunk_of(const char *kind, size_t n, unsigned S, unsigned W, unsigned C,
                         size_t *len)
{
    gpulz_params p;
    gpulz_params_init(&p);
    p.mode = GPULZ_MODE_LZ; /* the seeds are format 1 chunks, as before modes */
    p.symbol_size = S;
    p.window = W;
    p.block_symbols = C;
    p.threads = 1;
    p.backend = GPULZ_BACKEND_CPU;
    uint8_t *in = calloc(n ? n : 1, 1);
    size_t cap = gpulz_compress_bound(n, &p);
    uint8_t *out = malloc(cap ? cap : 1);
    if (!in || !out || (n && gpulz_gen(kind, in, n < 1024 ? n : 1024, n * 7 + S) != 0) ||
        gpulz_compress(in, n, out, cap, len, &p) != GPULZ_OK) {
        fprintf(stderr, "cannot make a %zu-byte %s chunk: %s\n", n, kind, gpulz_last_error());
        exit(1);
    }
    free(in);
    return out;
}

/* One chunk: compressed, written, freed. */
static int emit(const char *what, int ds, unsigned chunk, const char *note, const char *kind,
                size_t n, unsigned S, unsigned W, unsigned C, size_t cut)
{
    size_t len;
    uint8_t *b = chunk_of(kind, n, S, W, C, &len);
    int bad = put(what, ds, chunk, note, b, len - (cut < len ? cut : 0));
    free(b);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    int bad = 0;
    for (int ds = 0; ds < FUZZ_H5READ_DATASETS; ds++) {
        size_t n = chunk_bytes[ds];
        unsigned S = symbols[ds];
        /* the right size: a first chunk, an edge chunk (the last one) */
        bad |= emit("ok", ds, 0, "runs", "runs", n, S, 128, 2048, 0);
        bad |= emit("ok", ds, last_chunk_plus1[ds] - 1, n > 1024 ? "edge-records" : "edge-quant",
                    n > 1024 ? "records" : "quant", n, S, 32, 256, 0);
        /* damaged: cut short, one byte into the block table or the data */
        bad |= emit("bad", ds, 0, "truncated", "runs", n, S, 128, 2048, 1);
        if (legacy[ds]) {
            /* 0.1: no chunk size recorded; longer ones read (HDF5 takes the
             * chunk's part), ones over the 1M cap and empty ones do not */
            bad |= emit("ok", ds, 1, "longer", "runs", n + 1000, S, 64, 1024, 0);
            if (ds == 4)
                bad |= emit("bad", ds, 1, "over-cap", "zeros", ((size_t)1 << 20) + 8, 8, 255,
                            16384, 0);
            bad |= emit("skip", ds, 1, "shorter", "runs", n / 2, S, 128, 2048, 0);
        } else {
            bad |= emit("bad", ds, 0, "shorter", "runs", n - S, S, 128, 2048, 0);
            bad |= emit("bad", ds, 1, "longer", "runs", n + S, S, 128, 2048, 0);
            bad |= emit("bad", ds, 1, "empty", "zeros", 0, 1, 128, 2048, 0);
        }
    }
    /* small chunks stored raw (random data), with other symbol sizes */
    bad |= emit("ok", 1, 4, "raw-s1", "random", 182, 1, 255, 256, 0);
    bad |= emit("ok", 3, 2, "raw-s8-edge", "random", 600, 8, 1, 256, 0);
    /* found by fuzz_h5read: an empty chunk in a 0.1 dataset read as a
     * failure without a message (the filter returned 0 bytes) */
    bad |= emit("bad", 5, 11, "empty-crash-bcaebb1d", "zeros", 0, 2, 242, 1024, 0);
    /* found by fuzz_h5read: a chunk of u16_2d (182-byte chunks) longer than
     * the 65535 bytes HDF5 can record for it, which H5Dwrite_chunk refuses
     * (the target took that for a broken invariant); not fed */
    uint8_t *over = calloc(65536, 1);
    bad |= !over || put("skip", 1, 0, "over-hdf5-size-crash-9be597b9", over, 65536);
    free(over);
    /* not a gpulz chunk at all */
    static const uint8_t foreign[] = "\x89HDF\r\n\x1a\n not a gpulz chunk";
    bad |= put("bad", 0, 2, "foreign", foreign, sizeof foreign - 1);
    return bad;
}
