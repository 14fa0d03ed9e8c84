/* SPDX-License-Identifier: BSD-3-Clause */
/* corpus.c - the reader of the benchmark corpus shared by the benchmark programs. */
#include "corpus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int corpus_in_list(const char *list, const char *name)
{
    if (!list || !*list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

int corpus_open(corpus *c, const char *prog, const char *manifest, const char *datadir, const char *only)
{
    c->prog = prog;
    c->only = only;
    if (datadir) {
        snprintf(c->dir, sizeof c->dir, "%s", datadir);
    } else {
        const char *slash = strrchr(manifest, '/');
        snprintf(c->dir, sizeof c->dir, "%.*s", slash ? (int)(slash - manifest) : 1, slash ? manifest : ".");
    }
    c->manifest = fopen(manifest, "r");
    if (!c->manifest) {
        fprintf(stderr, "%s: cannot open %s: %s (build the corpus with bench/data/make_corpus.py)\n", prog,
                manifest, strerror(errno));
        return -1;
    }
    return 0;
}

/* The file extension and element size of a manifest dtype; NULL if unknown. */
static const char *dtype_ext(const char *dtype, unsigned *elsize)
{
    static const struct {
        const char *name, *ext;
        unsigned size;
    } types[] = {{"float32", "f32", 4}, {"uint16", "u16", 2}, {"int16", "i16", 2},
                 {"int32", "i32", 4},   {"uint8", "u8", 1},   {"float64", "f64", 8}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dtype, types[i].name) == 0) {
            *elsize = types[i].size;
            return types[i].ext;
        }
    return NULL;
}

/* Fill a's rank and dims from its shape (like 20x180x360); -1 if malformed. */
static int parse_shape(corpus_array *a)
{
    a->rank = 0;
    const char *p = a->shape;
    while (*p) {
        char *end;
        unsigned long long d = strtoull(p, &end, 10);
        if (end == p || d == 0 || a->rank == CORPUS_MAX_RANK || (*end && *end != 'x'))
            return -1;
        a->dims[a->rank++] = d;
        p = *end ? end + 1 : end;
    }
    return a->rank ? 0 : -1;
}

int corpus_next(corpus *c, corpus_array *a)
{
    char line[1024], path[4400];
    const char *ext = NULL;
    FILE *f = NULL;
    int rc = -1;

    memset(a, 0, sizeof *a);
    for (;;) {
        if (!fgets(line, sizeof line, c->manifest))
            return 0;
        if (line[0] != '#' &&
            sscanf(line, "%127s %15s %127s %zu", a->name, a->dtype, a->shape, &a->bytes) == 4 &&
            corpus_in_list(c->only, a->name))
            break;
    }
    if (!(ext = dtype_ext(a->dtype, &a->elsize))) {
        fprintf(stderr, "%s: %s: unknown dtype %s\n", c->prog, a->name, a->dtype);
        goto done;
    }
    uint64_t count = 1;
    if (parse_shape(a) < 0) {
        fprintf(stderr, "%s: %s: malformed shape %s\n", c->prog, a->name, a->shape);
        goto done;
    }
    for (int i = 0; i < a->rank; i++)
        count *= a->dims[i];
    if (count * a->elsize != a->bytes) {
        fprintf(stderr, "%s: %s: shape %s and %zu bytes disagree\n", c->prog, a->name, a->shape, a->bytes);
        goto done;
    }
    snprintf(path, sizeof path, "%s/%s.%s", c->dir, a->name, ext);
    errno = 0;
    if (!(f = fopen(path, "rb")) || !(a->data = malloc(a->bytes ? a->bytes : 1)) ||
        fread(a->data, 1, a->bytes, f) != a->bytes) {
        fprintf(stderr, "%s: cannot read %zu bytes of %s%s%s\n", c->prog, a->bytes, path, errno ? ": " : "",
                errno ? strerror(errno) : "");
        free(a->data);
        a->data = NULL;
        goto done;
    }
    rc = 1;
done:
    if (f)
        fclose(f);
    return rc;
}

void corpus_close(corpus *c)
{
    if (c->manifest)
        fclose(c->manifest);
    c->manifest = NULL;
}
