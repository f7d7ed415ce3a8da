/* Host reference backend: the stream kernels in plain C with OpenMP, built
 * with -O3 -march=native, so that a CPU or APU device can be compared with
 * what its own cores reach. */
#define _GNU_SOURCE
#include "metadata.h"
#include "random.h"
#include "stream/backend.h"
#include "stream/elements.h"
#include "stream/truth.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    void *array[3];
    cr_dtype dtype;
    uint64_t n;
    /* The calls a timed loop of the last kernel needed, the time of one,
     * and that kernel's work (timed_call). */
    uint64_t loop_calls, loop_ns, loop_first, loop_count;
    stream_kernel loop_k;
} array_set;

static array_set H;     /* the arrays of the kernels under test */
static array_set Limit; /* the private arrays of the host's limit */
static int threads;

static cr_status host_list(FILE *f)
{
    fprintf(f, "0  host CPU (OpenMP, %d threads)\n", omp_get_max_threads());
    return CR_OK;
}

static cr_status host_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    memset(&H, 0, sizeof H);
    threads = omp_get_max_threads();
    memset(info, 0, sizeof *info);
    cr_cpu_model(info->name, sizeof info->name);
    snprintf(info->vendor, sizeof info->vendor, "host");
    snprintf(info->api_version, sizeof info->api_version, "OpenMP %d, %d threads", _OPENMP, threads);
    info->is_cpu = info->unified_memory = info->has_fp64 = true;
    info->compute_units = (unsigned)threads;
    return CR_OK;
}

static void release_set(array_set *set)
{
    for (int i = 0; i < 3; ++i) {
        free(set->array[i]);
        set->array[i] = NULL;
    }
}


static cr_status prepare_set(array_set *set, cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    release_set(set);
    size_t bytes = (size_t)n * cr_dtype_size(t);
    for (int i = 0; i < 3; ++i) {
        if (posix_memalign(&set->array[i], 4096, bytes) != 0) {
            set->array[i] = NULL;
            snprintf(err, errlen, "cannot allocate %zu bytes for the host reference", bytes);
            return CR_ERR;
        }
        /* First touch by the threads that will stream the pages later. */
        char *p = set->array[i];
#pragma omp parallel for schedule(static)
        for (size_t j = 0; j < bytes; j += 4096)
            p[j] = 0;
    }
    set->dtype = t;
    set->n = n;
    set->loop_calls = set->loop_ns = 0; /* another type or size: its loop is found anew */
    return CR_OK;
}

static cr_status host_prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    return prepare_set(&H, t, n, err, errlen);
}

static cr_status host_upload(stream_array which, const void *src, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(H.array[which], src, (size_t)H.n * cr_dtype_size(H.dtype));
    return CR_OK;
}

static cr_status host_download(stream_array which, void *dst, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(dst, H.array[which], (size_t)H.n * cr_dtype_size(H.dtype));
    return CR_OK;
}

/* Every element through one element operation of elements.h, on every core. */
#define PARALLEL_EACH(OP)                                                                              \
    _Pragma("omp parallel for simd schedule(static)") for (size_t i = 0; i < n; ++i) OP(a, b, c, s, i)

#define DEFINE_KERNELS(T)                                                                              \
    static double run_##T(stream_kernel k, T *restrict a, T *restrict b, T *restrict c, T s, size_t n) \
    {                                                                                                  \
        switch (k) {                                                                                   \
        case STREAM_COPY: PARALLEL_EACH(STREAM_COPY_AT); return 0;                                     \
        case STREAM_MUL: PARALLEL_EACH(STREAM_MUL_AT); return 0;                                       \
        case STREAM_ADD: PARALLEL_EACH(STREAM_ADD_AT); return 0;                                       \
        case STREAM_TRIAD: PARALLEL_EACH(STREAM_TRIAD_AT); return 0;                                   \
        case STREAM_DOT: {                                                                             \
            /* Blocks of STREAM_DOT_BLOCK products, vectorised inside, summed per thread. */           \
            double total = 0;                                                                          \
            size_t blocks = (n + STREAM_DOT_BLOCK - 1) / STREAM_DOT_BLOCK;                             \
            _Pragma("omp parallel for schedule(static) reduction(+ : total)")                          \
            for (size_t blk = 0; blk < blocks; ++blk) {                                                \
                size_t lo = blk * STREAM_DOT_BLOCK, hi = lo + STREAM_DOT_BLOCK < n ? lo + STREAM_DOT_BLOCK : n; \
                T part = 0;                                                                            \
                _Pragma("omp simd reduction(+ : part)") for (size_t i = lo; i < hi; ++i) part += STREAM_DOT_AT(a, b, i); \
                total += part;                                                                         \
            }                                                                                          \
            return total;                                                                              \
        }                                                                                              \
        default: return 0;                                                                             \
        }                                                                                              \
    }
DEFINE_KERNELS(float)
DEFINE_KERNELS(double)

/* Kernel k over the elements [first, first + count) of the set. */
static double run_set(const array_set *set, stream_kernel k, double scalar, uint64_t first, uint64_t count)
{
    void *const *x = set->array;
    if (set->dtype == CR_DOUBLE)
        return run_double(k, (double *)x[0] + first, (double *)x[1] + first, (double *)x[2] + first, scalar, count);
    return run_float(k, (float *)x[0] + first, (float *)x[1] + first, (float *)x[2] + first, (float)scalar, count);
}

/* One kernel call over a set, for cr_host_loop_ns: the kernels write
 * nothing they read, so every call gives the same arrays and dot. */
typedef struct {
    array_set *set;
    stream_kernel k;
    double scalar, dot;
    uint64_t first, count;
} kernel_call;

static void call_kernel(void *ctx)
{
    kernel_call *c = ctx;
    c->dot = run_set(c->set, c->k, c->scalar, c->first, c->count);
}

/* The time of one call, from a loop long enough to read (timer.h). The
 * loop's length and one call's time are kept, per set, for the next
 * repetition of the same work. */
static uint64_t timed_call(kernel_call *c)
{
    array_set *s = c->set;
    if (c->k != s->loop_k || c->first != s->loop_first || c->count != s->loop_count)
        s->loop_calls = 1, s->loop_ns = 0;
    s->loop_k = c->k, s->loop_first = c->first, s->loop_count = c->count;
    return cr_host_timed_call(call_kernel, c, &s->loop_calls, &s->loop_ns);
}

static cr_status host_run(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot,
                          char *err, size_t errlen)
{
    if (stream_check_window(g, H.n, err, errlen) != CR_OK)
        return CR_ERR;
    kernel_call c = {&H, k, scalar, 0, g->first, g->count};
    t->host_ns = timed_call(&c);
    t->has_event = false;
    if (k == STREAM_DOT)
        *dot = c.dot;
    return CR_OK;
}

/* ---- the host's limit ---- */

/* Any scalar works; this one keeps values in range and is not 1 or 0. */
#define LIMIT_SCALAR 0.4

cr_status stream_host_limit_prepare(cr_dtype t, uint64_t n, uint64_t seed, char *err, size_t errlen)
{
    if (prepare_set(&Limit, t, n, err, errlen) != CR_OK)
        return CR_ERR;
    for (int i = 0; i < 3; ++i)
        cr_fill_random_unit(t, Limit.array[i], n, &seed);
    return CR_OK;
}

/* The dot of the last dot limit run, for its check. */
static double limit_dot;

cr_status stream_host_limit_run(stream_kernel k, cr_timing *t)
{
    kernel_call c = {&Limit, k, LIMIT_SCALAR, 0, 0, Limit.n};
    t->host_ns = timed_call(&c);
    t->has_event = false;
    if (k == STREAM_DOT)
        limit_dot = c.dot;
    return CR_OK;
}

/* The dot of the limit's arrays, compensated, against the last run's: within
 * the rounding bound of the host's work-items. */
static uint64_t dot_wrong(void)
{
    long double want = stream_apply_gold(STREAM_DOT, Limit.dtype, Limit.array[0], Limit.array[1], Limit.array[2],
                                         Limit.n, LIMIT_SCALAR);
    double tol = stream_dot_tolerance(Limit.dtype, Limit.n, (uint64_t)threads);
    return !(fabsl((long double)limit_dot - want) <= (long double)tol * fabsl(want));
}

uint64_t stream_host_limit_check(stream_kernel k)
{
    if (k == STREAM_DOT)
        return dot_wrong();
    /* Recompute a = b + s*c serially, a slice at a time, and compare. */
    enum { SLICE = 1 << 16 };
    size_t es = cr_dtype_size(Limit.dtype);
    char *want = malloc(SLICE * es), *b = malloc(SLICE * es), *c = malloc(SLICE * es);
    uint64_t bad = want && b && c ? 0 : Limit.n;
    for (uint64_t i = 0; bad == 0 && i < Limit.n; i += SLICE) {
        uint64_t len = Limit.n - i < SLICE ? Limit.n - i : SLICE;
        memcpy(b, (char *)Limit.array[1] + i * es, len * es);
        memcpy(c, (char *)Limit.array[2] + i * es, len * es);
        stream_apply_gold(STREAM_TRIAD, Limit.dtype, want, b, c, len, LIMIT_SCALAR);
        uint64_t first;
        bad += stream_compare(STREAM_TRIAD, Limit.dtype, (char *)Limit.array[0] + i * es, want, len, &first);
    }
    free(want), free(b), free(c);
    return bad;
}

void stream_host_limit_release(void) { release_set(&Limit); }

static void host_close(void)
{
    release_set(&H);
    release_set(&Limit);
}

static stream_geometry host_default_geometry(uint64_t n)
{
    return (stream_geometry){(uint64_t)threads, 1, 0, n};
}

static uint64_t host_work_group_for(uint64_t work_items)
{
    (void)work_items;
    return 1;
}

static const char *host_layout(void) { return "one contiguous chunk per OpenMP thread"; }

const stream_backend stream_host_backend = {
    .base = {.name = "host-openmp", .list_devices = host_list, .open = host_open, .close = host_close},
    .prepare = host_prepare,
    .upload = host_upload,
    .download = host_download,
    .run = host_run,
    .default_geometry = host_default_geometry,
    .work_group_for = host_work_group_for,
    .layout = host_layout,
};
