/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_env.h - the parsers of gpulz's settings as text: a backend name, a
 * thread count, an unsigned number, and an environment variable holding one.
 * The HDF5 filter reads its GPULZ_* variables and the gpulz command its
 * --backend and --threads through these, so both accept the same words and
 * the same ranges.  Each returns GPULZ_OK, or GPULZ_ERR_PARAM with the reason
 * in gpulz_last_error() ("'fast' is not auto, cpu or gpu"); callers report it
 * their own way (the filter on HDF5's error stack, the command as a usage
 * error).  Internal: not installed.
 */
#ifndef GPULZ_ENV_H
#define GPULZ_ENV_H

#include "gpulz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Below about a megabyte the transfers and launches cost more than the CPU
 * codec on a few cores: the default of GPULZ_GPU_MIN_BYTES. */
#define GPULZ_GPU_MIN_BYTES_DEFAULT ((unsigned long long)1 << 20)

/* "auto", "cpu" or "gpu" (nothing else: no case folding, no spaces). */
int gpulz_backend_parse(const char *s, gpulz_backend *out);

/* The name gpulz_backend_parse() takes for b; NULL for no backend. */
const char *gpulz_backend_name(gpulz_backend b);

/*
 * A decimal number 0..max: digits only (no sign, space or suffix).  The
 * reason of a failure is "'s' is not a number" or "s is out of 0..max".
 */
int gpulz_uint_parse(const char *s, unsigned long long max, unsigned long long *out);

/* A thread count, 0..GPULZ_THREADS_MAX (0: one per online core). */
int gpulz_threads_check(unsigned long long threads);
int gpulz_threads_parse(const char *s, unsigned *out);

/*
 * The environment variable name as a number 0..max (gpulz_uint_parse()).
 * Unset or empty: GPULZ_OK with *out untouched, so that it keeps the
 * caller's default.  The reason of a failure names the variable
 * ("GPULZ_DEVICE=x: 'x' is not a number").
 */
int gpulz_env_uint(const char *name, unsigned long long max, unsigned long long *out);

/* GPULZ_GPU_LANES: the chunks of one batch each GPU runs side by side
 * (gpu_context.h says why), 1..GPULZ_GPU_LANES_MAX.  Each lane keeps device
 * and pinned buffers of its own; gpu_lanes_for() bounds what they hold
 * together.  On the H100 eight lanes coded 4 MiB chunks of format 2 a third
 * faster than four (bench/RESULTS.md, 2026-11-28). */
#define GPULZ_GPU_LANES_MAX 8
#define GPULZ_GPU_LANES_DEFAULT 8

/* GPULZ_GPU_LANES, or the default where it is unset or empty; a bad value
 * is GPULZ_ERR_PARAM, with *out the default. */
int gpulz_env_gpu_lanes(unsigned *out);

/* The most devices one GPULZ_DEVICE list holds, and the most this library
 * keeps a context for. */
#define GPULZ_DEVICES_MAX 64

/* The CUDA devices GPULZ_DEVICE names, in its order, each once. */
typedef struct gpulz_devices {
    unsigned count; /* 0: GPULZ_DEVICE unset or empty */
    int dev[GPULZ_DEVICES_MAX];
} gpulz_devices;

/*
 * GPULZ_DEVICE's value s on a machine with `visible` CUDA devices (1 or
 * more) and a process of node-local rank local_rank:
 *
 *   N             device N, 0..visible-1 (the single-chunk API's device)
 *   N,M,...       those devices, each named once; batches of host chunks
 *                 spread over them, the single-chunk API takes the first
 *   all           devices 0..visible-1 (at most GPULZ_DEVICES_MAX)
 *   local-rank    device local_rank % visible: one GPU per MPI rank
 *
 * Digits, commas and those two words only: no spaces, signs or ranges.  The
 * reason of a refusal names the variable; for a single value it is the one
 * gpulz has always given ("GPULZ_DEVICE=7 is not a device 0..1").  The
 * parse needs no GPU, so that it can be checked anywhere.
 */
int gpulz_devices_parse(const char *s, int visible, unsigned long long local_rank, gpulz_devices *out);

/*
 * The node-local rank the MPI launcher gave this process: the first of
 * OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MPI_LOCALRANKID (MPICH's Hydra),
 * MV2_COMM_WORLD_LOCAL_RANK (MVAPICH2), PALS_LOCAL_RANKID (Cray PALS),
 * FLUX_TASK_LOCAL_ID (Flux) and SLURM_LOCALID (srun; last, because a job
 * step's SLURM_LOCALID stays set for the ranks mpiexec starts inside it)
 * that is set, 0 where none is (a process that no launcher started is a
 * rank of its own).  *from receives the variable's name, or NULL.
 * GPULZ_ERR_PARAM where the variable set is not a number.
 */
int gpulz_local_rank(unsigned long long *rank, const char **from);

/*
 * GPULZ_DEVICE read and parsed against visible devices: out->count 0 where
 * it is unset or empty, else gpulz_devices_parse()'s answer.
 */
int gpulz_env_devices(int visible, gpulz_devices *out);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_ENV_H */
