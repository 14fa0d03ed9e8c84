/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_args.h - what h5direct_bench and mpi_bench read from their command
 * lines and how they sum up their repeats, written once for both: sizes with
 * K, M or G, comma lists of names, the median and the best of the timings,
 * and the filter mode's name.
 */
#ifndef GPULZ_BENCH_ARGS_H
#define GPULZ_BENCH_ARGS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_cd.h"

/* A byte count: digits, then optionally K, M or G (binary). */
static inline int bench_parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned shift = 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    switch (*end) {
    case 'G': case 'g': shift = 30; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'K': case 'k': shift = 10; end++; break;
    default: break;
    }
    if (*end || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)v << shift;
    return 0;
}

/* A comma list of names[0, count) into on[]: 1 for those named.  An unknown
 * name is -1, said on stderr under prog's name where loud. */
static inline int bench_parse_list(const char *prog, int loud, const char *arg, const char *const *names, int count,
                                   int *on)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    for (int i = 0; i < count; i++)
        on[i] = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < count && strcmp(tok, names[i]) != 0)
            i++;
        if (i == count) {
            if (loud)
                fprintf(stderr, "%s: unknown item %s\n", prog, tok);
            return -1;
        }
        on[i] = 1;
    }
    return 0;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0, n), n from 1 to 64. */
static inline double bench_median(const double *v, int n)
{
    double s[64];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, bench_cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static inline double bench_smallest(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

#endif /* GPULZ_BENCH_ARGS_H */
