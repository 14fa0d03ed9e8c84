/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_env.h - the parsers of gpulz's settings as text: a backend name, a
 * thread count, an unsigned number, and an environment variable holding one.
 * The HDF5 filter reads its GPULZ_* variables and the gpulz command its
 * --backend and --threads through these, so both accept the same words and
 * the same ranges.  Each returns GPULZ_OK, or GPULZ_ERR_PARAM with the reason
 * in gpulz_last_error() ("'fast' is not auto, cpu or gpu"); callers report it
 * their own way (the filter on HDF5's error stack, the command as a usage
 * error).  Internal: not installed.
 */
#ifndef GPULZ_ENV_H
#define GPULZ_ENV_H

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Below about a megabyte the transfers and launches cost more than the CPU
 * codec on a few cores: the default of GPULZ_GPU_MIN_BYTES. */
#define GPULZ_GPU_MIN_BYTES_DEFAULT ((unsigned long long)1 << 20)

/* "auto", "cpu" or "gpu" (nothing else: no case folding, no spaces). */
int gpulz_backend_parse(const char *s, gpulz_backend *out);

/* The name gpulz_backend_parse() takes for b; NULL for no backend. */
const char *gpulz_backend_name(gpulz_backend b);

/*
 * A decimal number 0..max: digits only (no sign, space or suffix).  The
 * reason of a failure is "'s' is not a number" or "s is out of 0..max".
 */
int gpulz_uint_parse(const char *s, unsigned long long max, unsigned long long *out);

/* A thread count, 0..GPULZ_THREADS_MAX (0: one per online core). */
int gpulz_threads_check(unsigned long long threads);
int gpulz_threads_parse(const char *s, unsigned *out);

/*
 * The environment variable name as a number 0..max (gpulz_uint_parse()).
 * Unset or empty: GPULZ_OK with *out untouched, so that it keeps the
 * caller's default.  The reason of a failure names the variable
 * ("GPULZ_DEVICE=x: 'x' is not a number").
 */
int gpulz_env_uint(const char *name, unsigned long long max, unsigned long long *out);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_ENV_H */
