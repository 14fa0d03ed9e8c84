/* SPDX-License-Identifier: BSD-3-Clause */
/* codec_golden_parse.c - see codec_golden.h. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_golden.h"

static int append(uint8_t **buf, size_t *len, size_t *cap, uint8_t v, size_t count)
{
    if (*len + count > *cap) {
        size_t ncap = (*len + count) * 2 + 64;
        uint8_t *nb = realloc(*buf, ncap);
        if (!nb)
            return -1;
        *buf = nb;
        *cap = ncap;
    }
    memset(*buf + *len, v, count);
    *len += count;
    return 0;
}

int golden_parse(const char *text, golden *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->checksum = -1;
    size_t caps[2] = {0, 0};
    int section = -1; /* 0 input, 1 output */
    int line = 1;
    const char *p = text;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            line += *p++ == '\n';
        if (!*p)
            break;
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        char tok[64];
        size_t k = 0;
        while (*p && !isspace((unsigned char)*p) && *p != '#' && k < sizeof tok - 1)
            tok[k++] = *p++;
        tok[k] = 0;
        unsigned *field = !strcmp(tok, "symbol_size")     ? &g->S
                          : !strcmp(tok, "window")        ? &g->W
                          : !strcmp(tok, "block_symbols") ? &g->C
                                                          : NULL;
        if (field) {
            char *end;
            unsigned long v = strtoul(p, &end, 10);
            if (end == p) {
                snprintf(err, errlen, "line %d: %s needs a number", line, tok);
                goto fail;
            }
            *field = (unsigned)v;
            p = end;
        } else if (!strcmp(tok, "checksum")) {
            char *end;
            unsigned long v = strtoul(p, &end, 10);
            if (end == p || v > 1) {
                snprintf(err, errlen, "line %d: checksum needs 0 or 1", line);
                goto fail;
            }
            g->checksum = (int)v;
            p = end;
        } else if (!strcmp(tok, "mode")) {
            while (*p == ' ' || *p == '\t')
                p++;
            size_t j = 0;
            while (*p && !isspace((unsigned char)*p) && j < sizeof g->mode - 1)
                g->mode[j++] = *p++;
            g->mode[j] = 0;
        } else if (!strcmp(tok, "input")) {
            section = 0;
        } else if (!strcmp(tok, "output")) {
            section = 1;
        } else {
            char *end;
            unsigned long v = strtoul(tok, &end, 16), count = 1;
            if (end != tok + 2 || v > 255 || section < 0) {
                snprintf(err, errlen, "line %d: unexpected '%s'", line, tok);
                goto fail;
            }
            if (*end == '*') {
                char *e2;
                count = strtoul(end + 1, &e2, 10);
                if (e2 == end + 1 || *e2) {
                    snprintf(err, errlen, "line %d: bad repeat '%s'", line, tok);
                    goto fail;
                }
            } else if (*end) {
                snprintf(err, errlen, "line %d: unexpected '%s'", line, tok);
                goto fail;
            }
            int rc = section == 0 ? append(&g->in, &g->in_len, &caps[0], (uint8_t)v, count)
                                  : append(&g->out, &g->out_len, &caps[1], (uint8_t)v, count);
            if (rc) {
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
        }
    }
    /* format 1 names every parameter; format 2 a mode and the checksum, and
     * no window where its mode has none */
    if (!g->S || !g->C || section != 1 || (g->mode[0] ? g->checksum < 0 : !g->W)) {
        snprintf(err, errlen, "missing symbol_size, window, block_symbols, mode, checksum or output");
        goto fail;
    }
    /* never NULL, so callers can pass them to the codec as they are */
    if (!g->in)
        g->in = malloc(1);
    if (!g->out)
        g->out = malloc(1);
    return 0;
fail:
    golden_free(g);
    return -1;
}

void golden_free(golden *g)
{
    free(g->in);
    free(g->out);
    g->in = g->out = NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int golden_list(const char *dir, char **names, size_t max, size_t *count,
                const char *const *required, size_t nreq, const char **missing)
{
    DIR *D = opendir(dir);
    if (!D)
        return -1;
    struct dirent *e;
    *count = 0;
    while ((e = readdir(D)) && *count < max) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".hex"))
            names[(*count)++] = strdup(e->d_name);
    }
    closedir(D);
    qsort(names, *count, sizeof *names, by_name);
    *missing = NULL;
    for (size_t r = 0; r < nreq && !*missing; r++) {
        size_t i = 0;
        while (i < *count && strcmp(names[i], required[r]))
            i++;
        if (i == *count)
            *missing = required[r];
    }
    return 0;
}

int golden_load(const char *path, golden *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "rb");
    char *t = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (t = malloc((size_t)len + 1)) && fread(t, 1, (size_t)len, f) == (size_t)len) {
        t[len] = 0;
        fclose(f);
        int rc = golden_parse(t, g, err, errlen);
        free(t);
        return rc;
    }
    if (f)
        fclose(f);
    free(t);
    snprintf(err, errlen, "cannot read");
    return -1;
}
