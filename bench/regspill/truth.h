/* The register-spill benchmark's host truth: the output every work-item
 * must produce, recomputed on the host, and where a throughput curve falls
 * off its cliff. */
#ifndef CR_REGSPILL_TRUTH_H
#define CR_REGSPILL_TRUTH_H

#include <stddef.h>
#include <stdint.h>

/* out[gid] of the kernel (regspill/backend.h) for live values and rounds. */
uint32_t regspill_truth(uint64_t gid, unsigned live, uint32_t rounds);

/* Fills truth[0..work_items) in parallel. live <= RS_LIVE_MAX. */
void regspill_truth_all(uint32_t *truth, uint64_t work_items, unsigned live, uint32_t rounds);

/* The first point whose throughput falls below keep (e.g. 0.7) times the
 * best of the points before it. Points must be in increasing live order.
 * Returns its index, or 0 when there is none (index 0 cannot be a cliff). */
size_t regspill_find_cliff(const double *throughput, size_t n, double keep);

#endif
