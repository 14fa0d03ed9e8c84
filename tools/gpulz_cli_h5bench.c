/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_h5bench.c - `gpulz bench FILE.h5[:/path]`: the datasets of an
 * HDF5 file through gpulz and the other HDF5 filters of this machine, at
 * each dataset's own chunking, and the h5repack arguments of the best
 * trade-off for each.
 *
 * Each dataset is read once into memory.  For each filter a dataset of the
 * same type, shape and chunking is created in an in-memory HDF5 file (the
 * core driver, no backing store), written whole with H5Dwrite and read back
 * whole with H5Dread, the read compared byte for byte with the original: a
 * difference, or a filter failing to write or read, fails the command.  The
 * chunk cache is off, so every chunk passes through the filter inside the
 * call being timed.  A warm-up run (loading plugins, starting threads)
 * precedes the timed ones; each run writes a new dataset and deletes it
 * after, so the file space of the first run is reused and the core file's
 * growth stays out of the timings.
 *
 * This file is the helper program gpulz-h5bench's, which `gpulz bench`
 * runs for HDF5 files (gpulz_cli_h5exec.c): gpulz itself links no HDF5.
 * gpulz is the filter built into the helper (the same code as the plugin);
 * the others are HDF5's own (deflate, shuffle) and the plugins that HDF5
 * loads from its plugin path (HDF5_PLUGIN_PATH, else its default folder),
 * as h5repack would with the same environment.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "gpulz_cli.h"
#include "gpulz_h5filter.h"
#include "h5_compat.h"

#define MB 1e6
/* a chunk for a dataset stored contiguous: whole fastest-varying dimensions
 * up to about this size (docs/usage.md section 4 advises 1-16 MiB) */
#define PICKED_CHUNK_BYTES ((size_t)4 << 20)
/* the best trade-off: highest ratio among the filters whose write + read time
 * is at most this many times the fastest one's */
#define BEST_FACTOR 4

/* ---- filters ------------------------------------------------------------ */

typedef enum { STEP_SHUFFLE, STEP_DEFLATE, STEP_UD } step_kind;

/* One filter of a pipeline, as H5Pset_* adds it and as h5repack -f names it. */
typedef struct filter_step {
    step_kind kind;
    H5Z_filter_t id; /* STEP_UD */
    unsigned level;  /* STEP_DEFLATE */
    size_t ncd;      /* STEP_UD */
    unsigned cd[8];
} filter_step;

typedef struct bench_filter {
    char label[64];
    filter_step step[2];
    int nstep;
} bench_filter;

/* The plugins tried where HDF5 can load them, with the settings benched:
 * each one's common or default setting (cd_values as h5repack's UD= takes
 * them; the plugin's set_local fills in the rest). */
typedef struct plugin_setting {
    H5Z_filter_t id;
    const char *plugin, *label;
    size_t ncd;
    unsigned cd[8];
} plugin_setting;

/* Whether f's pipeline holds gpulz. */
static int uses_gpulz(const bench_filter *f)
{
    for (int k = 0; k < f->nstep; k++)
        if (f->step[k].kind == STEP_UD && f->step[k].id == H5Z_FILTER_GPULZ)
            return 1;
    return 0;
}

static const plugin_setting plugin_settings[] = {
    {32004, "lz4", "lz4", 0, {0}},
    /* reserved x4, clevel 5, byte shuffle, compressor 1 = lz4 / 5 = zstd */
    {32001, "blosc", "blosc lz4 shuffle", 7, {0, 0, 0, 0, 5, 1, 1}},
    {32001, "blosc", "blosc zstd shuffle", 7, {0, 0, 0, 0, 5, 1, 5}},
    /* block size 0 (automatic), 2 = LZ4 after the bit shuffle */
    {32008, "bitshuffle", "bitshuffle lz4", 2, {0, 2}},
    {32015, "zstd", "zstd 3", 1, {3}},
};
#define N_PLUGIN_SETTINGS (sizeof plugin_settings / sizeof *plugin_settings)

/* ---- what was asked and found -------------------------------------------- */

typedef struct h5_target {
    char *path;      /* the dataset's, as h5repack names it (below); or what was asked, skipped */
    char skip[1024]; /* why it is not benched; empty when it is */
    int rank;
    hsize_t dims[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
    int picked; /* chunking chosen here: the dataset is not chunked in the file */
    size_t elem, nbytes;
    char type_name[24], shape[96], chunk_text[96];
    bench_filter *filters;
    unsigned nfilters;
} h5_target;

typedef struct h5_result {
    int done;
    char note[200]; /* why the filter could not be applied */
    double ratio, write_bps, read_bps;
    hsize_t stored;
} h5_result;

typedef struct h5_run {
    const cli_h5bench_opts *o;
    int deflate, plugin_found[N_PLUGIN_SETTINGS];
    cli_progress *pg;
    unsigned step, nsteps; /* for the progress line */
    int wd, wt, ws, wc, wf;  /* column widths */
} h5_run;

/* Whether s holds a control character: a newline in a dataset's name, say. */
static int has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7F)
            return 1;
    return 0;
}

/* s as a line of the table, a note or a skip shows it: s itself, or where it
 * holds control characters a copy in buf with each as \n, \t, \r or \xNN (a
 * newline in a dataset's name started a line of its own, which could read
 * as a command to run), cut short with "..." where cap is too small. */
#define SHOWN_MAX 2400
static const char *shown(const char *s, char *buf, size_t cap)
{
    if (!has_control(s))
        return s;
    size_t i = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (; *p && i + 5 < cap; p++) {
        const char *e = *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r" : NULL;
        if (*p >= 0x20 && *p != 0x7F)
            buf[i++] = (char)*p;
        else if (e) {
            memcpy(buf + i, e, 2);
            i += 2;
        } else
            i += (size_t)snprintf(buf + i, cap - i, "\\x%02X", *p);
    }
    if (*p)
        memcpy(buf + i, "...", 4);
    else
        buf[i] = 0;
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- HDF5's reasons --------------------------------------------------- */

typedef struct reason_buf {
    char *buf;
    size_t cap;
} reason_buf;

static herr_t first_reason(unsigned n, const H5E_error2_t *e, void *data)
{
    reason_buf *r = data;
    if (n == 0 && e->desc)
        snprintf(r->buf, r->cap, "%s", e->desc);
    return 0;
}

/* The most specific message on HDF5's error stack (a filter's own words
 * where it pushed some), then the stack cleared. */
static const char *h5_reason(char *buf, size_t cap)
{
    reason_buf r = {buf, cap};
    buf[0] = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first_reason, &r);
    H5Eclear2(H5E_DEFAULT);
    if (!buf[0])
        snprintf(buf, cap, "HDF5 gave no reason");
    return buf;
}

/* ---- describing a dataset ----------------------------------------------- */

/* Variable-length data or references anywhere in the type: their bytes are
 * heap addresses, not data, so neither a filter nor a byte comparison means
 * anything. */
static const char *unbenchable_type(hid_t type)
{
    H5T_class_t cls = H5Tget_class(type);
    if (cls == H5T_VLEN || (cls == H5T_STRING && H5Tis_variable_str(type) > 0))
        return "variable-length data (a filter would compress heap references, not the data)";
    if (cls == H5T_REFERENCE)
        return "references (addresses in the file, not data)";
    const char *why = NULL;
    if (cls == H5T_ARRAY) {
        hid_t super = H5Tget_super(type);
        why = super < 0 ? "an array type HDF5 cannot describe" : unbenchable_type(super);
        if (super >= 0)
            H5Tclose(super);
    } else if (cls == H5T_COMPOUND) {
        int n = H5Tget_nmembers(type);
        for (int i = 0; i < n && !why; i++) {
            hid_t m = H5Tget_member_type(type, (unsigned)i);
            why = m < 0 ? "a compound type HDF5 cannot describe" : unbenchable_type(m);
            if (m >= 0)
                H5Tclose(m);
        }
    }
    return why;
}

/* "u16", "f32", "S10" (fixed string), "compound11", with "be" for big-endian numbers. */
static void type_name(hid_t type, char *buf, size_t cap)
{
    size_t size = H5Tget_size(type);
    H5T_class_t cls = H5Tget_class(type);
    const char *be = H5Tget_order(type) == H5T_ORDER_BE ? "be" : "";
    switch (cls) {
    case H5T_INTEGER:
        snprintf(buf, cap, "%c%zu%s", H5Tget_sign(type) == H5T_SGN_NONE ? 'u' : 'i', 8 * size, be);
        break;
    case H5T_FLOAT:
        snprintf(buf, cap, "f%zu%s", 8 * size, be);
        break;
    case H5T_STRING:
        snprintf(buf, cap, "S%zu", size);
        break;
    case H5T_COMPOUND:
        snprintf(buf, cap, "compound%zu", size);
        break;
    case H5T_ENUM:
        snprintf(buf, cap, "enum%zu", size);
        break;
    case H5T_ARRAY:
        snprintf(buf, cap, "array%zu", size);
        break;
    case H5T_OPAQUE:
        snprintf(buf, cap, "opaque%zu", size);
        break;
    case H5T_BITFIELD:
        snprintf(buf, cap, "bits%zu", 8 * size);
        break;
    default:
        snprintf(buf, cap, "type%zu", size);
        break;
    }
}

/* The filter's symbol size for the type (H5Zgpulz.c): the largest of 8, 4,
 * 2, 1 dividing the element, or an array's base element; 1 for strings. */
static unsigned type_symbol(hid_t type)
{
    hid_t base = H5Tcopy(type);
    while (base >= 0 && H5Tget_class(base) == H5T_ARRAY) {
        hid_t super = H5Tget_super(base);
        H5Tclose(base);
        base = super;
    }
    if (base < 0)
        return 1;
    size_t size = H5Tget_class(base) == H5T_STRING ? 1 : H5Tget_size(base);
    H5Tclose(base);
    return size % 8 == 0 ? 8 : size % 4 == 0 ? 4 : size % 2 == 0 ? 2 : 1;
}

static void dims_text(int rank, const hsize_t *d, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < rank && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%llu", i ? "x" : "", (unsigned long long)d[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* For a dataset stored contiguous (or compact): whole fastest-varying
 * dimensions, and as many of the slower ones as fit PICKED_CHUNK_BYTES. */
static void pick_chunk(h5_target *t)
{
    size_t inner = t->elem; /* bytes of one step along dimension i */
    for (int i = t->rank - 1; i >= 0; i--) {
        hsize_t fit = inner >= PICKED_CHUNK_BYTES ? 1 : (hsize_t)(PICKED_CHUNK_BYTES / inner);
        t->chunk[i] = t->dims[i] < fit ? t->dims[i] : fit;
        if (t->chunk[i] == 0)
            t->chunk[i] = 1;
        inner = t->chunk[i] < t->dims[i] || inner > SIZE_MAX / t->dims[i]
                    ? PICKED_CHUNK_BYTES
                    : inner * (size_t)t->dims[i];
    }
    t->picked = 1;
}

static void add_filter(h5_target *t, const char *label, const filter_step *a, const filter_step *b)
{
    bench_filter *f = &t->filters[t->nfilters++];
    snprintf(f->label, sizeof f->label, "%s", label);
    f->step[0] = *a;
    f->nstep = 1;
    if (b) {
        f->step[1] = *b;
        f->nstep = 2;
    }
}

/* The filters benched on t: gpulz's settings, deflate, shuffle + deflate, the plugins found. */
static int plan_filters(const h5_run *R, h5_target *t, unsigned symbol)
{
    const cli_h5bench_opts *o = R->o;
    unsigned sym[CLI_BENCH_MAX_VALUES + 1], nsym = 0;
    if (o->nsymbol) {
        memcpy(sym, o->symbol, o->nsymbol * sizeof *sym);
        nsym = o->nsymbol;
    } else {
        sym[nsym++] = symbol;
        if (symbol != 1)
            sym[nsym++] = 1;
    }
    unsigned cap = nsym * o->nwindow * o->nblock + 4 + N_PLUGIN_SETTINGS;
    if (!(t->filters = calloc(cap, sizeof *t->filters)))
        return cli_error(CLI_IO, "bench", "out of memory");
    for (unsigned i = 0; i < nsym; i++)
        for (unsigned w = 0; w < o->nwindow; w++)
            for (unsigned b = 0; b < o->nblock; b++) {
                char label[64];
                filter_step s = {.kind = STEP_UD,
                                 .id = H5Z_FILTER_GPULZ,
                                 /* the mode named, so that the h5repack
                                  * arguments printed write what was measured */
                                 .ncd = H5Z_GPULZ_CD_NELMTS_STORED,
                                 .cd = {[H5Z_GPULZ_CD_VERSION] = H5Z_GPULZ_CD_VERSION_CURRENT,
                                        [H5Z_GPULZ_CD_SYMBOL] = sym[i],
                                        [H5Z_GPULZ_CD_WINDOW] = o->window[w],
                                        [H5Z_GPULZ_CD_BLOCK] = o->block[b],
                                        [H5Z_GPULZ_CD_FLAGS] = o->flags,
                                        [H5Z_GPULZ_CD_MODE] = H5Z_GPULZ_CD_MODE_DEFAULT}};
                int n = snprintf(label, sizeof label, "gpulz S=%u W=%u", sym[i], o->window[w]);
                if (n > 0 && (o->nblock > 1 || o->block[b] != GPULZ_BLOCK_DEFAULT))
                    n += snprintf(label + n, sizeof label - (size_t)n, " C=%u", o->block[b]);
                if (n > 0 && (o->flags & GPULZ_FLAG_ADAPTIVE))
                    snprintf(label + n, sizeof label - (size_t)n, " adaptive");
                add_filter(t, label, &s, NULL);
            }
    if (R->deflate) {
        const filter_step shuffle = {.kind = STEP_SHUFFLE};
        const filter_step d1 = {.kind = STEP_DEFLATE, .level = 1};
        const filter_step d6 = {.kind = STEP_DEFLATE, .level = 6};
        add_filter(t, "deflate 1", &d1, NULL);
        add_filter(t, "deflate 6", &d6, NULL);
        add_filter(t, "shuffle+deflate 1", &shuffle, &d1);
        add_filter(t, "shuffle+deflate 6", &shuffle, &d6);
    }
    for (size_t i = 0; i < N_PLUGIN_SETTINGS; i++) {
        if (!R->plugin_found[i])
            continue;
        const plugin_setting *p = &plugin_settings[i];
        filter_step s = {.kind = STEP_UD, .id = p->id, .ncd = p->ncd};
        memcpy(s.cd, p->cd, sizeof s.cd);
        add_filter(t, p->label, &s, NULL);
    }
    return 0;
}

/* Fill t from the dataset open as d: its type, shape, chunking, or why it is skipped. */
static int describe(h5_run *R, hid_t d, h5_target *t)
{
    char why[160];
    int rc = 0;
    hid_t type = H5Dget_type(d), space = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
    if (type < 0 || space < 0 || dcpl < 0) {
        snprintf(t->skip, sizeof t->skip, "cannot be described (%s)", h5_reason(why, sizeof why));
        goto done;
    }
    const char *bad = unbenchable_type(type);
    t->elem = H5Tget_size(type);
    type_name(type, t->type_name, sizeof t->type_name);
    t->rank = H5Sget_simple_extent_ndims(space);
    if (bad || t->elem == 0) {
        snprintf(t->skip, sizeof t->skip, "%s", bad ? bad : "a datatype HDF5 cannot size");
        goto done;
    }
    if (t->rank <= 0 || H5Sget_simple_extent_type(space) != H5S_SIMPLE) {
        snprintf(t->skip, sizeof t->skip, "a scalar or null dataspace (HDF5 chunks only arrays)");
        goto done;
    }
    H5Sget_simple_extent_dims(space, t->dims, NULL);
    dims_text(t->rank, t->dims, t->shape, sizeof t->shape);
    uint64_t n = t->elem;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] == 0) {
            snprintf(t->skip, sizeof t->skip, "empty (no elements)");
            goto done;
        }
        if (n > SIZE_MAX / t->dims[i]) {
            snprintf(t->skip, sizeof t->skip, "larger than this machine's address space");
            goto done;
        }
        n *= t->dims[i];
    }
    t->nbytes = (size_t)n;
    if (H5Pget_layout(dcpl) == H5D_CHUNKED)
        H5Pget_chunk(dcpl, t->rank, t->chunk);
    else
        pick_chunk(t);
    dims_text(t->rank, t->chunk, t->chunk_text, sizeof t->chunk_text - 1);
    if (t->picked)
        strcat(t->chunk_text, "*");
    rc = plan_filters(R, t, type_symbol(type));
done:
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return rc;
}

/* ---- finding the datasets ----------------------------------------------- */

/*
 * Each dataset is benched once, under the path h5repack knows it by: the
 * first path of hard links that H5Lvisit meets from the root (by name,
 * increasing), as h5repack's traversal lists a file.  h5repack's -f and -l
 * act on that path only: another hard link's path, a soft link's or a path
 * through one are taken with exit 0 and change nothing.  So objects are told
 * apart by what they are (gpulz_h5_objid), not by the path that reached them.
 */
typedef struct named_obj {
    char *path;
    gpulz_h5_objid id;
    int taken; /* in the list of datasets to bench */
} named_obj;

/* Every dataset of the file, under that path, in gpulz_h5_objid_cmp's order:
 * a search is a bisection, not a pass over a file's many thousand datasets. */
typedef struct obj_index {
    named_obj *o;
    unsigned n, cap;
} obj_index;

typedef struct target_list {
    h5_target *t;
    unsigned n, cap;
    char **notes; /* "PATH: benched as ..." for a path asked for that names a dataset otherwise */
    unsigned nnotes;
} target_list;

typedef struct visit_ctx {
    hid_t f;
    gpulz_h5_objid root; /* its file number tells the file's objects from another file's */
    obj_index *index;
    target_list *L;     /* NULL while the index is built */
    const char *prefix; /* the visited group's path as asked, "" for the root */
    int nomem;
} visit_ctx;

/* 1 where id is in X at *at, 0 where it is not and would go at *at, -1
 * where HDF5 cannot compare the two. */
static int index_seek(hid_t f, const obj_index *X, const gpulz_h5_objid *id, unsigned *at)
{
    unsigned lo = 0, hi = X->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int cmp;
        if (gpulz_h5_objid_cmp(f, &X->o[mid].id, id, &cmp) < 0)
            return -1;
        if (cmp == 0) {
            *at = mid;
            return 1;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    return 0;
}

static int index_insert(obj_index *X, unsigned at, const char *path, const gpulz_h5_objid *id)
{
    if (X->n == X->cap) {
        unsigned cap = X->cap ? 2 * X->cap : 16;
        named_obj *o = realloc(X->o, cap * sizeof *o);
        if (!o)
            return -1;
        X->o = o;
        X->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    memmove(&X->o[at + 1], &X->o[at], (X->n - at) * sizeof *X->o);
    X->o[at] = (named_obj){.path = copy, .id = *id};
    X->n++;
    return 0;
}

static h5_target *new_target(target_list *L, const char *path)
{
    if (L->n == L->cap) {
        unsigned cap = L->cap ? 2 * L->cap : 16;
        h5_target *t = realloc(L->t, cap * sizeof *t);
        if (!t)
            return NULL;
        L->t = t;
        L->cap = cap;
    }
    h5_target *t = &L->t[L->n];
    memset(t, 0, sizeof *t);
    if (!(t->path = strdup(path)))
        return NULL;
    L->n++;
    return t;
}

/* path, skipped for the reason fmt gives, unless L has it. */
static int add_skipped(target_list *L, const char *path, const char *fmt, ...)
{
    for (unsigned i = 0; i < L->n; i++)
        if (L->t[i].skip[0] && !strcmp(L->t[i].path, path))
            return 0;
    h5_target *t = new_target(L, path);
    if (!t)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->skip, sizeof t->skip, fmt, ap);
    va_end(ap);
    return 0;
}

/* path opened as obj, in another file than the one benched: an external
 * link on the way, which h5repack copies as a link. */
static int skip_elsewhere(target_list *L, const char *path, hid_t obj)
{
    char file[512], where[512];
    if (H5Fget_name(obj, file, sizeof file) <= 0)
        snprintf(file, sizeof file, "(a file HDF5 does not name)");
    if (H5Iget_name(obj, where, sizeof where) <= 0)
        snprintf(where, sizeof where, "(a path HDF5 does not name)");
    H5Eclear2(H5E_DEFAULT);
    return add_skipped(L, path,
                       "in another file, %s:%s (through an external link): h5repack of this file "
                       "cannot filter it; bench and repack that file",
                       file, where);
}

/* path, the external link name of loc that could not be opened for why:
 * the file and path its value names.  size: the value's bytes. */
static int skip_external_link(target_list *L, hid_t loc, const char *name, const char *path,
                              size_t size, const char *why)
{
    const char *file = "?", *where = "?";
    unsigned flags;
    char *val = malloc(size ? size : 1);
    if (!val)
        return -1;
    if (H5Lget_val(loc, name, val, size, H5P_DEFAULT) < 0 ||
        H5Lunpack_elink_val(val, size, &flags, &file, &where) < 0)
        file = where = "?";
    H5Eclear2(H5E_DEFAULT);
    int rc = add_skipped(L, path,
                         "an external link to %s:%s, in another file (which cannot be opened "
                         "here: %s): h5repack of this file cannot filter it",
                         file, where, why);
    free(val);
    return rc;
}

/* The first link along path that is an external link: 1 and its path in
 * link (cap bytes; *size: its value's bytes), else 0.  Through an external
 * link whose file cannot be opened a path reaches nothing, and HDF5 tells
 * the kind of its last link only, so each link along it is asked. */
static int external_on_path(hid_t loc, const char *path, char *link, size_t cap, size_t *size)
{
    const size_t n = strlen(path);
    for (size_t i = 1; i <= n && i < cap; i++) {
        H5L_info_t info;
        if (i < n && path[i] != '/')
            continue;
        memcpy(link, path, i);
        link[i] = 0;
        const int ext = H5Lget_info(loc, link, &info, H5P_DEFAULT) >= 0 && info.type == H5L_TYPE_EXTERNAL;
        H5Eclear2(H5E_DEFAULT);
        if (ext) {
            if (size)
                *size = info.u.val_size;
            return 1;
        }
    }
    return 0;
}

/* The dataset obj, reached by path: into the index while it is built, else
 * into the list, once, under its path in the index (*as, where not NULL). */
static int take(visit_ctx *V, hid_t obj, const char *path, const char **as)
{
    char why[160];
    gpulz_h5_objid id;
    unsigned k;
    int found = gpulz_h5_objid_get(obj, &id) < 0 ? -1 : 0;
    if (!found && id.fileno != V->root.fileno)
        return V->L ? skip_elsewhere(V->L, path, obj) : 0;
    if (!found)
        found = index_seek(V->f, V->index, &id, &k);
    if (found < 0) {
        /* left out of the index, it is skipped wherever a path reaches it */
        h5_reason(why, sizeof why);
        return V->L ? add_skipped(V->L, path, "cannot be identified (%s)", why) : 0;
    }
    if (!V->L)
        return found ? 0 : index_insert(V->index, k, path, &id);
    if (!found)
        return add_skipped(V->L, path,
                           "no path of hard links from the root reaches it (h5repack "
                           "could not name it)");
    named_obj *o = &V->index->o[k];
    if (as)
        *as = o->path;
    if (o->taken)
        return 0; /* a dataset named and inside a group named, or under two names */
    o->taken = 1;
    return new_target(V->L, o->path) ? 0 : -1;
}

static herr_t visit_link(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    visit_ctx *V = data;
    char why[160];
    /* the index takes the hard links only, the ones H5Lvisit goes through,
     * so that the first path it meets is h5repack's */
    if (info->type != H5L_TYPE_HARD &&
        (!V->L || (info->type != H5L_TYPE_SOFT && info->type != H5L_TYPE_EXTERNAL)))
        return 0;
    char *path = malloc(strlen(V->prefix) + strlen(name) + 2);
    if (!path) {
        V->nomem = 1;
        return -1;
    }
    sprintf(path, "%s/%s", V->prefix, name);
    int rc = 0;
    hid_t obj = H5Oopen(g, name, H5P_DEFAULT);
    if (obj < 0) {
        /* a soft link naming nothing is passed over: it names no dataset */
        h5_reason(why, sizeof why);
        if (info->type == H5L_TYPE_EXTERNAL)
            rc = skip_external_link(V->L, g, name, path, info->u.val_size, why);
    } else {
        H5I_type_t kind = H5Iget_type(obj);
        gpulz_h5_objid id;
        if (kind == H5I_DATASET)
            rc = take(V, obj, path, NULL);
        else if (kind == H5I_GROUP && info->type == H5L_TYPE_EXTERNAL &&
                 (gpulz_h5_objid_get(obj, &id) < 0 || id.fileno != V->root.fileno))
            rc = skip_elsewhere(V->L, path, obj);
        /* a soft link to a group is not followed, as H5Lvisit follows none
         * (nor loops): its datasets are benched where the group is visited;
         * nor is an external link to a group of this file itself */
        H5Eclear2(H5E_DEFAULT);
        H5Oclose(obj);
    }
    free(path);
    if (rc) {
        V->nomem = 1;
        return -1;
    }
    return 0;
}

/* Every dataset of file f under h5repack's path for it, into X. */
static int index_file(hid_t f, const char *file, obj_index *X, gpulz_h5_objid *root)
{
    char why[160];
    visit_ctx V = {.f = f, .index = X, .prefix = ""};
    if (gpulz_h5_objid_get(f, &V.root) < 0)
        return cli_error(CLI_IO, "bench", "%s: cannot identify the root group (%s)", file,
                         h5_reason(why, sizeof why));
    *root = V.root;
    if (H5Lvisit(f, H5_INDEX_NAME, H5_ITER_INC, visit_link, &V) < 0)
        return V.nomem ? cli_error(CLI_IO, "bench", "out of memory")
                       : cli_error(CLI_IO, "bench", "%s: cannot list / (%s)", file,
                                   h5_reason(why, sizeof why));
    return 0;
}

/* a and b are one path but for the slashes and "." HDF5 passes over. */
static int same_path(const char *a, const char *b)
{
    for (;;) {
        while (*a == '/' || (a[0] == '.' && (a[1] == '/' || !a[1])))
            a++;
        while (*b == '/' || (b[0] == '.' && (b[1] == '/' || !b[1])))
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        size_t na = strcspn(a, "/"), nb = strcspn(b, "/");
        if (na != nb || memcmp(a, b, na))
            return 0;
        a += na;
        b += nb;
    }
}

static int add_note(target_list *L, const char *asked, const char *as)
{
    const char *fmt = "%s: benched as %s, the same dataset (h5repack names a dataset by its "
                      "first path in the file only)";
    int n = snprintf(NULL, 0, fmt, asked, as);
    char **notes = realloc(L->notes, (L->nnotes + 1) * sizeof *notes);
    if (!notes)
        return -1;
    L->notes = notes;
    if (n < 0 || !(notes[L->nnotes] = malloc((size_t)n + 1)))
        return -1;
    snprintf(notes[L->nnotes++], (size_t)n + 1, fmt, asked, as);
    return 0;
}

/* The datasets of the file to bench, into V->L: object (NULL: all of the
 * file), a dataset or a group, or skipped where another file holds it. */
static int find_targets(visit_ctx *V, const char *file, const char *object)
{
    char why[160];
    const char *where = object ? object : "/", *as = NULL;
    char sf[SHOWN_MAX], sw[SHOWN_MAX]; /* file and where as an error shows them */
    char link[4096];                   /* an external link along where */
    size_t size;
    int rc = 0;
    hid_t obj = H5Oopen(V->f, where, H5P_DEFAULT);
    if (obj < 0) {
        h5_reason(why, sizeof why);
        if (!external_on_path(V->f, where, link, sizeof link, &size))
            return cli_error(CLI_IO, "bench", "%s: no dataset or group %s", shown(file, sf, sizeof sf),
                             shown(where, sw, sizeof sw));
        if (skip_external_link(V->L, V->f, link, where, size, why))
            return cli_error(CLI_IO, "bench", "out of memory");
        return 0;
    }
    gpulz_h5_objid id;
    H5I_type_t kind = H5Iget_type(obj);
    if (kind == H5I_DATASET) {
        rc = take(V, obj, where, &as);
        if (!rc && as && !same_path(as, where))
            rc = add_note(V->L, where, as);
        if (rc)
            rc = cli_error(CLI_IO, "bench", "out of memory");
    } else if (kind == H5I_GROUP && gpulz_h5_objid_get(obj, &id) >= 0 &&
               id.fileno != V->root.fileno) {
        if (skip_elsewhere(V->L, where, obj))
            rc = cli_error(CLI_IO, "bench", "out of memory");
    } else if (kind == H5I_GROUP) {
        /* "/" and "/grp/" visit as "" and "/grp" prefixes */
        char *prefix = strdup(where);
        if (!prefix) {
            rc = cli_error(CLI_IO, "bench", "out of memory");
            goto done;
        }
        for (size_t n = strlen(prefix); n > 0 && prefix[n - 1] == '/'; n--)
            prefix[n - 1] = 0;
        V->prefix = prefix;
        V->nomem = 0;
        if (H5Lvisit(obj, H5_INDEX_NAME, H5_ITER_INC, visit_link, V) < 0)
            rc = V->nomem ? cli_error(CLI_IO, "bench", "out of memory")
                          : cli_error(CLI_IO, "bench", "%s: cannot list %s (%s)", shown(file, sf, sizeof sf),
                                      shown(where, sw, sizeof sw), h5_reason(why, sizeof why));
        V->prefix = "";
        free(prefix);
    } else {
        rc = cli_error(CLI_IO, "bench", "%s: %s is not a dataset or a group", shown(file, sf, sizeof sf),
                       shown(where, sw, sizeof sw));
    }
done:
    H5Oclose(obj);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* ---- measuring ---------------------------------------------------------- */

static int set_pipeline(hid_t dcpl, const bench_filter *f)
{
    for (int i = 0; i < f->nstep; i++) {
        const filter_step *s = &f->step[i];
        herr_t st = s->kind == STEP_SHUFFLE   ? H5Pset_shuffle(dcpl)
                    : s->kind == STEP_DEFLATE ? H5Pset_deflate(dcpl, s->level)
                                              : H5Pset_filter(dcpl, s->id, H5Z_FLAG_MANDATORY,
                                                              s->ncd, s->cd);
        if (st < 0)
            return -1;
    }
    return 0;
}

/* Write data through filter f into a fresh dataset of the core file, read it
 * back and compare, warm-up plus R->o->repeat times; the medians into *res. */
static int measure(h5_run *R, const char *file, const h5_target *t, const bench_filter *f,
                   hid_t type, const uint8_t *data, uint8_t *back, h5_result *res)
{
    char why[200], sf[SHOWN_MAX], sp[SHOWN_MAX]; /* sf, sp: file and path as an error shows them */
    const unsigned repeat = R->o->repeat;
    double *tw = malloc(2 * repeat * sizeof *tw), *tr = tw ? tw + repeat : NULL;
    hid_t fapl = -1, fcore = -1, space = -1, dcpl = -1, dapl = -1, d = -1;
    int rc = 0;
    if (!tw)
        return cli_error(CLI_IO, "bench", "out of memory");
    /* the core file grows by a sixteenth of the data at a time, at least 1 MiB */
    size_t increment = t->nbytes / 16 > ((size_t)1 << 20) ? t->nbytes / 16 : (size_t)1 << 20;
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 || H5Pset_fapl_core(fapl, increment, 0) < 0 ||
        (fcore = H5Fcreate("gpulz-bench-scratch.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0 ||
        (space = H5Screate_simple(t->rank, t->dims, NULL)) < 0 ||
        (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 || H5Pset_chunk(dcpl, t->rank, t->chunk) < 0 ||
        (dapl = H5Pcreate(H5P_DATASET_ACCESS)) < 0 ||
        H5Pset_chunk_cache(dapl, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT) < 0) {
        rc = cli_error(CLI_IO, "bench", "cannot make an in-memory HDF5 file (%s)",
                       h5_reason(why, sizeof why));
        goto done;
    }
    if (set_pipeline(dcpl, f) < 0) {
        rc = cli_error(CLI_IO, "bench", "%s: cannot set up the filter (%s)", f->label,
                       h5_reason(why, sizeof why));
        goto done;
    }
    for (unsigned r = 0; r <= repeat; r++) {
        if (r == 0)
            cli_progress_set(R->pg, "[%u/%u] %s: %s, warm-up", R->step, R->nsteps, t->path,
                             f->label);
        else
            cli_progress_set(R->pg, "[%u/%u] %s: %s, run %u of %u", R->step, R->nsteps,
                             t->path, f->label, r, repeat);
        d = H5Dcreate2(fcore, "data", type, space, H5P_DEFAULT, dcpl, dapl);
        if (d < 0) {
            /* can_apply or set_local said no: a setting that does not suit
             * this dataset, not a failure of the run */
            snprintf(res->note, sizeof res->note, "cannot apply: %s", h5_reason(why, sizeof why));
            goto done;
        }
        double t0 = now();
        if (H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0 || H5Dflush(d) < 0) {
            /* another plugin may refuse a chunk it cannot shrink (Blosc,
             * a mandatory filter here, on a few hundred random bytes): a
             * row with the reason, as at creation; gpulz failing is not */
            if (!uses_gpulz(f)) {
                snprintf(res->note, sizeof res->note, "cannot write: %s", h5_reason(why, sizeof why));
                goto done;
            }
            rc = cli_error(CLI_DATA, "bench", "%s:%s: %s: writing failed (%s)", shown(file, sf, sizeof sf),
                           shown(t->path, sp, sizeof sp), f->label, h5_reason(why, sizeof why));
            goto done;
        }
        double t1 = now();
        /* a decoder that skips a byte must not pass: start from the complement */
        for (size_t i = 0; i < t->nbytes; i++)
            back[i] = (uint8_t)~data[i];
        double t2 = now();
        if (H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0) {
            rc = cli_error(CLI_DATA, "bench", "%s:%s: %s: reading back failed (%s)", shown(file, sf, sizeof sf),
                           shown(t->path, sp, sizeof sp), f->label, h5_reason(why, sizeof why));
            goto done;
        }
        double t3 = now();
        if (memcmp(back, data, t->nbytes) != 0) {
            size_t i = 0;
            while (back[i] == data[i])
                i++;
            rc = cli_error(CLI_DATA, "bench", "%s:%s: %s: read back differs at byte %zu",
                           shown(file, sf, sizeof sf), shown(t->path, sp, sizeof sp), f->label, i);
            goto done;
        }
        if (r == 0) {
            res->stored = H5Dget_storage_size(d);
        } else {
            tw[r - 1] = t1 - t0;
            tr[r - 1] = t3 - t2;
        }
        if (H5Dclose(d) < 0 || H5Ldelete(fcore, "data", H5P_DEFAULT) < 0) {
            d = -1;
            rc = cli_error(CLI_IO, "bench", "in-memory HDF5 file: cannot delete a dataset (%s)",
                           h5_reason(why, sizeof why));
            goto done;
        }
        d = -1;
    }
    res->done = 1;
    res->ratio = res->stored ? (double)t->nbytes / (double)res->stored : 0;
    res->write_bps = (double)t->nbytes / cli_median(tw, repeat);
    res->read_bps = (double)t->nbytes / cli_median(tr, repeat);
done:
    if (d >= 0)
        H5Dclose(d);
    if (dapl >= 0)
        H5Pclose(dapl);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (fcore >= 0)
        H5Fclose(fcore);
    if (fapl >= 0)
        H5Pclose(fapl);
    H5Eclear2(H5E_DEFAULT);
    free(tw);
    return rc;
}

/* ---- h5repack's words --------------------------------------------------- */

/* Append s to buf, in single quotes where a shell would split or expand it. */
static void append_shell(char *buf, size_t cap, const char *s)
{
    size_t used = strlen(buf);
    int plain = *s != 0;
    for (const char *p = s; *p; p++)
        plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,=+-@%",
                        *p) != NULL;
    if (plain) {
        snprintf(buf + used, cap - used, "%s", s);
        return;
    }
    if (used + 1 < cap)
        buf[used++] = '\'';
    for (const char *p = s; *p && used + 5 < cap; p++) {
        if (*p == '\'') {
            memcpy(buf + used, "'\\''", 4);
            used += 4;
        } else {
            buf[used++] = *p;
        }
    }
    if (used + 1 < cap)
        buf[used++] = '\'';
    buf[used] = 0;
}

/* The longest path h5repack's -f and -l take: it copies each into a
 * 256-byte buffer (MAX_NC_NAME of h5repack.h), overflowing it with a longer
 * one (1.10 aborts on the smashed stack, 1.14 crashes). */
#define H5REPACK_PATH_MAX 255
/* one -f or -l word: the path, ':' and the longest filter ("UD=" with 8
 * values) or chunking (dims_text into 96 bytes) */
#define REPACK_WORD_MAX (H5REPACK_PATH_MAX + 1 + 160)
/* the arguments: at most 2 -f and a -l, each word quoted with every byte a
 * quote ('\'' is 4 bytes) */
#define REPACK_ARGS_MAX (3 * (4 * REPACK_WORD_MAX + 8))

/* The -f (and, for a chunking picked here, -l) arguments of h5repack that
 * give t filter f: "-f /x:SHUF -f /x:GZIP=1 -l /x:CHUNK=100x200", into buf
 * of REPACK_ARGS_MAX bytes.  0, or -1 where h5repack cannot name the dataset
 * (a comma or colon in its path separates object names or the filter in its
 * syntax; a path over H5REPACK_PATH_MAX bytes overflows its buffer) or the
 * command would not stay one line (a control character in the path). */
static int repack_args(const h5_target *t, const bench_filter *f, char *buf, size_t cap)
{
    char one[REPACK_WORD_MAX + 1];
    buf[0] = 0;
    if (strpbrk(t->path, ",:") || has_control(t->path) || strlen(t->path) > H5REPACK_PATH_MAX)
        return -1;
    for (int i = 0; i < f->nstep; i++) {
        const filter_step *s = &f->step[i];
        int n = snprintf(one, sizeof one, "%s:", t->path);
        if (s->kind == STEP_SHUFFLE)
            snprintf(one + n, sizeof one - (size_t)n, "SHUF");
        else if (s->kind == STEP_DEFLATE)
            snprintf(one + n, sizeof one - (size_t)n, "GZIP=%u", s->level);
        else {
            n += snprintf(one + n, sizeof one - (size_t)n, "UD=%d,0,%zu", (int)s->id, s->ncd);
            for (size_t k = 0; k < s->ncd && n > 0 && (size_t)n < sizeof one; k++)
                n += snprintf(one + n, sizeof one - (size_t)n, ",%u", s->cd[k]);
        }
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s-f ", i ? " " : "");
        append_shell(buf, cap, one);
    }
    if (t->picked) {
        char dims[96];
        dims_text(t->rank, t->chunk, dims, sizeof dims);
        snprintf(one, sizeof one, "%s:CHUNK=%s", t->path, dims);
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, " -l ");
        append_shell(buf, cap, one);
    }
    return 0;
}

/*
 * The best trade-off among t's results: the highest ratio among the filters
 * whose write and read together take at most BEST_FACTOR times as long as
 * the fastest filter's; equal ratios go to the faster, then to the earlier
 * row.  -1 where nothing was measured.
 */
static int best_filter(const h5_target *t, const h5_result *res)
{
    double fastest = 0;
    int best = -1;
    for (unsigned i = 0; i < t->nfilters; i++)
        if (res[i].done) {
            double time = 1 / res[i].write_bps + 1 / res[i].read_bps;
            if (fastest == 0 || time < fastest)
                fastest = time;
        }
    for (unsigned i = 0; i < t->nfilters; i++) {
        if (!res[i].done)
            continue;
        double time = 1 / res[i].write_bps + 1 / res[i].read_bps;
        if (time > BEST_FACTOR * fastest)
            continue;
        if (best < 0 || res[i].ratio > res[best].ratio ||
            (res[i].ratio == res[best].ratio &&
             time < 1 / res[best].write_bps + 1 / res[best].read_bps))
            best = (int)i;
    }
    return best;
}

/* ---- output --------------------------------------------------------------- */

/* 0, or CLI_IO when stdout takes no more: the remaining datasets are not worth measuring. */
static int flush_out(void)
{
    int e = cli_flush_stdout();
    return e ? cli_error(CLI_IO, "stdout", "write failed: %s", strerror(e)) : 0;
}

/* A CSV field: quoted where it holds a comma, a quote or a space. */
static void csv_field(const char *s, int last)
{
    if (strpbrk(s, ",\" \n\r")) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
    putchar(last ? '\n' : ',');
}

static void print_row(const h5_run *R, const char *file, const h5_target *t,
                      const bench_filter *f, const h5_result *res, int best)
{
    if (R->o->csv) {
        char num[64], args[REPACK_ARGS_MAX];
        csv_field(file, 0);
        csv_field(t->path, 0);
        csv_field(t->type_name, 0);
        csv_field(t->shape, 0);
        dims_text(t->rank, t->chunk, num, sizeof num);
        csv_field(num, 0);
        csv_field(t->picked ? "1" : "0", 0);
        printf("%zu,", t->nbytes);
        csv_field(f->label, 0);
        if (res->done)
            printf("%.4f,%llu,%.2f,%.2f,", res->ratio, (unsigned long long)res->stored,
                   res->write_bps / MB, res->read_bps / MB);
        else
            printf(",,,,");
        printf("%d,", best);
        csv_field(repack_args(t, f, args, sizeof args) == 0 ? args : "", 0);
        csv_field(res->note, 1);
        return;
    }
    char sp[SHOWN_MAX];
    printf("%-*s %-*s %-*s %-*s %-*s ", R->wd, shown(t->path, sp, sizeof sp), R->wt, t->type_name, R->ws,
           t->shape, R->wc, t->chunk_text, R->wf, f->label);
    if (res->done)
        printf("%8.3f %11.1f %11.1f\n", res->ratio, res->write_bps / MB, res->read_bps / MB);
    else
        printf("%8s %11s %11s  (%s)\n", "-", "-", "-", res->note);
}

static void print_columns(const h5_run *R)
{
    if (R->o->csv)
        return;
    printf("%-*s %-*s %-*s %-*s %-*s %8s %11s %11s\n", R->wd, "dataset", R->wt, "type", R->ws,
           "shape", R->wc, "chunk", R->wf, "filter", "ratio", "write MB/s", "read MB/s");
}

static int max_int(int a, size_t b)
{
    return (size_t)a > b ? a : (int)b;
}

static void column_widths(h5_run *R, const target_list *L)
{
    R->wd = 7, R->wt = 4, R->ws = 5, R->wc = 5, R->wf = 6;
    for (unsigned i = 0; i < L->n; i++) {
        const h5_target *t = &L->t[i];
        if (t->skip[0])
            continue;
        char sp[SHOWN_MAX];
        R->wd = max_int(R->wd, strlen(shown(t->path, sp, sizeof sp)));
        R->wt = max_int(R->wt, strlen(t->type_name));
        R->ws = max_int(R->ws, strlen(t->shape));
        R->wc = max_int(R->wc, strlen(t->chunk_text));
        for (unsigned k = 0; k < t->nfilters; k++)
            R->wf = max_int(R->wf, strlen(t->filters[k].label));
    }
}

/* The plugin search path as HDF5 holds it, ':'-joined. */
static void plugin_path(char *buf, size_t cap)
{
    unsigned n = 0;
    size_t used = 0;
    buf[0] = 0;
    if (H5PLsize(&n) < 0)
        n = 0;
    for (unsigned i = 0; i < n && used + 2 < cap; i++) {
        if (i)
            buf[used++] = ':';
        ssize_t len = H5PLget(i, buf + used, cap - used);
        if (len < 0)
            break;
        used += strlen(buf + used);
    }
    buf[used] = 0;
    H5Eclear2(H5E_DEFAULT);
}

static void print_preamble(const h5_run *R)
{
    unsigned maj = 0, min = 0, rel = 0;
    char path[1024];
    if (R->o->csv) {
        printf("file,dataset,type,shape,chunk,chunk_picked,bytes,filter,ratio,stored_bytes,"
               "write_MBps,read_MBps,best,h5repack,note\n");
        return;
    }
    H5get_libversion(&maj, &min, &rel);
    printf("# gpulz bench: each dataset written whole (H5Dwrite) through each filter into an "
           "in-memory HDF5 file at its chunking, read back (H5Dread) and compared\n");
    printf("# median of %u run%s after 1 warm-up, chunk cache off; MB/s = 1e6 bytes of dataset "
           "data per second",
           R->o->repeat, R->o->repeat == 1 ? "" : "s");
    /* other work on the machine skews the figures: say how busy it was */
    double l1, l5, l15;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        printf("; %ld cores online, load average %.2f %.2f %.2f at the start",
               sysconf(_SC_NPROCESSORS_ONLN), l1, l5, l15);
    if (f)
        fclose(f);
    printf("\n# HDF5 %u.%u.%u; gpulz: the filter built into this command; deflate: %s; plugins",
           maj, min, rel, R->deflate ? "yes" : "not in this HDF5");
    H5Z_filter_t shown[N_PLUGIN_SETTINGS];
    size_t nshown = 0;
    for (size_t i = 0; i < N_PLUGIN_SETTINGS; i++) {
        int dup = 0;
        for (size_t k = 0; k < nshown; k++)
            dup |= shown[k] == plugin_settings[i].id;
        if (dup)
            continue;
        shown[nshown++] = plugin_settings[i].id;
        printf("%s %s (%d) %s", nshown == 1 ? ":" : ",", plugin_settings[i].plugin,
               (int)plugin_settings[i].id, R->plugin_found[i] ? "found" : "not found");
    }
    plugin_path(path, sizeof path);
    printf("; plugin path %s\n", path[0] ? path : "(none)");
}

/* ---- one file --------------------------------------------------------------- */

static int bench_target(h5_run *R, const char *file, hid_t f, h5_target *t, h5_result *res)
{
    char why[200];
    int rc = 0;
    uint8_t *data = NULL, *back = NULL;
    hid_t d = H5Dopen2(f, t->path, H5P_DEFAULT), ftype = -1, type = -1;
    /* a transient copy: a committed type belongs to its file, and the
     * in-memory file's datasets need one of their own */
    if (d < 0 || (ftype = H5Dget_type(d)) < 0 || (type = H5Tcopy(ftype)) < 0) {
        snprintf(t->skip, sizeof t->skip, "cannot be opened (%s)", h5_reason(why, sizeof why));
        goto done;
    }
    data = malloc(t->nbytes);
    back = malloc(t->nbytes);
    if (!data || !back) {
        rc = cli_error(CLI_IO, "bench",
                       "%s:%s: cannot allocate 2 x %zu bytes (the bench holds a dataset and its "
                       "read-back copy in memory)",
                       file, t->path, t->nbytes);
        goto done;
    }
    if (H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        /* its own filter may be one this machine lacks: the other datasets still run */
        snprintf(t->skip, sizeof t->skip, "cannot be read here (%s)", h5_reason(why, sizeof why));
        goto done;
    }
    for (unsigned k = 0; k < t->nfilters; k++) {
        R->step++;
        if ((rc = measure(R, file, t, &t->filters[k], type, data, back, &res[k])))
            goto done;
        if (!R->o->csv) {
            cli_progress_hide(R->pg);
            print_row(R, file, t, &t->filters[k], &res[k], 0);
            if ((rc = flush_out()))
                goto done;
        }
    }
done:
    if (t->skip[0])
        R->step += t->nfilters;
    if (type >= 0)
        H5Tclose(type);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    free(data);
    free(back);
    return rc;
}

/* The "DATASET ARGS" lines of the best filters, then one h5repack command
 * with all of them.  In CSV, the rows of each dataset with the best marked. */
static void print_best(const h5_run *R, const char *file, const target_list *L, h5_result **res)
{
    char args[REPACK_ARGS_MAX];
    size_t cap = 4096, used = 0;
    char *all = malloc(cap);
    if (all)
        all[0] = 0;
    printf("# best trade-off per dataset: the highest ratio among the filters whose write and "
           "read together take at most %d times as long as the fastest one's; h5repack "
           "arguments:\n",
           BEST_FACTOR);
    for (unsigned i = 0; i < L->n; i++) {
        const h5_target *t = &L->t[i];
        if (t->skip[0])
            continue;
        int b = best_filter(t, res[i]);
        char sp[SHOWN_MAX];
        const char *path = shown(t->path, sp, sizeof sp);
        if (b < 0) {
            printf("%-*s (none: no filter applies)\n", R->wd, path);
            continue;
        }
        if (res[i][b].ratio <= 1) {
            printf("%-*s (none: no filter shrinks it)\n", R->wd, path);
            continue;
        }
        if (repack_args(t, &t->filters[b], args, sizeof args)) {
            printf("%-*s %s (h5repack cannot name this dataset: a comma, colon or control character "
                   "in its path, or a path over %d bytes)\n",
                   R->wd, path, t->filters[b].label, H5REPACK_PATH_MAX);
            continue;
        }
        printf("%-*s %s\n", R->wd, path, args);
        size_t need = used + strlen(args) + 2;
        if (all && need > cap) {
            char *grown = realloc(all, 2 * need);
            if (!grown) {
                free(all);
                all = NULL;
            } else {
                all = grown;
                cap = 2 * need;
            }
        }
        if (all) {
            used += (size_t)sprintf(all + used, "%s%s", used ? " " : "", args);
        }
    }
    if (all && used) {
        /* the output beside the input: NAME.h5 -> NAME-repacked.h5 */
        size_t n = strlen(file);
        char *out = malloc(n + sizeof "-repacked.h5");
        if (out) {
            size_t stem = cli_h5_has_suffix(file) ? n - (file[n - 3] == '.' ? 3 : 5) : n;
            memcpy(out, file, stem);
            strcpy(out + stem, "-repacked.h5");
            char in_q[1024] = "", out_q[1024] = "";
            append_shell(in_q, sizeof in_q, file);
            append_shell(out_q, sizeof out_q, out);
            printf("h5repack %s %s %s\n", all, in_q, out_q);
            free(out);
        }
    }
    free(all);
}

static void print_csv_rows(const h5_run *R, const char *file, const h5_target *t,
                           const h5_result *res)
{
    int b = best_filter(t, res);
    if (b >= 0 && res[b].ratio <= 1)
        b = -1;
    for (unsigned k = 0; k < t->nfilters; k++)
        print_row(R, file, t, &t->filters[k], &res[k], (int)k == b);
}

/* Open the file of arg (FILE[:/path]) read-only: *f, *file (malloc'd) and
 * *object; 0, or the error reported. */
static int open_arg(const char *arg, hid_t *f, char **file, const char **object)
{
    char why[200];
    *f = -1;
    if (!(*file = cli_h5_split_arg(arg, object)))
        return cli_error(CLI_IO, "bench", "out of memory");
    if (access(*file, R_OK) != 0)
        return cli_error(CLI_IO, *file, "%s", strerror(errno));
    if ((*f = H5Fopen(*file, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return cli_error(CLI_IO, *file, "not an HDF5 file, or one this HDF5 cannot open (%s)",
                         h5_reason(why, sizeof why));
    return 0;
}

/* Every file opens and every PATH names a dataset or a group: checked
 * before the first measurement, not after minutes of them. */
static int check_arg(const char *arg)
{
    const char *object;
    char *file = NULL;
    hid_t f;
    char sf[SHOWN_MAX], sw[SHOWN_MAX]; /* file and object as an error shows them */
    int rc = open_arg(arg, &f, &file, &object);
    if (!rc && object) {
        hid_t obj = H5Oopen(f, object, H5P_DEFAULT);
        H5I_type_t kind = obj < 0 ? H5I_BADID : H5Iget_type(obj);
        /* an external link whose file is missing is skipped, and said so, with the rest */
        char link[4096];
        if (obj < 0 && !external_on_path(f, object, link, sizeof link, NULL))
            rc = cli_error(CLI_IO, "bench", "%s: no dataset or group %s", shown(file, sf, sizeof sf),
                           shown(object, sw, sizeof sw));
        else if (obj >= 0 && kind != H5I_DATASET && kind != H5I_GROUP)
            rc = cli_error(CLI_IO, "bench", "%s: %s is not a dataset or a group", shown(file, sf, sizeof sf),
                           shown(object, sw, sizeof sw));
        if (obj >= 0)
            H5Oclose(obj);
    }
    if (f >= 0)
        H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
    free(file);
    return rc;
}

/* One file, with the objects the arguments named in it (NULL: all of it):
 * one table, one best block and one h5repack command. */
static int bench_file(h5_run *R, const char *file, const char *const *objects, unsigned nobjects,
                      int first)
{
    char why[200];
    target_list L = {0};
    obj_index X = {0};
    visit_ctx V = {.index = &X, .L = &L, .prefix = ""};
    h5_result **res = NULL;
    hid_t f = -1;
    int rc = 0, any_picked = 0;
    R->step = R->nsteps = 0;
    if ((f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        rc = cli_error(CLI_IO, file, "cannot open (%s)", h5_reason(why, sizeof why));
        goto done;
    }
    V.f = f;
    if ((rc = index_file(f, file, &X, &V.root)))
        goto done;
    for (unsigned i = 0; i < nobjects; i++)
        if ((rc = find_targets(&V, file, objects[i])))
            goto done;
    if (!(res = calloc(L.n ? L.n : 1, sizeof *res))) {
        rc = cli_error(CLI_IO, "bench", "out of memory");
        goto done;
    }
    for (unsigned i = 0; i < L.n && !rc; i++) {
        if (L.t[i].skip[0])
            continue;
        hid_t d = H5Dopen2(f, L.t[i].path, H5P_DEFAULT);
        if (d < 0) {
            snprintf(L.t[i].skip, sizeof L.t[i].skip, "cannot be opened (%s)",
                     h5_reason(why, sizeof why));
            continue;
        }
        rc = describe(R, d, &L.t[i]);
        H5Dclose(d);
        if (!rc && !L.t[i].skip[0] && !(res[i] = calloc(L.t[i].nfilters, sizeof **res)))
            rc = cli_error(CLI_IO, "bench", "out of memory");
        if (!L.t[i].skip[0])
            R->nsteps += L.t[i].nfilters;
    }
    if (rc)
        goto done;
    column_widths(R, &L);
    if (!R->o->csv) {
        if (!first)
            putchar('\n');
        char sf[SHOWN_MAX];
        printf("# %s\n", shown(file, sf, sizeof sf));
        if (R->nsteps)
            print_columns(R);
    }
    for (unsigned i = 0; i < L.n; i++) {
        h5_target *t = &L.t[i];
        if (t->skip[0])
            continue;
        if ((rc = bench_target(R, file, f, t, res[i])))
            goto done;
        any_picked |= t->picked && !t->skip[0];
        if (R->o->csv) {
            cli_progress_hide(R->pg);
            if (!t->skip[0])
                print_csv_rows(R, file, t, res[i]);
            if ((rc = flush_out()))
                goto done;
        }
    }
    cli_progress_hide(R->pg);
    char sf[SHOWN_MAX], sn[SHOWN_MAX], sk[SHOWN_MAX];
    const char *file_shown = shown(file, sf, sizeof sf);
    for (unsigned i = 0; i < L.nnotes; i++) {
        if (R->o->csv)
            fprintf(stderr, "gpulz: bench: %s:%s\n", file_shown, shown(L.notes[i], sn, sizeof sn));
        else
            printf("# %s\n", shown(L.notes[i], sn, sizeof sn));
    }
    for (unsigned i = 0; i < L.n; i++)
        if (L.t[i].skip[0]) {
            const char *path = shown(L.t[i].path, sn, sizeof sn), *why = shown(L.t[i].skip, sk, sizeof sk);
            if (R->o->csv)
                fprintf(stderr, "gpulz: bench: %s:%s: skipped: %s\n", file_shown, path, why);
            else
                printf("# skipped %s: %s\n", path, why);
        }
    if (!R->o->csv && !R->nsteps)
        printf("# nothing to bench in %s\n", file);
    else if (!R->o->csv) {
        if (any_picked)
            printf("# * not chunked in the file: benched, and given to h5repack (-l), with chunks "
                   "of whole fastest-varying dimensions up to about %zu MiB\n",
                   PICKED_CHUNK_BYTES >> 20);
        print_best(R, file, &L, res);
    }
    rc = flush_out();
done:
    for (unsigned i = 0; i < L.n; i++) {
        free(L.t[i].path);
        free(L.t[i].filters);
        if (res)
            free(res[i]);
    }
    free(res);
    free(L.t);
    for (unsigned i = 0; i < L.nnotes; i++)
        free(L.notes[i]);
    free(L.notes);
    for (unsigned i = 0; i < X.n; i++)
        free(X.o[i].path);
    free(X.o);
    if (f >= 0)
        H5Fclose(f);
    return rc;
}

/* ---- the command ------------------------------------------------------------ */

/* Which plugins HDF5 finds: H5Zfilter_avail() searches the plugin path for a
 * filter not yet registered and registers what it loads. */
static void find_plugins(h5_run *R)
{
    for (size_t i = 0; i < N_PLUGIN_SETTINGS; i++) {
        unsigned config = 0;
        H5Z_filter_t id = plugin_settings[i].id;
        R->plugin_found[i] = H5Zfilter_avail(id) > 0 && H5Zget_filter_info(id, &config) >= 0 &&
                             (config & H5Z_FILTER_CONFIG_ENCODE_ENABLED);
    }
    unsigned config = 0;
    R->deflate = H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 &&
                 H5Zget_filter_info(H5Z_FILTER_DEFLATE, &config) >= 0 &&
                 (config & H5Z_FILTER_CONFIG_ENCODE_ENABLED);
    H5Eclear2(H5E_DEFAULT);
}

int cli_bench_h5(const cli_h5bench_opts *o, int nargs, char **args, int argc, char **argv)
{
    h5_run R = {.o = o};
    char value[32];
    int rc = 0;
    (void)argc, (void)argv; /* the command line of gpulz_cli_h5exec.c's version */
    /* the filter's settings live in its environment, never in files */
    if (o->backend_set) {
        if (o->backend == GPULZ_BACKEND_GPU && !gpulz_gpu_available())
            return cli_error(CLI_IO, "bench", "--backend gpu: no GPU is usable (%s)",
                             gpulz_last_error());
        setenv("GPULZ_BACKEND", gpulz_backend_name(o->backend), 1);
    }
    if (o->threads_set) {
        snprintf(value, sizeof value, "%u", o->threads);
        setenv("GPULZ_THREADS", value, 1);
    }
    /* reasons are taken from the stack and reported as gpulz's messages */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (gpulz_h5_register() < 0)
        return cli_error(CLI_IO, "bench", "cannot register the gpulz filter with HDF5");
    for (int i = 0; i < nargs; i++)
        if ((rc = check_arg(args[i])))
            return rc;
    find_plugins(&R);
    print_preamble(&R);
    /* the arguments naming one file make one section, in the order of the first */
    char **files = calloc((size_t)nargs, sizeof *files);
    const char **objects = calloc((size_t)nargs, sizeof *objects), **mine = NULL;
    if (!files || !objects || !(mine = calloc((size_t)nargs, sizeof *mine))) {
        rc = cli_error(CLI_IO, "bench", "out of memory");
        goto done;
    }
    for (int i = 0; i < nargs; i++)
        if (!(files[i] = cli_h5_split_arg(args[i], &objects[i]))) {
            rc = cli_error(CLI_IO, "bench", "out of memory");
            goto done;
        }
    R.pg = cli_progress_start("bench", o->quiet);
    for (int i = 0, sections = 0; i < nargs && !rc; i++) {
        unsigned n = 0;
        int whole = 0, seen = 0;
        for (int k = 0; k < i; k++)
            seen |= !strcmp(files[k], files[i]);
        if (seen)
            continue;
        for (int k = i; k < nargs; k++)
            if (!strcmp(files[k], files[i])) {
                whole |= objects[k] == NULL;
                mine[n++] = objects[k];
            }
        if (whole) {
            mine[0] = NULL;
            n = 1;
        }
        rc = bench_file(&R, files[i], mine, n, sections++ == 0);
    }
done:
    cli_progress_end(R.pg);
    for (int i = 0; files && i < nargs; i++)
        free(files[i]);
    free(files);
    free(objects);
    free(mine);
    return rc;
}
