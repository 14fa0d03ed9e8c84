/* SPDX-License-Identifier: BSD-3-Clause */
/* one host-API call of gpulz (as the filter makes it), for a tracer in the
 * same process: load a file, compress or decompress its first KB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpulz.h"
static unsigned char *h, *dst, *back; static size_t chunk, cap, len;
static gpulz_params p;
int tr_load(const char *file, size_t kb, unsigned S, int mode)
{
    FILE *f = fopen(file, "rb"); if (!f) return -1;
    fseek(f, 0, SEEK_END); size_t n = ftell(f); rewind(f);
    chunk = kb << 10; if (chunk > n) chunk = n;
    h = malloc(n); if (fread(h, 1, n, f) != n) return -2; fclose(f);
    gpulz_params_init(&p); p.symbol_size = S; p.backend = GPULZ_BACKEND_GPU;
    p.mode = mode == 0 ? GPULZ_MODE_LZ : mode == 1 ? GPULZ_MODE_FAST : mode == 2 ? GPULZ_MODE_RATIO : GPULZ_MODE_AUTO;
    cap = gpulz_compress_bound(chunk, &p) * 2; dst = malloc(cap); back = malloc(chunk);
    return 0;
}
int tr_compress(void) { return gpulz_compress(h, chunk, dst, cap, &len, &p); }
int tr_decompress(void) { size_t out = 0; int rc = gpulz_decompress(dst, len, back, chunk, &out, &p);
    return rc ? rc : (out != chunk || memcmp(back, h, chunk)) ? -3 : 0; }
size_t tr_len(void) { return len; }
