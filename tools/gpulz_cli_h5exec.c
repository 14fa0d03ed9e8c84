/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_h5exec.c - `gpulz bench` on HDF5 files, in the gpulz command:
 * hand the command line to the helper gpulz-h5bench, which links HDF5.
 *
 * Linking HDF5 into gpulz would load it and the libraries it depends on
 * (compression, TLS, Kerberos, LDAP: some 20 MB of address space) into every
 * `gpulz compress` of a pipeline, for the one subcommand that uses it.  The
 * helper is the command built again with HDF5 and the filter; run with the
 * same arguments it takes the same path to the HDF5 mode.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulz_cli.h"

#define HELPER "gpulz-h5bench"

/*
 * Beside this program first: the build tree holds both at its top, and a
 * build tree's gpulz must not run an older installed helper.  Then where
 * make install puts it.  0 with the path in buf, or -1.
 */
static int find_helper(char *buf, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash && (size_t)snprintf(buf, cap, "%.*s/%s", (int)(slash - self), self, HELPER) <
                         cap &&
            access(buf, X_OK) == 0)
            return 0;
    }
    if ((size_t)snprintf(buf, cap, "%s/%s", GPULZ_PKGLIBEXECDIR, HELPER) < cap &&
        access(buf, X_OK) == 0)
        return 0;
    return -1;
}

int cli_bench_h5(const cli_h5bench_opts *o, int nargs, char **args, int argc, char **argv)
{
    char path[PATH_MAX];
    (void)o, (void)nargs, (void)args; /* the helper parses the command line again */
    if (find_helper(path, sizeof path) != 0)
        return cli_error(CLI_IO, "bench",
                         "HDF5 files are benched by " HELPER ", which is neither beside this "
                         "program nor in %s (a build without it, or an installation that "
                         "moved it)",
                         GPULZ_PKGLIBEXECDIR);
    char **hargv = calloc((size_t)argc + 2, sizeof *hargv);
    if (!hargv)
        return cli_error(CLI_IO, "bench", "out of memory");
    hargv[0] = path;
    for (int i = 0; i < argc; i++)
        hargv[i + 1] = argv[i]; /* argv[0] is "bench" */
    /* nothing is buffered yet; flushed anyway, as exec drops stdio's buffers */
    fflush(stdout);
    execv(path, hargv);
    int e = errno;
    free(hargv);
    return cli_error(CLI_IO, "bench", "cannot run %s: %s", path, strerror(e));
}
