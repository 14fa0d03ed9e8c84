/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_gen.c - `gpulz gen`: write the deterministic test and benchmark
 * data of datagen.c to a file or stdout.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "gpulz_cli.h"

static void gen_help(void)
{
    fputs("Usage: gpulz gen [OPTIONS] KIND SIZE [-o OUT]\n"
          "Write SIZE bytes of generated data of KIND: the same KIND, SIZE and seed\n"
          "give the same bytes on every machine.  SIZE takes a K, M, G or T suffix\n"
          "(powers of 1024: 64M is 67108864 bytes).\n"
          "\n"
          "  -o, --output OUT  where to write (default stdout; '-' is stdout)\n"
          "      --seed N      seed of the generator (default 1)\n"
          "  -f, --force       replace an existing OUT file; write binary to a terminal\n"
          "  -l, --list        list the kinds and their element sizes\n"
          "  -h, --help        this help\n"
          "\n"
          "Kinds:",
          stdout);
    for (const char *const *k = gpulz_gen_kinds; *k; k++)
        printf(" %s", *k);
    fputs("\n\nExit status: 0 ok, 2 usage error, 3 I/O error.\n", stdout);
}

static int known_kind(const char *kind)
{
    for (const char *const *k = gpulz_gen_kinds; *k; k++)
        if (!strcmp(*k, kind))
            return 1;
    return 0;
}

int cli_gen_main(int argc, char **argv)
{
    enum { OPT_SEED = 256 };
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, OPT_SEED},
        {"force", no_argument, NULL, 'f'},        {"list", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    const char *out = NULL;
    uint64_t seed = 1;
    int force = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:flh", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_SEED:
            if (cli_parse_u64("gen", "--seed", optarg, &seed))
                return CLI_USAGE;
            break;
        case 'f':
            force = 1;
            break;
        case 'l':
            for (const char *const *k = gpulz_gen_kinds; *k; k++)
                printf("%-8s element size %u\n", *k, gpulz_gen_element_size(*k));
            return CLI_OK;
        case 'h':
            gen_help();
            return CLI_OK;
        default:
            return cli_getopt_error("gen", c, argv);
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("gen", "needs KIND and SIZE");
    const char *kind = argv[optind];
    size_t n;
    if (!known_kind(kind))
        return cli_usage_error("gen", "unknown kind '%s' (gpulz gen --list)", kind);
    if (cli_parse_size("gen", "SIZE", argv[optind + 1], &n))
        return CLI_USAGE;
    cli_output O;
    uint8_t *buf = NULL;
    int rc = cli_check_binary_stdout("gen", out, force);
    if (rc || (rc = cli_output_open(&O, out, force)))
        return rc;
    if (!(buf = malloc(n ? n : 1))) {
        rc = cli_error(CLI_IO, "gen", "cannot allocate %zu bytes", n);
        goto done;
    }
    gpulz_gen(kind, buf, n, seed);
    if (!(rc = cli_output_write(&O, buf, n)))
        rc = cli_output_commit(&O);
done:
    cli_output_abort(&O);
    free(buf);
    return rc;
}
