/* SPDX-License-Identifier: BSD-3-Clause */
/* env.c - the parsers of gpulz_env.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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

int gpulz_env_gpu_lanes(unsigned *out)
{
    unsigned long long v = GPULZ_GPU_LANES_DEFAULT;
    *out = GPULZ_GPU_LANES_DEFAULT;
    /* any number parsed, so that one out of range is told 1..MAX, as 0 is */
    int rc = gpulz_env_uint("GPULZ_GPU_LANES", ULLONG_MAX, &v);
    if (rc == GPULZ_OK && (v == 0 || v > GPULZ_GPU_LANES_MAX))
        rc = gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_GPU_LANES=%llu: lanes are 1..%d", v, GPULZ_GPU_LANES_MAX);
    if (rc == GPULZ_OK)
        *out = (unsigned)v;
    return rc;
}

/* The launchers' variables, those of MPI launchers before srun's (gpulz_env.h). */
static const char *const local_rank_vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                              "MV2_COMM_WORLD_LOCAL_RANK",  "PALS_LOCAL_RANKID",
                                              "FLUX_TASK_LOCAL_ID",         "SLURM_LOCALID"};

int gpulz_local_rank(unsigned long long *rank, const char **from)
{
    *rank = 0;
    if (from)
        *from = NULL;
    for (size_t i = 0; i < sizeof local_rank_vars / sizeof local_rank_vars[0]; i++) {
        const char *v = getenv(local_rank_vars[i]);
        if (!v || !*v)
            continue;
        int rc = gpulz_env_uint(local_rank_vars[i], ULLONG_MAX, rank);
        if (rc == GPULZ_OK && from)
            *from = local_rank_vars[i];
        return rc;
    }
    return GPULZ_OK;
}

int gpulz_devices_parse(const char *s, int visible, unsigned long long local_rank, gpulz_devices *out)
{
    gpulz_devices d = {0};
    unsigned long long v = 0;
    if (visible < 1)
        return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE=%s: no CUDA device", s ? s : "");
    if (!s || !*s)
        return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE= is not a device 0..%d", visible - 1);
    if (!strcmp(s, "all")) {
        while ((int)d.count < visible && d.count < GPULZ_DEVICES_MAX) {
            d.dev[d.count] = (int)d.count;
            d.count++;
        }
    } else if (!strcmp(s, "local-rank")) {
        d.dev[d.count++] = (int)(local_rank % (unsigned)visible);
    } else if (!strchr(s, ',')) {
        /* one device: the words gpulz has always used */
        if (gpulz_uint_parse(s, (unsigned long long)visible - 1, &v) != GPULZ_OK)
            return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE=%s is not a device 0..%d", s, visible - 1);
        d.dev[d.count++] = (int)v;
    } else {
        for (const char *item = s;;) {
            const char *comma = strchr(item, ',');
            int len = comma ? (int)(comma - item) : (int)strlen(item);
            char buf[24];
            if (len == 0)
                return gpulz_fail(GPULZ_ERR_PARAM,
                                  "GPULZ_DEVICE=%s: an empty item (a list is devices separated by commas, "
                                  "as in 0,1)",
                                  s);
            /* a longer item is no device number anyway */
            snprintf(buf, sizeof buf, "%.*s", len, item);
            if ((size_t)len >= sizeof buf ||
                gpulz_uint_parse(buf, (unsigned long long)visible - 1, &v) != GPULZ_OK)
                return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE=%s: '%.*s' is not a device 0..%d", s, len,
                                  item, visible - 1);
            for (unsigned k = 0; k < d.count; k++)
                if (d.dev[k] == (int)v)
                    return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE=%s: device %llu is named twice", s, v);
            if (d.count == GPULZ_DEVICES_MAX)
                return gpulz_fail(GPULZ_ERR_PARAM, "GPULZ_DEVICE=%s: more than %d devices", s,
                                  GPULZ_DEVICES_MAX);
            d.dev[d.count++] = (int)v;
            if (!comma)
                break;
            item = comma + 1;
        }
    }
    *out = d;
    return GPULZ_OK;
}

int gpulz_env_devices(int visible, gpulz_devices *out)
{
    const char *s = getenv("GPULZ_DEVICE");
    unsigned long long rank = 0;
    out->count = 0;
    if (!s || !*s)
        return GPULZ_OK;
    if (!strcmp(s, "local-rank")) {
        int rc = gpulz_local_rank(&rank, NULL);
        if (rc != GPULZ_OK) {
            char why[200];
            strncpy(why, gpulz_last_error(), sizeof why - 1);
            why[sizeof why - 1] = 0;
            return gpulz_fail(rc, "GPULZ_DEVICE=local-rank: %s", why);
        }
    }
    return gpulz_devices_parse(s, visible, rank, out);
}
