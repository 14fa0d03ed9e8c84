/* SPDX-License-Identifier: BSD-3-Clause */
/* dev-only: time the CUDA runtime calls of the host C files (CFLAGS=-include trace.h) */
#ifndef TRACE_H
#define TRACE_H
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef struct { const char *what, *file; int line; double t0, t1; } trace_ev;
#define TRACE_MAX (1 << 20)
__attribute__((weak)) trace_ev *trace_buf;
__attribute__((weak)) long trace_n;
static inline double trace_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static inline void trace_add(const char *w, const char *f, int l, double t0) {
    if (!trace_buf) trace_buf = (trace_ev *)malloc(TRACE_MAX * sizeof *trace_buf);
    if (trace_n < TRACE_MAX) trace_buf[trace_n++] = (trace_ev){w, f, l, t0, trace_now()};
}
__attribute__((weak, destructor)) void trace_dump(void) {
    const char *p = getenv("TRACE_OUT"); FILE *o = p ? fopen(p, "w") : NULL; if (!o) return;
    for (long i = 0; i < trace_n; i++) fprintf(o, "%.1f %.1f %s %s:%d\n", trace_buf[i].t0, trace_buf[i].t1, trace_buf[i].what, trace_buf[i].file, trace_buf[i].line);
    fclose(o);
}
#define TRACE_CALL(w, call) ({ double _t0 = trace_now(); cudaError_t _e = (call); trace_add(w, __FILE__, __LINE__, _t0); _e; })
#define cudaStreamSynchronize(...) TRACE_CALL("sync", (cudaStreamSynchronize)(__VA_ARGS__))
#define cudaEventSynchronize(...) TRACE_CALL("esync", (cudaEventSynchronize)(__VA_ARGS__))
#define cudaMemcpyAsync(...) TRACE_CALL("memcpy", (cudaMemcpyAsync)(__VA_ARGS__))
#define cudaMemsetAsync(...) TRACE_CALL("memset", (cudaMemsetAsync)(__VA_ARGS__))
#define cudaMalloc(...) TRACE_CALL("malloc", (cudaMalloc)(__VA_ARGS__))
#define cudaFree(...) TRACE_CALL("free", (cudaFree)(__VA_ARGS__))
#define cudaHostAlloc(...) TRACE_CALL("hostalloc", (cudaHostAlloc)(__VA_ARGS__))
#define cudaFreeHost(...) TRACE_CALL("freehost", (cudaFreeHost)(__VA_ARGS__))
#define cudaSetDevice(...) TRACE_CALL("setdev", (cudaSetDevice)(__VA_ARGS__))
#define cudaGetDevice(...) TRACE_CALL("getdev", (cudaGetDevice)(__VA_ARGS__))
#define cudaPointerGetAttributes(...) TRACE_CALL("ptrattr", (cudaPointerGetAttributes)(__VA_ARGS__))
#define cudaEventRecord(...) TRACE_CALL("erecord", (cudaEventRecord)(__VA_ARGS__))
#define cudaStreamWaitEvent(...) TRACE_CALL("ewait", (cudaStreamWaitEvent)(__VA_ARGS__))
#define cudaStreamCreateWithFlags(...) TRACE_CALL("screate", (cudaStreamCreateWithFlags)(__VA_ARGS__))
#define cudaEventCreateWithFlags(...) TRACE_CALL("ecreate", (cudaEventCreateWithFlags)(__VA_ARGS__))
#define cudaDeviceGetAttribute(...) TRACE_CALL("devattr", (cudaDeviceGetAttribute)(__VA_ARGS__))
#define cudaStreamGetDevice(...) TRACE_CALL("sgetdev", (cudaStreamGetDevice)(__VA_ARGS__))
#endif
