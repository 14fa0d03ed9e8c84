/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_util.c - error reporting and the parsers of numbers, sizes,
 * lists and codec options that every subcommand shares.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_cli.h"

int cli_error(int code, const char *what, const char *fmt, ...)
{
    va_list ap;
    cli_progress_hide(cli_progress_active());
    fprintf(stderr, "gpulz: %s: ", what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    cli_progress_hide(cli_progress_active());
    fprintf(stderr, "gpulz: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'gpulz %s --help'.\n", cmd);
    return CLI_USAGE;
}

int cli_status_code(int status)
{
    switch (status) {
    case GPULZ_OK:
        return CLI_OK;
    case GPULZ_ERR_CORRUPT:
    case GPULZ_ERR_TRUNCATED:
    case GPULZ_ERR_VERSION:
        return CLI_DATA;
    case GPULZ_ERR_PARAM:
        return CLI_USAGE;
    default: /* no memory, no thread, no GPU, a CUDA failure: the system, not the data */
        return CLI_IO;
    }
}

int cli_codec_error(const char *what, int status)
{
    const char *detail = gpulz_last_error();
    if (detail && *detail)
        return cli_error(cli_status_code(status), what, "%s (%s)", gpulz_strerror(status), detail);
    return cli_error(cli_status_code(status), what, "%s", gpulz_strerror(status));
}

int cli_parse_uint(const char *cmd, const char *opt, const char *s, unsigned long lo,
                   unsigned long hi, unsigned long *out)
{
    unsigned long long v;
    if (gpulz_uint_parse(s, ULONG_MAX, &v) != GPULZ_OK)
        return cli_usage_error(cmd, "%s: '%s' is not a number", opt, s);
    if (v < lo || v > hi)
        return cli_usage_error(cmd, "%s: %llu is out of %lu..%lu", opt, v, lo, hi);
    *out = (unsigned long)v;
    return 0;
}

int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    /* decimal, as the options say: base 0 read --seed 010 as 8 and refused 08 */
    unsigned long long v = (*s >= '0' && *s <= '9') ? strtoull(s, &end, 10) : 0;
    if (!(*s >= '0' && *s <= '9') || *end || errno)
        return cli_usage_error(cmd, "%s: '%s' is not a number", opt, s);
    *out = v;
    return 0;
}

int cli_parse_size(const char *cmd, const char *opt, const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (!(*s >= '0' && *s <= '9'))
        return cli_usage_error(cmd, "%s: '%s' is not a size (bytes, or with K, M, G, T)", opt, s);
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    switch (*end) {
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    case 't':
    case 'T':
        shift = 40;
        end++;
        break;
    default:
        break;
    }
    if (shift && (*end == 'i' || *end == 'I') && (end[1] == 'B' || end[1] == 'b'))
        end += 2;
    else if (shift && (*end == 'B' || *end == 'b'))
        end++;
    if (*end || (errno && errno != ERANGE))
        return cli_usage_error(cmd, "%s: '%s' is not a size (bytes, or with K, M, G, T)", opt, s);
    if (errno == ERANGE || v > (SIZE_MAX >> shift))
        return cli_usage_error(cmd, "%s: %s is too large for this machine", opt, s);
    *out = (size_t)(v << shift);
    return 0;
}

int cli_parse_list(const char *cmd, const char *opt, const char *s, cli_value_check check,
                   unsigned *out, unsigned cap, unsigned *count)
{
    unsigned k = 0;
    const char *p = s;
    char item[32];
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof item)
            return cli_usage_error(cmd, "%s: '%s' is not a comma list of numbers", opt, s);
        if (k == cap)
            return cli_usage_error(cmd, "%s: more than %u values", opt, cap);
        memcpy(item, p, len);
        item[len] = 0;
        unsigned long v;
        if (cli_parse_uint(cmd, opt, item, 0, 65535, &v) || (check && check(cmd, opt, v)))
            return CLI_USAGE;
        out[k++] = (unsigned)v;
        if (!p[len])
            break;
        p += len + 1;
    }
    *count = k;
    return 0;
}

int cli_check_symbol(const char *cmd, const char *opt, unsigned long v)
{
    if (v != 1 && v != 2 && v != 4 && v != 8)
        return cli_usage_error(cmd, "%s: symbol size %lu is not 1, 2, 4 or 8", opt, v);
    return 0;
}

int cli_check_window(const char *cmd, const char *opt, unsigned long v)
{
    if (v < GPULZ_WINDOW_MIN || v > GPULZ_WINDOW_MAX)
        return cli_usage_error(cmd, "%s: window %lu is out of %d..%d", opt, v, GPULZ_WINDOW_MIN,
                               GPULZ_WINDOW_MAX);
    return 0;
}

int cli_check_level(const char *cmd, const char *opt, unsigned long v)
{
    if (v < GPULZ_LEVEL_MIN || v > GPULZ_LEVEL_MAX)
        return cli_usage_error(cmd, "%s: level %lu is out of %d..%d", opt, v, GPULZ_LEVEL_MIN,
                               GPULZ_LEVEL_MAX);
    return 0;
}

int cli_check_block(const char *cmd, const char *opt, unsigned long v)
{
    if (v < GPULZ_BLOCK_MIN || v > GPULZ_BLOCK_MAX || (v & (v - 1)))
        return cli_usage_error(cmd, "%s: block size %lu is not a power of two in %d..%d symbols",
                               opt, v, GPULZ_BLOCK_MIN, GPULZ_BLOCK_MAX);
    return 0;
}

void cli_format_opts_init(cli_format_opts *o, unsigned long symbol)
{
    o->symbol = symbol;
    o->window = GPULZ_WINDOW_DEFAULT;
    o->block = GPULZ_BLOCK_DEFAULT;
    o->flags = 0;
    o->mode = GPULZ_MODE_DEFAULT;
    o->level_set = o->window_set = 0;
}

int cli_parse_mode(const char *cmd, const char *opt, const char *s, gpulz_mode *out)
{
    for (int m = 0; m < GPULZ_MODE_COUNT; m++)
        if (!strcmp(s, gpulz_mode_name((gpulz_mode)m))) {
            *out = (gpulz_mode)m;
            return 0;
        }
    return cli_usage_error(cmd, "%s: '%s' is not lz, fast, ratio or auto", opt, s);
}

int cli_format_opts_finish(const char *cmd, const cli_format_opts *o)
{
    if ((o->flags & GPULZ_FLAG_NO_CHECKSUM) && o->mode == GPULZ_MODE_LZ)
        return cli_usage_error(cmd, "--no-checksum is for modes fast, ratio and auto (lz chunks "
                                    "carry no checksum)");
    return 0;
}

int cli_format_option(const char *cmd, int c, const char *arg, unsigned long symbol_min,
                      cli_format_opts *o)
{
    unsigned long v;
    switch (c) {
    case 's':
        if (cli_parse_uint(cmd, "--symbol", arg, symbol_min, 8, &v) ||
            (v && cli_check_symbol(cmd, "--symbol", v)))
            return CLI_USAGE;
        o->symbol = v;
        return 0;
    case 'l':
    case '1':
    case '2':
    case '3':
    case '4':
        /* -1 .. -4 carry their level in the option letter */
        v = (unsigned long)(c - '0');
        if (c == 'l' && cli_parse_uint(cmd, "--level", arg, GPULZ_LEVEL_MIN, GPULZ_LEVEL_MAX, &v))
            return CLI_USAGE;
        if (o->window_set)
            return cli_usage_error(cmd, "give --level or --window, not both");
        o->window = gpulz_level_window((int)v);
        o->level_set = 1;
        return 0;
    case 'w':
        if (o->level_set)
            return cli_usage_error(cmd, "give --level or --window, not both");
        if (cli_parse_uint(cmd, "--window", arg, GPULZ_WINDOW_MIN, GPULZ_WINDOW_MAX, &v))
            return CLI_USAGE;
        o->window = v;
        o->window_set = 1;
        return 0;
    case 'b':
        /* the range is cli_check_block's to name: a power of two in MIN..MAX */
        if (cli_parse_uint(cmd, "--block", arg, 0, ULONG_MAX, &v) || cli_check_block(cmd, "--block", v))
            return CLI_USAGE;
        o->block = v;
        return 0;
    case 'a':
        o->flags |= GPULZ_FLAG_ADAPTIVE;
        return 0;
    case CLI_OPT_MODE:
        return cli_parse_mode(cmd, "--mode", arg, &o->mode) ? CLI_USAGE : 0;
    case CLI_OPT_NO_CHECKSUM:
        o->flags |= GPULZ_FLAG_NO_CHECKSUM;
        return 0;
    default:
        return -1;
    }
}

/* The library's parsers of settings leave their reason in gpulz_last_error(). */
static int setting_error(const char *cmd, const char *opt)
{
    return cli_usage_error(cmd, "%s: %s", opt, gpulz_last_error());
}

int cli_check_threads(const char *cmd, const char *opt, unsigned long v)
{
    return gpulz_threads_check(v) != GPULZ_OK ? setting_error(cmd, opt) : 0;
}

int cli_parse_threads(const char *cmd, const char *opt, const char *s, unsigned *out)
{
    return gpulz_threads_parse(s, out) != GPULZ_OK ? setting_error(cmd, opt) : 0;
}

int cli_parse_backend(const char *cmd, const char *s, gpulz_backend *out)
{
    return gpulz_backend_parse(s, out) != GPULZ_OK ? setting_error(cmd, "--backend") : 0;
}

int cli_getopt_error(const char *cmd, int c, char *const argv[])
{
    /* optstrings start with ':' so a missing value returns ':', not '?' */
    const char *arg = optind > 0 ? argv[optind - 1] : NULL;
    int is_long = arg && arg[0] == '-' && arg[1] == '-';
    if (c == ':')
        return is_long || !optopt ? cli_usage_error(cmd, "option '%s' needs a value", arg)
                                  : cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    if (optopt && !is_long)
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", arg ? arg : "?");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
