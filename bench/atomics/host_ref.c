/* Host reference backend for the atomics benchmark: the device kernels'
 * access patterns with C11 atomics on OpenMP threads, so that a CPU or APU
 * device is set against what its own cores reach. One work-item is one
 * thread and a work-group is one work-item. */
#define _GNU_SOURCE
#include "atomics/backend.h"
#include "atomics/truth.h"
#include "metadata.h"
#include "topology.h"

#define AT_U32 uint32_t
#include "atomics/pattern.h"

#include <inttypes.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The counters are plain memory, filled by memcpy and updated in place
 * through atomic views of the same bytes. */
_Static_assert(sizeof(_Atomic uint32_t) == sizeof(uint32_t), "atomic uint32_t must match uint32_t");
_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic uint64_t must match uint64_t");
_Static_assert(_Alignof(_Atomic uint64_t) <= 64, "counters are 64-byte aligned");

/* Every operation is relaxed because the device kernels use relaxed
 * atomics (OpenCL 1.2 atomic_* and CUDA atomic*), which order nothing
 * beyond the counter itself; stronger orders would time fences the device
 * never executes. */
#define RLX memory_order_relaxed

static void *Counters;
static uint64_t NCounters;
static size_t ElemSize;
static uint64_t *Outs;
static uint64_t NOuts;

/* Threads the host can run at once: one per processor OpenMP may use,
 * fewer where OMP_THREAD_LIMIT says so. More would time the OS scheduler. */
static int max_threads(void)
{
    int procs = omp_get_num_procs(), limit = omp_get_thread_limit();
    return limit > 0 && limit < procs ? limit : procs;
}

static cr_status host_list(FILE *f)
{
    fprintf(f, "0  host CPU (C11 atomics, %d threads)\n", max_threads());
    return CR_OK;
}

static cr_status host_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    (void)spec; /* there is only the one host */
    _Atomic uint32_t probe32 = 0;
    _Atomic uint64_t probe64 = 0;
    if (!atomic_is_lock_free(&probe32) || !atomic_is_lock_free(&probe64)) {
        /* A lock inside every "atomic" would be no hardware limit at all. */
        snprintf(err, errlen, "32- and 64-bit C11 atomics are not lock-free on this host");
        return CR_ERR;
    }
    /* Designs size their buffers by the memory; the host can use its RAM. */
    uint64_t ram = cr_host_memory_bytes();
    *info = (cr_device_info){.vendor = "host", .is_cpu = true, .unified_memory = true, .has_fp64 = true,
                             .compute_units = (unsigned)omp_get_num_procs(), .max_work_group = 1,
                             .max_threads_per_cu = 1, .warp_size = 1, .global_mem_bytes = ram, .max_alloc_bytes = ram};
    cr_cpu_model(info->name, sizeof info->name);
    snprintf(info->api_version, sizeof info->api_version, "C11 <stdatomic.h>, OpenMP %d", _OPENMP);
    return CR_OK;
}

static cr_status host_supports(at_op op, at_type type, at_space space, const char **how, char *err, size_t errlen)
{
    cr_status st = at_check_kind(op, type, space, err, errlen);
    if (st == CR_ERR)
        return st;
    if (space == AT_LOCAL) {
        snprintf(err, errlen, "the host has no local memory");
        return CR_UNSUPPORTED;
    }
    if (st != CR_OK)
        return st;
    if (how)
        /* C11 has neither fetch_min/fetch_max nor a float fetch_add. */
        *how = type == AT_TYPE_F32 || op == AT_MIN || op == AT_MAX ? "cas-loop" : "native";
    return CR_OK;
}

static void release_buffers(void)
{
    free(Counters);
    free(Outs);
    Counters = NULL;
    Outs = NULL;
    NCounters = NOuts = 0;
    ElemSize = 0;
}

/* aligned_alloc wants a size that is a multiple of the alignment, and a
 * zero size may give NULL, which would look like failure. */
static void *alloc_lines(uint64_t n, size_t elem)
{
    if (n > (SIZE_MAX - 64) / elem)
        return NULL;
    size_t bytes = (size_t)n * elem;
    bytes = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
    return aligned_alloc(64, bytes);
}

static cr_status host_prepare(at_type type, uint64_t counters, uint64_t outs, char *err, size_t errlen)
{
    release_buffers();
    if ((unsigned)type >= AT_NTYPES) {
        snprintf(err, errlen, "unknown counter type");
        return CR_ERR;
    }
    size_t es = at_type_size(type);
    Counters = alloc_lines(counters, es);
    Outs = alloc_lines(outs, sizeof(uint64_t));
    if (Counters == NULL || Outs == NULL) {
        release_buffers();
        snprintf(err, errlen, "cannot allocate %" PRIu64 " counters and %" PRIu64 " read sums on the host", counters,
                 outs);
        return CR_ERR;
    }
    memset(Outs, 0, (size_t)outs * sizeof(uint64_t));
    NCounters = counters;
    NOuts = outs;
    ElemSize = es;
    return CR_OK;
}

static cr_status check_counters(uint64_t n, char *err, size_t errlen)
{
    if (Counters == NULL || n > NCounters) {
        snprintf(err, errlen, "%" PRIu64 " counters asked for, %" PRIu64 " prepared", n, NCounters);
        return CR_ERR;
    }
    return CR_OK;
}

static cr_status host_upload(const void *src, uint64_t n, char *err, size_t errlen)
{
    if (check_counters(n, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(Counters, src, (size_t)n * ElemSize);
    return CR_OK;
}

static cr_status host_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    if (check_counters(n, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(dst, Counters, (size_t)n * ElemSize);
    return CR_OK;
}

static cr_status host_download_out(uint64_t *dst, uint64_t n, char *err, size_t errlen)
{
    if (Outs == NULL || n > NOuts) {
        snprintf(err, errlen, "%" PRIu64 " read sums asked for, %" PRIu64 " prepared", n, NOuts);
        return CR_ERR;
    }
    memcpy(dst, Outs, (size_t)n * sizeof(uint64_t));
    return CR_OK;
}

/* A read-modify-write by compare-and-swap: next, an expression of old, is
 * stored unless another thread changed the counter since old was read;
 * old then holds what it found, and the swap is tried again. */
#define CAS_UPDATE(T, p, old, next)                                                                  \
    do {                                                                                             \
        T old = atomic_load_explicit(p, RLX);                                                        \
        while (!atomic_compare_exchange_weak_explicit(p, &old, (next), RLX, RLX)) {                  \
        }                                                                                            \
    } while (0)

/* Runs one operation, a statement that may use the step j, iters times. */
#define EVERY_ITER(step)                                                                             \
    for (uint32_t j = 0; j < iters; ++j) {                                                           \
        step;                                                                                        \
    }

/* min (better is <) or max (>): every operation stores the better of the
 * work-item's value and the counter's. */
#define MINMAX_STEP(T, better)                                                                       \
    do {                                                                                             \
        const T v = AT_MINMAX_VALUE(g, j);                                                           \
        CAS_UPDATE(T, p, old, v better old ? v : old);                                               \
    } while (0)

/* One work-item's loop. min and max end every operation in exactly one
 * successful compare-and-swap, even when the value stays, because the
 * device's atomic min/max is a read-modify-write whatever the outcome;
 * skipping the store would time shared reads of a settled counter instead.
 * A read is an add of 0, as on the device: a read-modify-write, not a load. */
#define DEFINE_WORK(T, SUFFIX)                                                                       \
    static T work_##SUFFIX(at_op op, _Atomic T *p, uint32_t g, uint32_t iters)                      \
    {                                                                                                \
        const T add = AT_ADD_VALUE(g), mark = AT_XCHG_VALUE(g);                                      \
        T sum = 0;                                                                                   \
        switch (op) {                                                                                \
        case AT_ADD: EVERY_ITER(atomic_fetch_add_explicit(p, add, RLX)); break;                      \
        case AT_INC: EVERY_ITER(atomic_fetch_add_explicit(p, 1, RLX)); break;                        \
        case AT_XCHG: EVERY_ITER(atomic_exchange_explicit(p, mark, RLX)); break;                     \
        case AT_CAS: EVERY_ITER(CAS_UPDATE(T, p, old, (T)(old + add))); break;                       \
        case AT_MIN: EVERY_ITER(MINMAX_STEP(T, <)); break;                                           \
        case AT_MAX: EVERY_ITER(MINMAX_STEP(T, >)); break;                                           \
        case AT_READ: EVERY_ITER(sum = (T)(sum + atomic_fetch_add_explicit(p, 0, RLX))); break;      \
        default: break;                                                                              \
        }                                                                                            \
        return sum;                                                                                  \
    }
DEFINE_WORK(uint32_t, u32)
DEFINE_WORK(uint64_t, u64)

/* The bits of the float in bits plus add. */
static uint32_t fadd_bits(uint32_t bits, float add)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    f += add;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* C11 has no atomic float add: a compare-and-swap on the float's bits. */
static void work_f32(_Atomic uint32_t *p, uint32_t g, uint32_t iters)
{
    const float add = (float)AT_ADD_VALUE(g);
    for (uint32_t j = 0; j < iters; ++j)
        CAS_UPDATE(uint32_t, p, old, fadd_bits(old, add));
}

static cr_status check_threads(uint64_t n, const char *what, char *err, size_t errlen)
{
    int most = max_threads();
    if (n < 1 || n > (uint64_t)most) {
        snprintf(err, errlen, "%s %" PRIu64 ": the host runs 1..%d threads, one per processor", what, n, most);
        return CR_ERR;
    }
    return CR_OK;
}

/* OMP_DYNAMIC or an enclosing parallel region can hand out fewer threads
 * than asked; the pattern would then be incomplete and the timing wrong. */
static cr_status short_team(int got, uint64_t want, char *err, size_t errlen)
{
    snprintf(err, errlen, "OpenMP ran %d of the %" PRIu64 " threads asked for (OMP_DYNAMIC? nested region?)", got,
             want);
    return CR_ERR;
}

static cr_status check_run(const at_run *r, char *err, size_t errlen)
{
    cr_status st = host_supports(r->op, r->type, r->space, NULL, err, errlen);
    if (st != CR_OK)
        return st;
    if (r->work_group != 1) {
        snprintf(err, errlen, "work_group %" PRIu64 ": on the host a work-group is one thread", r->work_group);
        return CR_ERR;
    }
    if (check_threads(r->work_items, "work_items", err, errlen) != CR_OK)
        return CR_ERR;
    if (r->stride < 1 || r->degree < 1) {
        snprintf(err, errlen, "stride and degree must be at least 1");
        return CR_ERR;
    }
    if (Counters == NULL || at_type_size(r->type) != ElemSize) {
        snprintf(err, errlen, "no %s counters prepared", at_type_size(r->type) == 8 ? "64-bit" : "32-bit");
        return CR_ERR;
    }
    uint64_t last_slot = AT_SLOT(r->work_items - 1, r->degree);
    if (NCounters == 0 || last_slot > (NCounters - 1) / r->stride) {
        snprintf(err, errlen, "slot %" PRIu64 " at stride %" PRIu64 " lies beyond the %" PRIu64 " counters prepared",
                 last_slot, r->stride, NCounters);
        return CR_ERR;
    }
    if (r->op == AT_READ && r->work_items > NOuts) {
        snprintf(err, errlen, "%" PRIu64 " read sums needed, %" PRIu64 " prepared", r->work_items, NOuts);
        return CR_ERR;
    }
    return CR_OK;
}

static cr_status host_run(const at_run *r, cr_timing *t, char *err, size_t errlen)
{
    cr_status st = check_run(r, err, errlen);
    if (st != CR_OK)
        return st;
    const int want = (int)r->work_items;
    int got = want;
    uint64_t t0 = 0;
#pragma omp parallel num_threads(want)
    {
        const int g = omp_get_thread_num();
        const bool full = omp_get_num_threads() == want;
        if (g == 0)
            got = omp_get_num_threads();
        /* The clock starts once every thread is in, so that thread start-up
         * is not timed, as kernel launch is not in a device event. */
#pragma omp barrier
        if (g == 0)
            t0 = cr_now_ns();
        if (full) {
            const uint64_t k = AT_INDEX(AT_SLOT((uint64_t)g, r->degree), r->stride);
            uint64_t sum = 0;
            switch (r->type) {
            case AT_TYPE_U32: sum = work_u32(r->op, (_Atomic uint32_t *)Counters + k, (uint32_t)g, r->iters); break;
            case AT_TYPE_U64: sum = work_u64(r->op, (_Atomic uint64_t *)Counters + k, (uint32_t)g, r->iters); break;
            case AT_TYPE_F32: work_f32((_Atomic uint32_t *)Counters + k, (uint32_t)g, r->iters); break;
            default: break;
            }
            if (r->op == AT_READ)
                Outs[g] = sum;
        }
    }
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    return got == want ? CR_OK : short_team(got, r->work_items, err, errlen);
}

static cr_status host_launch_empty(double *enqueue_to_start_s, double *round_trip_s, char *err, size_t errlen)
{
    (void)enqueue_to_start_s, (void)round_trip_s;
    snprintf(err, errlen, "the host runs no kernels");
    return CR_UNSUPPORTED;
}

/* Each lock word on its own cache line, and the counter on another, so
 * that what is timed is the hand-over of the lock and not false sharing
 * between words that a better-laid-out lock would keep apart. */
static struct {
    _Alignas(64) _Atomic uint32_t held;    /* spin lock: 1 while taken */
    _Alignas(64) _Atomic uint32_t next;    /* ticket lock: the next ticket to hand out */
    _Alignas(64) _Atomic uint32_t serving; /* ticket lock: the ticket allowed in */
    _Alignas(64) volatile uint64_t counter; /* plain, guarded by the lock */
} Lock;

static void spin_lock_loop(uint32_t iters)
{
    for (uint32_t i = 0; i < iters; ++i) {
        /* Waiting on a load keeps the line shared until the holder lets
         * go, instead of every waiter bouncing it with exchanges. */
        while (atomic_exchange_explicit(&Lock.held, 1, memory_order_acquire))
            while (atomic_load_explicit(&Lock.held, RLX) != 0) {
            }
        Lock.counter = Lock.counter + 1;
        atomic_store_explicit(&Lock.held, 0, memory_order_release);
    }
}

static void ticket_lock_loop(uint32_t iters)
{
    for (uint32_t i = 0; i < iters; ++i) {
        /* Tickets wrap, but at most one per thread is ever outstanding. */
        const uint32_t mine = atomic_fetch_add_explicit(&Lock.next, 1, RLX);
        while (atomic_load_explicit(&Lock.serving, memory_order_acquire) != mine) {
        }
        Lock.counter = Lock.counter + 1;
        /* Only the holder writes serving, so a store suffices. */
        atomic_store_explicit(&Lock.serving, mine + 1, memory_order_release);
    }
}

static cr_status host_run_lock(at_lock kind, uint64_t groups, uint32_t iters, cr_timing *t, uint64_t *counter,
                               char *err, size_t errlen)
{
    if ((unsigned)kind >= AT_NLOCKS) {
        snprintf(err, errlen, "unknown lock kind");
        return CR_ERR;
    }
    if (check_threads(groups, "groups", err, errlen) != CR_OK)
        return CR_ERR;
    atomic_store(&Lock.held, 0);
    atomic_store(&Lock.next, 0);
    atomic_store(&Lock.serving, 0);
    Lock.counter = 0;
    const int want = (int)groups;
    int got = want;
    uint64_t t0 = 0;
#pragma omp parallel num_threads(want)
    {
        const bool full = omp_get_num_threads() == want;
        if (omp_get_thread_num() == 0)
            got = omp_get_num_threads();
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            t0 = cr_now_ns();
        if (full) {
            if (kind == AT_SPIN_LOCK)
                spin_lock_loop(iters);
            else
                ticket_lock_loop(iters);
        }
    }
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    *counter = Lock.counter;
    return got == want ? CR_OK : short_team(got, groups, err, errlen);
}

static void host_geometry(uint64_t *work_items, uint64_t *work_group, uint64_t *max_work_group)
{
    *work_items = (uint64_t)max_threads();
    *work_group = 1;
    *max_work_group = 1;
}

static void host_close(void) { release_buffers(); }

const at_backend at_host_backend = {
    .base = {.name = "host-c11", .list_devices = host_list, .open = host_open, .close = host_close},
    .supports = host_supports, .prepare = host_prepare, .upload = host_upload, .download = host_download,
    .download_out = host_download_out, .run = host_run, .launch_empty = host_launch_empty,
    .run_lock = host_run_lock, .geometry = host_geometry,
};
