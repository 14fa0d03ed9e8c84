/* SPDX-License-Identifier: BSD-3-Clause */
/* env.c - the parsers of gpulz_env.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_env.h"
#include "gpulz_format.h"

/* Indexed by gpulz_backend. */
static const char *const backend_names[] = {
    [GPULZ_BACKEND_AUTO] = "auto", [GPULZ_BACKEND_CPU] = "cpu", [GPULZ_BACKEND_GPU] = "gpu"};
#define BACKEND_COUNT (sizeof backend_names / sizeof backend_names[0])

int gpulz_backend_parse(const char *s, gpulz_backend *out)
{
    for (size_t b = 0; s && b < BACKEND_COUNT; b++)
        if (!strcmp(s, backend_names[b])) {
            *out = (gpulz_backend)b;
            return GPULZ_OK;
        }
    return gpulz_fail(GPULZ_ERR_PARAM, "'%s' is not auto, cpu or gpu", s ? s : "");
}

const char *gpulz_backend_name(gpulz_backend b)
{
    return (unsigned)b < BACKEND_COUNT ? backend_names[b] : NULL;
}

int gpulz_uint_parse(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    /* strtoull accepts spaces and a sign ("-1" wraps): digits only */
    if (!s || *s < '0' || *s > '9')
        return gpulz_fail(GPULZ_ERR_PARAM, "'%s' is not a number", s ? s : "");
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        return gpulz_fail(GPULZ_ERR_PARAM, "'%s' is not a number", s);
    if (errno == ERANGE || v > max)
        return gpulz_fail(GPULZ_ERR_PARAM, "%s is out of 0..%llu", s, max);
    *out = v;
    return GPULZ_OK;
}

int gpulz_threads_check(unsigned long long threads)
{
    if (threads > GPULZ_THREADS_MAX)
        return gpulz_fail(GPULZ_ERR_PARAM, "%llu threads is out of 0..%d", threads,
                          GPULZ_THREADS_MAX);
    return GPULZ_OK;
}

int gpulz_threads_parse(const char *s, unsigned *out)
{
    unsigned long long v;
    int rc = gpulz_uint_parse(s, ULLONG_MAX, &v);
    if (rc == GPULZ_OK && (rc = gpulz_threads_check(v)) == GPULZ_OK)
        *out = (unsigned)v;
    return rc;
}

int gpulz_env_uint(const char *name, unsigned long long max, unsigned long long *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return GPULZ_OK;
    int rc = gpulz_uint_parse(s, max, out);
    if (rc != GPULZ_OK) {
        char why[200];
        strncpy(why, gpulz_last_error(), sizeof why - 1);
        why[sizeof why - 1] = 0;
        return gpulz_fail(rc, "%s=%s: %s", name, s, why);
    }
    return GPULZ_OK;
}
