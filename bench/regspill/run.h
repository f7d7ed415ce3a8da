/* The state of one regspill run, shared by the design's modules, and what
 * each offers the others: one built kernel measured and verified
 * (point.c), the live-values sweep (sweep_live.c), the register caps with
 * the critical-points tuner (sweep_caps.c), the offline spill table
 * (offline.c). Backends never see it; they are reached through
 * regspill_backend. */
#ifndef CR_REGSPILL_RUN_H
#define CR_REGSPILL_RUN_H

#include "regspill/backend.h"

#include "measure.h"
#include "regspill/occupancy.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

#define REGSPILL_MAX_LIVE_POINTS 64
#define REGSPILL_MAX_ARCHS 8

typedef struct {
    uint64_t live[REGSPILL_MAX_LIVE_POINTS];
    size_t nlive;            /* 0: the default list */
    uint64_t sweep_live;     /* 0: DEFAULT_SWEEP_LIVE */
    uint64_t r_lo, r_hi;     /* 0: the kernel's effective region */
    char archs[REGSPILL_MAX_ARCHS][16];
    size_t narchs;
    occ_rule rule;
    bool offline_only;
    uint64_t updates; /* value updates per work-item per launch, 0 = calibrate */
    uint64_t work_group;
} regspill_config;

typedef struct {
    cr_session ses;
    regspill_config cfg;
    const regspill_backend *be;
    int argc;                /* the command line, for the metadata of an offline run */
    char **argv;
    bool open;
    cr_measure_ctx meas;
    uint64_t work_items, work_group;
    unsigned lanes;          /* copies per work-item */
    uint64_t outputs;        /* work_items * lanes */
    uint32_t *truth, *got;   /* truth: of the sampled outputs only */
    uint64_t *sample;        /* the outputs verified (truth.h), ascending */
    uint64_t nsample;
    unsigned truth_live;     /* what truth[] holds */
    uint32_t truth_rounds;
    double *samples;
} regspill_run;

/* Registers and spills of a build: the compiler's log where it has one,
 * else what the runtime reports. */
typedef struct {
    int registers;
    int64_t spill_store, spill_load, stack;
    int lower_bound;
} regspill_build_facts;

/* ---- point.c ---- */
void regspill_init_row(const regspill_run *run, cr_result *r, const char *variant, const char *sweep);
regspill_build_facts regspill_facts_of(const regspill_build_info *b);
void regspill_add_build_params(cr_result *r, const regspill_build_facts *f, const regspill_build_info *b);
/* The rounds of live values that make updates value updates, at least 1. */
uint32_t regspill_rounds_for(uint64_t updates, unsigned live);
/* Measures the built kernel and fills the timing part of r; verifies. */
int regspill_measure_built(regspill_run *run, unsigned live, uint32_t rounds, cr_result *r);
int regspill_record_build_failure(regspill_run *run, const char *variant, const char *sweep, const char *what,
                                  const char *err);
/* The value updates per work-item of a launch of about the target time. */
int regspill_calibrate(regspill_run *run, unsigned live, uint64_t *updates);

/* ---- the sweeps: 0, or -1 where a row could not be written ---- */
int regspill_sweep_live(regspill_run *run);
int regspill_sweep_caps(regspill_run *run);
int regspill_offline_table(regspill_run *run);

#endif
