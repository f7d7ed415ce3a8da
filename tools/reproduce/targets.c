/* The targets in the order of the summary: Li's R (the X-model's), then
 * each benchmark's in the benchmarks' order, then Ranasinghe's energy. */
#include "reproduce/targets.h"

static const rr_target first = {"li-table3.2", "Li 2016, Table 3.2: the memory system's plateau R", rr_li_table32};
static const rr_target last = {"ranasinghe-table5.1", "Ranasinghe 2014, Table 5.1: energy per level",
                               rr_ranasinghe_table51};

size_t rr_target_count(void)
{
    return 2 + cr_bench_parts_count(rr_target_lists, rr_ntarget_lists);
}

const rr_target *rr_target_at(size_t i)
{
    size_t parts = cr_bench_parts_count(rr_target_lists, rr_ntarget_lists);
    if (i == 0)
        return &first;
    if (i == parts + 1)
        return &last;
    return i <= parts ? cr_bench_parts_at(rr_target_lists, rr_ntarget_lists, sizeof(rr_target), i - 1) : NULL;
}
