/* The host's own bandwidth at each size: a single-thread and an
 * all-cores memcpy, an all-cores read and write, each verified and
 * recorded; a path's row is a ratio to one of them. */
#include "bandwidth/run.h"

#include "bandwidth/host_ref.h"
#include "timer.h"

#include <inttypes.h>
#include <stdio.h>

const char *const bw_ref_names[BW_NREFS] = {"host-memcpy-1thread", "host-memcpy-openmp", "host-read-openmp",
                                            "host-write-openmp"};

static void ref_call(void *arg)
{
    bw_ref_ctx *c = arg;
    switch (c->which) {
    case BW_REF_MEMCPY: bw_host_memcpy(c->run->check, c->run->src, c->bytes); break;
    case BW_REF_MEMCPY_MT: bw_host_memcpy_mt(c->run->check, c->run->src, c->bytes); break;
    case BW_REF_READ: c->sum = bw_host_read(c->run->src, c->bytes); break;
    default: bw_host_write(c->run->check, c->bytes, (uint32_t)c->bytes); break;
    }
}

/* One repetition: a loop of calls long enough for the clock (timer.h: a
 * 4 KiB copy timed alone is mostly the clock's own cost), its time divided
 * by its calls. */
cr_status bw_ref_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    bw_ref_ctx *c = arg;
    t->host_ns = cr_host_timed_call(ref_call, c, &c->calls, &c->call_ns);
    t->has_event = false;
    return CR_OK;
}

int bw_reference_of(const bw_path *p)
{
    return p->kind == BW_KERNEL_READ ? BW_REF_READ : p->kind == BW_KERNEL_WRITE ? BW_REF_WRITE : BW_REF_MEMCPY;
}

int bw_measure_references(bw_run *run, uint64_t bytes, uint64_t expected_sum)
{
    char err[CR_ERRLEN];
    for (int i = 0; i < BW_NREFS; ++i) {
        bw_ref_ctx c = {run, i, bytes, 0, 0, 0};
        bool copy = i == BW_REF_MEMCPY || i == BW_REF_MEMCPY_MT;
        cr_measurement m;
        cr_result r;
        bw_init_row(&r, "host", "", bw_ref_names[i], "size", bytes);
        cr_cpu_model(r.device, sizeof r.device);
        r.work_items = i == BW_REF_MEMCPY ? 1 : (uint64_t)bw_host_threads();
        if (i != BW_REF_MEMCPY)
            snprintf(r.params, sizeof r.params, "threads=%d;binding=%s", bw_host_threads(), run->binding);
        if (copy)
            bw_spoil_copy_target(run, bytes, 1);
        if (cr_measure(&run->host_meas, bw_ref_rep, &c, &m, err, sizeof err) != CR_OK)
            return -1;
        bw_set_stats(&r, &m);
        cr_result_add_param(&r, "calls_per_rep=%" PRIu64, c.calls);
        run->ref_figure[i] = r.figure;
        uint64_t bad = copy            ? bw_first_byte_mismatch(run->check, run->src, bytes)
                     : i == BW_REF_WRITE  ? bw_first_pattern_mismatch(run->check, bytes, (uint32_t)bytes)
                     : (c.sum == expected_sum ? UINT64_MAX : 0);
        if (bad != UINT64_MAX) {
            r.valid = false;
            snprintf(r.note, sizeof r.note, "host reference produced wrong data (first at %" PRIu64 ")", bad);
        }
        if (bw_record(run, &r) != 0)
            return -1;
    }
    return 0;
}
