/* The FMA benchmark's run state and its constants, shared by the
 * experiment design (design.c: options, measurement, verification) and
 * the plan of its sweep (plan.c: the chain counts, the concurrency ladder,
 * the kernels' limits, the host buffers). */
#ifndef CR_FMA_RUN_H
#define CR_FMA_RUN_H

#include "fma/backend.h"

#include "measure.h"
#include "options.h"
#include "session.h"

/* Launch time the calibration aims at: long enough that launch overhead
 * and timer resolution vanish, short enough for ~100 points a minute. The
 * quick run's shorter launches pay for its five points per curve. */
#define TARGET_REP_S 0.005
#define QUICK_TARGET_REP_S 0.001
/* A CPU has no residency limit; 512 work-items per compute unit give every
 * SIMD lane of a core hundreds of independent chains even at E = 1, far
 * past where the core saturates. The quick sweep stops at 16, still twice
 * the 8 vector chains a core with two 4-cycle FMA pipes needs in flight,
 * because the runtime compiles every kernel once per work-group size. */
#define CPU_MAX_PER_CU 512u
#define QUICK_CPU_MAX_PER_CU 16u
/* The fewest concurrency points a quick curve has where the device holds
 * that many: fewer cannot show where g(x) rises, bends and flattens. */
#define QUICK_MIN_POINTS 5u
/* A launch this short absorbs what a new launch shape costs once (PoCL
 * compiles a kernel per work-group size) before anything is timed. */
#define PRIME_ITERS 32u
#define MIN_ITERS 32u
#define MAX_ITERS (UINT32_MAX / 2)
#define MAX_POINTS 64

extern const unsigned fma_full_ilp[6], fma_quick_ilp[4];
extern const char *const fma_type_names[CR_NDTYPES];

typedef struct {
    uint64_t ilp[FMA_MAX_ILP];
    size_t nilp;    /* 0 until given */
    unsigned types; /* bit per cr_dtype */
    cr_range per_cu; /* all 0 until given */
    uint64_t iters; /* steps per chain per launch, 0 = calibrate */
} fma_config;

typedef struct {
    cr_session ses;
    fma_config cfg;
    const fma_backend *be;
    fma_geometry geo;
    cr_measure_ctx meas;
    uint64_t per_cu[MAX_POINTS];
    size_t npoints;
    uint64_t max_chains;   /* the host buffers' capacity */
    uint64_t most_work_items;
    unsigned max_ilp;
    void *seeds, *got, *expected;
    uint64_t *sample;
} fma_state;

/* The --per-cu given, against what any device allows (the parsed hook). */
int fma_check_per_cu_given(fma_state *s);
/* The sweep's plan, the kernels' limits and the host buffers; the plan
 * hook's return (-1: carry on). */
int fma_plan(void *state, cr_meta *meta);

#endif
