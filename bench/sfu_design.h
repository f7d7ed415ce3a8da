/* What the parts of the SFU benchmark's design share (bench/sfu.c: options
 * and the order of measurements; sfu_errors.c: accuracy, special values
 * and flush-to-zero; sfu_timing.c: latency, throughput and the partition
 * sweep): the run's configuration and the state of the function and type
 * being measured. */
#ifndef CR_SFU_DESIGN_H
#define CR_SFU_DESIGN_H

#include "measure.h"
#include "session.h"
#include "sfu.h"
#include "sfu_table.h"

/* Chain-domain inputs on which each version's error of f is measured before
 * its chains are checked (sfu_verify.h). */
#define SFU_CHAIN_SAMPLES 4096
/* Special inputs and flush-to-zero probes of one function, at most. */
#define SFU_MAX_PROBED (SFU_MAX_SPECIAL + SFU_MAX_FTZ_PROBES)

typedef struct {
    unsigned funcs, versions, types, partition_funcs; /* bit sets */
    bool partition_given;
    uint64_t inputs;                                  /* accuracy inputs per domain */
    uint32_t ilp;
    uint32_t lambdas[SFU_PARTITION_UNITS + 1];        /* fast units of the partition sweep */
    size_t nlambdas;
    const sfu_backend *be;
} sfu_config;

typedef struct {
    cr_session ses;
    sfu_config cfg;
    const sfu_backend *be;
    uint64_t lane_work_items, work_group, max_work_items, unit_size;
    cr_measure_ctx meas;
    double target_s;         /* the duration a timed chain run is calibrated to */
    const char *fault;       /* CROSSROOF_FAULT test hook: "verify" or "accuracy" */
    bool fault_used;
    sfu_table table;
    /* The function and type being measured. */
    sfu_func f;
    cr_dtype t;
    size_t n;                /* accuracy inputs */
    size_t cap;              /* room in got and io_*: n, the chain samples, the special inputs */
    double *typ_x, *typ_y;   /* the typical domain's inputs ... */
    sfu_ref *typ_ref;        /* ... and their exact values */
    double *wide_x, *wide_y; /* the same for the wide domain, drawn when first needed */
    sfu_ref *wide_ref;
    bool wide_ready;
    double *got;             /* eval results, room for n */
    void *io_x, *io_y, *io_out; /* the same in the kernel's type */
    double chain_x[SFU_CHAIN_SAMPLES], chain_y[SFU_CHAIN_SAMPLES];
    sfu_ref chain_ref[SFU_CHAIN_SAMPLES];
    bool chain_ref_ready;
    double chain_err[SFU_NVERSIONS];   /* max |f_dev - f| seen on the chain domain; NaN: not yet */
    uint64_t plateau_wi[SFU_NVERSIONS]; /* work-items of the best throughput; 0: not measured */
} sfu_state;

/* A row of the current function and type, valid until proven otherwise. */
void sfu_init_row(const sfu_state *s, cr_result *r, const char *variant, const char *sweep);

/* The specification's ulp bound of a version (OpenCL: the precise built-in's,
 * 8192 for half_), NaN where it sets none (native_, relaxed math). */
double sfu_bound_ulp(sfu_func f, cr_dtype t, sfu_version v);

/* ---- sfu_errors.c ---- */

/* Evaluates k on n inputs given as doubles (representable in k's type);
 * results into out as doubles. */
cr_status sfu_eval_doubles(sfu_state *s, const sfu_kernel *k, const double *x, const double *y, size_t n,
                           double *out, char *err, size_t errlen);

/* Draws the typical-domain inputs of the current function and type and
 * computes their exact values; forgets what the previous one measured. */
void sfu_prepare_function(sfu_state *s);

/* The accuracy rows of version v (typical and wide domains), filling its
 * table entry. Returns 0, or -1 when the CSV cannot be written. */
int sfu_accuracy_rows(sfu_state *s, sfu_version v);

/* The special-value and flush-to-zero row of version v. */
int sfu_special_row(sfu_state *s, sfu_version v);

/* The largest |f_dev - f| of version v on the chain domain, measured once
 * per version; NaN with err set when the evaluation failed. */
double sfu_chain_error(sfu_state *s, sfu_version v, char *err, size_t errlen);

/* ---- sfu_timing.c ---- */

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
