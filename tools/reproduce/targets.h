/* The targets that no benchmark's folder holds, and the list of all of
 * them: the tool's own (Li's R from the X-model's fit, Ranasinghe's energy
 * from energy-levels), then each benchmark's, bench/<name>/reproduce.c
 * (a cr_bench_part of rr_target, rr_targets_<name>), gathered in the
 * benchmarks' order at build time (common/descriptor_gen.sh reproduce). */
#ifndef CR_REPRODUCE_TARGETS_H
#define CR_REPRODUCE_TARGETS_H

#include "reproduce/reproduce.h"
#include "shared/bench_parts.h"

rr_evaluate_fn rr_li_table32, rr_li_fig310, rr_ranasinghe_table51;

extern const cr_bench_part *const rr_target_lists[];
extern const size_t rr_ntarget_lists;

#endif
