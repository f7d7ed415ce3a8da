/* The stride sweep's strides against the device: a --strides it cannot
 * hold is refused; a default that leaves too few strides in a memory space
 * is made finer there. */
#include "atomics/state.h"

#include "atomics/truth.h"

#include <inttypes.h>
#include <stdio.h>

static void format_need(uint64_t bytes, char *buf, size_t len)
{
    if (bytes == UINT64_MAX)
        snprintf(buf, len, "more than 16 EiB");
    else
        cr_format_bytes(bytes, buf, len);
}

/* Local memory of a group in the stride sweep at stride: a uint32
 * counter per work-item. */
static uint64_t stride_local_bytes(const at_endpoint *d, uint64_t stride)
{
    at_run r = {.op = AT_ADD, .type = AT_TYPE_U32, .space = AT_LOCAL, .stride = stride, .degree = 1,
                .work_items = d->work_group, .work_group = d->work_group};
    return at_local_bytes(&r);
}

int at_check_strides_given(at_state *s)
{
    if (!s->cfg.strides_given || !at_selected(s->cfg.spaces, AT_GLOBAL))
        return -1;
    uint64_t stride = cr_range_value(&s->cfg.strides, cr_range_count(&s->cfg.strides) - 1);
    uint64_t two = at_strided_bytes(2, stride, at_type_size(AT_TYPE_U32));
    if (two <= AT_MAX_COUNTER_BYTES)
        return -1;
    char need[32], limit[32];
    format_need(two, need, sizeof need);
    cr_format_bytes(AT_MAX_COUNTER_BYTES, limit, sizeof limit);
    return cr_fail_usage(&s->ses,
                         "--strides reaches %" PRIu64 " elements: %s of counters for two work-items already, above "
                         "the %s a run's counters may take",
                         stride, need, limit);
}

/* A --strides whose largest stride needs more counter memory than the
 * device gives is refused, never run as "unsupported" rows: in each space
 * selected, global memory over every work-item, within the buffer this run
 * allows, and local memory over one group, within the device's. */
int at_check_strides(at_state *s)
{
    if (!s->cfg.strides_given)
        return -1;
    uint64_t stride = cr_range_value(&s->cfg.strides, cr_range_count(&s->cfg.strides) - 1);
    const at_endpoint *d = &s->dev;
    char need[32], limit[32];
    uint64_t global = at_strided_bytes(d->work_items, stride, at_type_size(AT_TYPE_U32));
    if (at_selected(s->cfg.spaces, AT_GLOBAL) && global > s->cfg.max_bytes) {
        format_need(global, need, sizeof need);
        cr_format_bytes(s->cfg.max_bytes, limit, sizeof limit);
        return cr_fail_usage(&s->ses,
                             "--strides reaches %" PRIu64 " elements: %s of counters over %" PRIu64 " work-items, "
                             "above the %s this device allows (half its largest allocation, at most 1 GiB)",
                             stride, need, d->work_items, limit);
    }
    uint64_t local = stride_local_bytes(d, stride);
    if (at_selected(s->cfg.spaces, AT_LOCAL) && d->info.local_mem_bytes && local > d->info.local_mem_bytes) {
        format_need(local, need, sizeof need);
        cr_format_bytes(d->info.local_mem_bytes, limit, sizeof limit);
        return cr_fail_usage(&s->ses,
                             "--strides reaches %" PRIu64 " elements: %s of local memory for a group of %" PRIu64
                             " work-items, above the %s the device has (--spaces global runs it in global memory)",
                             stride, need, d->work_group, limit);
    }
    return -1;
}

/* Whether the stride sweep's counters at stride fit the device in space:
 * in global memory over every work-item, within the buffer this run
 * allows; in local memory over one group, within the device's (unknown:
 * assumed to). */
static bool stride_fits(const at_state *s, at_space space, uint64_t stride)
{
    const at_endpoint *d = &s->dev;
    if (space == AT_GLOBAL)
        return at_strided_bytes(d->work_items, stride, at_type_size(AT_TYPE_U32)) <= s->cfg.max_bytes;
    return d->info.local_mem_bytes == 0 || stride_local_bytes(d, stride) <= d->info.local_mem_bytes;
}

static size_t strides_that_fit(const at_state *s, at_space space, const cr_range *r)
{
    size_t n = 0;
    for (size_t i = 0; i < cr_range_count(r); ++i)
        n += stride_fits(s, space, cr_range_value(r, i));
    return n;
}

/* The strides of each space: those given, else the default, which in a
 * space where fewer than AT_MIN_STRIDES of its strides fit becomes x2
 * (the quick run's x4; the full run's is x2 already), and a note says
 * where even that leaves fewer. A default stride that does not fit still
 * gets its row, saying so. */
void at_plan_strides(at_state *s)
{
    for (int space = 0; space < AT_NSPACES; ++space) {
        cr_range r = s->cfg.strides;
        s->space_strides[space] = r;
        if (s->cfg.strides_given || !at_selected(s->cfg.spaces, space) || !(s->cfg.sweeps & AT_SW_STRIDE) ||
            strides_that_fit(s, (at_space)space, &r) >= AT_MIN_STRIDES)
            continue;
        r.factor = 2;
        s->space_strides[space] = r;
        size_t fit = strides_that_fit(s, (at_space)space, &r);
        if (fit < AT_MIN_STRIDES)
            cr_session_note(&s->ses, "stride sweep in %s memory: only %zu strides (of %zu, 1 to %" PRIu64
                            ") fit the device, fewer than %u",
                            at_space_names[space], fit, cr_range_count(&r), r.end, AT_MIN_STRIDES);
    }
}
