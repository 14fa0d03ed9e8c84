/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz.h - the public codec API of gpulz: multi-byte LZSS (gpuLZ) chunks,
 * compressed and decompressed on the CPU or an NVIDIA GPU, one format for both.
 *
 * The chunk format is specified in docs/FORMAT.md; this header is the only
 * one a program needs.  Every function that can fail returns a gpulz_status
 * (0 on success, negative on failure); gpulz_strerror() names the code and
 * gpulz_last_error() gives the detail of the calling thread's latest failure
 * ("block 3: match offset 200 exceeds the window 128").
 */
#ifndef GPULZ_H
#define GPULZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPULZ_VERSION_MAJOR 0
#define GPULZ_VERSION_MINOR 1
#define GPULZ_VERSION_PATCH 0

/* The newest chunk format version this library writes and reads; mode lz
 * writes version 1, the others version 2 (docs/FORMAT.md). */
#define GPULZ_FORMAT_VERSION 2
#define GPULZ_FORMAT_VERSION_LZ 1

/* Parameter ranges of format v1. */
#define GPULZ_WINDOW_MIN 1
#define GPULZ_WINDOW_MAX 255
#define GPULZ_WINDOW_DEFAULT 128
#define GPULZ_LEVEL_MIN 1 /* levels 1-4 are windows 32, 64, 128, 255 */
#define GPULZ_LEVEL_MAX 4
#define GPULZ_BLOCK_MIN 256 /* block size in symbols, a power of two */
#define GPULZ_BLOCK_MAX 16384
#define GPULZ_BLOCK_DEFAULT 2048
#define GPULZ_MATCH_MAX 255 /* longest match, in symbols */

/* The most CPU threads a call takes (gpulz_params.threads). */
#define GPULZ_THREADS_MAX 4096

/* Encoder flags (gpulz_params.flags). */
#define GPULZ_FLAG_ADAPTIVE 0x1u    /* also try S = 1 where the ratio is under 1.5 */
#define GPULZ_FLAG_NO_CHECKSUM 0x2u /* modes fast, ratio, auto: no checksum of the chunk */
#define GPULZ_FLAGS_KNOWN (GPULZ_FLAG_ADAPTIVE | GPULZ_FLAG_NO_CHECKSUM)

/*
 * Which stages the encoder runs (gpulz_params.mode; docs/FORMAT.md §19).
 * Decoding reads the stages from each chunk and takes no mode.
 */
typedef enum gpulz_mode {
    GPULZ_MODE_LZ = 0,    /* format 1: multi-byte LZSS alone, gpulz 0.1's bytes */
    GPULZ_MODE_FAST = 1,  /* format 2: transform and entropy coding, no matching */
    GPULZ_MODE_RATIO = 2, /* format 2: transform, LZSS, entropy coding */
    GPULZ_MODE_AUTO = 3   /* per chunk the shortest of fast and ratio (and lz without checksum) */
} gpulz_mode;
#define GPULZ_MODE_COUNT 4
/* The mode of gpulz_params_init(), the HDF5 filter (where its cd_values name
 * none) and the gpulz command: auto compresses scientific data more than
 * deflate; lz is there for gpulz 0.1's readers, by name. */
#define GPULZ_MODE_DEFAULT GPULZ_MODE_AUTO

/* Where the work runs (gpulz_params.backend). */
typedef enum gpulz_backend {
    GPULZ_BACKEND_AUTO = 0, /* the GPU where usable and worth it, else the CPU */
    GPULZ_BACKEND_CPU = 1,
    GPULZ_BACKEND_GPU = 2 /* the GPU or an error; never silently the CPU */
} gpulz_backend;

typedef enum gpulz_status {
    GPULZ_OK = 0,
    GPULZ_ERR_PARAM = -1,     /* a parameter out of range */
    GPULZ_ERR_DST_SIZE = -2,  /* the output buffer is too small */
    GPULZ_ERR_CORRUPT = -3,   /* the compressed data is damaged or not gpulz */
    GPULZ_ERR_TRUNCATED = -4, /* the compressed data ends early */
    GPULZ_ERR_VERSION = -5,   /* a format version or flag this library does not know */
    GPULZ_ERR_NOMEM = -6,     /* out of host memory */
    GPULZ_ERR_NO_GPU = -8,    /* no usable GPU (none, no driver, not built with CUDA, after fork) */
    GPULZ_ERR_CUDA = -9       /* a CUDA call failed */
} gpulz_status;

/*
 * Encoder settings and execution knobs.  Initialise with gpulz_params_init().
 * symbol_size, window, block_symbols, flags and mode shape the compressed bytes;
 * threads and backend only say where and how the work runs, never what it
 * produces.  Decompression reads every format parameter from the chunk and
 * uses only threads and backend.
 */
typedef struct gpulz_params {
    unsigned symbol_size;   /* S: bytes per symbol, 1, 2, 4 or 8 */
    unsigned window;        /* W: how far back matches look, in symbols, 1..255 */
    unsigned block_symbols; /* C: symbols per independent block, power of two 256..16384 */
    unsigned flags;         /* GPULZ_FLAG_* */
    unsigned threads;       /* CPU threads: 0 = one per online core, 1 = the caller's only;
                               at most GPULZ_THREADS_MAX (more is GPULZ_ERR_PARAM).  A
                               ceiling: threads (or their working memory) the system
                               cannot give are done without, never an error */
    gpulz_backend backend;
    gpulz_mode mode;        /* the stages (shapes the bytes); every mode runs on the
                               CPU and the GPU, with the same bytes */
} gpulz_params;

/* Defaults: S = 1, W = 128, C = 2048, no flags, mode GPULZ_MODE_DEFAULT (auto), all cores,
 * backend auto. */
void gpulz_params_init(gpulz_params *p);

/* The name of a mode ("lz", "fast", "ratio", "auto"); NULL for none. */
const char *gpulz_mode_name(gpulz_mode mode);

/* Window of a level 1..4 (32, 64, 128, 255); 0 for a level out of range. */
unsigned gpulz_level_window(int level);

/* GPULZ_OK, or GPULZ_ERR_PARAM with the reason in gpulz_last_error().  Every
 * field is checked, threads and backend included. */
int gpulz_params_check(const gpulz_params *p);

/*
 * The largest compressed size of n input bytes in p's mode: in mode lz
 * (format 1) header, block table and the input itself (a block that would
 * not shrink is stored raw); in the others (format 2) ratio's worst shape,
 * which covers fast's: header, token table, every stream stored with its
 * header, and flags of a bit per symbol.  0 when the parameters are
 * invalid or the bound overflows size_t.
 */
size_t gpulz_compress_bound(size_t n, const gpulz_params *p);

/*
 * Compress n bytes of src into dst (capacity dst_cap); *dst_len receives the
 * compressed size.  The output depends only on src, n, symbol_size, window, mode,
 * block_symbols and flags: every backend and thread count writes the same
 * bytes.  With dst_cap below gpulz_compress_bound() the call still succeeds
 * when the result fits, else it returns GPULZ_ERR_DST_SIZE.  src and dst must
 * not overlap (GPULZ_ERR_PARAM where they do).
 */
int gpulz_compress(const void *src, size_t n, void *dst, size_t dst_cap, size_t *dst_len,
                   const gpulz_params *p);

/* What a chunk's header says; gpulz_chunk_info_get() fills it. */
typedef struct gpulz_chunk_info {
    unsigned format_version;
    unsigned flags; /* the chunk's own flags field (0 in v1) */
    unsigned symbol_size;
    unsigned window;
    unsigned block_symbols;
    uint64_t uncompressed_size;
    uint64_t block_count;
    uint64_t raw_blocks;     /* blocks stored raw */
    size_t header_size;      /* header plus block table */
    size_t compressed_size;  /* the whole chunk as its header and table describe it */
} gpulz_chunk_info;

/* Parse and check the header and block table (each block at least the
 * fewest bytes its symbols can take, FORMAT.md §9), or in format 2 the
 * streams' headers and sizes (not the blocks or the streams' contents). */
int gpulz_chunk_info_get(const void *src, size_t n, gpulz_chunk_info *info);

/* One block of a chunk as its table describes it (FORMAT.md §3). */
typedef struct gpulz_block_info {
    uint64_t offset;      /* of its bytes in the chunk */
    uint32_t raw_size;    /* bytes it decodes to */
    uint32_t stored_size; /* bytes it takes in the chunk */
    int stored_raw;       /* 1: stored as it is; 0: encoded */
} gpulz_block_info;

/*
 * The block table of the chunk in src (n bytes): blocks[k] for each block k,
 * then one more for the tail, the n mod S bytes after the last block, stored
 * raw (sizes 0 when there is none).  count must be at least block_count + 1
 * (gpulz_chunk_info_get()), else GPULZ_ERR_DST_SIZE.  The header and table
 * are checked as gpulz_chunk_info_get() checks them; the blocks are not read.
 * A format 2 chunk has no block table: GPULZ_ERR_VERSION.
 */
int gpulz_block_table_get(const void *src, size_t n, gpulz_block_info *blocks, size_t count);

/* The uncompressed size a chunk declares, from its checked header: format
 * 1's block table and its blocks at their fewest bytes must fit in the n
 * bytes (GPULZ_ERR_TRUNCATED), format 2's streams' headers must agree with
 * the size and with n (gpulz_chunk_info_get()'s checks, without format 1's
 * walk of the table). */
int gpulz_decompressed_size(const void *src, size_t n, uint64_t *size);

/*
 * Decompress the chunk in src (n bytes) into dst (capacity dst_cap);
 * *dst_len receives the uncompressed size, also where dst_cap (or a NULL
 * dst) is too small for it: then the status is GPULZ_ERR_DST_SIZE, the
 * header checked, so that a call with no room asks the room to allocate
 * (a chunk of 0 bytes succeeds).  Every field and every copy is
 * checked: damaged input returns GPULZ_ERR_CORRUPT or GPULZ_ERR_TRUNCATED and
 * nothing is read or written outside the buffers.  p may be NULL (defaults);
 * only p->threads and p->backend are used, and checked (GPULZ_ERR_PARAM).
 * src and dst must not overlap (GPULZ_ERR_PARAM where they do).
 */
int gpulz_decompress(const void *src, size_t n, void *dst, size_t dst_cap, size_t *dst_len,
                     const gpulz_params *p);

/*
 * The device-buffer API: src, dst and scratch are device memory of one
 * device, and the work runs on that device (the calling thread's current
 * device and GPULZ_DEVICE do not matter; managed and pinned host memory
 * count for no device, and alone they mean the current one).  Pageable host
 * memory, or buffers of two devices, are refused with GPULZ_ERR_PARAM before
 * anything runs.  The work is queued on cuda_stream, which must belong to
 * that device (NULL: CUDA's default stream, so the call comes after what the
 * caller queued there, a cudaMemcpy included), and the call returns when the
 * result is ready.  No data crosses PCIe, only a few status words.
 *
 * gpulz_compress_device() writes the same bytes as gpulz_compress(), every
 * mode and the adaptive flag included (the format 2 modes encode their
 * candidates into two buffers of the library's on that device and copy the
 * one kept into d_dst; decoding a chunk of mode ratio keeps its token
 * streams in a third).  d_scratch must hold
 * gpulz_compress_device_scratch_size(n, p) bytes, or be NULL for the
 * library's cached buffer.  Calls on one device run one at a time.
 * dst_cap below gpulz_compress_bound() works when the result fits, else
 * GPULZ_ERR_DST_SIZE.  A build without CUDA returns GPULZ_ERR_NO_GPU and
 * scratch sizes of 0.
 */
size_t gpulz_compress_device_scratch_size(size_t n, const gpulz_params *p);
int gpulz_compress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap, size_t *dst_len,
                          const gpulz_params *p, void *cuda_stream, void *d_scratch,
                          size_t scratch_size);

/*
 * Decompress the chunk at d_src (n bytes, device memory) into d_dst; every
 * check of gpulz_decompress() is made, damaged input returns
 * GPULZ_ERR_CORRUPT (or _TRUNCATED, _VERSION) and nothing is written outside
 * d_dst[0, dst_cap).  d_scratch holds gpulz_decompress_device_scratch_size(n)
 * bytes or is NULL.  *dst_len as gpulz_decompress() gives it: the size,
 * also with GPULZ_ERR_DST_SIZE (d_dst may then be NULL).
 */
size_t gpulz_decompress_device_scratch_size(size_t n);
int gpulz_decompress_device(const void *d_src, size_t n, void *d_dst, size_t dst_cap,
                            size_t *dst_len, void *cuda_stream, void *d_scratch,
                            size_t scratch_size);

/*
 * The batched API: many chunks in one call, each chunk exactly the bytes
 * one gpulz_compress() (or gpulz_decompress()) of it would give.  The
 * arrays (src, src_len, dst, dst_cap, dst_len, statuses) are host memory of
 * count entries each, owned by the caller and only read (dst_len, statuses:
 * written) during the call; the buffers they point to are host memory or
 * device memory of one device, as memory says.  Chunks are independent:
 * no buffer may overlap any chunk's dst, its own chunk's included: a dst
 * that shares a byte with another chunk's src or dst fails the whole call
 * with GPULZ_ERR_PARAM, and a host chunk on the CPU whose own src and dst
 * overlap gets GPULZ_ERR_PARAM as its status.  A dst is the bytes its chunk
 * may write: for host chunks up to the compression bound, or the size the
 * chunk's header declares (so each chunk's room may be the rest of one
 * buffer), for device chunks all dst_cap[i] bytes.
 * src[i] may be NULL where src_len[i] is 0.
 *
 * statuses[i] receives chunk i's gpulz_status and dst_len[i] its length
 * (undefined where statuses[i] is not GPULZ_OK, but for decompression's
 * GPULZ_ERR_DST_SIZE, where it is the size the chunk's checked header
 * declares, as gpulz_decompress() gives it: dst_cap[i] = 0 asks every
 * chunk's room in one call); statuses may be NULL.  A
 * chunk that fails does not stop the others.  The call returns GPULZ_OK
 * when every chunk succeeded, else the status of the lowest-numbered chunk
 * that failed, with "chunk i of count: detail" in gpulz_last_error().  An
 * argument error that concerns the whole call (NULL arrays, invalid p,
 * device buffers without a usable GPU) is returned and written to every
 * statuses[i].
 *
 * GPULZ_MEMORY_HOST: p->backend says where the work runs.  On the CPU the
 * chunks are spread over up to p->threads threads (0: every core) of the
 * library's pool, a chunk to a thread, and a few chunks among many threads
 * split their blocks instead.  On the GPU (backend gpu, or auto where a GPU
 * is usable, the mode runs there and chunks average at least the GPU
 * threshold) chunks go through three pinned staging slots: the upload of
 * chunk i+1 and the download of chunk i-1 run on a copy stream while chunk
 * i is (de)compressed on cuda_stream (NULL: a stream of the call's own), so
 * the copy engines and the SMs work at once; a chunk in pinned memory
 * (cudaHostAlloc, cudaHostRegister) is read or written there by the copy
 * engines, without its slot, and a pageable output of more than 8 MiB
 * comes down in 2 MiB pieces through a small pinned ring, each copied out
 * as it lands.  Host chunks are read as the call runs, not
 * after cuda_stream's earlier work: a copy the caller queued into them must
 * be complete first.  Each device runs up to
 * GPULZ_GPU_LANES (default 8) such pipelines side by side, each on a run
 * of consecutive chunks, a thread and streams of its own (the first on
 * cuda_stream): a chunk's call waits for its kernels, and format 2 builds
 * its models on the host between them, so one pipeline alone leaves the
 * device idle part of the time.  The device is GPULZ_DEVICE's,
 * else the calling thread's current one; where GPULZ_DEVICE lists several
 * (GPULZ_DEVICE=0,1 or all), the chunks are cut into one run of
 * consecutive chunks per device, as even in bytes as whole chunks allow
 * (input bytes compressing, the sizes the chunks declare, at most dst_cap,
 * decompressing), and each run goes
 * through a pipeline of its own on its device, driven by a thread of its
 * own: same bytes, same statuses, the same first failure.  cuda_stream
 * belongs to one device and is used on that one only (from CUDA 12.8,
 * which tells a stream's device; before, it is taken to be the first of
 * the list); the other devices run on streams of the call's own.  Auto
 * falls back to the CPU where the GPU cannot be set up.  d_scratch must be
 * NULL.
 *
 * GPULZ_MEMORY_DEVICE: every buffer is device memory of one device (as for
 * gpulz_compress_device()) and no chunk data crosses PCIe; the call starts
 * after what the caller queued on cuda_stream (NULL: CUDA's default stream)
 * and returns when every result is ready; p->backend is not used.  Format 1
 * chunks (mode lz) are queued without a wait, round-robin on up to four
 * streams of the library's, each with its own part of d_scratch, their
 * status words read back once at the end (decoding first reads every
 * chunk's header in one round trip): chunks follow one another on the
 * device without a host round trip between them.  Format 2 chunks, whose
 * encoders and decoders build models on the host between kernels, format 1
 * chunks that the adaptive flag re-encodes with S = 1, and every chunk when
 * d_scratch has no room for one stream's part, run through the device API:
 * with d_scratch NULL, up to GPULZ_GPU_LANES of them side by side, each on
 * a thread and a stream of the library's that start after cuda_stream's
 * earlier work; with the caller's d_scratch one after another on
 * cuda_stream.  d_scratch holds
 * gpulz_*_batch_scratch_size() bytes, or is NULL for the library's cached
 * buffer; any size down to the largest per-chunk scratch works, with fewer
 * streams or none.
 */
typedef enum gpulz_memory {
    GPULZ_MEMORY_HOST = 0,  /* pageable or pinned host memory */
    GPULZ_MEMORY_DEVICE = 1 /* device memory of one device */
} gpulz_memory;

/* The largest compressed size of each chunk: dst_cap[i] =
 * gpulz_compress_bound(src_len[i], p).  Returns the sum (what one buffer cut
 * into the chunks' dst needs), 0 when p is invalid or a bound overflows. */
size_t gpulz_compress_batch_bound(size_t count, const size_t src_len[], const gpulz_params *p,
                                  size_t dst_cap[]);

/*
 * How many chunks of chunk_bytes one batch call should hold: 256 MiB of
 * chunks, at least one and at most 1024.  That keeps every core, or a GPU's
 * lanes, busy while two batches (one coded as the other is stored) stay a
 * fraction of memory.  gpulz's direct chunk I/O (C and Python) batches by it.
 */
size_t gpulz_batch_chunks(size_t chunk_bytes);

/* The device scratch the batch calls take with GPULZ_MEMORY_DEVICE: a status
 * word pair per chunk and, per stream the chunks are queued on (up to four,
 * fewer where their parts would pass 256 MiB), the largest per-chunk
 * scratch (mode other than lz: that largest scratch alone).  0 in a build
 * without CUDA or for invalid p. */
size_t gpulz_compress_batch_scratch_size(size_t count, const size_t src_len[], const gpulz_params *p);
size_t gpulz_decompress_batch_scratch_size(size_t count, const size_t src_len[]);

int gpulz_compress_batch(size_t count, const void *const src[], const size_t src_len[],
                         void *const dst[], const size_t dst_cap[], size_t dst_len[], int statuses[],
                         const gpulz_params *p, gpulz_memory memory, void *cuda_stream,
                         void *d_scratch, size_t scratch_size);

/* Decompress each chunk src[i] into dst[i] (capacity dst_cap[i]; the
 * uncompressed sizes come from the caller, or gpulz_decompressed_size() of
 * host chunks).  p may be NULL; only threads and backend are used. */
int gpulz_decompress_batch(size_t count, const void *const src[], const size_t src_len[],
                           void *const dst[], const size_t dst_cap[], size_t dst_len[], int statuses[],
                           const gpulz_params *p, gpulz_memory memory, void *cuda_stream,
                           void *d_scratch, size_t scratch_size);

/*
 * The backend the calling thread's last gpulz_compress() or
 * gpulz_decompress() ran on (GPULZ_BACKEND_CPU or GPULZ_BACKEND_GPU), and in
 * *why (may be NULL) a short reason: on the GPU "requested, device N" or
 * "auto, device N"; on the CPU "requested", "below the GPU threshold",
 * "no usable GPU", "GPU failed, CPU fallback: ...".  The host API runs on
 * device GPULZ_DEVICE when set (the first where it lists several: only
 * batches of host chunks use more than one), else on the calling thread's
 * current device.
 */
gpulz_backend gpulz_last_backend(const char **why);

/*
 * 1 when the GPU can be used now: this build has CUDA, a device is visible,
 * GPULZ_DEVICE (when set) names devices that exist, and the process is not a child
 * forked after CUDA was initialised.  0 otherwise, with the reason in
 * gpulz_last_error().  Cheap: it creates no CUDA context and moves no data.
 */
int gpulz_gpu_available(void);

/* A fixed text for a status code. */
const char *gpulz_strerror(int status);

/* The detail of the calling thread's last failure ("" if none). */
const char *gpulz_last_error(void);

/* The library version as "MAJOR.MINOR.PATCH". */
const char *gpulz_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* GPULZ_H */
