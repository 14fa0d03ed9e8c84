/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_emulate_test.c - the GPU encoder's algorithm, run on the host, writes
 * the CPU encoder's bytes (see gpu_emulate.cu).  Needs no GPU.
 */
#include <stdio.h>
#include <stdlib.h>

int gpulz_emulate_run(int iters, FILE *log);

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 1500;
    int fails = gpulz_emulate_run(iters, stderr);
    printf("%d blocks, %d differ from the CPU encoder\n", iters, fails);
    return fails == 0 ? 0 : 1;
}
