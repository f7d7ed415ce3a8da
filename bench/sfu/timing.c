/* The SFU benchmark's latency (one dependent chain on one work-item) and
 * Li's partition trade-off (a fraction of the units on the fast path), on
 * the chain kernel of sfu/backend.h (chain_run.h); the throughput is
 * throughput.c. */
#define _GNU_SOURCE
#include "sfu/timing.h"

#include "sfu/chain_run.h"

#include "sfu/errors.h"
#include "sfu/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int sfu_latency_row(sfu_state *s, sfu_version v)
{
    cr_result row;
    sfu_init_version_row(s, &row, v, "latency");
    snprintf(row.unit, sizeof row.unit, "ns");
    sfu_kernel k = sfu_plain_kernel(s, v);
    sfu_chain c = sfu_chain_of(s, 1, 1, 1);
    bool fatal = false;
    sfu_chain_point(s, &k, &c, 0x1a7e0u + 16u * s->f + s->t, &row, &fatal);
    if (fatal)
        return -1;
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    if (!isnan(row.stats.median)) {
        row.figure = row.stats.median / c.iters * 1e9;
        row.figure_best = row.stats.min / c.iters * 1e9;
        cr_result_add_param(&row, "iters=%" PRIu32, c.iters);
        sfu_add_kernel_param(s, &row, &k, &c);
        e->latency_ns = row.figure;
        if (s->ses.info.clock_mhz) {
            e->latency_cycles = row.figure * s->ses.info.clock_mhz * 1e-3;
            cr_result_add_param(&row, "cycles=%.4g;clock_mhz=%u", e->latency_cycles, s->ses.info.clock_mhz);
        }
        if (!row.note[0])
            snprintf(row.note, sizeof row.note, "per call, including the chain's multiply-add and running sum");
    }
    if (!row.valid)
        e->valid = false;
    return cr_session_record(&s->ses, &row);
}

/* The error of the partitioned chain kernel of c's geometry over the
 * typical inputs. */
static cr_status partition_error(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, sfu_error_stats *st,
                                 char *err, size_t errlen)
{
    if (sfu_eval_doubles(s, k, c, s->typ_x, s->typ_y, s->n, s->got, err, errlen) != CR_OK)
        return CR_ERR;
    bool flush_ok = !s->be->keeps_subnormals(s->t, k->version) || !s->be->keeps_subnormals(s->t, k->fast);
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < s->n; ++i)
        sfu_error_add(st, s->typ_x[i], s->typ_y[i], s->got[i], s->typ_ref[i], s->t, INFINITY, flush_ok);
    return CR_OK;
}

int sfu_partition_rows(sfu_state *s)
{
    sfu_version fast = s->be->partition_fast;
    char err[CR_ERRLEN], variant[48];
    if (s->be->supports(s->f, s->t, SFU_PRECISE, err, sizeof err) != CR_OK ||
        s->be->supports(s->f, s->t, fast, err, sizeof err) != CR_OK)
        return 0; /* no fast path in this type (OpenCL double) */
    snprintf(variant, sizeof variant, "%s/%s+%s", sfu_functions[s->f].name, sfu_version_names[SFU_PRECISE],
             sfu_version_names[fast]);
    /* The plateau's work-items, rounded up to whole rounds of the units so
     * that every lambda is exactly the fraction of the work it names. */
    uint64_t round = SFU_PARTITION_UNITS * s->unit_size;
    uint64_t w = s->plateau_wi[SFU_PRECISE] ? s->plateau_wi[SFU_PRECISE] : s->lane_work_items;
    w = (w + round - 1) / round * round;
    double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    uint32_t iters = 0; /* calibrated on the first lambda, then the same work for all */
    for (size_t i = 0; i < s->cfg.nlambdas; ++i) {
        uint32_t units = s->cfg.lambdas[i];
        double lambda = (double)units / SFU_PARTITION_UNITS;
        cr_result row;
        sfu_init_row(s, &row, variant, "partition");
        sfu_rate_row(&row);
        sfu_kernel k = {s->f, s->t, SFU_PRECISE, fast, units};
        sfu_chain c = sfu_chain_of(s, s->cfg.ilp, w, s->unit_size);
        c.iters = iters;
        bool fatal = false;
        double rate = sfu_chain_point(s, &k, &c, 0x9a0u + 16u * s->f + s->t, &row, &fatal);
        if (fatal)
            return -1;
        iters = c.iters;
        cr_result_add_param(&row, "lambda=%.4g;fast_units=%u", lambda, units);
        if (!isnan(rate)) {
            row.figure = rate * 1e-9;
            row.figure_best = row.ops_per_rep / row.stats.min * 1e-9;
        }
        sfu_add_kernel_param(s, &row, &k, &c);
        char name[16];
        cr_result_add_param(&row, "accuracy_kernel=%s", sfu_kernel_name(s, &k, &c, name, sizeof name));
        sfu_error_stats st;
        if (partition_error(s, &k, &c, &st, err, sizeof err) != CR_OK) {
            row.valid = false;
            snprintf(row.note, sizeof row.note, "evaluation failed: %s", err);
        } else {
            cr_result_add_param(&row, "mean_rel=%.4g;max_ulp=%.4g;max_rel=%.4g", sfu_error_mean_rel(&st), st.max_ulp,
                                st.max_rel);
        }
        if (!isnan(rate))
            cr_result_add_param(&row, "per_cu_Gops=%.4g;ilp=%u;iters=%" PRIu32, row.figure / cus, c.ilp, c.iters);
        if (cr_session_record(&s->ses, &row) != 0)
            return -1;
    }
    return 0;
}
