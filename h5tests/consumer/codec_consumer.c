/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_consumer.c - a program built against an installed libgpulz, through
 * CMake (gpulz::gpulz) or pkg-config (gpulz) (h5tests/install_*.sh): it
 * compresses and decompresses a buffer on the CPU and prints the library's
 * version, which must be VERSION when one is given.
 *
 * Usage: codec_consumer [VERSION]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpulz.h>

int main(int argc, char **argv)
{
    enum { N = 1 << 16 };
    static unsigned short in[N], back[N];
    for (int i = 0; i < N; i++)
        in[i] = (unsigned short)(512 + (i / 7) % 13);

    gpulz_params p;
    gpulz_params_init(&p);
    p.symbol_size = 2;
    p.backend = GPULZ_BACKEND_CPU;
    size_t cap = gpulz_compress_bound(sizeof in, &p), clen = 0, dlen = 0;
    unsigned char *c = malloc(cap);
    if (!c)
        return 1;
    int rc = gpulz_compress(in, sizeof in, c, cap, &clen, &p);
    if (rc == GPULZ_OK)
        rc = gpulz_decompress(c, clen, back, sizeof back, &dlen, &p);
    free(c);
    if (rc != GPULZ_OK) {
        fprintf(stderr, "codec_consumer: %s: %s\n", gpulz_strerror(rc), gpulz_last_error());
        return 1;
    }
    if (dlen != sizeof in || memcmp(in, back, sizeof in) != 0) {
        fprintf(stderr, "codec_consumer: the round trip differs\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], gpulz_version_string()) != 0) {
        fprintf(stderr, "codec_consumer: library %s, expected %s\n", gpulz_version_string(), argv[1]);
        return 1;
    }
    printf("gpulz %s: %zu bytes in %zu, round trip ok\n", gpulz_version_string(), sizeof in, clen);
    return 0;
}
