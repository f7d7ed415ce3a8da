/* The targets in the order of the summary: Li's R and X-graph (the
 * X-model's), then each benchmark's in the benchmarks' order, then
 * Ranasinghe's energy. */
#include "reproduce/targets.h"

#include "error.h"

static const rr_target first[] = {{"li-table3.2", rr_li_table32}, {"li-fig3.10", rr_li_fig310}};
enum { NFIRST = sizeof first / sizeof first[0] };
static const rr_target last = {"ranasinghe-table5.1", rr_ranasinghe_table51};

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

int rr_thesis_covers_targets(const rr_thesis *th, const char *claims_name, char *err, size_t errlen)
{
    for (size_t t = 0; t < rr_target_count(); ++t)
        if (rr_claim_of(th, rr_target_at(t)->id) == NULL)
            return cr_errf(err, errlen, "%s: no row for the target %s (its title and claim)", claims_name,
                           rr_target_at(t)->id);
    return 0;
}
