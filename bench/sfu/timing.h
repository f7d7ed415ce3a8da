/* The SFU benchmark's timed measurements (timing.c), all on the chain kernel
 * of sfu/backend.h, every run checked against the host's replay. */
#ifndef CR_SFU_TIMING_H
#define CR_SFU_TIMING_H

#include "sfu/state.h"

/* One dependent chain on one work-item: ns (and cycles) per call. */
int sfu_latency_row(sfu_state *s, sfu_version v);

/* Independent chains with work-items doubling to the plateau: a
 * "concurrency" row per point and a "throughput" row for the best. */
int sfu_throughput_rows(sfu_state *s, sfu_version v);

/* The precise version with the first lambda units of every
 * SFU_PARTITION_UNITS taking the backend's fast path: throughput and error
 * for every lambda of the configuration. */
int sfu_partition_rows(sfu_state *s);

#endif
