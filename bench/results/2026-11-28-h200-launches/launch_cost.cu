// SPDX-License-Identifier: BSD-3-Clause
// dev-only: host time per CUDA runtime call on one stream (no sync between calls)
#include <cub/cub.cuh>
#include <cstdio>
#include <ctime>
#include <vector>
#include <algorithm>
static double now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
__global__ void empty_k(int *p) { if (p && threadIdx.x == 1000) *p = 1; }
__global__ void smem_k(int *p) { extern __shared__ int s[]; if (p && threadIdx.x == 1000) *p = s[0]; }
struct Big { char b[1024]; };
__global__ void big_k(Big a, int *p) { if (p && threadIdx.x == 1000) *p = a.b[0]; }
template <class F> void timeit(const char *name, F f, cudaStream_t st) {
    std::vector<double> v;
    for (int r = 0; r < 7; r++) {
        cudaStreamSynchronize(st);
        double t0 = now();
        for (int i = 0; i < 200; i++) f();
        double t1 = now();
        v.push_back((t1 - t0) / 200);
        cudaStreamSynchronize(st);
    }
    std::sort(v.begin(), v.end());
    printf("%-40s %7.2f us/call (min %.2f)\n", name, v[3], v[0]);
}
int main() {
    cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    int *d; cudaMalloc(&d, 1 << 24);
    uint64_t *a; cudaMalloc(&a, 3 * 70000 * 8);
    void *tmp = nullptr; size_t tb = 0; cub::DeviceScan::ExclusiveSum(nullptr, tb, a, (uint64_t)70000);
    cudaMalloc(&tmp, tb);
    cudaEvent_t ev; cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    Big big = {};
    timeit("empty kernel <<<1,32>>>", [&] { empty_k<<<1, 32, 0, st>>>(d); }, st);
    timeit("empty kernel <<<256,256>>>", [&] { empty_k<<<256, 256, 0, st>>>(d); }, st);
    timeit("kernel with 1 KB argument", [&] { big_k<<<256, 256, 0, st>>>(big, d); }, st);
    timeit("kernel 60 KB dyn smem", [&] { smem_k<<<256, 256, 60000, st>>>(d); }, st);
    timeit("cudaFuncSetAttribute maxdyn", [&] { cudaFuncSetAttribute(smem_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 60000); }, st);
    timeit("cudaFuncSetAttribute carveout", [&] { cudaFuncSetAttribute(smem_k, cudaFuncAttributePreferredSharedMemoryCarveout, 100); }, st);
    timeit("cudaMemsetAsync 2 KB", [&] { cudaMemsetAsync(d, 0, 2048, st); }, st);
    timeit("cudaEventRecord", [&] { cudaEventRecord(ev, st); }, st);
    timeit("cub ExclusiveSum 257", [&] { size_t t = tb; cub::DeviceScan::ExclusiveSum(tmp, t, a, (uint64_t)257, st); }, st);
    timeit("cub ExclusiveSum 65537", [&] { size_t t = tb; cub::DeviceScan::ExclusiveSum(tmp, t, a, (uint64_t)65537, st); }, st);
    timeit("cudaGetDevice", [&] { int dv; cudaGetDevice(&dv); }, st);
    timeit("cudaPointerGetAttributes", [&] { cudaPointerAttributes pa; cudaPointerGetAttributes(&pa, d); }, st);
    // GPU time of the scans, events
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (uint64_t n : {257ull, 4097ull, 65537ull}) {
        cudaEventRecord(e0, st);
        for (int i = 0; i < 100; i++) { size_t t = tb; cub::DeviceScan::ExclusiveSum(tmp, t, a, n, st); }
        cudaEventRecord(e1, st); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1);
        printf("cub scan %llu: %.2f us GPU each (back to back)\n", (unsigned long long)n, ms * 10);
    }
    return 0;
}
