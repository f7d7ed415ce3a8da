#include "simulate.h"

#include <stdlib.h>

int cs_simulate(const cs_trace *t, const cs_sim_options *o, cs_hierarchy *h, cs_sim_summary *summary)
{
    *summary = (cs_sim_summary){.accesses = t->count};
    cs_schedule s;
    if (cs_schedule_build(t, o->schedule, o->warp_size, &s) != 0)
        return -1;
    bool *keep = malloc((t->count ? t->count : 1) * sizeof *keep);
    if (keep == NULL || cs_hierarchy_new(h, o->levels, o->level_count, o->seed) != 0) {
        free(keep);
        cs_schedule_free(&s);
        return -1;
    }
    cs_hierarchy_prefetch(h, 0, &o->prefetch);
    if (o->coalesce)
        summary->coalesced = cs_schedule_coalesce(t, &s, o->levels[0].line_bytes, keep);
    for (size_t k = 0; k < s.count; ++k)
        if (!o->coalesce || keep[k])
            cs_hierarchy_access(h, t->items[s.order[k]].address, t->items[s.order[k]].write);
    free(keep);
    cs_schedule_free(&s);
    return 0;
}
