/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * datagen.h - deterministic generators of test and benchmark data: the
 * adversarial kinds (random, zeros, runs, ramps, repeated records) and
 * realistic stand-ins for the data gpulz is for (cuSZ-style quantization
 * codes, a smooth float32 field, TPC-H-like int32 columns).  Not installed.
 */
#ifndef GPULZ_DATAGEN_H
#define GPULZ_DATAGEN_H

#include <stddef.h>
#include <stdint.h>

/* Fill buf with n bytes of the named kind from seed; -1 for an unknown kind. */
int gpulz_gen(const char *kind, void *buf, size_t n, uint64_t seed);

/* The kinds gpulz_gen knows, NULL-terminated. */
extern const char *const gpulz_gen_kinds[];

/* The natural element size of a kind (2 for quant, 4 for float and int, else 1). */
unsigned gpulz_gen_element_size(const char *kind);

#endif
