/* The rows of a bandwidth run: their common columns, their statistics,
 * and the memory peak each is judged against. */
#include "bandwidth/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void bw_init_row(cr_result *r, const char *backend, const char *device, const char *variant, const char *sweep,
                     uint64_t bytes)
{
    cr_result_begin(r, "bandwidth", backend, device, variant, NULL, sweep, "GB/s");
    r->size_bytes = bytes;
    r->bytes_per_rep = (double)bytes;
}

void bw_init_device_row(const bw_run *run, cr_result *r, const char *variant, const char *sweep, uint64_t bytes)
{
    bw_init_row(r, run->be->base.name, run->ses.info.name, variant, sweep, bytes);
}

void bw_set_stats(cr_result *r, const cr_measurement *m)
{
    cr_measurement_to_row(m, r);
    r->figure = r->bytes_per_rep / m->stats.median * 1e-9;
    r->figure_best = r->bytes_per_rep / m->stats.min * 1e-9;
}

/* Which bandwidths memory bounds: on a device that shares the host's
 * memory every path and reference; on a discrete device only what stays in
 * device memory (kernels and device-to-device copies), not the bus. Local
 * memory is on the chip: its rows are judged against its own peak
 * (local_sweep.c). */
static bool memory_bound(const bw_run *run, const cr_result *r)
{
    if (strcmp(r->unit, "GB/s") != 0 || strcmp(r->variant, BW_LOCAL_PATH_KEY) == 0)
        return false;
    if (run->ses.info.unified_memory)
        return true;
    return strcmp(r->backend, "host") != 0 &&
           (strncmp(r->variant, "kernel-", 7) == 0 || strncmp(r->variant, "d2d-", 4) == 0);
}

int bw_record(bw_run *run, const cr_result *row)
{
    cr_result r = *row;
    if (memory_bound(run, &r)) {
        r.peak_kind = CR_PEAK_MEMORY;
        r.working_set_bytes = r.size_bytes; /* the smaller guess: more rows called cache, none called memory wrongly */
    }
    return cr_session_record(&run->ses, &r);
}

void bw_init_unmeasured_row(const bw_run *run, cr_result *r, const char *variant, const char *sweep)
{
    bw_init_device_row(run, r, variant, sweep, 0);
    r->bytes_per_rep = NAN;
    cr_result_unmeasured(r);
}

int bw_record_unsupported_row(bw_run *run, cr_result *r, const char *why)
{
    snprintf(r->stop, sizeof r->stop, "unsupported");
    snprintf(r->note, sizeof r->note, "not supported: %s", why);
    return bw_record(run, r);
}

int bw_record_unsupported(bw_run *run, const bw_path *p, const char *why)
{
    cr_result r;
    bw_init_unmeasured_row(run, &r, p->key, p->kind == BW_KERNEL_LOCAL ? "local-width" : "size");
    return bw_record_unsupported_row(run, &r, why);
}
