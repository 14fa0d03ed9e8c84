/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_corpus.c - replays the fuzz seed corpus (h5tests/fuzz/corpus)
 * through the decoder and through the fuzz target itself, so the corpus
 * stays made of valid chunks of the current format: each file must
 * decompress, and compressing the result again with the chunk's own
 * parameters must give the file back byte for byte (canonical encoding).
 */
#include <dirent.h>

#include "codec_testutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/h5tests/fuzz/corpus", tu_srcdir());
    DIR *D = opendir(dir);
    if (!D) {
        fprintf(stderr, "cannot open %s (set top_srcdir)\n", dir);
        return 99;
    }
    unsigned files = 0;
    struct dirent *e;
    while ((e = readdir(D))) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192 + 512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *ch = tu_read_file(path, &len);
        if (!ch) {
            tu_fail("%s: cannot read", path);
            continue;
        }
        files++;
        LLVMFuzzerTestOneInput(ch, len); /* aborts on a broken invariant */
        gpulz_chunk_info info;
        int rc = gpulz_chunk_info_get(ch, len, &info);
        if (rc != GPULZ_OK) {
            tu_fail("%s: %s (%s)", e->d_name, gpulz_strerror(rc), gpulz_last_error());
            free(ch);
            continue;
        }
        size_t n = (size_t)info.uncompressed_size, got = 0;
        uint8_t *out = tu_xmalloc(n);
        rc = gpulz_decompress(ch, len, out, n, &got, NULL);
        TU_CHECK(rc == GPULZ_OK && got == n, "%s: decompress: %s (%s)", e->d_name,
                 gpulz_strerror(rc), gpulz_last_error());
        if (rc == GPULZ_OK) {
            gpulz_params p;
            tu_params_of_chunk(&p, &info);
            size_t clen = 0;
            uint8_t *again = tu_compress(out, n, &p, &clen);
            TU_CHECK(again && clen == len && !memcmp(again, ch, len),
                     "%s: not the canonical encoding of its contents", e->d_name);
            free(again);
        }
        printf("%-40s %6zu -> %6zu bytes: ok\n", e->d_name, len, n);
        free(out);
        free(ch);
    }
    closedir(D);
    TU_CHECK(files >= 5, "only %u corpus files in %s", files, dir);
    return tu_finish("codec_corpus");
}
