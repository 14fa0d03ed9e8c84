/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_bench.c - `gpulz bench`: compression ratio and throughput over a
 * grid of parameters, on files or generated data, every run checked.
 *
 * Throughput is uncompressed bytes per second (GB = 1e9 bytes), the median
 * of --repeat timed runs after one warm-up run, on the monotonic clock.
 * Each grid point is measured by a bench_timer: the host one times the
 * host-buffer calls; a device-resident GPU timer (CUDA events, data already
 * on the device) fits beside it as another bench_timer and another value of
 * the "timer" field without touching the grid, the checks or the output.
 *
 * HDF5 files as inputs are another mode (gpulz_cli_h5bench.c): their
 * datasets through HDF5 and its filters; the options parsed here are handed
 * over.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "datagen.h"
#include "gpulz_cli.h"

#define MAX_VALUES CLI_BENCH_MAX_VALUES
#define MAX_INPUTS 64
#define DEFAULT_GEN_SIZE ((size_t)64 << 20)

static const char bench_help[] =
    "Usage: gpulz bench [OPTIONS] FILE...\n"
    "       gpulz bench [OPTIONS] --gen KIND[:SIZE] ...\n"
    "       gpulz bench [OPTIONS] FILE.h5[:/PATH]...\n"
    "Measure the compression ratio and the compression and decompression\n"
    "throughput of gpulz, in its default mode (auto), over a grid of\n"
    "parameters.  Every run is decoded and compared with its input byte for\n"
    "byte; a difference fails the command.\n"
    "Throughput is uncompressed GB (1e9 bytes) per second, the median of the\n"
    "repeats after one warm-up run.\n"
    "\n"
    "HDF5 files (FILE.h5, FILE.hdf5, FILE:/PATH, or a file with HDF5's\n"
    "signature): every dataset, or the dataset or group PATH, at its own\n"
    "chunking (where it is not chunked: whole fastest-varying dimensions up to\n"
    "about 4 MiB, marked *), through gpulz (symbol sizes: the element's and 1;\n"
    "levels 1 and 4), deflate 1 and 6, shuffle+deflate 1 and 6, and the\n"
    "plugins HDF5 finds on its plugin path among LZ4 (32004), Blosc (32001),\n"
    "Bitshuffle (32008) and Zstd (32015).  Each is written whole (H5Dwrite)\n"
    "into an in-memory HDF5 file, read back (H5Dread) and compared; a row per\n"
    "dataset and filter gives the ratio and the write and read speeds in MB/s\n"
    "(1e6 bytes of data per second; median of 3 runs after a warm-up).  Then,\n"
    "per dataset, the h5repack arguments of the best trade-off: the highest\n"
    "ratio among the filters whose write and read together take at most 4\n"
    "times as long as the fastest one's (equal ratios: the faster), and one\n"
    "h5repack command with them all.\n"
    "\n"
    "Inputs:\n"
    "  -g, --gen KIND[:SIZE]  generated data (gpulz gen --list); SIZE takes K, M,\n"
    "                         G suffixes (default 64M); may be repeated\n"
    "      --seed N           seed of the generated data (default 1)\n"
    "  -e, --element-size E   element size of raw FILE data, for the default\n"
    "                         symbol sizes (default 1; generated data and HDF5\n"
    "                         datasets know their own)\n"
    "Grid (comma lists, e.g. --window 32,128):\n"
    "  -s, --symbol LIST      symbol sizes (default: the element size and 1)\n"
    "  -w, --window LIST      windows (default 32,64,128,255; HDF5: 32,255)\n"
    "  -l, --level LIST       levels 1-4, instead of --window\n"
    "  -b, --block LIST       block sizes in symbols (default 2048,4096;\n"
    "                         HDF5: 2048)\n"
    "  -t, --threads LIST     CPU thread counts, 0..%d, 0 = one per core\n"
    "                         (default 0; HDF5: one count, for the filter)\n"
    "  -a, --adaptive         compress with the adaptive flag\n"
    "Measurement:\n"
    "  -r, --repeat N         timed runs per point (default 5; HDF5: 3)\n"
    "      --backend B        auto, cpu or gpu (default cpu; HDF5: the filter's,\n"
    "                         from GPULZ_BACKEND, else auto)\n"
    "      --csv              comma-separated output with a header line\n"
    "  -q, --quiet            no progress line (shown on stderr where it is a\n"
    "                         terminal)\n"
    "  -h, --help             this help\n"
    "\n"
    "Exit status: 0 ok, 1 a round trip failed, 2 usage error, 3 I/O or system error.\n";

typedef struct bench_input {
    char label[96];
    uint8_t *data;
    size_t n;
    unsigned element_size;
} bench_input;

typedef struct bench_grid {
    unsigned symbol[MAX_VALUES], nsymbol; /* nsymbol 0: per input, {element size, 1} */
    unsigned window[MAX_VALUES], nwindow;
    unsigned block[MAX_VALUES], nblock;
    unsigned threads[MAX_VALUES], nthreads;
    unsigned flags;
    gpulz_backend backend;
    unsigned repeat;
    int csv;
    cli_progress *pg;
    unsigned point, npoints; /* for the progress line */
} bench_grid;

/* One grid point's buffers: the input, its compressed form, the decoded copy. */
typedef struct bench_case {
    const bench_input *in;
    gpulz_params p;
    uint8_t *packed; /* capacity bound */
    size_t bound, packed_len;
    uint8_t *reference; /* the warm-up's compressed bytes: every run must repeat them */
    size_t reference_len;
    uint8_t *out; /* capacity in->n */
} bench_case;

/* Runs one call of a direction and returns its status; *seconds is the time it took. */
typedef struct bench_timer {
    const char *name;
    int (*compress)(bench_case *bc, double *seconds);
    int (*decompress)(bench_case *bc, double *seconds);
} bench_timer;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int host_compress(bench_case *bc, double *seconds)
{
    double t0 = now();
    int st =
        gpulz_compress(bc->in->data, bc->in->n, bc->packed, bc->bound, &bc->packed_len, &bc->p);
    *seconds = now() - t0;
    return st;
}

static int host_decompress(bench_case *bc, double *seconds)
{
    size_t len = 0;
    double t0 = now();
    int st = gpulz_decompress(bc->packed, bc->packed_len, bc->out, bc->in->n, &len, &bc->p);
    *seconds = now() - t0;
    if (st == GPULZ_OK && len != bc->in->n)
        st = GPULZ_ERR_CORRUPT;
    return st;
}

static const bench_timer host_timer = {"host", host_compress, host_decompress};

/* "quant:64M S=2 W=128 C=2048 threads=1", for messages */
static void point_name(const bench_case *bc, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s S=%u W=%u C=%u threads=%u", bc->in->label, bc->p.symbol_size,
             bc->p.window, bc->p.block_symbols, bc->p.threads);
}

/* Fill out with the complement of the input, so a decoder that skips a byte cannot pass. */
static void poison(bench_case *bc)
{
    const uint8_t *s = bc->in->data;
    for (size_t i = 0; i < bc->in->n; i++)
        bc->out[i] = (uint8_t)~s[i];
}

static int check_round_trip(const bench_case *bc)
{
    if (memcmp(bc->out, bc->in->data, bc->in->n) == 0)
        return 0;
    size_t i = 0;
    while (bc->out[i] == bc->in->data[i])
        i++;
    char name[160];
    point_name(bc, name, sizeof name);
    return cli_error(CLI_DATA, "bench", "%s: round trip differs at byte %zu", name, i);
}

static int check_same_bytes(const bench_case *bc)
{
    if (bc->packed_len == bc->reference_len &&
        memcmp(bc->packed, bc->reference, bc->packed_len) == 0)
        return 0;
    char name[160];
    point_name(bc, name, sizeof name);
    return cli_error(CLI_DATA, "bench", "%s: compressing twice gave different bytes", name);
}

typedef struct bench_result {
    double ratio, comp_gbps, decomp_gbps;
    size_t packed_len;
    gpulz_backend comp_backend, decomp_backend;
} bench_result;

/* Warm up, time and check one grid point. */
static int measure(bench_case *bc, const bench_timer *T, unsigned repeat, bench_result *R)
{
    char name[160];
    double *t = malloc(repeat * sizeof *t);
    int st, rc = 0;
    if (!t)
        return cli_error(CLI_IO, "bench", "out of memory");
    point_name(bc, name, sizeof name);
    /* compression: the warm-up's bytes are the reference every timed run must repeat */
    if ((st = T->compress(bc, &t[0])) != GPULZ_OK) {
        rc = cli_codec_error(name, st);
        goto done;
    }
    R->comp_backend = gpulz_last_backend(NULL);
    memcpy(bc->reference, bc->packed, bc->packed_len);
    bc->reference_len = bc->packed_len;
    for (unsigned r = 0; r < repeat; r++) {
        if ((st = T->compress(bc, &t[r])) != GPULZ_OK) {
            rc = cli_codec_error(name, st);
            goto done;
        }
        if ((rc = check_same_bytes(bc)))
            goto done;
    }
    R->comp_gbps = (double)bc->in->n / cli_median(t, repeat) / 1e9;
    R->packed_len = bc->packed_len;
    R->ratio = (double)bc->in->n / (double)bc->packed_len;
    /* decompression: every run, the warm-up included, starts from poison and is compared */
    for (unsigned r = 0; r <= repeat; r++) {
        double s;
        poison(bc);
        if ((st = T->decompress(bc, &s)) != GPULZ_OK) {
            rc = cli_codec_error(name, st);
            goto done;
        }
        if ((rc = check_round_trip(bc)))
            goto done;
        if (r > 0)
            t[r - 1] = s;
        else
            R->decomp_backend = gpulz_last_backend(NULL);
    }
    R->decomp_gbps = (double)bc->in->n / cli_median(t, repeat) / 1e9;
done:
    free(t);
    return rc;
}

static unsigned resolve_threads(unsigned threads)
{
    if (threads)
        return threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned)cores : 1;
}

static const char *backend_label(const bench_result *R)
{
    if (R->comp_backend == R->decomp_backend)
        return gpulz_backend_name(R->comp_backend);
    return R->comp_backend == GPULZ_BACKEND_GPU ? "gpu/cpu" : "cpu/gpu";
}

static void print_header(const bench_grid *G, const bench_timer *T)
{
    if (G->csv) {
        printf("data,bytes,S,W,block,threads,backend,timer,ratio,compressed_bytes,"
               "comp_GBps,decomp_GBps\n");
        return;
    }
    printf("# gpulz bench: %s timer, median of %u runs after 1 warm-up, GB/s = 1e9 B/s of "
           "uncompressed data, block in symbols\n",
           T->name, G->repeat);
    /* other work on the machine skews the figures: say how busy it was */
    double l1, l5, l15;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        printf("# %u cores online, load average %.2f %.2f %.2f at the start\n",
               resolve_threads(0), l1, l5, l15);
    if (f)
        fclose(f);
    printf("%-16s %2s %4s %6s %7s %-8s %8s %10s %12s\n", "data", "S", "W", "block", "threads",
           "backend", "ratio", "comp GB/s", "decomp GB/s");
}

/* 0, or CLI_IO when stdout takes no more: the remaining points are not worth measuring. */
static int print_row(const bench_grid *G, const bench_timer *T, const bench_case *bc,
                     const bench_result *R)
{
    cli_progress_hide(G->pg); /* stdout may be the same terminal */
    if (G->csv)
        printf("%s,%zu,%u,%u,%u,%u,%s,%s,%.4f,%zu,%.4f,%.4f\n", bc->in->label, bc->in->n,
               bc->p.symbol_size, bc->p.window, bc->p.block_symbols, bc->p.threads,
               backend_label(R), T->name, R->ratio, R->packed_len, R->comp_gbps, R->decomp_gbps);
    else
        printf("%-16s %2u %4u %6u %7u %-8s %8.3f %10.3f %12.3f\n", bc->in->label, bc->p.symbol_size,
               bc->p.window, bc->p.block_symbols, bc->p.threads, backend_label(R), R->ratio,
               R->comp_gbps, R->decomp_gbps);
    int e = cli_flush_stdout();
    return e ? cli_error(CLI_IO, "stdout", "write failed: %s", strerror(e)) : 0;
}

/* The symbol sizes of one input: the grid's, or its element size and 1. */
static unsigned input_symbols(const bench_grid *G, const bench_input *in, unsigned *sym)
{
    if (G->nsymbol) {
        memcpy(sym, G->symbol, G->nsymbol * sizeof *sym);
        return G->nsymbol;
    }
    sym[0] = in->element_size;
    if (in->element_size == 1)
        return 1;
    sym[1] = 1;
    return 2;
}

static int bench_input_grid(bench_grid *G, const bench_timer *T, const bench_input *in)
{
    bench_case bc = {.in = in};
    unsigned sym[MAX_VALUES], nsym = input_symbols(G, in, sym);
    int rc = 0;
    gpulz_params_init(&bc.p);
    bc.p.flags = G->flags;
    bc.p.backend = G->backend;
    /* the bound grows as S and C shrink (more blocks): size buffers for the largest */
    for (unsigned i = 0; i < nsym; i++)
        for (unsigned c = 0; c < G->nblock; c++) {
            bc.p.symbol_size = sym[i];
            bc.p.block_symbols = G->block[c];
            size_t b = gpulz_compress_bound(in->n, &bc.p);
            if (b == 0)
                return cli_error(CLI_IO, in->label, "%zu bytes is too large to compress", in->n);
            if (b > bc.bound)
                bc.bound = b;
        }
    bc.packed = malloc(bc.bound);
    bc.reference = malloc(bc.bound);
    bc.out = malloc(in->n ? in->n : 1);
    if (!bc.packed || !bc.reference || !bc.out) {
        rc = cli_error(CLI_IO, in->label, "cannot allocate the buffers for %zu bytes", in->n);
        goto done;
    }
    for (unsigned i = 0; i < nsym; i++)
        for (unsigned w = 0; w < G->nwindow; w++)
            for (unsigned c = 0; c < G->nblock; c++)
                for (unsigned t = 0; t < G->nthreads; t++) {
                    bench_result R = {0};
                    bc.p.symbol_size = sym[i];
                    bc.p.window = G->window[w];
                    bc.p.block_symbols = G->block[c];
                    bc.p.threads = resolve_threads(G->threads[t]);
                    cli_progress_set(G->pg, "[%u/%u] %s S=%u W=%u C=%u threads=%u", ++G->point,
                                     G->npoints, in->label, sym[i], G->window[w], G->block[c],
                                     bc.p.threads);
                    if ((rc = measure(&bc, T, G->repeat, &R)) || (rc = print_row(G, T, &bc, &R)))
                        goto done;
                }
done:
    free(bc.packed);
    free(bc.reference);
    free(bc.out);
    return rc;
}

/* KIND[:SIZE] into kind (capacity 32) and *n; 0 or a usage error. */
static int parse_gen_spec(const char *spec, char *kind, size_t *n)
{
    size_t klen = strcspn(spec, ":");
    int known = 0;
    snprintf(kind, 32, "%.*s", (int)klen, spec);
    for (const char *const *k = gpulz_gen_kinds; *k; k++)
        known |= !strcmp(*k, kind);
    if (!known || klen >= 32)
        return cli_usage_error("bench", "--gen: unknown kind '%s' (gpulz gen --list)", kind);
    *n = DEFAULT_GEN_SIZE;
    if (spec[klen] && cli_parse_size("bench", "--gen", spec + klen + 1, n))
        return CLI_USAGE;
    return 0;
}

static int add_gen_input(const char *spec, uint64_t seed, bench_input *in)
{
    char kind[32];
    size_t n;
    if (parse_gen_spec(spec, kind, &n))
        return CLI_USAGE;
    if (!(in->data = malloc(n ? n : 1)))
        return cli_error(CLI_IO, spec, "cannot allocate %zu bytes", n);
    gpulz_gen(kind, in->data, n, seed);
    in->n = n;
    in->element_size = gpulz_gen_element_size(kind);
    snprintf(in->label, sizeof in->label, "%s", spec);
    return 0;
}

static int add_file_input(const char *path, unsigned element_size, bench_input *in)
{
    int rc = cli_read_all(path, &in->data, &in->n);
    if (rc)
        return rc;
    const char *base = strrchr(path, '/');
    snprintf(in->label, sizeof in->label, "%s", base ? base + 1 : path);
    in->element_size = element_size;
    return 0;
}

/* ---- which arguments are HDF5 files (no HDF5 needed to tell) ---- */

/* HDF5's signature, at 0 or a power of two from 512 (a user block before it). */
static int has_h5_signature(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char b[8];
    struct stat st;
    int fd = open(path, O_RDONLY), found = 0;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        for (off_t at = 0; !found && at + 8 <= st.st_size; at = at ? at * 2 : 512)
            found = pread(fd, b, 8, at) == 8 && memcmp(b, sig, 8) == 0;
    close(fd);
    return found;
}

int cli_h5_has_suffix(const char *path)
{
    size_t n = strlen(path);
    return (n > 3 && !strcasecmp(path + n - 3, ".h5")) ||
           (n > 5 && !strcasecmp(path + n - 5, ".hdf5"));
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* The whole argument naming a file wins; else the first ":/" whose left
 * side is a file; else the first ":/". */
char *cli_h5_split_arg(const char *arg, const char **object)
{
    const char *cut = NULL;
    *object = NULL;
    if (!is_file(arg))
        for (const char *p = strstr(arg, ":/"); p; p = strstr(p + 1, ":/")) {
            char *left = strndup(arg, (size_t)(p - arg));
            int file = left && is_file(left);
            free(left);
            if (!cut || file)
                cut = p;
            if (file)
                break;
        }
    if (!cut)
        return strdup(arg);
    *object = cut + 1;
    return strndup(arg, (size_t)(cut - arg));
}

int cli_bench_is_h5_arg(const char *arg)
{
    const char *object;
    char *file = cli_h5_split_arg(arg, &object);
    int yes = object || cli_h5_has_suffix(arg) || (file && has_h5_signature(file));
    free(file);
    return yes;
}

int cli_bench_main(int argc, char **argv)
{
    enum { OPT_SEED = 256, OPT_BACKEND, OPT_CSV };
    static const struct option opts[] = {{"gen", required_argument, NULL, 'g'},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"element-size", required_argument, NULL, 'e'},
                                         {"symbol", required_argument, NULL, 's'},
                                         {"window", required_argument, NULL, 'w'},
                                         {"level", required_argument, NULL, 'l'},
                                         {"block", required_argument, NULL, 'b'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"adaptive", no_argument, NULL, 'a'},
                                         {"repeat", required_argument, NULL, 'r'},
                                         {"backend", required_argument, NULL, OPT_BACKEND},
                                         {"csv", no_argument, NULL, OPT_CSV},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *cmd = "bench";
    const char *gens[MAX_INPUTS];
    unsigned ngens = 0, levels[MAX_VALUES], nlevels = 0;
    unsigned long v, element_size = 1;
    uint64_t seed = 1;
    int c, window_set = 0, element_set = 0, block_set = 0, threads_set = 0, repeat_set = 0;
    int backend_set = 0, quiet = 0;
    bench_grid G = {.window = {32, 64, 128, 255},
                    .nwindow = 4,
                    .block = {2048, 4096},
                    .nblock = 2,
                    .threads = {0},
                    .nthreads = 1,
                    .backend = GPULZ_BACKEND_CPU,
                    .repeat = 5};
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":g:e:s:w:l:b:t:ar:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (ngens == MAX_INPUTS)
                return cli_usage_error(cmd, "more than %d --gen inputs", MAX_INPUTS);
            gens[ngens++] = optarg;
            break;
        case OPT_SEED:
            if (cli_parse_u64(cmd, "--seed", optarg, &seed))
                return CLI_USAGE;
            break;
        case 'e':
            if (cli_parse_uint(cmd, "--element-size", optarg, 1, 8, &v) ||
                cli_check_symbol(cmd, "--element-size", v))
                return CLI_USAGE;
            element_size = v;
            element_set = 1;
            break;
        case 's':
            if (cli_parse_list(cmd, "--symbol", optarg, cli_check_symbol, G.symbol, MAX_VALUES,
                               &G.nsymbol))
                return CLI_USAGE;
            break;
        case 'w':
            if (nlevels)
                return cli_usage_error(cmd, "give --level or --window, not both");
            if (cli_parse_list(cmd, "--window", optarg, cli_check_window, G.window, MAX_VALUES,
                               &G.nwindow))
                return CLI_USAGE;
            window_set = 1;
            break;
        case 'l':
            if (window_set)
                return cli_usage_error(cmd, "give --level or --window, not both");
            if (cli_parse_list(cmd, "--level", optarg, cli_check_level, levels, MAX_VALUES,
                               &nlevels))
                return CLI_USAGE;
            for (unsigned i = 0; i < nlevels; i++)
                G.window[i] = gpulz_level_window((int)levels[i]);
            G.nwindow = nlevels;
            break;
        case 'b':
            if (cli_parse_list(cmd, "--block", optarg, cli_check_block, G.block, MAX_VALUES,
                               &G.nblock))
                return CLI_USAGE;
            block_set = 1;
            break;
        case 't':
            if (cli_parse_list(cmd, "--threads", optarg, cli_check_threads, G.threads, MAX_VALUES,
                               &G.nthreads))
                return CLI_USAGE;
            threads_set = 1;
            break;
        case 'a':
            G.flags |= GPULZ_FLAG_ADAPTIVE;
            break;
        case 'r':
            if (cli_parse_uint(cmd, "--repeat", optarg, 1, 1000, &v))
                return CLI_USAGE;
            G.repeat = (unsigned)v;
            repeat_set = 1;
            break;
        case OPT_BACKEND:
            if (cli_parse_backend(cmd, optarg, &G.backend))
                return CLI_USAGE;
            backend_set = 1;
            break;
        case OPT_CSV:
            G.csv = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            printf(bench_help, GPULZ_THREADS_MAX);
            return CLI_OK;
        default:
            return cli_getopt_error(cmd, c, argv);
        }
    }
    unsigned nfiles = (unsigned)(argc - optind), nh5 = 0;
    if (nfiles + ngens == 0)
        return cli_usage_error(cmd, "no input: give FILE... or --gen KIND[:SIZE]");
    for (int i = optind; i < argc; i++)
        nh5 += cli_bench_is_h5_arg(argv[i]) != 0;
    if (nh5) {
        /* the datasets set the element size and the chunking; the filter
         * takes one backend and thread count from its environment */
        if (nh5 != nfiles || ngens)
            return cli_usage_error(cmd, "HDF5 files cannot be mixed with raw files or --gen "
                                        "in one run");
        if (element_set)
            return cli_usage_error(cmd, "--element-size is for raw files: HDF5 datasets have "
                                        "their own");
        if (G.nthreads > 1)
            return cli_usage_error(cmd, "--threads: HDF5 files take one thread count");
        cli_h5bench_opts H = {.nsymbol = G.nsymbol,
                              .window = {gpulz_level_window(1), gpulz_level_window(4)},
                              .nwindow = 2,
                              .block = {GPULZ_BLOCK_DEFAULT},
                              .nblock = 1,
                              .flags = G.flags,
                              .repeat = repeat_set ? G.repeat : 3,
                              .threads = G.threads[0],
                              .backend = G.backend,
                              .backend_set = backend_set,
                              .threads_set = threads_set,
                              .csv = G.csv,
                              .quiet = quiet};
        memcpy(H.symbol, G.symbol, sizeof H.symbol);
        if (window_set || nlevels) {
            memcpy(H.window, G.window, sizeof H.window);
            H.nwindow = G.nwindow;
        }
        if (block_set) {
            memcpy(H.block, G.block, sizeof H.block);
            H.nblock = G.nblock;
        }
        return cli_bench_h5(&H, argc - optind, argv + optind, argc, argv);
    }
    if (nfiles + ngens > MAX_INPUTS)
        return cli_usage_error(cmd, "more than %d inputs", MAX_INPUTS);
    const bench_timer *T = &host_timer;
    /* Inputs are prepared one at a time, so only one is in memory; a bad
     * --gen spec is still caught before any measurement. */
    unsigned per_symbol = G.nwindow * G.nblock * G.nthreads;
    for (unsigned i = 0; i < ngens + nfiles; i++) {
        char kind[32];
        size_t n;
        unsigned e = (unsigned)element_size;
        if (i < ngens) {
            if (parse_gen_spec(gens[i], kind, &n))
                return CLI_USAGE;
            e = gpulz_gen_element_size(kind);
        }
        G.npoints += (G.nsymbol ? G.nsymbol : e == 1 ? 1 : 2) * per_symbol;
    }
    print_header(&G, T);
    G.pg = cli_progress_start(cmd, quiet);
    int rc = 0;
    for (unsigned i = 0; i < ngens + nfiles && !rc; i++) {
        bench_input in = {0};
        rc = i < ngens
                 ? add_gen_input(gens[i], seed, &in)
                 : add_file_input(argv[optind + (int)(i - ngens)], (unsigned)element_size, &in);
        if (!rc)
            rc = bench_input_grid(&G, T, &in);
        free(in.data);
    }
    cli_progress_end(G.pg);
    return rc;
}
