/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * datagen.c - see datagen.h.  Everything derives from a 64-bit seed through
 * splitmix64, so the same call gives the same bytes on every machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"

const char *const gpulz_gen_kinds[] = {"random", "zeros", "runs", "ramp", "records",
                                       "quant",  "float", "int",  NULL};

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
    return (next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static void gen_random(uint8_t *b, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = next(s);
        memcpy(b + i, &v, n - i < 8 ? n - i : 8);
    }
}

static void gen_runs(uint8_t *b, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n;) {
        size_t len = 1 + next(s) % 300;
        uint8_t v = (uint8_t)next(s);
        for (size_t e = i + len < n ? i + len : n; i < e; i++)
            b[i] = v;
    }
}

static void gen_ramp(uint8_t *b, size_t n, uint64_t *s)
{
    uint32_t v = (uint32_t)next(s), step = 1 + (uint32_t)(next(s) % 7);
    for (size_t i = 0; i < n; i += 4, v += step)
        memcpy(b + i, &v, n - i < 4 ? n - i : 4);
}

/* 32-byte records as a logger would write them: a counter, a few fields
 * that rarely change, a slowly drifting float and a noisy byte. */
static void gen_records(uint8_t *b, size_t n, uint64_t *s)
{
    uint8_t rec[32] = {0};
    uint32_t id = 0, station = (uint32_t)next(s) % 100;
    float temp = 15.0f;
    for (size_t i = 0; i < n; i += sizeof rec) {
        id++;
        if (next(s) % 64 == 0)
            station = (uint32_t)next(s) % 100;
        temp += (float)(uniform(s) - 0.5) * 0.1f;
        uint8_t noise = (uint8_t)next(s);
        memcpy(rec, &id, 4);
        memcpy(rec + 4, &station, 4);
        memcpy(rec + 8, &temp, 4);
        memcpy(rec + 12, "STATION-OK\0\0", 12);
        rec[24] = noise;
        memcpy(b + i, rec, n - i < sizeof rec ? n - i : sizeof rec);
    }
}

/* A smooth 3-D field of count values in raster order: a sum of separable
 * low-frequency modes plus a little noise, like a simulation snapshot. */
#define MODES 6
typedef struct field {
    size_t nx, ny;
    double *tx[MODES], *ty[MODES], *tz[MODES], amp[MODES];
} field;

static size_t field_side(size_t count)
{
    size_t s = (size_t)cbrt((double)count);
    return s < 8 ? 8 : s;
}

static void field_fill(float *out, size_t count, uint64_t *s)
{
    size_t nx = field_side(count), ny = nx, nz = (count + nx * ny - 1) / (nx * ny);
    double *tab = malloc(sizeof(double) * MODES * (nx + ny + nz));
    if (!tab) {
        memset(out, 0, count * sizeof *out);
        return;
    }
    double *t = tab, amp[MODES];
    double *tx[MODES], *ty[MODES], *tz[MODES];
    size_t dims[3] = {nx, ny, nz};
    double **tabs[3] = {tx, ty, tz};
    for (int m = 0; m < MODES; m++) {
        amp[m] = 1.0 / (1 + m);
        for (int d = 0; d < 3; d++) {
            double k = 2 * M_PI * (0.5 + 2.5 * uniform(s)) / (double)nx, ph = 2 * M_PI * uniform(s);
            tabs[d][m] = t;
            for (size_t i = 0; i < dims[d]; i++)
                t[i] = sin(k * (double)i + ph);
            t += dims[d];
        }
    }
    size_t i = 0;
    for (size_t z = 0; z < nz && i < count; z++)
        for (size_t y = 0; y < ny && i < count; y++)
            for (size_t x = 0; x < nx && i < count; x++, i++) {
                double v = 0;
                for (int m = 0; m < MODES; m++)
                    v += amp[m] * tx[m][x] * ty[m][y] * tz[m][z];
                out[i] = (float)(v + 0.004 * (uniform(s) - 0.5));
            }
    free(tab);
}

/* cuSZ-style dual quantization (relative error bound 1e-3, radius 512):
 * prequantize to multiples of 2 eb, predict each integer from its 3-D
 * Lorenzo neighbours, code = difference + 512, outliers coded 0. */
static void gen_quant(uint8_t *b, size_t n, uint64_t *s)
{
    size_t count = (n + 1) / 2;
    float *f = malloc(count * sizeof *f);
    int64_t *q = malloc(count * sizeof *q);
    if (!f || !q || count == 0) { /* count 0: there is no f[0] to start from */
        memset(b, 0, n);
        goto done;
    }
    field_fill(f, count, s);
    float lo = f[0], hi = f[0];
    for (size_t i = 0; i < count; i++) {
        lo = f[i] < lo ? f[i] : lo;
        hi = f[i] > hi ? f[i] : hi;
    }
    double eb = 1e-3 * (hi - lo > 0 ? hi - lo : 1);
    for (size_t i = 0; i < count; i++)
        q[i] = (int64_t)llrint(f[i] / (2 * eb));
    size_t nx = field_side(count), ny = nx, plane = nx * ny;
    for (size_t i = 0; i < count; i++) {
        long x = (long)(i % nx), y = (long)(i / nx % ny), z = (long)(i / plane);
#define Q(dx, dy, dz) ((x >= dx && y >= dy && z >= dz) ? q[i - dx - dy * nx - dz * plane] : 0)
        int64_t pred = Q(1, 0, 0) + Q(0, 1, 0) + Q(0, 0, 1) - Q(1, 1, 0) - Q(1, 0, 1) - Q(0, 1, 1) +
                       Q(1, 1, 1);
#undef Q
        int64_t d = q[i] - pred + 512;
        uint16_t code = (d <= 0 || d >= 1024) ? 0 : (uint16_t)d;
        memcpy(b + 2 * i, &code, n - 2 * i < 2 ? n - 2 * i : 2);
    }
done:
    free(f);
    free(q);
}

static void gen_float(uint8_t *b, size_t n, uint64_t *s)
{
    size_t count = (n + 3) / 4;
    float *f = malloc(count * sizeof *f);
    if (!f) {
        memset(b, 0, n);
        return;
    }
    field_fill(f, count, s);
    memcpy(b, f, n);
    free(f);
}

/* Three TPC-H lineitem-like int32 columns one after another: sorted order
 * keys repeated 1-7 times, quantities 1..50, part keys 1..200000. */
static void gen_int(uint8_t *b, size_t n, uint64_t *s)
{
    size_t count = (n + 3) / 4, rows = (count + 2) / 3;
    int32_t key = 4;
    unsigned left = 1 + (unsigned)(next(s) % 7);
    for (size_t i = 0; i < count; i++) {
        int32_t v;
        if (i < rows) {
            v = key;
            if (--left == 0) {
                key += 4;
                left = 1 + (unsigned)(next(s) % 7);
            }
        } else if (i < 2 * rows) {
            v = 1 + (int32_t)(next(s) % 50);
        } else {
            v = 1 + (int32_t)(next(s) % 200000);
        }
        memcpy(b + 4 * i, &v, n - 4 * i < 4 ? n - 4 * i : 4);
    }
}

int gpulz_gen(const char *kind, void *buf, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    uint8_t *b = buf;
    if (!strcmp(kind, "random"))
        gen_random(b, n, &s);
    else if (!strcmp(kind, "zeros"))
        memset(b, 0, n);
    else if (!strcmp(kind, "runs"))
        gen_runs(b, n, &s);
    else if (!strcmp(kind, "ramp"))
        gen_ramp(b, n, &s);
    else if (!strcmp(kind, "records"))
        gen_records(b, n, &s);
    else if (!strcmp(kind, "quant"))
        gen_quant(b, n, &s);
    else if (!strcmp(kind, "float"))
        gen_float(b, n, &s);
    else if (!strcmp(kind, "int"))
        gen_int(b, n, &s);
    else
        return -1;
    return 0;
}

unsigned gpulz_gen_element_size(const char *kind)
{
    if (!strcmp(kind, "quant"))
        return 2;
    if (!strcmp(kind, "float") || !strcmp(kind, "int") || !strcmp(kind, "ramp"))
        return 4;
    return 1;
}
