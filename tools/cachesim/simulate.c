#include "simulate.h"

#include <stdlib.h>

int simulate(const trace *t, const sim_options *o, hierarchy *h, sim_summary *summary)
{
    *summary = (sim_summary){.accesses = t->count};
    schedule s;
    if (schedule_build(t, o->schedule, o->warp_size, &s) != 0)
        return -1;
    bool *keep = malloc((t->count ? t->count : 1) * sizeof *keep);
    if (keep == NULL || hierarchy_new(h, o->levels, o->level_count, o->seed) != 0) {
        free(keep);
        schedule_free(&s);
        return -1;
    }
    if (o->coalesce)
        summary->coalesced = schedule_coalesce(t, &s, o->levels[0].line_bytes, keep);
    for (size_t k = 0; k < s.count; ++k)
        if (!o->coalesce || keep[k])
            hierarchy_access(h, t->items[s.order[k]].address, t->items[s.order[k]].write);
    free(keep);
    schedule_free(&s);
    return 0;
}
