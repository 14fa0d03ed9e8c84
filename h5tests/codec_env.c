/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * codec_env.c - the parsers of settings the filter and the command share
 * (kernels/gpulz_env.h): what they take, what they refuse, and that a
 * refusal leaves the output alone and says why.
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
    return tu_finish("codec_env");
}
