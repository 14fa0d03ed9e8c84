/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_env.c - the parsers of settings the filter and the command share
 * (kernels/gpulz_env.h): what they take, what they refuse, and that a
 * refusal leaves the output alone and says why; GPULZ_DEVICE's forms (a
 * device, a list, all, local-rank) and the launchers' local rank, without
 * a GPU.
 */
#include <limits.h>

#include "codec_testutil.h"
#include "gpulz_env.h"

static void backend_case(const char *s, int ok, gpulz_backend want)
{
    gpulz_backend b = (gpulz_backend)-1;
    int rc = gpulz_backend_parse(s, &b);
    if (ok) {
        TU_CHECK(rc == GPULZ_OK && b == want, "backend '%s': %d, %d", s, rc, (int)b);
        TU_CHECK(!strcmp(gpulz_backend_name(b), s), "backend '%s' is named '%s'", s,
                 gpulz_backend_name(b));
    } else {
        TU_CHECK(rc == GPULZ_ERR_PARAM && b == (gpulz_backend)-1, "backend '%s' taken", s ? s : "NULL");
        TU_CHECK(strstr(gpulz_last_error(), "is not auto, cpu or gpu") != NULL,
                 "backend '%s': reason '%s'", s ? s : "NULL", gpulz_last_error());
    }
}

static void threads_case(const char *s, int ok, unsigned want)
{
    unsigned t = 12345;
    int rc = gpulz_threads_parse(s, &t);
    if (ok)
        TU_CHECK(rc == GPULZ_OK && t == want, "threads '%s': %d, %u", s, rc, t);
    else
        TU_CHECK(rc == GPULZ_ERR_PARAM && t == 12345 && *gpulz_last_error(),
                 "threads '%s' taken (%d, %u)", s ? s : "NULL", rc, t);
}

/* GPULZ_DEVICE's text s on visible devices with local rank rank: taken as
 * the devices want (count n), or refused with the reason why. */
static void devices_case(const char *s, int visible, unsigned long long rank, unsigned n, const int *want,
                         const char *why)
{
    gpulz_devices d = {77, {0}};
    int rc = gpulz_devices_parse(s, visible, rank, &d);
    if (!why) {
        int same = rc == GPULZ_OK && d.count == n;
        for (unsigned k = 0; same && k < n; k++)
            same = d.dev[k] == want[k];
        TU_CHECK(same, "GPULZ_DEVICE=%s on %d devices: %d, %u devices (%s)", s ? s : "NULL", visible, rc,
                 d.count, gpulz_last_error());
    } else {
        TU_CHECK(rc == GPULZ_ERR_PARAM && d.count == 77, "GPULZ_DEVICE=%s on %d devices taken",
                 s ? s : "NULL", visible);
        TU_CHECK(!strcmp(gpulz_last_error(), why), "GPULZ_DEVICE=%s: reason '%s', not '%s'", s ? s : "NULL",
                 gpulz_last_error(), why);
    }
}

static const char *const launcher_vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                            "MV2_COMM_WORLD_LOCAL_RANK",  "PALS_LOCAL_RANKID",
                                            "FLUX_TASK_LOCAL_ID",         "SLURM_LOCALID"};

static void devices(void)
{
    static const int d0[] = {0}, d1[] = {1}, d01[] = {0, 1}, d10[] = {1, 0}, d3120[] = {3, 1, 2, 0},
                     d012[] = {0, 1, 2};
    int many[GPULZ_DEVICES_MAX];
    for (int i = 0; i < GPULZ_DEVICES_MAX; i++)
        many[i] = i;
    /* one device: what GPULZ_DEVICE always took, refused with the words it always had */
    devices_case("0", 2, 0, 1, d0, NULL);
    devices_case("1", 2, 0, 1, d1, NULL);
    devices_case("2", 2, 0, 0, NULL, "GPULZ_DEVICE=2 is not a device 0..1");
    devices_case("abc", 2, 0, 0, NULL, "GPULZ_DEVICE=abc is not a device 0..1");
    devices_case("-1", 2, 0, 0, NULL, "GPULZ_DEVICE=-1 is not a device 0..1");
    devices_case(" 1", 2, 0, 0, NULL, "GPULZ_DEVICE= 1 is not a device 0..1");
    devices_case("0-1", 2, 0, 0, NULL, "GPULZ_DEVICE=0-1 is not a device 0..1");
    devices_case("1", 1, 0, 0, NULL, "GPULZ_DEVICE=1 is not a device 0..0");
    devices_case("ALL", 2, 0, 0, NULL, "GPULZ_DEVICE=ALL is not a device 0..1");
    devices_case("", 2, 0, 0, NULL, "GPULZ_DEVICE= is not a device 0..1");
    devices_case("0", 0, 0, 0, NULL, "GPULZ_DEVICE=0: no CUDA device");
    /* lists, in their order */
    devices_case("0,1", 2, 0, 2, d01, NULL);
    devices_case("1,0", 2, 0, 2, d10, NULL);
    devices_case("3,1,2,0", 4, 0, 4, d3120, NULL);
    devices_case("01,00", 2, 0, 2, d10, NULL);
    devices_case("0,,1", 2, 0, 0, NULL,
                 "GPULZ_DEVICE=0,,1: an empty item (a list is devices separated by commas, as in 0,1)");
    devices_case("0,1,", 2, 0, 0, NULL,
                 "GPULZ_DEVICE=0,1,: an empty item (a list is devices separated by commas, as in 0,1)");
    devices_case(",0", 2, 0, 0, NULL,
                 "GPULZ_DEVICE=,0: an empty item (a list is devices separated by commas, as in 0,1)");
    devices_case("0,2", 2, 0, 0, NULL, "GPULZ_DEVICE=0,2: '2' is not a device 0..1");
    devices_case("0, 1", 2, 0, 0, NULL, "GPULZ_DEVICE=0, 1: ' 1' is not a device 0..1");
    devices_case("all,1", 2, 0, 0, NULL, "GPULZ_DEVICE=all,1: 'all' is not a device 0..1");
    devices_case("0,x123456789012345678901234567890", 2, 0, 0, NULL,
                 "GPULZ_DEVICE=0,x123456789012345678901234567890: 'x123456789012345678901234567890' is not a "
                 "device 0..1");
    devices_case("1,0,1", 2, 0, 0, NULL, "GPULZ_DEVICE=1,0,1: device 1 is named twice");
    devices_case("0,99999999999999999999999", 2, 0, 0, NULL,
                 "GPULZ_DEVICE=0,99999999999999999999999: '99999999999999999999999' is not a device 0..1");
    /* every device, and one per local rank */
    devices_case("all", 3, 0, 3, d012, NULL);
    devices_case("all", 1, 0, 1, d0, NULL);
    devices_case("all", 100, 0, GPULZ_DEVICES_MAX, many, NULL);
    devices_case("local-rank", 2, 0, 1, d0, NULL);
    devices_case("local-rank", 2, 5, 1, d1, NULL);
    devices_case("local-rank", 1, 7, 1, d0, NULL);
    devices_case("local-rank", 4, 18446744073709551615ull, 1, (const int[]){3}, NULL);
    devices_case("local_rank", 2, 0, 0, NULL, "GPULZ_DEVICE=local_rank is not a device 0..1");

    /* the launchers' local rank: MPI's before srun's; none is rank 0 */
    unsigned long long r = 9;
    const char *from = "x";
    for (size_t i = 0; i < sizeof launcher_vars / sizeof launcher_vars[0]; i++)
        unsetenv(launcher_vars[i]);
    TU_CHECK(gpulz_local_rank(&r, &from) == GPULZ_OK && r == 0 && from == NULL, "no launcher: %llu", r);
    setenv("SLURM_LOCALID", "5", 1);
    TU_CHECK(gpulz_local_rank(&r, &from) == GPULZ_OK && r == 5 && from && !strcmp(from, "SLURM_LOCALID"),
             "srun: %llu", r);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
    TU_CHECK(gpulz_local_rank(&r, &from) == GPULZ_OK && r == 3 && from &&
                 !strcmp(from, "OMPI_COMM_WORLD_LOCAL_RANK"),
             "mpiexec inside srun: %llu", r);
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
    unsetenv("SLURM_LOCALID");
    setenv("MPI_LOCALRANKID", "2", 1);
    TU_CHECK(gpulz_local_rank(&r, NULL) == GPULZ_OK && r == 2, "hydra: %llu", r);
    unsetenv("MPI_LOCALRANKID");

    /* GPULZ_DEVICE itself: unset and empty name no device, a bad one says why */
    gpulz_devices d = {5, {0}};
    unsetenv("GPULZ_DEVICE");
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_OK && d.count == 0, "unset: %u devices", d.count);
    setenv("GPULZ_DEVICE", "", 1);
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_OK && d.count == 0, "empty: %u devices", d.count);
    setenv("GPULZ_DEVICE", "1,0", 1);
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_OK && d.count == 2 && d.dev[0] == 1 && d.dev[1] == 0,
             "1,0: %u devices", d.count);
    setenv("GPULZ_DEVICE", "0,5", 1);
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_ERR_PARAM && d.count == 0 &&
                 !strcmp(gpulz_last_error(), "GPULZ_DEVICE=0,5: '5' is not a device 0..1"),
             "0,5: '%s'", gpulz_last_error());
    setenv("GPULZ_DEVICE", "local-rank", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_OK && d.count == 1 && d.dev[0] == 1, "local rank 3 of 2 GPUs");
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x", 1);
    TU_CHECK(gpulz_env_devices(2, &d) == GPULZ_ERR_PARAM &&
                 !strcmp(gpulz_last_error(),
                         "GPULZ_DEVICE=local-rank: OMPI_COMM_WORLD_LOCAL_RANK=x: 'x' is not a number"),
             "a bad local rank: '%s'", gpulz_last_error());
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
    TU_CHECK(gpulz_env_devices(3, &d) == GPULZ_OK && d.count == 1 && d.dev[0] == 0,
             "local-rank without a launcher");
    unsetenv("GPULZ_DEVICE");
}

int main(void)
{
    char buf[32];

    backend_case("auto", 1, GPULZ_BACKEND_AUTO);
    backend_case("cpu", 1, GPULZ_BACKEND_CPU);
    backend_case("gpu", 1, GPULZ_BACKEND_GPU);
    backend_case("GPU", 0, 0);
    backend_case("fast", 0, 0);
    backend_case("", 0, 0);
    backend_case("cpu ", 0, 0);
    backend_case(NULL, 0, 0);
    TU_CHECK(gpulz_backend_name((gpulz_backend)7) == NULL, "backend 7 has a name");

    threads_case("0", 1, 0);
    threads_case("1", 1, 1);
    snprintf(buf, sizeof buf, "%d", GPULZ_THREADS_MAX);
    threads_case(buf, 1, GPULZ_THREADS_MAX);
    snprintf(buf, sizeof buf, "%d", GPULZ_THREADS_MAX + 1);
    threads_case(buf, 0, 0);
    TU_CHECK(strstr(gpulz_last_error(), buf) != NULL, "the refusal of %s threads: '%s'", buf,
             gpulz_last_error());
    threads_case("-1", 0, 0);
    threads_case("+1", 0, 0);
    threads_case(" 1", 0, 0);
    threads_case("1 ", 0, 0);
    threads_case("abc", 0, 0);
    threads_case("", 0, 0);
    threads_case("99999999999999999999999", 0, 0);
    threads_case(NULL, 0, 0);
    TU_CHECK(gpulz_threads_check(GPULZ_THREADS_MAX) == GPULZ_OK, "the cap is refused");
    TU_CHECK(gpulz_threads_check(UINT_MAX) == GPULZ_ERR_PARAM, "UINT_MAX threads taken");

    unsigned long long v = 7;
    TU_CHECK(gpulz_uint_parse("18446744073709551615", ULLONG_MAX, &v) == GPULZ_OK &&
                 v == ULLONG_MAX, "ULLONG_MAX refused");
    TU_CHECK(gpulz_uint_parse("18446744073709551616", ULLONG_MAX, &v) == GPULZ_ERR_PARAM &&
                 v == ULLONG_MAX, "ULLONG_MAX + 1 taken");
    TU_CHECK(gpulz_uint_parse("11", 10, &v) == GPULZ_ERR_PARAM &&
                 !strcmp(gpulz_last_error(), "11 is out of 0..10"), "11 of 0..10: '%s'",
             gpulz_last_error());
    TU_CHECK(gpulz_uint_parse("0x10", 100, &v) == GPULZ_ERR_PARAM &&
                 !strcmp(gpulz_last_error(), "'0x10' is not a number"), "0x10: '%s'",
             gpulz_last_error());

    /* unset and empty keep the caller's value; a bad one names the variable */
    v = 42;
    unsetenv("GPULZ_TEST_UINT");
    TU_CHECK(gpulz_env_uint("GPULZ_TEST_UINT", 100, &v) == GPULZ_OK && v == 42, "unset: %llu", v);
    setenv("GPULZ_TEST_UINT", "", 1);
    TU_CHECK(gpulz_env_uint("GPULZ_TEST_UINT", 100, &v) == GPULZ_OK && v == 42, "empty: %llu", v);
    setenv("GPULZ_TEST_UINT", "100", 1);
    TU_CHECK(gpulz_env_uint("GPULZ_TEST_UINT", 100, &v) == GPULZ_OK && v == 100, "100: %llu", v);
    setenv("GPULZ_TEST_UINT", "101", 1);
    TU_CHECK(gpulz_env_uint("GPULZ_TEST_UINT", 100, &v) == GPULZ_ERR_PARAM && v == 100 &&
                 !strcmp(gpulz_last_error(), "GPULZ_TEST_UINT=101: 101 is out of 0..100"),
             "101: '%s'", gpulz_last_error());
    setenv("GPULZ_TEST_UINT", "x", 1);
    TU_CHECK(gpulz_env_uint("GPULZ_TEST_UINT", 100, &v) == GPULZ_ERR_PARAM &&
                 !strcmp(gpulz_last_error(), "GPULZ_TEST_UINT=x: 'x' is not a number"),
             "x: '%s'", gpulz_last_error());
    /* the lanes of a GPU: 1..8, the default where unset or empty or bad */
    unsigned lanes = 0;
    unsetenv("GPULZ_GPU_LANES");
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_OK && lanes == GPULZ_GPU_LANES_DEFAULT, "unset: %u", lanes);
    setenv("GPULZ_GPU_LANES", "", 1);
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_OK && lanes == GPULZ_GPU_LANES_DEFAULT, "empty: %u", lanes);
    setenv("GPULZ_GPU_LANES", "1", 1);
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_OK && lanes == 1, "1: %u", lanes);
    setenv("GPULZ_GPU_LANES", "8", 1);
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_OK && lanes == 8, "8: %u", lanes);
    setenv("GPULZ_GPU_LANES", "0", 1);
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_ERR_PARAM && lanes == GPULZ_GPU_LANES_DEFAULT &&
                 !strcmp(gpulz_last_error(), "GPULZ_GPU_LANES=0: lanes are 1..8"),
             "0: %u '%s'", lanes, gpulz_last_error());
    setenv("GPULZ_GPU_LANES", "9", 1);
    TU_CHECK(gpulz_env_gpu_lanes(&lanes) == GPULZ_ERR_PARAM && lanes == GPULZ_GPU_LANES_DEFAULT &&
                 !strcmp(gpulz_last_error(), "GPULZ_GPU_LANES=9: lanes are 1..8"),
             "9: %u '%s'", lanes, gpulz_last_error());
    unsetenv("GPULZ_GPU_LANES");
    devices();
    return tu_finish("codec_env");
}
