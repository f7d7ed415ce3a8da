#include "fma/launch.h"

#include <inttypes.h>
#include <stdio.h>

int fma_launch_shape(const fma_geometry *g, uint64_t per_cu, uint64_t *work_items, uint64_t *work_group, char *err,
                     size_t errlen)
{
    uint64_t cus = g->compute_units ? g->compute_units : 1;
    uint64_t unit = g->unit_items ? g->unit_items : 1;
    uint64_t groups = g->groups_per_cu ? g->groups_per_cu : 1;
    if (per_cu == 0 || per_cu > UINT32_MAX / unit || per_cu * unit > UINT32_MAX / cus / groups) {
        snprintf(err, errlen, "%" PRIu64 " %s per compute unit on %" PRIu64 " compute units is out of range", per_cu,
                 g->unit_name, cus);
        return -1;
    }
    uint64_t per_cu_items = per_cu * unit, group = per_cu_items;
    /* Halving keeps the groups equal and, while they are above a unit,
     * whole units; the sweep's counts are powers of two. */
    while (g->max_work_group && group > g->max_work_group && group % 2 == 0)
        group /= 2;
    if (g->max_work_group && group > g->max_work_group) {
        snprintf(err, errlen,
                 "%" PRIu64 " work-items per compute unit do not split into equal groups of at most %" PRIu64,
                 per_cu_items, g->max_work_group);
        return -1;
    }
    *work_group = group;
    *work_items = per_cu_items * cus * groups;
    return 0;
}
