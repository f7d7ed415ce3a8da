/* What the atomics options chosen measure: each sweep, operation, type and
 * memory space of a --sweeps, --ops, --types or --spaces given is run by
 * some sweep of counters with the others chosen, or it would measure
 * nothing, unsaid; checked before the device (the kinds the design runs)
 * and with it (what the device has, whether the host's sweep runs). */
#include "atomics/state.h"

#include <stdio.h>

/* Lee's stride sweep runs on reads and writes; add shows the same for updates. */
const at_op at_stride_ops[AT_NSTRIDE_OPS] = {AT_READ, AT_XCHG, AT_ADD};

static bool stride_op(int op)
{
    for (size_t o = 0; o < AT_NSTRIDE_OPS; ++o)
        if (at_stride_ops[o] == (at_op)op)
            return true;
    return false;
}

bool at_sweep_runs(unsigned sw, int op, int type, int space, char *why, size_t len)
{
    if (at_check_kind((at_op)op, (at_type)type, (at_space)space, why, len) != CR_OK)
        return false;
    bool runs = sw == AT_SW_DEGREE || sw == AT_SW_HOST;
    if (sw == AT_SW_STRIDE && !(runs = type == AT_TYPE_U32 && stride_op(op)))
        snprintf(why, len, "the stride sweep runs read, xchg and add on uint32");
    if (sw == AT_SW_GROUPS && !(runs = type == AT_TYPE_U32 && op == AT_ADD && space == AT_GLOBAL))
        snprintf(why, len, "the groups sweep runs add on uint32 in global memory");
    return runs;
}

bool at_sweep_measures(const at_state *s, unsigned sw)
{
    char why[CR_ERRLEN];
    for (int op = 0; op < AT_NOPS; ++op)
        for (int type = 0; type < AT_NTYPES; ++type)
            for (int space = 0; space < AT_NSPACES; ++space)
                if (at_selected(s->cfg.ops, op) && at_selected(s->cfg.types, type) &&
                    at_selected(s->cfg.spaces, space) && at_sweep_runs(sw, op, type, space, why, sizeof why))
                    return true;
    return false;
}

const char *const at_sweep_names[AT_NSWEEPS] = {"degree", "stride", "groups", "host", "launch", "locks"};

typedef struct {
    const at_state *s;
    bool device; /* asked of the device open too */
} asked;

/* A combination of a sweep of counters, an operation, a type and a space. */
static bool combination_runs(const void *ctx, const unsigned *idx, char *why, size_t len)
{
    const asked *a = ctx;
    unsigned sw = 1u << idx[0];
    if (!at_sweep_runs(sw, (int)idx[1], (int)idx[2], (int)idx[3], why, len))
        return false;
    if (!a->device)
        return true;
    const cr_device_info *d = &a->s->dev.info;
    if (sw == AT_SW_HOST && !d->is_cpu && !d->unified_memory) {
        snprintf(why, len, "the host's atomics run beside a CPU or APU device only");
        return false;
    }
    if (sw == AT_SW_HOST) /* the host's counters are in its memory, whatever --spaces says */
        return at_host_backend.supports((at_op)idx[1], (at_type)idx[2], AT_GLOBAL, NULL, why, len) == CR_OK;
    return a->s->dev.be->supports((at_op)idx[1], (at_type)idx[2], (at_space)idx[3], NULL, why, len) == CR_OK;
}

int at_check_selection(at_state *s, const bool given[4], bool device)
{
    /* The launch and the locks run kinds of their own: no operation, type
     * or space of those chosen is theirs to measure. */
    unsigned counters = s->cfg.sweeps & (AT_SW_DEGREE | AT_SW_STRIDE | AT_SW_GROUPS | AT_SW_HOST);
    if (counters == 0)
        return -1;
    const cr_choice dims[] = {{"sweeps", counters, at_sweep_names, AT_NSWEEPS, given[0]},
                              {"ops", s->cfg.ops, at_op_names, AT_NOPS, given[1]},
                              {"types", s->cfg.types, at_type_names, AT_NTYPES, given[2]},
                              {"spaces", s->cfg.spaces, at_space_names, AT_NSPACES, given[3]}};
    asked a = {s, device};
    int rc = cr_check_choices(s->ses.opt.program, dims, 4, combination_runs, &a, device ? " on this device" : "");
    return rc == 0 ? -1 : CR_EXIT_USAGE;
}
