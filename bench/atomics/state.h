/* The state of one atomics run, shared by the design's modules, and what
 * each offers the others: one configuration measured and verified
 * (measure_run.c), the sweeps of counters (sweeps.c), the launch and lock
 * sweeps (launch_locks.c), the strides planned against the device
 * (strides.c). Backends never see it; they are reached through
 * at_backend. */
#ifndef CR_ATOMICS_STATE_H
#define CR_ATOMICS_STATE_H

#include "atomics/backend.h"

#include "atomics/calibrate.h"
#include "measure.h"
#include "options.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

enum {
    AT_SW_DEGREE = 1,
    AT_SW_STRIDE = 2,
    AT_SW_GROUPS = 4,
    AT_SW_HOST = 8,
    AT_SW_LAUNCH = 16,
    AT_SW_LOCKS = 32,
    AT_SW_ALL = 63
};

/* The quick run's stride sweep: 1, 4, 16, ... 1024 elements, at half the
 * target time per repetition, so that its six points cost what the three
 * of 1:1024:x32 did. A default stride curve has at least AT_MIN_STRIDES
 * strides that fit the device wherever it holds that many (x2 in a memory
 * space where x4 leaves fewer). */
#define AT_QUICK_STRIDE_FACTOR 4
#define AT_QUICK_STRIDE_TARGET_DIVISOR 2
#define AT_MIN_STRIDES 5u

typedef struct {
    unsigned ops, types, spaces, sweeps; /* bit sets */
    cr_range strides;   /* all 0 until given */
    cr_range degrees;   /* all 0 until given */
    uint64_t iters;     /* 0 until given: calibrated */
    uint64_t max_bytes; /* largest counter buffer */
    bool strides_given, iters_given;
} at_config;

typedef struct {
    const at_backend *be;
    cr_device_info info;
    cr_measure_ctx meas;
    uint64_t work_items, work_group, max_work_group;
} at_endpoint;

typedef struct {
    cr_session ses;
    at_config cfg;
    at_endpoint dev, host;
    bool use_host;
    void *counters;        /* host copy: initial values, then results */
    uint64_t *read_sums;
    uint64_t counters_cap; /* elements of the largest type */
    uint64_t outs_cap;
    /* host reference (all threads, own cache line each) per op and type */
    double host_uncontended[AT_NOPS][AT_NTYPES];
    /* every host thread on one address: with the above, the contention the
     * host's own cores show (the yardstick of a device's ratio row) */
    double host_contended[AT_NOPS][AT_NTYPES];
    double target_s;                    /* of one repetition, where --iters does not say */
    cr_range space_strides[AT_NSPACES]; /* the stride sweep's strides in each space */
} at_state;

static inline bool at_selected(unsigned bits, int i) { return (bits >> i) & 1u; }

/* Whether op on type is asked for and exists (float: add only). */
static inline bool at_op_selected(const at_state *s, int op, int type)
{
    return at_selected(s->cfg.types, type) && at_selected(s->cfg.ops, op) && (type != AT_TYPE_F32 || op == AT_ADD);
}

/* The sweep 1, 2, 4, ... end, ending on end itself: the value after v, or
 * 0 when v was end. */
static inline uint64_t at_doubling_next(uint64_t v, uint64_t end) { return v >= end ? 0 : v * 2 > end ? end : v * 2; }

/* ---- measure_run.c ---- */
void at_init_row(cr_result *r, const at_endpoint *ep, const char *variant, const char *dtype, const char *sweep);
/* A point its calibration did not size: over its time budget (valid and
 * unmeasured, stopped by the budget), unsupported, or failed. */
void at_uncalibrated_row(cr_result *row, cr_status st, bool over_budget, const char *why);
/* A repetition's time as the measurement would take it: the events where
 * they are sane, else the host clock. */
double at_timing_seconds(const cr_timing *t);
/* Operations per point (iters) calibrated by pilots; see measure_run.c. */
cr_status at_calibrate_point(at_state *s, const cr_result *row, const char *what, uint32_t cap, double target_s,
                             at_pilot_fn pilot, void *ctx, uint32_t *iters, bool *over_budget, char *err,
                             size_t errlen);
/* Measures one configuration on ep and records its verified row; *figure
 * (when wanted) gets the median Mop/s of a valid row, else NaN. r->iters 0
 * calibrates the point. Returns -1 when the row cannot be written. */
int at_measure_run(at_state *s, at_endpoint *ep, at_run *r, const char *sweep, double *figure);

/* ---- selection.c ---- */
#define AT_NSWEEPS 6
extern const char *const at_sweep_names[AT_NSWEEPS]; /* of the AT_SW_* bits, in order */
/* The operations of the stride sweep, in the order it runs them. */
#define AT_NSTRIDE_OPS 3
extern const at_op at_stride_ops[AT_NSTRIDE_OPS];
/* Whether sweep sw (an AT_SW_* of counters) runs op on type in space at
 * all; why not. The launch and the locks run none. */
bool at_sweep_runs(unsigned sw, int op, int type, int space, char *why, size_t len);
/* Whether sweep sw runs anything with the operations, types and memory
 * spaces chosen. */
bool at_sweep_measures(const at_state *s, unsigned sw);
/* Each sweep, operation, type and space of a --sweeps, --ops, --types or
 * --spaces given (given[0..3]) is run by some sweep of counters with the
 * others chosen: -1, else the exit status after one line; device: asked
 * of the device open too (what it has, whether the host's sweep runs). */
int at_check_selection(at_state *s, const bool given[4], bool device);

/* ---- sweeps.c, launch_locks.c: 0, or -1 where a row could not be written ---- */
int at_sweep_degree(at_state *s);
/* A ratio row of op on type in global memory (its figure the uncontended
 * over the one-address rate) beside the host's own: flagged not-concurrent
 * where the device shows no contention and the host does. */
void at_judge_concurrency(const at_state *s, at_type type, at_op op, cr_result *row);
int at_sweep_stride(at_state *s);
int at_sweep_groups(at_state *s);
int at_sweep_host(at_state *s);
int at_sweep_launch(at_state *s);
int at_sweep_locks_on(at_state *s, at_endpoint *ep, uint64_t max_groups);

/* ---- strides.c ---- */
/* The most bytes of counters a run takes (and half the device's largest
 * allocation). */
#define AT_MAX_COUNTER_BYTES (UINT64_C(1) << 30)
/* A --strides no device could hold (two work-items' counters a stride
 * apart beyond AT_MAX_COUNTER_BYTES) is refused before the device: the
 * exit status, or -1. */
int at_check_strides_given(at_state *s);
/* A --strides the device cannot hold is refused: the exit status, or -1. */
int at_check_strides(at_state *s);
void at_plan_strides(at_state *s);

#endif
