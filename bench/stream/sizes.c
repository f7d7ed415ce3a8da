/* What the stream plan checks before anything runs: first what needs no
 * device (whole elements, the concurrency sweep against the largest array
 * there can be, the host's memory at the fewest copies), then every array
 * size against the device's allocation limit and the host's memory, the
 * defaults lowered where they do not fit (the session holds that note
 * back until every check has passed), and the concurrency sweep's
 * work-items against the elements of an array. */
#include "stream/run.h"

#include "concurrency.h"
#include "topology.h"

#include <inttypes.h>
#include <stdio.h>

#define DEFAULT_SIZE (UINT64_C(256) << 20)
#define QUICK_SIZE (UINT64_C(32) << 20)

static uint64_t pow2_ceil(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p <= UINT64_MAX / 2)
        p *= 2;
    return p;
}

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

/* The largest array of which `arrays` fit in 90% of the host's memory;
 * UINT64_MAX where the memory is unknown. */
static uint64_t host_memory_cap(unsigned arrays)
{
    uint64_t phys = cr_host_memory_bytes();
    return phys == 0 ? UINT64_MAX : phys / 10 * 9 / arrays;
}

/* Host memory: `arrays` arrays of the biggest size. Refuse rather than
 * swap. 0, or the exit status after one line. */
static int check_host_memory(stream_run *run, uint64_t biggest, unsigned arrays)
{
    uint64_t phys = cr_host_memory_bytes();
    if (biggest <= host_memory_cap(arrays))
        return 0;
    char a[32], b[32];
    cr_format_bytes(biggest > UINT64_MAX / arrays ? UINT64_MAX : biggest * arrays, a, sizeof a);
    cr_format_bytes(phys, b, sizeof b);
    return cr_fail_usage(&run->ses, "arrays of this size need %s of host memory, more than 90%% of the %s here", a, b);
}

/* A size must hold whole elements of every type chosen. */
static int check_whole_elements(stream_run *run, uint64_t size)
{
    if (size % 8 != 0 && (run->cfg.dtypes & (1u << CR_DOUBLE)))
        return cr_fail_usage(&run->ses, "size %" PRIu64 " is not a multiple of 8 bytes (one double)", size);
    if (size % 4 != 0)
        return cr_fail_usage(&run->ses, "size %" PRIu64 " is not a multiple of 4 bytes (one float)", size);
    return 0;
}

/* The refusal of a concurrency sweep reaching end work-items where an
 * array of size bytes has fewer elements of type t. */
static int refuse_concurrency(stream_run *run, uint64_t end, uint64_t size, cr_dtype t)
{
    char a[32];
    cr_format_bytes(size, a, sizeof a);
    return cr_fail_usage(&run->ses,
                         "--concurrency reaches %" PRIu64 " work-items, above the %" PRIu64
                         " elements of a %s array of %s (at most one work-item per element)",
                         end, size / cr_dtype_size(t), cr_dtype_name(t), a);
}

static uint64_t range_end(const cr_range *r) { return cr_range_value(r, cr_range_count(r) - 1); }

int stream_check_options(stream_run *run)
{
    const stream_config *c = &run->cfg;
    int rc = 0;
    if (c->size != 0)
        rc = check_whole_elements(run, c->size);
    if (rc == 0 && c->footprint.start != 0)
        rc = check_whole_elements(run, c->footprint.start);
    /* The default before the device is known: the device may lower it, and a
     * large last-level cache raise it (default_size), which gives more
     * elements, never fewer. */
    uint64_t size = c->size ? c->size : run->ses.opt.quick ? QUICK_SIZE : DEFAULT_SIZE;
    if (rc == 0 && c->concurrency.start != 0 && range_end(&c->concurrency) > size / cr_dtype_size(CR_FLOAT))
        rc = refuse_concurrency(run, range_end(&c->concurrency), size, CR_FLOAT);
    uint64_t fp_end = c->footprint.start != 0 ? range_end(&c->footprint) : 0;
    uint64_t biggest = fp_end > c->size ? fp_end : c->size;
    if (rc == 0 && biggest != 0)
        rc = check_host_memory(run, biggest, 4); /* the fewest: three mirrors and a scratch array */
    return rc;
}

/* The fixed sweep's array size where none is given: 256 MiB, or on a
 * last-level cache larger than 128 MiB twice that cache (whole MiB), so
 * that the two arrays of copy, mul and dot make STREAM's 4x it and the
 * headlines are memory's; then lowered to cap, what the device and the
 * host's memory hold (capped_by says which). Quick runs keep their small
 * arrays. One note says what was done. */
static uint64_t default_size(stream_run *run, uint64_t llc, uint64_t cap, const char *capped_by)
{
    if (run->ses.opt.quick)
        return QUICK_SIZE <= cap ? QUICK_SIZE : pow2_floor(cap);
    uint64_t mib = UINT64_C(1) << 20, want = (2 * llc + mib - 1) / mib * mib;
    bool raised = want > DEFAULT_SIZE;
    uint64_t size = raised ? want : DEFAULT_SIZE;
    char a[32], l[32];
    cr_format_bytes(llc, l, sizeof l);
    if (size > cap) {
        size = pow2_floor(cap);
        cr_format_bytes(size, a, sizeof a);
        cr_session_note(&run->ses, "default array size lowered to %s by %s%s%s", a, capped_by,
                        raised ? ", below twice the last-level cache of " : "", raised ? l : "");
    } else if (raised) {
        cr_format_bytes(size, a, sizeof a);
        cr_session_note(&run->ses, "default array size raised to %s, twice the %s last-level cache: two arrays make "
                                   "4x it (STREAM's rule)", a, l);
    }
    return size;
}

/* Checks every size against the device and host limits; fills defaults.
 * Notes about lowered defaults are held back by the session until the run
 * starts, so that a bad argument's error is the only line printed. */
int stream_check_sizes(stream_run *run)
{
    const cr_device_info *d = &run->ses.info;
    stream_config *c = &run->cfg;
    uint64_t limit = d->max_alloc_bytes;
    if (d->global_mem_bytes / 3 < limit)
        limit = d->global_mem_bytes / 3; /* three arrays live at once */
    /* Host memory: three mirrors and one scratch array; with the reference
     * three host arrays and three for its limit; a CPU or APU device's own
     * three arrays live there too. A default larger than that is lowered,
     * as it is for the device; a size given is refused. */
    unsigned host_arrays = 4 + (run->use_host ? 6 : 0) + (d->unified_memory ? 3 : 0);
    uint64_t host_cap = host_memory_cap(host_arrays), cap = limit < host_cap ? limit : host_cap;
    const char *capped_by = limit < host_cap ? "the device's allocation limit" : "the host's memory";
    char a[32], b[32];
    uint64_t llc = d->cache_bytes;
    if (run->ses.topo && (d->is_cpu || d->unified_memory) && cr_topo_llc_bytes(run->ses.topo) > llc)
        llc = cr_topo_llc_bytes(run->ses.topo);
    if (c->size != 0) {
        if (c->size > limit) {
            cr_format_bytes(c->size, a, sizeof a);
            cr_format_bytes(limit, b, sizeof b);
            return cr_fail_usage(&run->ses, "--size %s exceeds the device limit of %s per array (max allocation, or a third of global memory)", a, b);
        }
    } else {
        c->size = default_size(run, llc, cap, capped_by);
    }
    if (c->footprint.start != 0) {
        uint64_t end = range_end(&c->footprint);
        if (end > limit) {
            cr_format_bytes(end, a, sizeof a);
            cr_format_bytes(limit, b, sizeof b);
            return cr_fail_usage(&run->ses, "--footprint reaches %s, above the device limit of %s per array", a, b);
        }
    } else {
        uint64_t end = run->ses.opt.quick ? (UINT64_C(4) << 20) : pow2_ceil(4 * (llc ? llc : (UINT64_C(8) << 20)));
        if (end > cap) {
            end = pow2_floor(cap);
            cr_format_bytes(end, a, sizeof a);
            cr_session_note(&run->ses, "working-set sweep capped at %s per array by %s", a, capped_by);
        }
        c->footprint = (cr_range){UINT64_C(16) << 10, end, run->ses.opt.quick ? 16 : 2};
    }
    uint64_t biggest = c->size;
    uint64_t fp_end = range_end(&c->footprint);
    if (fp_end > biggest)
        biggest = fp_end;
    int rc = check_host_memory(run, biggest, host_arrays);
    if (rc != 0)
        return rc;
    run->mirror_bytes = biggest;
    return 0;
}

/* The types that will run: those selected, double only where the device
 * has it. */
static bool dtype_runs(const stream_run *run, cr_dtype t)
{
    return (run->cfg.dtypes & (1u << t)) && (t != CR_DOUBLE || run->ses.info.has_fp64);
}

/* The concurrency sweep's work-items. Every work-item must have an element
 * of its own at --size in every type that runs (idle work-items would not
 * be concurrency): a --concurrency beyond that is refused; the default
 * ladder stops below it, with a note. */
int stream_plan_concurrency(stream_run *run)
{
    size_t es = dtype_runs(run, CR_DOUBLE) ? cr_dtype_size(CR_DOUBLE) : cr_dtype_size(CR_FLOAT);
    uint64_t n = run->cfg.size / es;
    const cr_range *given = &run->cfg.concurrency;
    char a[32];
    cr_format_bytes(run->cfg.size, a, sizeof a);
    if (given->start != 0) {
        run->nconc = cr_range_count(given); /* at most 64 over 64-bit values */
        uint64_t end = cr_range_value(given, run->nconc - 1);
        if (end > n)
            return refuse_concurrency(run, end, run->cfg.size, es == 8 ? CR_DOUBLE : CR_FLOAT);
        for (size_t i = 0; i < run->nconc; ++i)
            run->conc[i] = cr_range_value(given, i);
        return 0;
    }
    uint64_t k[64];
    size_t nk = cr_concurrency_ladder(&run->ses.info, run->ses.opt.quick, k, 64);
    run->nconc = 0;
    while (run->nconc < nk && k[run->nconc] <= n) {
        run->conc[run->nconc] = k[run->nconc];
        run->nconc++;
    }
    if (run->nconc < nk && (run->cfg.sweeps & STREAM_SWEEP_CONCURRENCY))
        cr_session_note(&run->ses, "concurrency %" PRIu64 " and above skipped: more work-items than the %" PRIu64
                                   " elements of an array of %s", k[run->nconc], n, a);
    return 0;
}
