/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli.h - what the files of the gpulz command share: exit codes, the
 * error and usage reporters, argument parsers, whole-file I/O and the
 * subcommand entry points.  The command sits on the public gpulz.h, the
 * parsers of settings it shares with the HDF5 filter (gpulz_env.h), the
 * filter's contract (gpulz_cd.h, no HDF5) and the data generators of
 * datagen.h; bench on HDF5 files (gpulz_cli_h5bench.c alone) adds HDF5 and
 * the filter itself.
 */
#ifndef GPULZ_CLI_H
#define GPULZ_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "gpulz.h"
#include "gpulz_env.h"

/* Exit codes a script can rely on (documented in docs/cli.md). */
enum {
    CLI_OK = 0,
    CLI_DATA = 1,  /* corrupt, truncated or unreadable compressed data; a failed round trip */
    CLI_USAGE = 2, /* a bad command line */
    CLI_IO = 3     /* a file that cannot be read or written; out of memory; no usable GPU */
};

/* ---- reporting (gpulz_cli_util.c) ---------------------------------------------- */

/* "gpulz: <what>: <detail>" on stderr; returns code so callers can `return cli_error(...)`. */
int cli_error(int code, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A usage error of subcommand cmd: the message, then a pointer to its --help; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit code of a codec status: data errors 1, parameters 2, the rest 3. */
int cli_status_code(int status);

/* Report a failed codec call on `what` with the library's detail; returns its exit code. */
int cli_codec_error(const char *what, int status);

/* ---- argument parsing (gpulz_cli_util.c) --------------------------------------- */

/* An unsigned decimal in lo..hi; 0 on success, else a usage error was printed. */
int cli_parse_uint(const char *cmd, const char *opt, const char *s, unsigned long lo,
                   unsigned long hi, unsigned long *out);

/* An unsigned 64-bit number, decimal or 0x hexadecimal (seeds). */
int cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);

/* A byte count with an optional K, M, G or T suffix (powers of 1024). */
int cli_parse_size(const char *cmd, const char *opt, const char *s, size_t *out);

/*
 * A comma list of unsigned values, each checked by check() (NULL: any), at
 * most cap of them; *count receives how many.  0 on success.
 */
typedef int (*cli_value_check)(const char *cmd, const char *opt, unsigned long v);
int cli_parse_list(const char *cmd, const char *opt, const char *s, cli_value_check check,
                   unsigned *out, unsigned cap, unsigned *count);

/* The checks of the codec options, shared by compress, bench and h5repack-args. */
int cli_check_symbol(const char *cmd, const char *opt, unsigned long v);
int cli_check_window(const char *cmd, const char *opt, unsigned long v);
int cli_check_level(const char *cmd, const char *opt, unsigned long v);
int cli_check_block(const char *cmd, const char *opt, unsigned long v);
int cli_check_threads(const char *cmd, const char *opt, unsigned long v);

/* A thread count, 0..GPULZ_THREADS_MAX (gpulz_threads_parse()); 0 on success. */
int cli_parse_threads(const char *cmd, const char *opt, const char *s, unsigned *out);

/*
 * The options that shape the compressed bytes, as compress and h5repack-args
 * take them: -s/--symbol, -l/--level (and -1..-4), -w/--window, -b/--block,
 * -a/--adaptive, --mode (CLI_OPT_MODE) and --no-checksum
 * (CLI_OPT_NO_CHECKSUM).  A symbol size of 0 (from the datatype) is allowed
 * only where symbol_min is 0.
 */
enum { CLI_OPT_MODE = 0x200, CLI_OPT_NO_CHECKSUM = 0x201 }; /* beyond every subcommand's own */
/* their entries of a struct option table (getopt.h) */
#define CLI_FORMAT_LONG_OPTS                                                                 \
    {"mode", required_argument, NULL, CLI_OPT_MODE},                                         \
        {"no-checksum", no_argument, NULL, CLI_OPT_NO_CHECKSUM}
typedef struct cli_format_opts {
    unsigned long symbol, window, block, flags;
    gpulz_mode mode;
    int level_set, window_set;
} cli_format_opts;
void cli_format_opts_init(cli_format_opts *o, unsigned long symbol);
/* getopt's c with its argument: 0 taken, CLI_USAGE on a bad value, -1 not a format option. */
int cli_format_option(const char *cmd, int c, const char *arg, unsigned long symbol_min,
                      cli_format_opts *o);
/* After the last option: the checks across options (--no-checksum needs a mode
 * with a checksum); 0 or CLI_USAGE. */
int cli_format_opts_finish(const char *cmd, const cli_format_opts *o);

/* lz, fast, ratio or auto (gpulz_mode_name()); 0 on success. */
int cli_parse_mode(const char *cmd, const char *opt, const char *s, gpulz_mode *out);

/* auto, cpu or gpu (gpulz_backend_parse(); gpulz_backend_name() names one); 0 on success. */
int cli_parse_backend(const char *cmd, const char *s, gpulz_backend *out);

/* Report getopt_long's ':' or '?' return c for cmd; returns CLI_USAGE. */
int cli_getopt_error(const char *cmd, int c, char *const argv[]);

/* ---- whole-file I/O (gpulz_cli_io.c) ------------------------------------------- */

/* "-" or NULL means stdin or stdout. */
int cli_is_std(const char *path);

/* Read all of path (stdin for "-") into *buf (malloc'd, *len bytes); 0 or CLI_IO. */
int cli_read_all(const char *path, uint8_t **buf, size_t *len);

/*
 * An output being written.  What path names decides how:
 *  - "-" (or NULL): stdout, written in place;
 *  - /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N: that open
 *    descriptor of the process (a shell's > or >> file, a pipe), written in
 *    place through a copy of it, never replaced, truncated or renamed;
 *  - an existing character or block device or FIFO (/dev/null, a named
 *    pipe), also through symbolic links: written in place as a stream,
 *    never created, truncated or renamed, so no force is needed; binary
 *    data to a terminal device is refused without force, as on stdout;
 *  - a regular file, new or existing: written to a temporary file beside it
 *    and renamed into place when complete, so that a failure never leaves a
 *    partial output; an existing file is replaced only with force and the
 *    replacement keeps its permission bits (and owner and group where the
 *    process may set them);
 *  - a symbolic link to a regular file: the same for the file the link
 *    resolves to, with the temporary beside that file; the link stays.  A
 *    dangling link is refused (nothing says where its target should go);
 *  - a directory, a socket or anything else: refused.
 */
typedef struct cli_output {
    const char *name; /* for messages: the path as given, or "stdout" */
    char *target;     /* the regular file renamed over (path, or what a link resolves to) */
    char *tmp;        /* the temporary beside target; NULL for a stream */
    int fd;           /* -1 when closed */
    int force;
} cli_output;

/* Open the output as above: 0, CLI_USAGE (a terminal) or CLI_IO, with the message printed. */
int cli_output_open(cli_output *o, const char *path, int force);

/* Whether the output path names the same file as the input path (both
 * existing, links followed): 1 (the message printed, CLI_USAGE meant), or 0. */
int cli_output_is_input(const char *cmd, const char *in, const char *out);

/* Write len bytes: 0, or CLI_IO with the message printed. */
int cli_output_write(cli_output *o, const void *buf, size_t len);

/* Finish: close, and rename a temporary into place.  0, or CLI_IO with the
 * message printed and the temporary removed. */
int cli_output_commit(cli_output *o);

/* Give up: close and remove the temporary.  Harmless after commit or a failed open. */
void cli_output_abort(cli_output *o);

/*
 * Flush stdout: 0, or the errno of its first failure (EIO where stdio lost
 * it), which stays the answer from then on.  Text that never reached stdout
 * makes the command fail with CLI_IO (main() checks at the end; long
 * commands check as they go, to stop early).
 */
int cli_flush_stdout(void);

/* cli_read_all() telling pg how far it got (NULL: silent), where the input
 * is large (CLI_PROGRESS_MIN_BYTES, or more read from a pipe). */
typedef struct cli_progress cli_progress;
int cli_read_all_progress(const char *path, uint8_t **buf, size_t *len, cli_progress *pg);
/* The same for a gpulz chunk: reading stops as soon as the first bytes
 * are not the chunk magic (CLI_DATA, the message printed). */
int cli_read_chunk_progress(const char *path, uint8_t **buf, size_t *len, cli_progress *pg);

/* cli_output_write() telling pg how far it got, where len is large. */
int cli_output_write_progress(cli_output *o, const void *buf, size_t len, cli_progress *pg);

/* Refuse binary data to a terminal on stdout unless forced; 0 or CLI_USAGE. */
int cli_check_binary_stdout(const char *cmd, const char *path, int force);

/* The path as messages show it ("stdin"/"stdout" for "-"). */
const char *cli_name(const char *path, int output);

/* ---- the progress line (gpulz_cli_progress.c) --------------------------------- */

/*
 * One line on stderr, "gpulz CMD: <text> (<seconds> s)", rewritten in place
 * and redrawn every second, for commands that run long: only where stderr
 * is a terminal and quiet (-q) is not set; otherwise cli_progress_start()
 * returns NULL, which every function takes and ignores.  Error messages
 * (cli_error, cli_usage_error) erase the line first; output to stdout, which
 * may be the same terminal, must call cli_progress_hide() first.
 */
#define CLI_PROGRESS_MIN_BYTES ((size_t)64 << 20) /* "large" for compress and decompress */
cli_progress *cli_progress_start(const char *cmd, int quiet);
void cli_progress_set(cli_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_progress_hide(cli_progress *p); /* erase until the next set */
void cli_progress_end(cli_progress *p);  /* erase and free */
/* The line now started (NULL: none), for the error reporters. */
cli_progress *cli_progress_active(void);

/* ---- subcommands --------------------------------------------------------------- */

int cli_compress_main(int argc, char **argv);   /* gpulz_cli_codec.c */
int cli_decompress_main(int argc, char **argv); /* gpulz_cli_codec.c */
int cli_info_main(int argc, char **argv);       /* gpulz_cli_info.c */
int cli_bench_main(int argc, char **argv);      /* gpulz_cli_bench.c */

/*
 * `gpulz bench` on HDF5 files, with the options of gpulz_cli_bench.c that
 * apply there.  HDF5 and the libraries it pulls in (some 20 MB of address
 * space, tens of milliseconds to load) are linked into a helper program,
 * gpulz-h5bench (gpulz_cli_h5bench.c), not into the gpulz command: gpulz's
 * cli_bench_h5 (gpulz_cli_h5exec.c) runs the helper with its own bench
 * arguments (argc, argv), the helper's does the work.
 */
#define CLI_BENCH_MAX_VALUES 16
typedef struct cli_h5bench_opts {
    unsigned symbol[CLI_BENCH_MAX_VALUES], nsymbol; /* 0 values: the element's and 1 */
    unsigned window[CLI_BENCH_MAX_VALUES], nwindow;
    unsigned block[CLI_BENCH_MAX_VALUES], nblock;
    unsigned flags, repeat, threads;
    gpulz_backend backend;
    int backend_set, threads_set, csv, quiet;
} cli_h5bench_opts;
/* FILE.h5, FILE.hdf5, FILE:/path, or a file with HDF5's signature (gpulz_cli_bench.c). */
int cli_bench_is_h5_arg(const char *arg);
/* A name ending in .h5 or .hdf5. */
int cli_h5_has_suffix(const char *path);
/* FILE[:/path] into its file (returned, malloc'd; NULL: out of memory) and
 * *object (NULL: the whole file). */
char *cli_h5_split_arg(const char *arg, const char **object);
int cli_bench_h5(const cli_h5bench_opts *o, int nargs, char **args, int argc, char **argv);
int cli_gen_main(int argc, char **argv);        /* gpulz_cli_gen.c */
int cli_h5repack_main(int argc, char **argv);   /* gpulz_cli_h5repack.c */

/* The median of v[0..n) (sorts v in place). */
double cli_median(double *v, unsigned n);

#endif
