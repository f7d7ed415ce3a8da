/* The atomics benchmark's host truth, the model of a run with no device:
 * which runs exist, how many counters a run needs, where each work-item's
 * counter is, what every counter must hold afterwards, and the check of a
 * run's results against that. */
#ifndef CR_ATOMICS_TRUTH_H
#define CR_ATOMICS_TRUTH_H

#include "atomics/backend.h"
#include "cr.h"

#include <stddef.h>
#include <stdint.h>

/* Elements the backend must allocate: global runs span every slot with
 * the stride between them; local runs write one value per slot and group. */
uint64_t at_counter_elements(const at_run *r);

/* The element work-item g touches (global runs). */
uint64_t at_element_of(const at_run *r, uint64_t g);

/* The value every counter starts from for op on type: the identity of min
 * and max, the read marker, else 0. */
uint64_t at_init_value(at_op op, at_type type);

/* The largest number of operations per work-item for which a float sum at
 * the given degree stays exact (below 2^24), at most want. */
uint32_t at_float_exact_iters(uint64_t degree, uint32_t want);

/* Checks counters (at_counter_elements of them, of the run's type) and,
 * for reads, the per-work-item sums against the model: every counter, min
 * and max too, in about work-items x log2(iters) steps for those. Returns
 * the number of wrong values (0 = verified); note says which and where. */
uint64_t at_truth_check(const at_run *r, const void *counters, const uint64_t *read_sums, char *note, size_t notelen);

#endif
