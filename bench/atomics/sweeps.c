/* The sweeps of counters: contention degree (with Lee's contended over
 * uncontended ratio), stride, work-groups, and the host's threads. */
#include "atomics/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static uint64_t line_elements(at_type t) { return 64 / at_type_size(t); }

/* The degrees of the degree sweep over span work-items: those given up to
 * span (in local memory a counter is shared within a group at most), else
 * 1, 2, 4, ... below span, and span itself. */
static size_t degree_list(const at_state *s, uint64_t span, uint64_t *out, size_t cap)
{
    size_t k = 0;
    if (s->cfg.degrees.start != 0) {
        for (size_t i = 0; i < cr_range_count(&s->cfg.degrees) && k < cap; ++i)
            if (cr_range_value(&s->cfg.degrees, i) <= span)
                out[k++] = cr_range_value(&s->cfg.degrees, i);
        return k;
    }
    for (uint64_t d = 1; d < span; d *= 2)
        if (!s->ses.opt.quick || d == 1 || d == 32)
            out[k++] = d;
    out[k++] = span;
    return k;
}

/* A ratio row under this says contention costs the device next to nothing,
 * and a host whose own threads slow by at least AT_HOST_CONTENTION on one
 * address says contention is there to be seen: the device then did not
 * run the contending work-items at once (PoCL's CPU device runs a
 * work-group's work-items one after another on one thread), and the ratio
 * measures no contention at all. */
#define AT_CONCURRENT_RATIO 1.25
#define AT_HOST_CONTENTION 2.0

void at_judge_concurrency(const at_state *s, at_type type, at_op op, cr_result *row)
{
    double hu = s->host_uncontended[op][type], hc = s->host_contended[op][type];
    if (!(hu > 0 && hc > 0))
        return;
    double host = hu / hc;
    cr_result_add_param(row, "host_ratio=%.4g", host);
    if (row->figure < AT_CONCURRENT_RATIO && host >= AT_HOST_CONTENTION)
        CR_FLAG(row, "not-concurrent",
                "contended and uncontended rates are alike (%.3g x) where the host's own %" PRIu64
                " threads on one address run %.3g x slower: the device did not run the contending work-items at "
                "once, so this ratio measures no contention",
                row->figure, s->host.work_items, host);
}

/* Lee's contentious / non-contentious gap: the first degree's throughput
 * over the last's. */
static int record_ratio(at_state *s, at_space space, at_type type, at_op op, const uint64_t *degrees, size_t nd,
                        double first, double last)
{
    cr_result row;
    at_init_row(&row, &s->dev, at_op_names[op], at_type_names[type], "ratio");
    cr_result_unmeasured(&row);
    snprintf(row.unit, sizeof row.unit, "x");
    cr_result_add_param(&row, "space=%s;degree_low=%" PRIu64 ";low_Mops=%.4g;degree_high=%" PRIu64 ";high_Mops=%.4g",
              at_space_names[space], degrees[0], first, degrees[nd - 1], last);
    row.figure = first / last;
    if (isnan(row.figure))
        snprintf(row.note, sizeof row.note, "a side was not measured");
    else
        snprintf(row.note, sizeof row.note, "%" PRIu64 " work-items per counter run %.3g times slower than %" PRIu64,
                 degrees[nd - 1], row.figure, degrees[0]);
    if (space == AT_GLOBAL && !isnan(row.figure) && s->use_host)
        at_judge_concurrency(s, type, op, &row);
    return cr_session_record(&s->ses, &row);
}

static int sweep_degree_of(at_state *s, at_space space, at_type type, at_op op)
{
    at_endpoint *ep = &s->dev;
    uint64_t degrees[70];
    size_t nd = degree_list(s, space == AT_LOCAL ? ep->work_group : ep->work_items, degrees, 70);
    if (nd == 0)
        return 0;
    double first = NAN, last = NAN;
    for (size_t i = 0; i < nd; ++i) {
        at_run r = {op, type, space, 1, degrees[i], (uint32_t)s->cfg.iters, ep->work_items, ep->work_group, 0};
        if (at_measure_run(s, ep, &r, "degree", &last) != 0)
            return -1;
        if (i == 0)
            first = last;
    }
    return record_ratio(s, space, type, op, degrees, nd, first, last);
}

int at_sweep_degree(at_state *s)
{
    for (int space = 0; space < AT_NSPACES; ++space) {
        if (!at_selected(s->cfg.spaces, space))
            continue;
        for (int type = 0; type < AT_NTYPES; ++type)
            for (int op = 0; op < AT_NOPS; ++op)
                if (at_op_selected(s, op, type) && sweep_degree_of(s, (at_space)space, (at_type)type, (at_op)op) != 0)
                    return -1;
    }
    return 0;
}

int at_sweep_stride(at_state *s)
{
    at_endpoint *ep = &s->dev;
    for (int space = 0; space < AT_NSPACES; ++space) {
        if (!at_selected(s->cfg.spaces, space))
            continue;
        const cr_range *strides = &s->space_strides[space];
        size_t ns = cr_range_count(strides);
        for (size_t o = 0; o < AT_NSTRIDE_OPS; ++o) {
            if (!at_selected(s->cfg.ops, at_stride_ops[o]) || !at_selected(s->cfg.types, AT_TYPE_U32))
                continue;
            for (size_t i = 0; i < ns; ++i) {
                at_run r = {at_stride_ops[o], AT_TYPE_U32, (at_space)space, cr_range_value(strides, i), 1,
                            (uint32_t)s->cfg.iters, ep->work_items, ep->work_group, 0};
                if (at_measure_run(s, ep, &r, "stride", NULL) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

int at_sweep_groups(at_state *s)
{
    at_endpoint *ep = &s->dev;
    if (!at_sweep_measures(s, AT_SW_GROUPS))
        return 0;
    uint64_t max_groups = ep->work_items / ep->work_group;
    for (int contended = 0; contended < 2; ++contended)
        for (uint64_t groups = 1; groups; groups = at_doubling_next(groups, max_groups)) {
            uint64_t wi = groups * ep->work_group;
            at_run r = {AT_ADD, AT_TYPE_U32, AT_GLOBAL, 1, contended ? wi : 1, (uint32_t)s->cfg.iters, wi,
                        ep->work_group, 0};
            if (at_measure_run(s, ep, &r, contended ? "groups-one-address" : "groups", NULL) != 0)
                return -1;
        }
    return 0;
}

/* op on type with every thread count: uncontended (a cache line each, the
 * hardware limit the device is compared with), the device's own stride-1
 * pattern, and one address. */
static int sweep_host_of(at_state *s, at_type type, at_op op)
{
    at_endpoint *ep = &s->host;
    uint64_t threads = ep->work_items;
    for (uint64_t t = 1; t; t = at_doubling_next(t, threads)) {
        uint64_t strides[2] = {line_elements(type), 1};
        for (int k = 0; k < 2; ++k) {
            at_run r = {op, type, AT_GLOBAL, strides[k], 1, (uint32_t)s->cfg.iters, t, 1, 0};
            double f;
            if (at_measure_run(s, ep, &r, "host-threads", &f) != 0)
                return -1;
            if (t == threads && k == 0)
                s->host_uncontended[op][type] = isnan(f) ? 0 : f;
        }
        at_run one = {op, type, AT_GLOBAL, 1, t, (uint32_t)s->cfg.iters, t, 1, 0};
        double f;
        if (at_measure_run(s, ep, &one, "host-threads", &f) != 0)
            return -1;
        if (t == threads)
            s->host_contended[op][type] = isnan(f) ? 0 : f;
    }
    return 0;
}

int at_sweep_host(at_state *s)
{
    for (int type = 0; type < AT_NTYPES; ++type)
        for (int op = 0; op < AT_NOPS; ++op)
            if (at_op_selected(s, op, type) && sweep_host_of(s, (at_type)type, (at_op)op) != 0)
                return -1;
    return 0;
}
