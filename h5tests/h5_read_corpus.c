/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_read_corpus.c - replays the seed corpus of the filter's read-path fuzz
 * target (h5tests/fuzz/corpus_h5read) through the target itself, linked here
 * into a plain program with the filter core and the codec: each file is
 * written as a stored chunk and read back through the filter, the target
 * aborting on a broken invariant (fuzz_h5read.c).  The name of each file
 * says what its read must do: ok- reads back, bad- is refused with a gpulz
 * message, skip- is not fed (a short chunk of a gpulz 0.1 dataset).
 * Files the fuzzer found and that were kept are named the same way.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_h5read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

int main(void)
{
    const char *top = getenv("top_srcdir");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/h5tests/fuzz/corpus_h5read", top && *top ? top : ".");
    DIR *D = opendir(dir);
    if (!D) {
        fprintf(stderr, "cannot open %s (set top_srcdir)\n", dir);
        return 99;
    }
    static const struct {
        const char *prefix;
        int outcome;
    } kinds[] = {{"ok-", FUZZ_H5READ_OK}, {"bad-", FUZZ_H5READ_REFUSED}, {"skip-", FUZZ_H5READ_NOT_READ}};
    unsigned count[3] = {0, 0, 0}, failures = 0;
    struct dirent *e;
    while ((e = readdir(D))) {
        if (e->d_name[0] == '.')
            continue;
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (strncmp(e->d_name, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
                k = i;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *b = read_file(path, &len);
        if (k < 0 || !b) {
            fprintf(stderr, "FAIL %s: %s\n", e->d_name,
                    k < 0 ? "not named ok-, bad- or skip-" : "cannot read");
            failures++;
            free(b);
            continue;
        }
        printf("%-48s %7zu bytes: ", e->d_name, len);
        fflush(stdout); /* the name stays in the log if the target aborts */
        LLVMFuzzerTestOneInput(b, len); /* aborts on a broken invariant */
        free(b);
        count[k]++;
        int got = fuzz_h5read_outcome;
        const char *what = got == FUZZ_H5READ_OK        ? "read back"
                           : got == FUZZ_H5READ_REFUSED ? "refused"
                                                        : "not fed";
        if (got != kinds[k].outcome) {
            printf("FAIL: %s\n", what);
            failures++;
        } else {
            printf("%s\n", what);
        }
    }
    closedir(D);
    /* every dataset has a chunk that reads and ones that do not */
    if (count[0] < 2 * FUZZ_H5READ_DATASETS || count[1] < 2 * FUZZ_H5READ_DATASETS) {
        fprintf(stderr, "FAIL: only %u ok- and %u bad- files in %s\n", count[0], count[1], dir);
        failures++;
    }
    printf("h5_read_corpus: %u read back, %u refused, %u not fed, %u failures\n", count[0], count[1],
           count[2], failures);
    return failures ? 1 : 0;
}
