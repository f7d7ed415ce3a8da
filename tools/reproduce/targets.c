/* The targets in the order of the summary: Li's R and X-graph (the
 * X-model's), then each benchmark's in the benchmarks' order, then
 * Ranasinghe's energy. */
#include "reproduce/targets.h"

static const rr_target first[] = {
    {"li-table3.2", "Li 2016, Table 3.2: the memory system's plateau R", rr_li_table32},
    {"li-fig3.10", "Li 2016, Fig. 3.10: the X-graph's knee in bytes in flight", rr_li_fig310},
};
enum { NFIRST = sizeof first / sizeof first[0] };
static const rr_target last = {"ranasinghe-table5.1", "Ranasinghe 2014, Table 5.1: energy per level",
                               rr_ranasinghe_table51};

size_t rr_target_count(void)
{
    return NFIRST + 1 + cr_bench_parts_count(rr_target_lists, rr_ntarget_lists);
}

const rr_target *rr_target_at(size_t i)
{
    size_t parts = cr_bench_parts_count(rr_target_lists, rr_ntarget_lists);
    if (i < NFIRST)
        return &first[i];
    if (i == parts + NFIRST)
        return &last;
    return i < parts + NFIRST ? cr_bench_parts_at(rr_target_lists, rr_ntarget_lists, sizeof(rr_target), i - NFIRST)
                              : NULL;
}
