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

/* Whether (op, type, space) names a run at all: CR_ERR for a value outside
 * the enums, CR_UNSUPPORTED (why in err) for float other than add, which no
 * backend has; else CR_OK. Every backend's supports() starts here. */
cr_status at_check_kind(at_op op, at_type type, at_space space, char *err, size_t errlen);

/* Counters shared by degree work-items among n: ceil(n / degree). */
uint64_t at_slots(uint64_t n, uint64_t degree);

/* Elements the backend must allocate: global runs span every slot with
 * the stride between them; local runs write one value per slot and group. */
uint64_t at_counter_elements(const at_run *r);

/* Bytes that items counters of es bytes span, stride elements apart
 * (pattern.h's layout): ((items - 1) * stride + 1) * es, for items and
 * stride >= 1; UINT64_MAX when that does not fit in 64 bits. */
uint64_t at_strided_bytes(uint64_t items, uint64_t stride, size_t es);

/* Local (shared) memory a work-group of a local run needs for its counters:
 * its slots, stride elements apart, the gaps after the last slot left out. */
uint64_t at_local_bytes(const at_run *r);

/* CR_OK when a local run's counters fit the limit bytes of local memory a
 * group may have; else CR_UNSUPPORTED with one line in err saying how
 * much it needs. */
cr_status at_local_fits(const at_run *r, uint64_t limit, char *err, size_t errlen);

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
