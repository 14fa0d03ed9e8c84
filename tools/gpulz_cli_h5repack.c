/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_h5repack.c - `gpulz h5repack-args`: the `-f UD=...` argument of
 * h5repack for the gpulz filter.
 *
 * The filter ID and the cd_values slots are the plugin's contract
 * (gpulz_cd.h): what h5dump -p prints for a gpulz dataset can be pasted back
 * here and the other way round.
 */
#include <getopt.h>
#include <stdio.h>

#include "gpulz_cd.h"
#include "gpulz_cli.h"

/* H5Z_FLAG_OPTIONAL: HDF5 skips an optional filter that fails instead of failing the write */
#define H5Z_FLAG_MANDATORY_VALUE 0
#define H5Z_FLAG_OPTIONAL_VALUE 1

static const char h5repack_help[] =
    "Usage: gpulz h5repack-args [OPTIONS]\n"
    "Print the filter argument of h5repack -f for gpulz:\n"
    "  UD=<filter id>,<flag>,%d,2,<symbol>,<window>,<block>,<flags>,0,<mode>\n"
    "(the sixth value, the 0 before the mode, is the chunk size, the filter's\n"
    "to write; the mode is 1 fast, 2 ratio or 3 auto), and for mode lz\n"
    "gpulz 0.1's five values:\n"
    "  UD=<filter id>,<flag>,%d,1,<symbol>,<window>,<block>,<flags>\n"
    "for example:  h5repack -f \"$(gpulz h5repack-args --level 4)\" in.h5 out.h5\n"
    "(add -l CHUNK=... where a dataset is not chunked yet).\n"
    "\n"
    "  -s, --symbol S   symbol size 1, 2, 4 or 8; 0 = the element size of each\n"
    "                   dataset's datatype (default 0)\n"
    "  -l, --level L    1-4: window 32, 64, 128, 255 (default 3)\n"
    "  -w, --window W   window in symbols, 1..255 (default 128)\n"
    "  -b, --block C    block size in symbols, a power of two 256..16384\n"
    "                   (default 2048)\n"
    "  -a, --adaptive   also try symbol size 1 where the ratio is under 1.5\n"
    "      --mode M     auto (default), fast or ratio (chunk format 2), or lz\n"
    "                   (chunk format 1, which gpulz 0.1 reads); each runs on\n"
    "                   the GPU or the CPU\n"
    "      --no-checksum  fast, ratio, auto: no checksum of the data in the chunks\n"
    "      --optional   mark the filter optional (flag 1): HDF5 stores a chunk\n"
    "                   uncompressed where the filter fails (default mandatory, 0)\n"
    "  -h, --help       this help\n"
    "\n"
    "Exit status: 0 ok, 2 usage error.\n";

int cli_h5repack_main(int argc, char **argv)
{
    enum { OPT_OPTIONAL = 256 };
    static const struct option opts[] = {
        {"symbol", required_argument, NULL, 's'}, {"level", required_argument, NULL, 'l'},
        {"window", required_argument, NULL, 'w'}, {"block", required_argument, NULL, 'b'},
        {"adaptive", no_argument, NULL, 'a'},     {"optional", no_argument, NULL, OPT_OPTIONAL},
        {"help", no_argument, NULL, 'h'},         CLI_FORMAT_LONG_OPTS,
        {NULL, 0, NULL, 0}};
    const char *cmd = "h5repack-args";
    unsigned long flag = H5Z_FLAG_MANDATORY_VALUE;
    cli_format_opts F;
    int c;
    cli_format_opts_init(&F, 0); /* 0: the filter takes S from the datatype */
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":s:l:w:b:ah", opts, NULL)) != -1) {
        int taken = cli_format_option(cmd, c, optarg, 0, &F);
        if (taken >= 0) {
            if (taken)
                return taken;
            continue;
        }
        switch (c) {
        case OPT_OPTIONAL:
            flag = H5Z_FLAG_OPTIONAL_VALUE;
            break;
        case 'h':
            printf(h5repack_help, H5Z_GPULZ_CD_NELMTS_STORED, H5Z_GPULZ_CD_NELMTS);
            return CLI_OK;
        default:
            return cli_getopt_error(cmd, c, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error(cmd, "takes no arguments ('%s' is extra)", argv[optind]);
    if (cli_format_opts_finish(cmd, &F))
        return CLI_USAGE;
    /* lz: the five values of gpulz 0.1, slot 0 saying format 1 (which makes
     * them lz, H5Z_gpulz_cd_mode()); another mode needs the seventh slot,
     * after the chunk size that set_local fills in */
    _Static_assert((int)GPULZ_MODE_AUTO == H5Z_GPULZ_CD_MODE_AUTO &&
                       (int)GPULZ_MODE_LZ == H5Z_GPULZ_CD_MODE_LZ,
                   "the mode slot holds gpulz_mode");
    int lz = F.mode == GPULZ_MODE_LZ;
    const unsigned long cd[H5Z_GPULZ_CD_NELMTS_STORED] = {
        [H5Z_GPULZ_CD_VERSION] = lz ? H5Z_GPULZ_CD_VERSION_LZ : H5Z_GPULZ_CD_VERSION_CURRENT,
        [H5Z_GPULZ_CD_SYMBOL] = F.symbol, [H5Z_GPULZ_CD_WINDOW] = F.window,
        [H5Z_GPULZ_CD_BLOCK] = F.block, [H5Z_GPULZ_CD_FLAGS] = F.flags,
        [H5Z_GPULZ_CD_MODE] = (unsigned long)F.mode};
    int n = lz ? H5Z_GPULZ_CD_NELMTS : H5Z_GPULZ_CD_NELMTS_STORED;
    printf("UD=%d,%lu,%d", H5Z_FILTER_GPULZ, flag, n);
    for (int i = 0; i < n; i++)
        printf(",%lu", cd[i]);
    putchar('\n');
    return CLI_OK;
}
