/* SPDX-License-Identifier: BSD-3-Clause */
/* errors.c - status texts and the per-thread detail of the last failure. */
#include <stdarg.h>
#include <stdio.h>

#include "gpulz_format.h"

static _Thread_local char last_error[256];

int gpulz_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

const char *gpulz_last_error(void)
{
    return last_error;
}

const char *gpulz_strerror(int status)
{
    switch (status) {
    case GPULZ_OK: return "success";
    case GPULZ_ERR_PARAM: return "invalid parameter";
    case GPULZ_ERR_DST_SIZE: return "output buffer too small";
    case GPULZ_ERR_CORRUPT: return "corrupt or foreign data";
    case GPULZ_ERR_TRUNCATED: return "truncated data";
    case GPULZ_ERR_VERSION: return "unsupported format version or flags";
    case GPULZ_ERR_NOMEM: return "out of memory";
    case GPULZ_ERR_NO_GPU: return "no usable GPU";
    case GPULZ_ERR_CUDA: return "CUDA error";
    default: return "unknown status";
    }
}

const char *gpulz_version_string(void)
{
#define GPULZ_STR2(x) #x
#define GPULZ_STR(x) GPULZ_STR2(x)
    return GPULZ_STR(GPULZ_VERSION_MAJOR) "." GPULZ_STR(GPULZ_VERSION_MINOR) "." GPULZ_STR(
        GPULZ_VERSION_PATCH);
}
