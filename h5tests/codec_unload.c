/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_unload.c - the shared objects that carry the codec stay loaded after
 * dlclose: the thread pool keeps threads that run their code for the life of
 * the process, and an unmapped library would crash them when next woken.
 * libgpulz compresses with several threads (the pool starts), is closed,
 * and must still be there and still work; libh5gpulz and the HDF5 plugin
 * must stay too.  Links no gpulz library itself.  Skipped (77) where the
 * build made no shared libraries.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulz.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

typedef void (*params_init_fn)(gpulz_params *);
typedef size_t (*bound_fn)(size_t, const gpulz_params *);
typedef int (*compress_fn)(const void *, size_t, void *, size_t, size_t *, const gpulz_params *);

/* Compress 1 MiB of 256-symbol blocks with 4 threads through handle h. */
static int compress_with_threads(void *h)
{
    params_init_fn init = (params_init_fn)dlsym(h, "gpulz_params_init");
    bound_fn bound = (bound_fn)dlsym(h, "gpulz_compress_bound");
    compress_fn compress = (compress_fn)dlsym(h, "gpulz_compress");
    if (!init || !bound || !compress)
        return 0;
    gpulz_params p;
    init(&p);
    p.block_symbols = 256;
    p.threads = 4;
    p.backend = GPULZ_BACKEND_CPU;
    size_t n = (size_t)1 << 20, cap = bound(n, &p), len = 0;
    unsigned char *in = malloc(n), *out = malloc(cap);
    int ok = in && out;
    for (size_t i = 0; ok && i < n; i++)
        in[i] = (unsigned char)(i * 2654435761u >> 13) % 7;
    ok = ok && compress(in, n, out, cap, &len, &p) == GPULZ_OK && len > 0;
    free(in);
    free(out);
    return ok;
}

static void check_stays(const char *dir, const char *name, int compress)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/.libs/%s", dir, name);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK(h, "%s: %s", name, dlerror());
    if (!h)
        return;
    if (compress)
        CHECK(compress_with_threads(h), "%s: compression with threads failed", name);
    dlclose(h);
    h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h, "%s was unloaded by dlclose, its pool threads with it", name);
    if (!h)
        return;
    if (compress)
        CHECK(compress_with_threads(h), "%s: compression after dlclose failed", name);
    dlclose(h);
}

int main(void)
{
    const char *dir = getenv("top_builddir");
    char probe[4096];
    if (!dir)
        dir = ".";
    snprintf(probe, sizeof probe, "%s/.libs/libgpulz.so", dir);
    if (access(probe, R_OK) != 0) {
        printf("no shared libgpulz in %s/.libs: skipped\n", dir);
        return 77;
    }
    check_stays(dir, "libgpulz.so", 1);
    check_stays(dir, "libh5gpulz.so", 0);
    check_stays(dir, "libH5Zgpulz.so", 0);
    if (failures)
        return 1;
    printf("codec_unload: all checks passed\n");
    return 0;
}
