/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_v2_launch.cu - the nvcc unit of format 2's kernels: the scratch plan
 * (CUB's scan sizes it) and the launches gpu_v2.c and gpu_v2_ratio.c call.  Kernels run on
 * the stream they are given; nothing here synchronises.
 */
#include <cuda_runtime.h>
#include <string.h>

#include <atomic>

#include <cub/device/device_scan.cuh>

#include "gpu_v2.cuh"
#include "gpu_v2_lz.cuh"

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static unsigned sym_streams_max(unsigned S)
{
    return S == 1 ? 1 : S;
}

extern "C" size_t gpu_v2_scan_temp(uint64_t items)
{
    size_t temp = 0;
    gpu_touch(); /* the size query may start the CUDA runtime */
    if (cub::DeviceScan::ExclusiveSum(NULL, temp, (uint64_t *)NULL, items) != cudaSuccess)
        return 0;
    return temp;
}

extern "C" int gpu_v2_plan_make(uint64_t n, unsigned S, unsigned C, unsigned g, int lzss, gpu_v2_plan *P)
{
    const uint64_t m = n / S, nb = (m + C - 1) / C, G = (uint64_t)1 << g;
    /* the streams: fast's symbol streams, or ratio's flags, literals,
     * lengths and offsets, each holding at most m units (flags: m / 8 + nb) */
    const unsigned streams = sym_streams_max(S) + (lzss ? 3 : 0);
    const size_t lit_values = S == 2 ? 65536 : (size_t)sym_streams_max(S) * 256;
    const size_t enc_values = lit_values + (lzss ? 3 * 256 : 0);
    memset(P, 0, sizeof *P);
    P->hist_bins = S == 1 ? 256 : S == 2 ? 65536 : (size_t)S * 256;
    P->segs = (uint64_t)streams * ((m + nb + G - 1) / G + 1);
    size_t temp = gpu_v2_scan_temp(P->segs + 1), temp_nb = lzss ? gpu_v2_scan_temp(nb + 1) : 0;
    if (!temp || (lzss && !temp_nb))
        return gpulz_fail(GPULZ_ERR_CUDA, "cannot size the device scan of %llu items",
                          (unsigned long long)P->segs);
    P->temp_bytes = temp; /* the segments' only: the tokens' scans have temp_tokens, to run beside fast's coding */
    P->hist = 0;
    /* fast's two transforms, or ratio's streams: flags, literals, lengths, offsets */
    P->range = align256(P->hist + (2 * P->hist_bins + 3 * 256) * sizeof(uint64_t));
    const size_t range_end = P->range + GPU_V2_RANGE_AREA * sizeof(unsigned);
    if (gpulz_pick_sampled(m, S))
        P->pick = align256(range_end);
    P->pack = align256(P->pick ? P->pick + GPU_V2_PICK_BYTES : range_end);
    P->status = align256(P->pack + GPU_V2_PACK_ALL_WORDS(2) * sizeof(uint64_t));
    P->enc = align256(P->status + 16);
    /* the coder's sums, then each stream's model, the entries built from them */
    P->enc_model = align256(P->enc + enc_values * sizeof(gpu_v2_enc));
    P->dec = align256(P->enc_model + GPU_V2_SUMS_BYTES + streams * GPU_V2_MODEL_BYTES);
    P->words = align256(P->dec + (size_t)streams * sizeof(gpulz_dec_table));
    P->seg_off = align256(P->words + P->segs * sizeof(uint32_t));
    P->states = align256(P->seg_off + (P->segs + 1) * sizeof(uint64_t));
    P->temp = align256(P->states + P->segs * GPULZ_RANS_STATE_BYTES);
    /* the streams' words as coded, each stream's room its units' bytes: the
     * symbol streams' m * S at most, ratio's flags, lengths and offsets
     * theirs (m / 8 + nb, m, m) */
    P->coded_bytes = (size_t)m * S + (lzss ? (size_t)(m / 8 + nb + 2 * m) : 0) + (size_t)256 * streams;
    P->coded = align256(P->temp + P->temp_bytes);
    size_t end = align256(P->coded + P->coded_bytes);
    if (lzss) {
        P->slot_flags = end;
        P->slot_lits = align256(P->slot_flags + nb * (C / 8));
        P->slot_lens = align256(P->slot_lits + m * S);
        P->slot_offs = align256(P->slot_lens + m);
        P->counts = align256(P->slot_offs + m);
        P->flags = align256(P->counts + 3 * (nb + 1) * sizeof(uint64_t));
        P->lits = align256(P->flags + nb * (C / 8));
        P->lens = align256(P->lits + m * S);
        P->offs = align256(P->lens + m);
        P->table = align256(P->offs + m);
        P->temp_tokens = align256(P->table + nb * GPULZ_TOKEN_ENTRY_SIZE);
        P->temp_tokens_bytes = temp_nb;
        end = align256(P->temp_tokens + temp_nb);
    }
    P->total = end;
    return GPULZ_OK;
}

/*
 * A launch of one of the kernels that begin with v2_after_prior(): on a
 * device of compute capability 9.0 or later it may start while the kernel
 * before it in the stream ends (programmatic dependent launch), so that the
 * device does not idle a launch's time between two steps of a chunk; the
 * kernel waits for that one before it touches memory.  Elsewhere a plain
 * launch.  Its error is the thread's last CUDA error, as a <<< >>> launch's.
 */
static bool chained_here(void)
{
    static std::atomic<signed char> known[GPULZ_MAX_DEVICES]; /* 0 not asked, 1 no, 2 yes */
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= GPULZ_MAX_DEVICES) {
        (void)cudaGetLastError();
        return false;
    }
    signed char k = known[dev].load(std::memory_order_relaxed);
    if (!k) {
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
            (void)cudaGetLastError();
            return false;
        }
        k = major >= 9 ? 2 : 1;
        known[dev].store(k, std::memory_order_relaxed);
    }
    return k == 2;
}

template <typename... K, typename... A>
static cudaError_t launch_chained(void (*kern)(K...), dim3 grid, dim3 block, size_t smem, cudaStream_t st,
                                  A... args)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cfg.attrs = attr;
    cfg.numAttrs = chained_here() ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kern, args...);
}

static unsigned grid_for(uint64_t items, unsigned threads)
{
    uint64_t g = (items + threads - 1) / threads;
    return g < 1 ? 1 : g > 65535 * 16 ? 65535 * 16 : (unsigned)g;
}

/* The blocks that fill context c's device once with blocks of `threads`, at
 * most `per_sm` to an SM, and no more than items / threads. */
static unsigned grid_resident(const gpu_ctx *c, uint64_t items, unsigned threads, unsigned per_sm)
{
    const uint64_t want = (items + threads - 1) / threads, most = (uint64_t)c->pol.sms * per_sm;
    return want < 1 ? 1 : want > most ? (unsigned)most : (unsigned)want;
}

extern "C" int gpu_v2_hist_ranged(const gpu_ctx *c, uint64_t m, unsigned S)
{
    return m && S == 2 && gpu_smem_most(c) >= GPU_V2_HIST2_SMEM && !gpu_v2_unranged();
}

extern "C" int gpu_v2_hist(const gpu_ctx *c, const uint8_t *d_src, uint64_t m, unsigned S, unsigned C,
                           int delta_too, uint64_t *hist, size_t bins, unsigned *range, unsigned *pick,
                           cudaStream_t st)
{
    int rc = GPULZ_OK;
    unsigned long long *h = (unsigned long long *)hist;
    const unsigned ntrans = delta_too ? 2 : 1;
    if (pick && (S != 2 || !delta_too || !gpulz_pick_sampled(m, S)))
        return gpulz_fail(GPULZ_ERR_PARAM, "no sampled choice of DELTA for %llu symbols of %u bytes",
                          (unsigned long long)m, S);
    const unsigned *picked = NULL;
    const int ranged = gpu_v2_hist_ranged(c, m, S);
    const uint64_t every = gpulz_sample_every(m / 8, gpu_v2_sample_groups());
    if (ranged) {
        /* narrow windows counted in one pass; hist2 takes the rest */
        launch_chained(gpu_v2_range2_kernel, grid_resident(c, m / 8 / every + 1, 256, 8), 256, 0, st, d_src, m, C - 1,
                       every, range);
        GPULZ_CK(cudaGetLastError());
        if ((rc = gpu_smem_optin(c, (const void *)gpu_v2_count2_kernel, GPU_V2_COUNT2_SMEM)) != GPULZ_OK ||
            (rc = gpu_smem_optin(c, (const void *)gpu_v2_sample2_kernel, GPU_V2_COUNT2_SMEM)) != GPULZ_OK ||
            (rc = gpu_smem_optin(c, (const void *)gpu_v2_hist2_kernel, GPU_V2_HIST2_SMEM)) != GPULZ_OK)
            return rc;
    }
    if (pick) {
        /* in the windows of range2's sample; value by value without them */
        const uint64_t pick_every = gpulz_sample_every(m / 8, GPULZ_PICK_SAMPLE);
        const uint64_t runs = gpulz_sample_picks(m / 8, pick_every) * GPULZ_SAMPLE_RUN;
        launch_chained(gpu_v2_sample2_kernel, grid_resident(c, runs, GPU_V2_COUNT2_THREADS, 1), GPU_V2_COUNT2_THREADS,
                       ranged ? GPU_V2_COUNT2_SMEM : 0, st, d_src, m, C - 1, every != pick_every, ranged, range,
                       (unsigned long long *)(pick + GPU_V2_PICK_HEAD));
        GPULZ_CK(cudaGetLastError());
        launch_chained(gpu_v2_weigh2_kernel, 2 * 65536 / GPU_V2_WEIGH_THREADS, GPU_V2_WEIGH_THREADS, 0, st, pick);
        GPULZ_CK(cudaGetLastError());
        picked = pick + GPU_V2_PICK_WORD;
    }
    if (ranged) {
        launch_chained(gpu_v2_count2_kernel, grid_resident(c, m / 8 + 1, GPU_V2_COUNT2_THREADS, GPU_V2_COUNT2_PER_SM),
                       GPU_V2_COUNT2_THREADS, GPU_V2_COUNT2_SMEM, st, d_src, m, C - 1, ntrans, every > 1, picked,
                       range, h, bins);
        GPULZ_CK(cudaGetLastError());
        dim3 grid(grid_resident(c, m, GPU_V2_HIST2_RUN, 1), ntrans);
        launch_chained(gpu_v2_hist2_kernel, grid, 1024, GPU_V2_HIST2_SMEM, st, d_src, m, C, range, picked, h, bins);
        GPULZ_CK(cudaGetLastError());
        return GPULZ_OK;
    }
    if (m) {
        /* a few blocks per SM: each flushes its shared counts once */
        unsigned grid = grid_for(m, 256 * 16);
        gpu_v2_hist_inputs in;
        memset(&in, 0, sizeof in);
        in.x[0] = d_src;
        in.m[0] = m;
        in.hist[0] = hist;
        switch (S) {
        case 1: launch_chained(gpu_v2_hist_kernel<1>, grid, 256, 0, st, in, C, delta_too != 0, bins); break;
        case 2: launch_chained(gpu_v2_hist_kernel<2>, grid, 256, 0, st, in, C, delta_too != 0, bins); break;
        case 4: launch_chained(gpu_v2_hist_kernel<4>, grid, 256, 0, st, in, C, delta_too != 0, bins); break;
        default: launch_chained(gpu_v2_hist_kernel<8>, grid, 256, 0, st, in, C, delta_too != 0, bins); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_hist_bytes(const gpu_v2_hist_inputs *in, unsigned count, cudaStream_t st)
{
    int rc = GPULZ_OK;
    uint64_t most = 0;
    for (unsigned j = 0; j < count; j++)
        most = in->m[j] > most ? in->m[j] : most;
    if (!most)
        return GPULZ_OK;
    /* C = 1 and no deltas: the bytes as they are */
    launch_chained(gpu_v2_hist_kernel<1>, dim3(grid_for(most, 256 * 16), count), 256, 0, st, *in, 1, false, 256);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_v2_pack2(const unsigned *range, const uint64_t *hist, size_t bins, unsigned ntrans, uint64_t N,
                            uint64_t *packed, cudaStream_t st)
{
    int rc = GPULZ_OK;
    launch_chained(gpu_v2_pack2_kernel, ntrans, GPU_V2_PACK2_THREADS, 0, st, range + GPU_V2_RANGE_WORDS,
                   (const unsigned long long *)hist, bins, N, packed);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_v2_checksum(const uint8_t *d_data, uint64_t n, unsigned S, unsigned C, uint32_t *sum,
                               cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t m = n / S, nb = (m + C - 1) / C, pieces = nb + 1;
    const uint64_t per = GPU_V2_CK_THREADS / 32, blocks = (pieces + per - 1) / per;
    gpu_v2_checksum_kernel<<<(unsigned)(blocks < GPU_V2_CK_BLOCKS_MOST ? blocks : GPU_V2_CK_BLOCKS_MOST),
                             GPU_V2_CK_THREADS, 0, st>>>(d_data, (uint64_t)C * S, m * S, nb, n - m * S, sum);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

/* The most units of a stream the store (or, with constant, unstore) kernel
 * has to write: a grid for no stream of theirs is launched for nothing. */
static uint64_t most_units(const gpu_v2_job *J, int with_constant)
{
    uint64_t most = 0;
    for (unsigned j = 0; j < J->count; j++) {
        const gpu_v2_stream *s = &J->s[j];
        if ((s->kind == GPULZ_STREAM_STORED || (with_constant && s->kind == GPULZ_STREAM_CONSTANT)) && s->N > most)
            most = s->N;
    }
    return most;
}

/* segs segments in all leave context c's device mostly idle: at most
 * GPU_V2_FEW_SEGS_PER_SM an SM, nothing beside a segment hides its waits */
static bool few_segs(const gpu_ctx *c, uint64_t segs)
{
    return segs <= (uint64_t)GPU_V2_FEW_SEGS_PER_SM * c->pol.sms;
}

extern "C" unsigned gpu_v2_enc_batch(const gpu_ctx *c, uint64_t segs)
{
    return few_segs(c, segs) ? GPU_V2_ENC_BATCH_FEW : GPU_V2_ENC_BATCH;
}

extern "C" int gpu_v2_enc_build(const gpu_v2_enc_models *M, unsigned count, uint32_t max_width, cudaStream_t st)
{
    int rc = GPULZ_OK;
    if (count && max_width) {
        dim3 grid((max_width + GPU_V2_ENC_BUILD_THREADS - 1) / GPU_V2_ENC_BUILD_THREADS, count);
        launch_chained(gpu_v2_enc_build_kernel, grid, GPU_V2_ENC_BUILD_THREADS, 0, st, *M);
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_encode(const gpu_v2_job *J, uint8_t *d_dst, int write, uint64_t max_segs, unsigned batch,
                             cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t max_units = write ? most_units(J, 0) : 0;
    if (max_segs) {
        dim3 grid((unsigned)((max_segs + GPU_V2_WARPS - 1) / GPU_V2_WARPS), J->count);
#define ENC_B(SS, WW, BB) launch_chained(gpu_v2_encode_kernel<SS, WW, BB>, grid, 32 * GPU_V2_WARPS, 0, st, *J, d_dst)
#define ENC(SS)                                                                                                 \
    (batch == GPU_V2_ENC_BATCH_FEW ? (write ? ENC_B(SS, true, GPU_V2_ENC_BATCH_FEW)                            \
                                            : ENC_B(SS, false, GPU_V2_ENC_BATCH_FEW))                          \
                                   : (write ? ENC_B(SS, true, GPU_V2_ENC_BATCH) : ENC_B(SS, false, GPU_V2_ENC_BATCH)))
        switch (J->S) {
        case 1: ENC(1); break;
        case 2: ENC(2); break;
        case 4: ENC(4); break;
        default: ENC(8); break;
        }
#undef ENC
#undef ENC_B
        GPULZ_CK(cudaGetLastError());
    }
    if (write && max_units) {
        dim3 grid(grid_for(max_units, 256 * 8), J->count);
        switch (J->S) {
        case 1: launch_chained(gpu_v2_store_kernel<1>, grid, 256, 0, st, *J, d_dst); break;
        case 2: launch_chained(gpu_v2_store_kernel<2>, grid, 256, 0, st, *J, d_dst); break;
        case 4: launch_chained(gpu_v2_store_kernel<4>, grid, 256, 0, st, *J, d_dst); break;
        default: launch_chained(gpu_v2_store_kernel<8>, grid, 256, 0, st, *J, d_dst); break;
        }
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_put_segments(const gpu_v2_job *J, uint8_t *d_dst, uint64_t max_segs, unsigned streams,
                                    cudaStream_t st)
{
    int rc = GPULZ_OK;
    if (max_segs && streams) {
        dim3 grid((unsigned)max_segs, streams < J->count ? streams : J->count);
        launch_chained(gpu_v2_put_kernel, grid, GPU_V2_PUT_THREADS, 0, st, *J, d_dst);
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

/* count arrays of len <= GPU_V2_SCAN_BLOCK_MOST items scanned in one launch,
 * a block each; words, where not NULL, as gpu_v2_scan_arrays says. */
static int scan_in_blocks(uint64_t *const a[], const uint32_t *const words[], unsigned count, uint64_t len,
                          cudaStream_t st)
{
    int rc = GPULZ_OK;
    gpu_v2_scan_arrays A;
    memset(&A, 0, sizeof A);
    for (unsigned j = 0; j < count; j++) {
        A.a[j] = a[j];
        A.words[j] = words ? words[j] : NULL;
    }
    launch_chained(gpu_v2_scan_kernel, count, GPU_V2_SCAN_THREADS, 0, st, A, len);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

/*
 * Up to GPU_V2_SCAN_BLOCK_MOST items an array, the arrays are scanned in one
 * launch, a block each: a chunk as HDF5 hands it over has a few hundred to a
 * few thousand blocks or segments, where CUB's device scan costs two
 * launches and its dispatch per array, host time that a small chunk's
 * whole encoding (a few hundred us) feels.  Longer arrays take CUB's scan.
 */
extern "C" int gpu_v2_scans(uint64_t *const a[], unsigned count, uint64_t len, uint8_t *temp, size_t temp_bytes,
                            cudaStream_t st)
{
    int rc = GPULZ_OK;
    if (!count || !len)
        return GPULZ_OK;
    if (count > GPU_V2_SCANS)
        return gpulz_fail(GPULZ_ERR_PARAM, "%u arrays to scan; at most %d", count, GPU_V2_SCANS);
    if (len <= GPU_V2_SCAN_BLOCK_MOST)
        return scan_in_blocks(a, NULL, count, len, st);
    for (unsigned j = 0; j < count; j++) {
        size_t bytes = temp_bytes;
        GPULZ_CK(cub::DeviceScan::ExclusiveSum(temp, bytes, a[j], len, st));
    }
done:
    return rc;
}

extern "C" int gpu_v2_place(const gpu_v2_job *J, uint64_t segs, uint8_t *temp, size_t temp_bytes, cudaStream_t st)
{
    int rc = GPULZ_OK;
    uint64_t *const a[1] = {J->seg_off};
    const uint32_t *const words[1] = {J->words};
    /* the sizes read by the scan: one launch, where each of the coder's
     * tail of small steps costs the device a few us */
    if (segs + 1 <= GPU_V2_SCAN_BLOCK_MOST)
        return scan_in_blocks(a, words, 1, segs + 1, st);
    launch_chained(gpu_v2_sizes_kernel, grid_for(segs + 1, 256), 256, 0, st, J->words, J->seg_off, segs);
    GPULZ_CK(cudaGetLastError());
    rc = gpu_v2_scans(a, 1, segs + 1, temp, temp_bytes, st);
done:
    return rc;
}

extern "C" int gpu_v2_dec_many(const gpu_ctx *c, const gpu_v2_job *J)
{
    uint64_t segs = 0;
    for (unsigned j = 0; j < J->count; j++)
        segs += J->s[j].kind == GPULZ_STREAM_RANS ? J->s[j].nseg : 0;
    return !few_segs(c, segs);
}

extern "C" int gpu_v2_decode(const gpu_ctx *c, const gpu_v2_job *J, const uint8_t *d_src, uint64_t max_segs,
                             cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t max_units = most_units(J, 1);
    /* a block's segments share its table in shared memory, so more of them
     * to a block keep more warps on an SM; few segments are spread over
     * more SMs instead */
    const unsigned warps = gpu_v2_dec_many(c, J) ? GPU_V2_DEC_WARPS_MANY : GPU_V2_WARPS;
    if (max_segs) {
        dim3 grid((unsigned)((max_segs + warps - 1) / warps), J->count);
        if (warps == GPU_V2_DEC_WARPS_MANY && J->ck) /* gpu_v2_dec_sums sets ck only with many */
            launch_chained(gpu_v2_decode_kernel<GPU_V2_DEC_WARPS_MANY, true>, grid, 32 * warps, 0, st, *J, d_src);
        else if (warps == GPU_V2_DEC_WARPS_MANY)
            launch_chained(gpu_v2_decode_kernel<GPU_V2_DEC_WARPS_MANY, false>, grid, 32 * warps, 0, st, *J, d_src);
        else
            launch_chained(gpu_v2_decode_kernel<GPU_V2_WARPS, false>, grid, 32 * warps, 0, st, *J, d_src);
        GPULZ_CK(cudaGetLastError());
    }
    if (max_units) {
        dim3 grid(grid_for(max_units, 256 * 8), J->count);
        launch_chained(gpu_v2_unstore_kernel, grid, 256, 0, st, *J, d_src);
        GPULZ_CK(cudaGetLastError());
    }
done:
    return rc;
}

extern "C" int gpu_v2_undelta(uint8_t *y, uint64_t m, unsigned S, unsigned C, uint32_t *ck, unsigned tail,
                              cudaStream_t st)
{
    int rc = GPULZ_OK;
    const unsigned nb = (unsigned)((m + C - 1) / C);
    if (!m)
        return GPULZ_OK;
    switch (S) {
    case 1: launch_chained(gpu_v2_undelta_kernel<1>, nb, GPU_V2_UNDELTA_THREADS, 0, st, y, m, C, ck, tail); break;
    case 2: launch_chained(gpu_v2_undelta_kernel<2>, nb, GPU_V2_UNDELTA_THREADS, 0, st, y, m, C, ck, tail); break;
    case 4: launch_chained(gpu_v2_undelta_kernel<4>, nb, GPU_V2_UNDELTA_THREADS, 0, st, y, m, C, ck, tail); break;
    default: launch_chained(gpu_v2_undelta_kernel<8>, nb, GPU_V2_UNDELTA_THREADS, 0, st, y, m, C, ck, tail); break;
    }
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

/* ---- ratio's tokens -------------------------------------------------------- */

typedef void (*lz_kernel_t)(const uint8_t *, uint64_t, uint64_t, unsigned, unsigned, int, gpu_v2_lz_slots,
                            gpu_v2_lz_counts);

template <typename Sym>
static lz_kernel_t lz_kernel_g(unsigned G)
{
    switch (G) {
    case 1: return gpu_v2_lz_kernel<Sym, 1>;
    case 2: return gpu_v2_lz_kernel<Sym, 2>;
    case 3: return gpu_v2_lz_kernel<Sym, 3>;
    case 4: return gpu_v2_lz_kernel<Sym, 4>;
    case 5: return gpu_v2_lz_kernel<Sym, 5>;
    case 6: return gpu_v2_lz_kernel<Sym, 6>;
    case 7: return gpu_v2_lz_kernel<Sym, 7>;
    default: return gpu_v2_lz_kernel<Sym, 8>;
    }
}

static lz_kernel_t lz_kernel(unsigned S, unsigned W)
{
    const unsigned G = (W + 31) / 32;
    switch (S) {
    case 1: return lz_kernel_g<uint8_t>(G);
    case 2: return lz_kernel_g<uint16_t>(G);
    case 4: return lz_kernel_g<uint32_t>(G);
    default: return lz_kernel_g<uint64_t>(G);
    }
}

extern "C" int gpu_v2_tokens(gpu_ctx *c, const uint8_t *d_src, uint64_t m, unsigned S, unsigned C, unsigned W,
                             int delta, uint8_t *scratch, const gpu_v2_plan *P, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t nb = (m + C - 1) / C;
    const size_t smem = gpulz_enc_smem_layout(C, S).total;
    const lz_kernel_t kern = lz_kernel(S, W);
    gpu_v2_lz_slots slots = {scratch + P->slot_flags, scratch + P->slot_lits, scratch + P->slot_lens,
                             scratch + P->slot_offs};
    gpu_v2_lz_slots to = {scratch + P->flags, scratch + P->lits, scratch + P->lens, scratch + P->offs};
    uint64_t *cnt = (uint64_t *)(scratch + P->counts);
    gpu_v2_lz_counts counts = {cnt, cnt + nb + 1, cnt + 2 * (nb + 1)};
    const unsigned seg = gpu_enc_segment(c, gpu_enc_few(c, nb));
    GPULZ_CK(cudaMemsetAsync(cnt, 0, 3 * (nb + 1) * sizeof *cnt, st));
    if (!nb)
        return GPULZ_OK;
    if ((rc = gpu_smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
        return rc;
    for (uint64_t k0 = 0; k0 < nb;) {
        const uint64_t blocks = nb - k0 < c->pol.max_grid ? nb - k0 : c->pol.max_grid;
        launch_chained(kern, (unsigned)blocks, 32 * gpulz_enc_warps(C, seg), smem, st, d_src, m, k0, C, W, delta,
                       slots, counts);
        GPULZ_CK(cudaGetLastError());
        k0 += blocks;
    }
    {
        uint64_t *const a[3] = {counts.fb, counts.nl, counts.nm};
        if ((rc = gpu_v2_scans(a, 3, nb + 1, scratch + P->temp_tokens, P->temp_tokens_bytes, st)) != GPULZ_OK)
            return rc;
    }
    /* 8 warps of 256 threads, a data block each */
    launch_chained(gpu_v2_gather_kernel, (unsigned)((nb + 7) / 8 < 65535 ? (nb + 7) / 8 : 65535), 256, 0, st, slots,
                   counts, to, scratch + P->table, nb, C, S);
    GPULZ_CK(cudaGetLastError());
done:
    return rc;
}

extern "C" int gpu_v2_token_places(const uint8_t *d_table, uint64_t nb, uint64_t m, unsigned C, uint64_t *fpos,
                                   uint64_t *tpos, uint8_t *temp, size_t temp_bytes, unsigned long long *bad,
                                   cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t grid = (nb + 1 + 255) / 256;
    launch_chained(gpu_v2_token_count_kernel, (unsigned)(grid < 65535 ? grid : 65535), 256, 0, st, d_table, nb, m, C,
                   fpos, tpos, bad);
    GPULZ_CK(cudaGetLastError());
    {
        uint64_t *const a[2] = {fpos, tpos};
        rc = gpu_v2_scans(a, 2, nb + 1, temp, temp_bytes, st);
    }
done:
    return rc;
}

extern "C" int gpu_v2_flag_counts(const uint8_t *d_table, const uint8_t *F, const uint64_t *fpos, uint64_t nb,
                                  uint64_t *mpos, uint8_t *temp, size_t temp_bytes, unsigned *err, cudaStream_t st)
{
    int rc = GPULZ_OK;
    launch_chained(gpu_v2_flag_count_kernel, (unsigned)((nb + 1 + 7) / 8), 256, 0, st, d_table, F, fpos, nb, mpos, err);
    GPULZ_CK(cudaGetLastError());
    {
        uint64_t *const a[1] = {mpos};
        rc = gpu_v2_scans(a, 1, nb + 1, temp, temp_bytes, st);
    }
done:
    return rc;
}

typedef void (*lzdec_kernel_t)(gpu_v2_lzdec_args);

extern "C" int gpu_v2_lz_decode(gpu_ctx *c, const uint8_t *d_table, const uint8_t *F, const uint8_t *lits,
                                const uint8_t *lens, const uint8_t *offs, const uint64_t *fpos, const uint64_t *tpos,
                                const uint64_t *mpos, uint64_t m, unsigned S, unsigned C, unsigned W, uint8_t *y,
                                unsigned *err, cudaStream_t st)
{
    int rc = GPULZ_OK;
    const uint64_t nb = (m + C - 1) / C;
    const size_t smem = gpulz_dec_smem_layout(C, S).total;
    lzdec_kernel_t kern = S == 1 ? gpu_v2_lzdec_kernel<uint8_t>
                        : S == 2 ? gpu_v2_lzdec_kernel<uint16_t>
                        : S == 4 ? gpu_v2_lzdec_kernel<uint32_t>
                                 : gpu_v2_lzdec_kernel<uint64_t>;
    gpu_v2_lzdec_args a = {d_table, F, lits, lens, offs, fpos, tpos, mpos, y, err, m, 0, C, W};
    if (!nb)
        return GPULZ_OK;
    if ((rc = gpu_smem_optin(c, (const void *)kern, smem)) != GPULZ_OK)
        return rc;
    for (uint64_t k0 = 0; k0 < nb;) {
        const uint64_t blocks = nb - k0 < c->pol.max_grid ? nb - k0 : c->pol.max_grid;
        a.k0 = k0;
        launch_chained(kern, (unsigned)blocks, GPULZ_DEC_THREADS, smem, st, a);
        GPULZ_CK(cudaGetLastError());
        k0 += blocks;
    }
done:
    return rc;
}
