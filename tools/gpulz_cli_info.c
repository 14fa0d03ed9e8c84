/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_info.c - `gpulz info`: what a compressed file's header and block
 * table say, optionally block by block, optionally checked by decoding.
 * Version 2 chunks name their stages instead; they have no block table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulz_cli.h"

static const char info_help[] =
    "Usage: gpulz info [OPTIONS] FILE...\n"
    "Describe gpulz compressed files: format version, the stages that encoded\n"
    "them, symbol size, window, block size, sizes, ratio and (format 1) how\n"
    "many blocks are stored raw.  FILE '-' reads stdin.\n"
    "\n"
    "  -b, --blocks   also list every block: offset, raw and stored size, kind\n"
    "                 (format 1; format 2 chunks have no block table)\n"
    "      --verify   also decode the file and check every block\n"
    "  -t, --threads N  CPU threads for --verify, 0..%d, 0 = one per core\n"
    "                   (default 0)\n"
    "  -h, --help     this help\n"
    "\n"
    "Exit status: 0 ok, 1 a file is not a valid gpulz chunk, 2 usage error,\n"
    "3 I/O error.\n";

/*
 * The stages of a chunk, by name: version 1 is LZSS alone; version 2 says
 * them in its stage flags (docs/FORMAT.md section 11).  buf holds at least
 * 6 x 9 bytes.
 */
static const char *stage_names(unsigned version, unsigned flags, char *buf, size_t cap)
{
    static const char *const names[] = {"delta", "split", "lzss", "entropy", "checksum"};
    if (version == 1)
        return "lzss";
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & (1u << i)) {
            size_t used = strlen(buf);
            snprintf(buf + used, cap - used, "%s%s", used ? " " : "", names[i]);
        }
    return buf;
}

/* The listing comes from the library's reading of the table: nothing of
 * FORMAT.md is restated here. */
static int list_blocks(const char *name, const uint8_t *buf, size_t n, const gpulz_chunk_info *I)
{
    size_t count = (size_t)I->block_count + 1;
    gpulz_block_info *blocks = malloc(count * sizeof *blocks);
    if (!blocks)
        return cli_error(CLI_IO, name, "cannot allocate the listing of %zu blocks", count);
    int rc = gpulz_block_table_get(buf, n, blocks, count);
    if (rc != GPULZ_OK) {
        free(blocks);
        return cli_codec_error(name, rc);
    }
    printf("%10s %14s %10s %10s  %-7s %7s\n", "block", "offset", "raw", "stored", "kind", "ratio");
    for (uint64_t k = 0; k < I->block_count; k++)
        printf("%10llu %14llu %10llu %10llu  %-7s %7.3f\n", (unsigned long long)k,
               (unsigned long long)blocks[k].offset, (unsigned long long)blocks[k].raw_size,
               (unsigned long long)blocks[k].stored_size, blocks[k].stored_raw ? "raw" : "encoded",
               (double)blocks[k].raw_size / (double)blocks[k].stored_size);
    const gpulz_block_info *tail = &blocks[I->block_count];
    if (tail->raw_size)
        printf("%10s %14llu %10llu %10llu  %-7s\n", "tail", (unsigned long long)tail->offset,
               (unsigned long long)tail->raw_size, (unsigned long long)tail->stored_size, "raw");
    free(blocks);
    return 0;
}

static int verify(const char *name, const uint8_t *buf, size_t n, const gpulz_chunk_info *I,
                  unsigned threads)
{
    if (I->uncompressed_size > SIZE_MAX)
        return cli_error(CLI_IO, name, "%llu bytes do not fit this machine's memory",
                         (unsigned long long)I->uncompressed_size);
    size_t cap = (size_t)I->uncompressed_size, len;
    uint8_t *out = malloc(cap ? cap : 1);
    if (!out)
        return cli_error(CLI_IO, name, "cannot allocate %zu bytes", cap);
    gpulz_params p;
    gpulz_params_init(&p);
    p.threads = threads;
    p.backend = GPULZ_BACKEND_CPU; /* the reference decoder */
    int st = gpulz_decompress(buf, n, out, cap, &len, &p);
    free(out);
    if (st != GPULZ_OK)
        return cli_codec_error(name, st);
    return 0;
}

static int describe(const char *path, int blocks, int check, unsigned threads)
{
    const char *name = cli_name(path, 0);
    uint8_t *buf = NULL;
    size_t n = 0;
    gpulz_chunk_info I;
    int rc = cli_read_chunk_progress(path, &buf, &n, NULL);
    if (rc)
        return rc;
    int st = gpulz_chunk_info_get(buf, n, &I);
    if (st != GPULZ_OK) {
        rc = cli_codec_error(name, st);
        goto done;
    }
    if (check && (rc = verify(name, buf, n, &I, threads)))
        goto done;
    printf("file:              %s\n", name);
    printf("format version:    %u\n", I.format_version);
    char stages[64];
    printf("flags:             0x%02x\n", I.flags);
    printf("stages:            %s\n", stage_names(I.format_version, I.flags, stages, sizeof stages));
    printf("symbol size:       %u\n", I.symbol_size);
    printf("window:            %u\n", I.window);
    printf("block size:        %u symbols (%u bytes)\n", I.block_symbols,
           I.block_symbols * I.symbol_size);
    printf("uncompressed size: %llu\n", (unsigned long long)I.uncompressed_size);
    printf("compressed size:   %zu\n", I.compressed_size);
    printf("header size:       %zu\n", I.header_size);
    printf("ratio:             %.3f\n", (double)I.uncompressed_size / (double)I.compressed_size);
    printf("blocks:            %llu\n", (unsigned long long)I.block_count);
    if (I.format_version == 1)
        printf("raw blocks:        %llu\n", (unsigned long long)I.raw_blocks);
    printf("tail bytes:        %llu\n", (unsigned long long)(I.uncompressed_size % I.symbol_size));
    if (check)
        printf("verified:          yes\n");
    if (blocks && I.format_version == 1)
        rc = list_blocks(name, buf, n, &I);
    else if (blocks)
        printf("block table:       none (format %u: the blocks share the coded streams)\n",
               I.format_version);
done:
    free(buf);
    return rc;
}

int cli_info_main(int argc, char **argv)
{
    enum { OPT_VERIFY = 256 };
    static const struct option opts[] = {{"blocks", no_argument, NULL, 'b'},
                                         {"verify", no_argument, NULL, OPT_VERIFY},
                                         {"threads", required_argument, NULL, 't'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int blocks = 0, check = 0, c;
    unsigned threads = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":bt:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            blocks = 1;
            break;
        case OPT_VERIFY:
            check = 1;
            break;
        case 't':
            if (cli_parse_threads("info", "--threads", optarg, &threads))
                return CLI_USAGE;
            break;
        case 'h':
            printf(info_help, GPULZ_THREADS_MAX);
            return CLI_OK;
        default:
            return cli_getopt_error("info", c, argv);
        }
    }
    if (optind == argc)
        return cli_usage_error("info", "no FILE given");
    /* describe every file; the exit code is the first failure's */
    int rc = CLI_OK;
    for (int i = optind; i < argc; i++) {
        if (i > optind)
            putchar('\n');
        int r = describe(argv[i], blocks, check, threads);
        if (r && !rc)
            rc = r;
        /* main() reports a failed stdout; this keeps its errno */
        cli_flush_stdout();
    }
    return rc;
}
