/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_gpu.c - the plugin on the GPU path: datasets written with
 * GPULZ_BACKEND=gpu and GPULZ_BACKEND=cpu hold identical chunk bytes, each
 * file reads back exactly through the other backend, and the GPU really ran
 * (the plugin's GPULZ_VERBOSE line says so), in mode lz (chunk format 1) and
 * in the default mode, auto.  Exits 77 where no GPU is usable.
 */
#include <fcntl.h>
#include <unistd.h>

#include "datagen.h"
#include "gpulz.h"
#include "h5_util.h"

#define CHUNK_ELEMS (2u << 20) /* 4 MiB of uint16: above the GPU threshold */
#define ELEMS (3u * CHUNK_ELEMS + 12345u)
#define NCHUNKS 4

/* Run fn with stderr captured into buf (the plugin's verbose lines). */
static void capture_stderr(void (*fn)(void *), void *arg, char *buf, size_t cap)
{
    char path[] = "h5_gpu_stderr_XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    CHECK(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t got = pread(fd, buf, cap - 1, 0);
    buf[got > 0 ? got : 0] = 0;
    close(fd);
    unlink(path);
}

typedef struct job {
    const char *file;
    const uint16_t *data; /* write when set, else read into out and compare */
    const uint16_t *expect;
    unsigned flags;       /* GPULZ_H5_OPTIONAL or 0 */
    int lz;               /* mode lz, else gpulz_h5_set_dcpl()'s default */
} job;

static void write_file(void *arg)
{
    job *J = arg;
    hsize_t dims[1] = {ELEMS}, chunk[1] = {CHUNK_ELEMS};
    hid_t f = H5Fcreate(J->file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CHECK(f >= 0 && space >= 0 && dcpl >= 0);
    CHECK(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    CHECK((J->lz ? gpulz_h5_set_dcpl_mode(dcpl, 0, 128, 2048, J->flags, H5Z_GPULZ_CD_MODE_LZ)
                 : gpulz_h5_set_dcpl(dcpl, 0, 128, 2048, J->flags)) >= 0);
    hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_UINT16, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, J->data) >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
}

static void read_file(void *arg)
{
    job *J = arg;
    uint16_t *out = malloc(sizeof(uint16_t) * ELEMS);
    CHECK(out);
    hid_t f = H5Fopen(J->file, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "x", H5P_DEFAULT);
    CHECK(f >= 0 && d >= 0);
    CHECK(H5Dread(d, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0);
    CHECKF(memcmp(out, J->expect, sizeof(uint16_t) * ELEMS) == 0, "%s reads back different", J->file);
    H5Dclose(d);
    H5Fclose(f);
    free(out);
}

/* Every chunk's stored bytes and filter mask, equal in both files. */
static void compare_chunks(const char *a, const char *b)
{
    hid_t fa = H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT), fb = H5Fopen(b, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t da = H5Dopen2(fa, "x", H5P_DEFAULT), db = H5Dopen2(fb, "x", H5P_DEFAULT);
    CHECK(da >= 0 && db >= 0);
    size_t cap = sizeof(uint16_t) * CHUNK_ELEMS + 65536;
    uint8_t *ba = malloc(cap), *bb = malloc(cap);
    CHECK(ba && bb);
    for (hsize_t c = 0; c < NCHUNKS; c++) {
        hsize_t off[1] = {c * CHUNK_ELEMS}, na = 0, nb = 0;
        uint32_t ma = 0, mb = 0;
        CHECK(H5Dget_chunk_storage_size(da, off, &na) >= 0 && H5Dget_chunk_storage_size(db, off, &nb) >= 0);
        CHECKF(na == nb && na <= cap, "chunk %llu: %llu vs %llu bytes", (unsigned long long)c,
               (unsigned long long)na, (unsigned long long)nb);
        CHECK(gpulz_h5_read_chunk(da, H5P_DEFAULT, off, &ma, ba, cap) >= 0);
        CHECK(gpulz_h5_read_chunk(db, H5P_DEFAULT, off, &mb, bb, cap) >= 0);
        CHECKF(ma == mb && memcmp(ba, bb, na) == 0, "chunk %llu differs between %s and %s",
               (unsigned long long)c, a, b);
    }
    free(ba);
    free(bb);
    H5Dclose(da);
    H5Dclose(db);
    H5Fclose(fa);
    H5Fclose(fb);
}

static void run(const char *backend, void (*fn)(void *), job *J, const char *must_say)
{
    static char text[1 << 16];
    setenv("GPULZ_BACKEND", backend, 1);
    setenv("GPULZ_VERBOSE", "1", 1);
    capture_stderr(fn, J, text, sizeof text);
    CHECKF(strstr(text, must_say) != NULL, "GPULZ_BACKEND=%s on %s: no \"%s\" in:\n%s", backend,
           J->file, must_say, text);
}

int main(void)
{
    if (!gpulz_gpu_available()) {
        fprintf(stderr, "h5_gpu: no usable GPU (%s): skipped\n", gpulz_last_error());
        return 77;
    }
    uint16_t *quant = malloc(sizeof(uint16_t) * ELEMS), *noise = malloc(sizeof(uint16_t) * ELEMS);
    CHECK(quant && noise);
    CHECK(gpulz_gen("quant", quant, sizeof(uint16_t) * ELEMS, 7) == 0);
    CHECK(gpulz_gen("random", noise, sizeof(uint16_t) * ELEMS, 8) == 0);
    /* a run of zeros and a stretch of noise inside the codes: encoded and raw blocks */
    memset(quant + CHUNK_ELEMS / 2, 0, CHUNK_ELEMS / 4);
    memcpy(quant + 2 * CHUNK_ELEMS, noise, CHUNK_ELEMS / 3 * sizeof(uint16_t));

    const struct {
        const uint16_t *data;
        unsigned flags;
        int lz;
        const char *gpu_file, *cpu_file;
    } cases[] = {
        {quant, 0, 1, "h5_gpu_quant_gpu.h5", "h5_gpu_quant_cpu.h5"},
        {quant, 0, 0, "h5_gpu_quant_auto_gpu.h5", "h5_gpu_quant_auto_cpu.h5"},
        {noise, GPULZ_H5_OPTIONAL, 1, "h5_gpu_noise_gpu.h5", "h5_gpu_noise_cpu.h5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        job g = {cases[i].gpu_file, cases[i].data, cases[i].data, cases[i].flags, cases[i].lz};
        job c = {cases[i].cpu_file, cases[i].data, cases[i].data, cases[i].flags, cases[i].lz};
        run("gpu", write_file, &g, "on the GPU");
        run("cpu", write_file, &c, "on the CPU");
        compare_chunks(g.file, c.file);
        /* each file through the other backend */
        g.data = c.data = NULL;
        if (cases[i].flags == 0) {
            run("cpu", read_file, &g, "on the CPU");
            run("gpu", read_file, &c, "on the GPU");
        } else {
            /* optional filter on noise: chunks stored unfiltered, nothing to decode */
            run("cpu", read_file, &g, "");
            run("gpu", read_file, &c, "");
        }
    }
    free(quant);
    free(noise);
    printf("h5_gpu: GPU and CPU chunks identical; cross reads exact\n");
    return 0;
}
