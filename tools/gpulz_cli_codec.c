/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_codec.c - `gpulz compress` and `gpulz decompress`: one raw file
 * (or stdin) becomes one gpulz chunk (or stdout) and back, in memory.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulz_cli.h"

#define SUFFIX ".gplz"

static const char compress_help[] =
    "Usage: gpulz compress [OPTIONS] [IN] [-o OUT]\n"
    "Compress the raw file IN into one gpulz chunk (docs/FORMAT.md).\n"
    "IN '-' or absent reads stdin; OUT defaults to IN" SUFFIX ", or stdout when\n"
    "reading stdin; OUT '-' is stdout.  IN is kept.  A device or FIFO OUT is\n"
    "written in place; a symbolic link is written through (docs/cli.md).\n"
    "\n"
    "  -s, --symbol S     symbol size in bytes: 1, 2, 4 or 8 (default 1;\n"
    "                     the element size of the data is usually best)\n"
    "  -l, --level L      1-4: window 32, 64, 128, 255 (default 3)\n"
    "  -1 .. -4           the same as --level 1 .. 4\n"
    "  -w, --window W     window in symbols, 1..255 (default 128)\n"
    "  -b, --block C      block size in symbols, a power of two 256..16384\n"
    "                     (default 2048)\n"
    "  -a, --adaptive     also try symbol size 1 where the ratio is under 1.5\n"
    "      --mode M       auto (default): per chunk the shorter of fast and\n"
    "                     ratio; fast: a transform and rANS entropy coding;\n"
    "                     ratio: transform, LZSS and rANS (these three write\n"
    "                     chunk format 2); lz: chunk format 1, multi-byte LZSS\n"
    "                     alone, which gpulz 0.1 reads\n"
    "      --no-checksum  fast, ratio, auto: no checksum of the data in the chunk\n"
    "  -t, --threads N    CPU threads, 0..%d, 0 = one per core (default 0)\n"
    "      --backend B    auto, cpu or gpu (default auto; gpu fails without a GPU)\n"
    "  -o, --output OUT   where to write\n"
    "  -f, --force        replace an existing OUT file; write binary to a terminal\n"
    "  -v, --verbose      report sizes, ratio and the backend used on stderr\n"
    "  -q, --quiet        no progress line (shown on a terminal for inputs over\n"
    "                     64 MiB)\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0 ok, 1 data error, 2 usage error, 3 I/O or system error.\n";

static const char decompress_help[] =
    "Usage: gpulz decompress [OPTIONS] [IN] [-o OUT]\n"
    "Decompress the gpulz chunk IN back into its raw bytes.\n"
    "IN '-' or absent reads stdin; OUT defaults to IN without its " SUFFIX "\n"
    "suffix, or stdout when reading stdin; OUT '-' is stdout.  IN is kept.\n"
    "A device or FIFO OUT is written in place; a symbolic link is written\n"
    "through (docs/cli.md).\n"
    "Every parameter comes from the chunk itself.\n"
    "\n"
    "  -t, --threads N    CPU threads, 0..%d, 0 = one per core (default 0)\n"
    "      --backend B    auto, cpu or gpu (default auto)\n"
    "  -o, --output OUT   where to write\n"
    "  -f, --force        replace an existing OUT file; read from or write to a\n"
    "                     terminal\n"
    "  -v, --verbose      report sizes and the backend used on stderr\n"
    "  -q, --quiet        no progress line (shown on a terminal for inputs or\n"
    "                     outputs over 64 MiB)\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0 ok, 1 corrupt or truncated input, 2 usage error,\n"
    "3 I/O or system error.  On failure no output file is left behind.\n";

enum { OPT_BACKEND = 256 };

typedef struct codec_args {
    gpulz_params p;
    const char *in, *out;
    int force, verbose, quiet;
} codec_args;

/* Parse the options of compress (compress = 1) or decompress; -1 means --help was shown. */
static int parse_args(int compress, int argc, char **argv, codec_args *A)
{
    const char *cmd = compress ? "compress" : "decompress";
    static const struct option opts[] = {{"symbol", required_argument, NULL, 's'},
                                         {"level", required_argument, NULL, 'l'},
                                         {"window", required_argument, NULL, 'w'},
                                         {"block", required_argument, NULL, 'b'},
                                         {"adaptive", no_argument, NULL, 'a'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"backend", required_argument, NULL, OPT_BACKEND},
                                         {"output", required_argument, NULL, 'o'},
                                         {"force", no_argument, NULL, 'f'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         CLI_FORMAT_LONG_OPTS,
                                         {NULL, 0, NULL, 0}};
    /* decompress knows compress's options too, to say they are compress's */
    const char *optstring = ":s:l:w:b:at:o:fvqh1234";
    int c, longindex = -1;
    cli_format_opts F;
    gpulz_params_init(&A->p);
    cli_format_opts_init(&F, A->p.symbol_size);
    A->in = A->out = NULL;
    A->force = A->verbose = A->quiet = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, optstring, opts, &longindex)) != -1) {
        if (!compress && (c == 's' || c == 'l' || c == 'w' || c == 'b' || c == 'a' ||
                          (c >= '1' && c <= '4') || c == CLI_OPT_MODE ||
                          c == CLI_OPT_NO_CHECKSUM)) {
            /* the option's name (argv[optind - 1] may be its value) */
            if (longindex >= 0)
                return cli_usage_error(
                    cmd, "option '--%s' is for compress; the chunk holds its parameters",
                    opts[longindex].name);
            return cli_usage_error(cmd,
                                   "option '-%c' is for compress; the chunk holds its parameters",
                                   c);
        }
        longindex = -1;
        int taken = cli_format_option(cmd, c, optarg, 1, &F);
        if (taken >= 0) {
            if (taken)
                return taken;
            continue;
        }
        switch (c) {
        case 't':
            if (cli_parse_threads(cmd, "--threads", optarg, &A->p.threads))
                return CLI_USAGE;
            break;
        case OPT_BACKEND:
            if (cli_parse_backend(cmd, optarg, &A->p.backend))
                return CLI_USAGE;
            break;
        case 'o':
            A->out = optarg;
            break;
        case 'f':
            A->force = 1;
            break;
        case 'v':
            A->verbose = 1;
            break;
        case 'q':
            A->quiet = 1;
            break;
        case 'h':
            printf(compress ? compress_help : decompress_help, GPULZ_THREADS_MAX);
            return -1;
        default:
            return cli_getopt_error(cmd, c, argv);
        }
    }
    A->p.symbol_size = (unsigned)F.symbol;
    A->p.window = (unsigned)F.window;
    A->p.block_symbols = (unsigned)F.block;
    A->p.flags = (unsigned)F.flags;
    A->p.mode = F.mode;
    if (compress && cli_format_opts_finish(cmd, &F))
        return CLI_USAGE;
    if (argc - optind > 1)
        return cli_usage_error(cmd, "one input at a time ('%s' is extra)", argv[optind + 1]);
    if (optind < argc)
        A->in = argv[optind];
    return 0;
}

/* OUT when not given: IN.gplz / IN minus .gplz, or stdout for stdin.  NULL on error. */
static char *default_output(int compress, const char *in, int *rc)
{
    *rc = 0;
    if (cli_is_std(in))
        return strdup("-");
    size_t len = strlen(in), slen = strlen(SUFFIX);
    if (compress) {
        char *out = malloc(len + slen + 1);
        if (out) {
            memcpy(out, in, len);
            memcpy(out + len, SUFFIX, slen + 1);
        }
        return out;
    }
    if (len <= slen || strcmp(in + len - slen, SUFFIX)) {
        *rc = cli_usage_error("decompress", "%s: no %s suffix to strip; name the output with -o",
                              in, SUFFIX);
        return NULL;
    }
    return strndup(in, len - slen);
}

static void report(int compress, const char *in, const char *out, size_t n, size_t len)
{
    const char *why;
    gpulz_backend b = gpulz_last_backend(&why);
    size_t raw = compress ? n : len, packed = compress ? len : n;
    fprintf(stderr, "gpulz: %s -> %s: %zu -> %zu bytes, ratio %.3f, %s (%s)\n", cli_name(in, 0),
            cli_name(out, 1), n, len, (double)raw / (double)packed, gpulz_backend_name(b), why);
}

static int run(int compress, int argc, char **argv)
{
    const char *cmd = compress ? "compress" : "decompress";
    codec_args A;
    cli_output O = {.fd = -1};
    uint8_t *src = NULL, *dst = NULL;
    size_t n = 0, len = 0;
    char *out = NULL;
    cli_progress *pg = NULL;
    int rc = parse_args(compress, argc, argv, &A);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    out = A.out ? strdup(A.out) : default_output(compress, A.in, &rc);
    if (!out)
        return rc ? rc : cli_error(CLI_IO, cmd, "out of memory");
    if ((rc = cli_check_binary_stdout(cmd, out, A.force)))
        goto done;
    if (!compress && cli_is_std(A.in) && !A.force && isatty(STDIN_FILENO)) {
        rc = cli_usage_error(cmd, "refusing to read compressed data from a terminal");
        goto done;
    }
    /* the input is kept, even with -f */
    if (cli_output_is_input(cmd, A.in, out)) {
        rc = CLI_USAGE;
        goto done;
    }
    /* the output first: a destination that cannot be written fails before
     * the work, not after it */
    if ((rc = cli_output_open(&O, out, A.force)))
        goto done;
    pg = cli_progress_start(cmd, A.quiet);
    if ((rc = compress ? cli_read_all_progress(A.in, &src, &n, pg) : cli_read_chunk_progress(A.in, &src, &n, pg)))
        goto done;
    if (compress) {
        size_t cap = gpulz_compress_bound(n, &A.p);
        if (cap == 0) {
            rc = cli_error(CLI_IO, cli_name(A.in, 0), "%zu bytes is too large to compress", n);
            goto done;
        }
        if (!(dst = malloc(cap))) {
            rc = cli_error(CLI_IO, cli_name(A.in, 0), "cannot allocate %zu bytes", cap);
            goto done;
        }
        if (n >= CLI_PROGRESS_MIN_BYTES)
            cli_progress_set(pg, "%s: compressing %.0f MiB", cli_name(A.in, 0),
                             (double)n / (1 << 20));
        int st = gpulz_compress(src, n, dst, cap, &len, &A.p);
        if (st != GPULZ_OK) {
            rc = cli_codec_error(cli_name(A.in, 0), st);
            goto done;
        }
    } else {
        gpulz_chunk_info info;
        int st = gpulz_chunk_info_get(src, n, &info);
        if (st != GPULZ_OK) {
            rc = cli_codec_error(cli_name(A.in, 0), st);
            goto done;
        }
        if (info.uncompressed_size > SIZE_MAX) {
            rc = cli_error(CLI_IO, cli_name(A.in, 0), "%llu bytes do not fit this machine's memory",
                           (unsigned long long)info.uncompressed_size);
            goto done;
        }
        size_t cap = (size_t)info.uncompressed_size;
        if (!(dst = malloc(cap ? cap : 1))) {
            rc = cli_error(CLI_IO, cli_name(A.in, 0), "cannot allocate %zu bytes", cap);
            goto done;
        }
        if (n >= CLI_PROGRESS_MIN_BYTES || cap >= CLI_PROGRESS_MIN_BYTES)
            cli_progress_set(pg, "%s: decompressing %.0f MiB", cli_name(A.in, 0),
                             (double)cap / (1 << 20));
        st = gpulz_decompress(src, n, dst, cap, &len, &A.p);
        if (st != GPULZ_OK) {
            rc = cli_codec_error(cli_name(A.in, 0), st);
            goto done;
        }
    }
    /* the input buffer is no longer needed: give it back before the write */
    free(src);
    src = NULL;
    if ((rc = cli_output_write_progress(&O, dst, len, pg)) || (rc = cli_output_commit(&O)))
        goto done;
    cli_progress_end(pg);
    pg = NULL;
    if (A.verbose)
        report(compress, A.in, out, n, len);
done:
    cli_progress_end(pg);
    cli_output_abort(&O); /* after a failure: no partial output stays */
    free(src);
    free(dst);
    free(out);
    return rc;
}

int cli_compress_main(int argc, char **argv)
{
    return run(1, argc, argv);
}

int cli_decompress_main(int argc, char **argv)
{
    return run(0, argc, argv);
}
