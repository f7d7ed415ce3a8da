/* The SFU benchmark's timed measurements (timing.c), all on the chain kernel
 * of sfu/backend.h, every run checked against the host's replay. */
#ifndef CR_SFU_TIMING_H
#define CR_SFU_TIMING_H

#include "sfu/state.h"

/* One dependent chain on one work-item: ns (and cycles) per call. */
int sfu_latency_row(sfu_state *s, sfu_version v);

/* Independent chains with work-items doubling to the plateau: a
 * "concurrency" row per point and a "throughput" row for the best, whose
 * kernel width the accuracy rows then use and whose speed-up over the
 * precise version is measured interleaved with it (sfu_paired_speedup). */
int sfu_throughput_rows(sfu_state *s, sfu_version v);

/* The speed-up of a version over the precise one from runs of the same
 * chains measured interleaved, pair i being both sides' run i: the median
 * of the pairs' ratios (robust to load that comes and goes: on a CPU
 * device shared with other work a run may get half the cores, and two rows
 * measured seconds apart may see different load) and the ratio of the
 * fastest runs. NaN for n = 0. */
typedef struct {
    double median, best;
} sfu_speedup;
sfu_speedup sfu_paired_speedup(const double *t_precise, const double *t_version, size_t n);

/* The precise version with the first lambda units of every
 * SFU_PARTITION_UNITS taking the backend's fast path: throughput and error
 * for every lambda of the configuration. */
int sfu_partition_rows(sfu_state *s);

#endif
