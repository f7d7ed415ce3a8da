/* Each target's comparison: a table or figure of a thesis held against a
 * device directory of a run (reproduce.h: rr_evaluate_fn). */
#ifndef CR_REPRODUCE_TARGETS_H
#define CR_REPRODUCE_TARGETS_H

#include "reproduce/reproduce.h"

rr_evaluate_fn rr_li_table32, rr_li_table64, rr_li_table65, rr_li_partition, rr_li_fig41;
rr_evaluate_fn rr_lee_table32, rr_lee_table33, rr_lee_fig43, rr_lee_table41, rr_samadi_fig53a;
rr_evaluate_fn rr_ranasinghe_table51;

#endif
