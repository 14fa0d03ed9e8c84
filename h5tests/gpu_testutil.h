/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_testutil.h - the failure check of the GPU tests: prints where and
 * why (with the library's last error detail), counts, and gives up after 20.
 * Safe from several threads.
 */
#ifndef GPU_TESTUTIL_H
#define GPU_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "gpulz.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, " [%s]\n", gpulz_last_error());                                        \
            if (__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED) > 20)                           \
                exit(1);                                                                           \
        }                                                                                          \
    } while (0)

#endif
