/* What the gesummv plan checks before anything runs: first what needs no
 * device (a --size whose matrices the host cannot hold, a --concurrency
 * beyond their rows), then the sizes against the device's allocation limit
 * and the host's memory, the default lowered where it does not fit (the
 * session holds that note back until every check has passed), and the
 * sweep's work-items against the rows: every work-item has a row of its
 * own (an idle one would not be concurrency). */
#include "gesummv/run.h"

#include "concurrency.h"
#include "topology.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#define QUICK_SIZE (UINT64_C(2) << 20)
#define UNKNOWN_LLC (UINT64_C(8) << 20)

uint64_t gesummv_order(uint64_t size, cr_dtype t)
{
    uint64_t es = cr_dtype_size(t);
    double root = ceil(sqrt((double)size / (2.0 * (double)es)));
    if (!(root < 1e9)) /* two matrices of 1e9 rows of doubles: 2^63.8 bytes */
        return 0;
    uint64_t n = ((uint64_t)root + GESUMMV_ORDER_STEP - 1) / GESUMMV_ORDER_STEP * GESUMMV_ORDER_STEP;
    if (n == 0)
        n = GESUMMV_ORDER_STEP;
    while (2 * n * n * es < size)
        n += GESUMMV_ORDER_STEP;
    return n;
}

bool gesummv_dtype_runs(const gesummv_run *run, cr_dtype t)
{
    return (run->cfg.dtypes & (1u << t)) && (t != CR_DOUBLE || run->ses.info.has_fp64);
}

/* The bytes the host holds at order n of type t: A, B, x and y, the
 * coverage check's matrix of ones, and the gold and scale of every row. */
static uint64_t host_bytes(uint64_t n, cr_dtype t)
{
    uint64_t matrix = n * n * cr_dtype_size(t); /* n below 2^30: no wrap */
    if (matrix > UINT64_MAX / 4)                /* three of them would wrap */
        return UINT64_MAX;
    return 3 * matrix + 2 * n * cr_dtype_size(t) + 2 * n * sizeof(long double);
}

/* The order of type t at the configured size, or the refusal of a size past 64 bits. */
static int order_of(gesummv_run *run, uint64_t size, cr_dtype t, uint64_t *n)
{
    *n = gesummv_order(size, t);
    if (*n != 0)
        return 0;
    return cr_fail_usage(&run->ses, "--size %" PRIu64 " gives matrices of %s beyond 64-bit sizes", size,
                         cr_dtype_name(t));
}

/* The host's memory against what `copies` copies of the arrays need. */
static int check_host_memory(gesummv_run *run, uint64_t n, cr_dtype t, unsigned copies)
{
    uint64_t phys = cr_host_memory_bytes(), need = host_bytes(n, t);
    if (phys == 0 || need <= phys / 10 * 9 / copies)
        return 0;
    char a[32], b[32];
    cr_format_bytes(need > UINT64_MAX / copies ? UINT64_MAX : need * copies, a, sizeof a);
    cr_format_bytes(phys, b, sizeof b);
    return cr_fail_usage(&run->ses,
                         "matrices of order %" PRIu64 " in %s need %s of host memory, more than 90%% of the %s here", n,
                         cr_dtype_name(t), a, b);
}

static uint64_t range_end(const cr_range *r) { return cr_range_value(r, cr_range_count(r) - 1); }

/* The fewest rows of the types chosen (those that run, where asked), at size. */
static int fewest_rows(gesummv_run *run, uint64_t size, bool running, uint64_t *rows, cr_dtype *which)
{
    *rows = UINT64_MAX;
    for (int t = 0; t < CR_NDTYPES; ++t) {
        uint64_t n;
        if (!(running ? gesummv_dtype_runs(run, (cr_dtype)t) : (run->cfg.dtypes & (1u << t))))
            continue;
        int rc = order_of(run, size, (cr_dtype)t, &n);
        if (rc != 0)
            return rc;
        if (n < *rows)
            *rows = n, *which = (cr_dtype)t;
    }
    return 0;
}

static int refuse_concurrency(gesummv_run *run, uint64_t end, uint64_t rows, cr_dtype t, uint64_t size)
{
    char a[32];
    cr_format_bytes(size, a, sizeof a);
    return cr_fail_usage(&run->ses,
                         "--concurrency reaches %" PRIu64 " work-items, above the %" PRIu64
                         " rows of %s matrices of %s (at most one work-item per row)",
                         end, rows, cr_dtype_name(t), a);
}

int gesummv_check_options(gesummv_run *run)
{
    const gesummv_config *c = &run->cfg;
    uint64_t size = c->size ? c->size : run->ses.opt.quick ? QUICK_SIZE : 0;
    if (size == 0)
        return 0;
    uint64_t rows;
    cr_dtype t = CR_FLOAT;
    int rc = fewest_rows(run, size, false, &rows, &t);
    for (int d = 0; rc == 0 && d < CR_NDTYPES; ++d)
        if (c->dtypes & (1u << d))
            rc = check_host_memory(run, gesummv_order(size, (cr_dtype)d), (cr_dtype)d, 1);
    if (rc == 0 && c->concurrency.start != 0 && range_end(&c->concurrency) > rows)
        rc = refuse_concurrency(run, range_end(&c->concurrency), rows, t, size);
    return rc;
}

/* Whether the matrices of order n of type t fit the device: one of them
 * within its largest allocation, all four arrays within its memory. */
static bool fits_device(const cr_device_info *d, uint64_t n, cr_dtype t)
{
    uint64_t es = cr_dtype_size(t);
    return n * n * es <= d->max_alloc_bytes && (2 * n * n + 2 * n) * es <= d->global_mem_bytes;
}

/* The default size: A and B together 4x the last-level cache (the
 * device's, or the host's for a CPU or a device sharing its memory), quick
 * 2 MiB; halved where a type that runs does not fit the device. */
static uint64_t default_size(gesummv_run *run)
{
    const cr_device_info *d = &run->ses.info;
    uint64_t llc = d->cache_bytes;
    if (run->ses.topo && (d->is_cpu || d->unified_memory) && cr_topo_llc_bytes(run->ses.topo) > llc)
        llc = cr_topo_llc_bytes(run->ses.topo);
    uint64_t size = run->ses.opt.quick ? QUICK_SIZE : 4 * (llc ? llc : UNKNOWN_LLC);
    bool lowered = false;
    for (int t = 0; t < CR_NDTYPES; ++t)
        while (gesummv_dtype_runs(run, (cr_dtype)t) && size > 1024 &&
               !fits_device(d, gesummv_order(size, (cr_dtype)t), (cr_dtype)t))
            size /= 2, lowered = true;
    if (lowered) {
        char a[32];
        cr_format_bytes(size, a, sizeof a);
        cr_session_note(&run->ses, "matrices lowered to %s by the device's memory", a);
    }
    return size;
}

/* The sizes checked against the device and the host. */
static int plan_sizes(gesummv_run *run)
{
    const cr_device_info *d = &run->ses.info;
    if (run->cfg.size == 0)
        run->cfg.size = default_size(run);
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!gesummv_dtype_runs(run, (cr_dtype)t))
            continue;
        uint64_t n;
        int rc = order_of(run, run->cfg.size, (cr_dtype)t, &n);
        if (rc == 0 && !fits_device(d, n, (cr_dtype)t)) {
            char a[32], b[32];
            cr_format_bytes(d->max_alloc_bytes, a, sizeof a);
            cr_format_bytes(d->global_mem_bytes, b, sizeof b);
            rc = cr_fail_usage(&run->ses, "--size gives %s matrices of order %" PRIu64
                                          ", beyond the device's %s per allocation or %s of memory",
                               cr_dtype_name((cr_dtype)t), n, a, b);
        }
        if (rc == 0)
            rc = check_host_memory(run, n, (cr_dtype)t, d->unified_memory ? 2 : 1);
        if (rc != 0)
            return rc;
        uint64_t es = cr_dtype_size((cr_dtype)t);
        if (n * n * es > run->matrix_bytes)
            run->matrix_bytes = n * n * es;
        if (n * es > run->vector_bytes)
            run->vector_bytes = n * es;
        if (n > run->rows_max)
            run->rows_max = n;
    }
    return 0;
}

/* The sweep's work-items: those given, every one within the rows; else the
 * ladder of the device (concurrency.h), stopped below the rows, with a note. */
static int plan_concurrency(gesummv_run *run)
{
    uint64_t rows = UINT64_MAX;
    cr_dtype t = CR_FLOAT;
    int rc = fewest_rows(run, run->cfg.size, true, &rows, &t);
    const cr_range *given = &run->cfg.concurrency;
    if (rc != 0 || given->start != 0) {
        if (rc == 0 && range_end(given) > rows)
            return refuse_concurrency(run, range_end(given), rows, t, run->cfg.size);
        run->nconc = rc == 0 ? cr_range_count(given) : 0;
        for (size_t i = 0; i < run->nconc; ++i)
            run->conc[i] = cr_range_value(given, i);
        return rc;
    }
    uint64_t k[64];
    size_t nk = cr_concurrency_ladder(&run->ses.info, run->ses.opt.quick, k, 64);
    for (run->nconc = 0; run->nconc < nk && k[run->nconc] <= rows; ++run->nconc)
        run->conc[run->nconc] = k[run->nconc];
    if (run->nconc < nk)
        cr_session_note(&run->ses,
                        "concurrency %" PRIu64 " and above skipped: more work-items than the %" PRIu64
                        " rows of the %s matrices (--size sets them)",
                        k[run->nconc], rows, cr_dtype_name(t));
    return 0;
}

int gesummv_plan(gesummv_run *run)
{
    int rc = plan_sizes(run);
    return rc != 0 ? rc : plan_concurrency(run);
}
