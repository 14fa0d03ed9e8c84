/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli.c - the gpulz command: picks the subcommand and hands it its
 * arguments (argv[0] is the subcommand's name, as getopt expects).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "gpulz_cd.h"
#include "gpulz_cli.h"

typedef struct subcommand {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"compress", cli_compress_main, "compress a raw file into a gpulz chunk (alias -c)"},
    {"decompress", cli_decompress_main, "decompress a gpulz chunk (alias -d)"},
    {"info", cli_info_main, "describe compressed files"},
    {"bench", cli_bench_main, "measure ratio and throughput (a parameter grid, HDF5 files)"},
    {"gen", cli_gen_main, "write generated test data"},
    {"h5repack-args", cli_h5repack_main, "print the h5repack -f argument for gpulz"},
    {"version", NULL, "print the versions"},
    {"help", NULL, "help on the command or a subcommand"},
    {NULL, NULL, NULL}};

static void main_help(void)
{
    printf("Usage: gpulz COMMAND [OPTIONS] [ARGS]\n"
           "Lossless multi-byte LZSS (gpuLZ) compression for HDF5 data, on the CPU\n"
           "or an NVIDIA GPU, one chunk format for both.\n\nCommands:\n");
    for (const subcommand *s = subcommands; s->name; s++)
        printf("  %-14s %s\n", s->name, s->summary);
    printf("\n'gpulz COMMAND --help' describes each command.\n"
           "Exit status: 0 ok, 1 data error (corrupt input, failed round trip),\n"
           "2 usage error, 3 I/O or system error.\n"
           "\nReport bugs to: <" PACKAGE_BUGREPORT ">\n"
           "gpulz home page: <" PACKAGE_URL ">\n");
}

static int version(void)
{
    printf("gpulz %s (library %s, chunk format %d, HDF5 filter id %d, CUDA backend %s)\n",
           PACKAGE_VERSION, gpulz_version_string(), GPULZ_FORMAT_VERSION, H5Z_FILTER_GPULZ,
#ifdef GPULZ_HAVE_CUDA
           "built"
#else
           "not built"
#endif
    );
    return CLI_OK;
}

static const subcommand *find(const char *name)
{
    if (!strcmp(name, "-c") || !strcmp(name, "--compress"))
        name = "compress";
    else if (!strcmp(name, "-d") || !strcmp(name, "--decompress"))
        name = "decompress";
    for (const subcommand *s = subcommands; s->name; s++)
        if (!strcmp(s->name, name))
            return s;
    return NULL;
}

/*
 * A closed stdin, stdout or stderr would be the number of the next file
 * opened (a temporary output, say), and printed text would land in it.
 * /dev/null holds each closed one, opened in the direction that makes its
 * use fail as on a closed descriptor: writes to stdout and reads from stdin
 * fail with EBADF and are reported; stderr just goes nowhere.
 */
static void hold_std_fds(void)
{
    static const int modes[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
            (void)open("/dev/null", modes[fd]); /* the lowest free number: fd itself */
}

/*
 * Text that never reached stdout (a full disk, a closed stdout) is a failed
 * command, exit 3, not a success: flush and close stdout and check.  A
 * command that failed already keeps its own code and message.
 */
static int finish_stdout(int rc)
{
    int e = cli_flush_stdout();
    if (fclose(stdout) != 0 && !e)
        e = errno ? errno : EIO;
    if (!e || rc != CLI_OK)
        return rc;
    return cli_error(CLI_IO, "stdout", "write failed: %s", strerror(e));
}

/* version and help, listed beside the others, take no options */
static int builtin_help(const subcommand *s)
{
    printf("Usage: gpulz %s%s\n%c%s.\n", s->name, strcmp(s->name, "help") ? "" : " [COMMAND]",
           toupper((unsigned char)s->summary[0]), s->summary + 1);
    return CLI_OK;
}

static int run(int argc, char **argv)
{
    if (argc < 2)
        return cli_error(CLI_USAGE, "usage",
                         "gpulz COMMAND [OPTIONS] [ARGS]; 'gpulz --help' lists the commands");
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
        main_help();
        return CLI_OK;
    }
    if (!strcmp(name, "version") || !strcmp(name, "--version") || !strcmp(name, "-V")) {
        if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
            return builtin_help(find("version"));
        if (argc > 2)
            return cli_error(CLI_USAGE, "version", "takes no arguments ('%s' is extra)",
                             argv[2]);
        return version();
    }
    if (!strcmp(name, "help")) {
        if (argc > 3)
            return cli_error(CLI_USAGE, "help", "takes one COMMAND ('%s' is extra)", argv[3]);
        if (argc < 3) {
            main_help();
            return CLI_OK;
        }
        const subcommand *s = find(argv[2]);
        if (s && !s->main)
            return builtin_help(s);
        if (!s)
            return cli_error(CLI_USAGE, "help", "unknown command '%s' (gpulz --help)", argv[2]);
        char *help_argv[] = {(char *)s->name, "--help", NULL};
        return s->main(2, help_argv);
    }
    const subcommand *s = find(name);
    if (!s || !s->main)
        return cli_error(CLI_USAGE, name, "unknown command (gpulz --help lists them)");
    argv[1] = (char *)s->name;
    return s->main(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    hold_std_fds();
    return finish_stdout(run(argc, argv));
}
