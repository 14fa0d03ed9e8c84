/* SPDX-License-Identifier: BSD-3-Clause */
/* cpubench MIB THREADS KIND: gpulz_compress of mode fast on the CPU, S = 2, C = 4096, over MIB MiB of
 * gpulz_gen KIND data (or walk16: a walk over all 16-bit values, steps -4..4), best of 3; the output's
 * FNV-1a hash to compare builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
#include "datagen.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char **argv){
  size_t n = (size_t)atol(argv[1]) << 20; unsigned threads = argc > 2 ? atoi(argv[2]) : 1;
  const char *kind = argc > 3 ? argv[3] : "quant";
  unsigned char *src = malloc(n);
  if (!strcmp(kind, "walk16")) { unsigned v = 0, x = 7; for (size_t i = 0; i + 1 < n; i += 2) { x = x * 1103515245u + 12345u; v = (v + ((x >> 16) % 9) - 4) & 0xFFFF; src[i] = v; src[i+1] = v >> 8; } }
  else gpulz_gen(kind, src, n, 3);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size = 2; p.block_symbols = 4096; p.mode = GPULZ_MODE_FAST; p.backend = GPULZ_BACKEND_CPU; p.threads = threads;
  size_t bound = gpulz_compress_bound(n, &p), len = 0; unsigned char *c = malloc(bound);
  double best = 1e9;
  for (int r = 0; r < 3; r++) { double t = now(); if (gpulz_compress(src, n, c, bound, &len, &p) != GPULZ_OK) { printf("fail %s\n", gpulz_last_error()); return 1; } t = now() - t; if (t < best) best = t; }
  unsigned long long h = 1469598103934665603ull; for (size_t i = 0; i < len; i++) h = (h ^ c[i]) * 1099511628211ull;
  printf("%zu MiB %s threads %u: %.3f GB/s, %zu bytes, flags %02x, hash %016llx\n", n >> 20, kind, threads, n / best / 1e9, len, c[5], h);
  return 0;
}
