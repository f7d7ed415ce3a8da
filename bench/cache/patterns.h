/* The cache model's validation inside the cache benchmark: the suite's
 * access patterns (pattern_index.h) run on the device, each access
 * dependent on the load before, and the same index functions, replayed on
 * the host, make the trace that the simulator (tools/cachesim), configured
 * with the geometry the benchmark detected, turns into hits per level and
 * a predicted time per access; the rows compare the two (eq. 7.1).
 *
 * The design (design.c) calls cc_patterns_run once the geometry is known;
 * a backend that has no pattern kernels leaves ops NULL and the patterns
 * get rows saying so. */
#ifndef CR_CACHE_PATTERNS_H
#define CR_CACHE_PATTERNS_H

#include "cache/geometry.h"
#include "cache/pattern_ops.h"
#include "cr.h"
#include "measure.h"
#include "results.h"
#include "session.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    cr_session *ses;
    cr_measure_ctx *meas;
    const cc_pattern_ops *ops; /* NULL: the backend has none */
    const cc_geometry *geometry;
    bool quick;
    int (*record)(void *ctx, const cr_result *row); /* writes one CSV row; 0 or -1 */
    void *record_ctx;
    /* 0: the default. The most accesses one run of a pattern makes: the
     * trace's length, and the kernel's time per run. */
    uint64_t max_accesses;
    /* NULL: /sys/devices/system/cpu, where a CPU device's associativity is
     * read when the benchmark could not determine it. */
    const char *sysfs_root;
} cc_pattern_env;

/* Accesses of one run by default: 2^17 (2^14 with quick), so that a
 * pattern that misses every cache runs some 20 milliseconds and its trace
 * stays near 2.5 MB (a run's traces some 25 MB in all). */
#define CC_MAX_ACCESSES (UINT64_C(1) << 17)
#define CC_MAX_ACCESSES_QUICK (UINT64_C(1) << 14)

/* Runs every pattern at a footprint inside each level the geometry names
 * and one beyond the last, writes its trace beside the CSV
 * (<out>/<benchmark>-<backend>-<pattern>-<bytes>B.trace) and records its
 * `pattern` row (measured ns per access, verified) and `model` row
 * (predicted ns per access, hits per level, eq. 7.1 error, hardware
 * counters where they can be read). 0, or -1 when a row or a trace could
 * not be written or a pattern failed verification (its row is then
 * invalid). */
int cc_patterns_run(const cc_pattern_env *env);

#endif
