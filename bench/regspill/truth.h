/* The register-spill benchmark's host truth: the output every work-item
 * must produce, recomputed on the host, and where a throughput curve falls
 * off its cliff. */
#ifndef CR_REGSPILL_TRUTH_H
#define CR_REGSPILL_TRUTH_H

#include <stddef.h>
#include <stdint.h>

/* out[gid] of the kernel (regspill/backend.h) for live values and rounds. */
uint32_t regspill_truth(uint64_t gid, unsigned live, uint32_t rounds);

/* The outputs a run's verification recomputes. Every output costs the host
 * what it costs a work-item, live x rounds updates: for every work-item of
 * a GPU (a million, 65536 updates each) that is seconds a point. So every
 * output up to REGSPILL_VERIFY_ALL of them (a CPU's), else a sample, the
 * same for every point of a run: every lane of the first and of the last
 * work-item, one output (work-item and lane at random) in every
 * work-group, and REGSPILL_VERIFY_RANDOM more at random over all. */
#define REGSPILL_VERIFY_ALL 16384u
#define REGSPILL_VERIFY_RANDOM 1024u

/* How many outputs regspill_sample may give for this geometry, at most. */
uint64_t regspill_sample_cap(uint64_t work_items, uint64_t work_group, unsigned lanes);

/* Fills idx (regspill_sample_cap entries) with the outputs to check,
 * ascending, each once; returns how many. Output g * lanes + l is lane l
 * of work-item g; the work-groups are work_group work-items each, the last
 * one possibly fewer. The same geometry gives the same sample. */
uint64_t regspill_sample(uint64_t work_items, uint64_t work_group, unsigned lanes, uint64_t *idx);

/* truth[i] = regspill_truth(idx[i], live, rounds) for i < n, in parallel.
 * live <= RS_LIVE_MAX. */
void regspill_truth_sample(uint32_t *truth, const uint64_t *idx, uint64_t n, unsigned live, uint32_t rounds);

/* Compares got[idx[i]] with truth[i] for i < n. Returns the number of
 * mismatches and, when there is one, the first's i in *first. */
uint64_t regspill_compare(const uint32_t *got, const uint64_t *idx, const uint32_t *truth, uint64_t n,
                          uint64_t *first);

/* The first point whose throughput falls below keep (e.g. 0.7) times the
 * best of the points before it. Points must be in increasing live order.
 * Returns its index, or 0 when there is none (index 0 cannot be a cliff). */
size_t regspill_find_cliff(const double *throughput, size_t n, double keep);

#endif
