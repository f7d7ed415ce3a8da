/* What the parts of the SFU benchmark's design share (design.c: options and
 * the order of measurements; errors.c: accuracy, special values and
 * flush-to-zero; timing.c: latency, throughput and the partition sweep):
 * the run's configuration, the state of the function and type being
 * measured, and the few steps every part takes on it. Both parts use this
 * module and design.c uses both, so the parts never call back into the
 * design. */
#ifndef CR_SFU_STATE_H
#define CR_SFU_STATE_H

#include "measure.h"
#include "session.h"
#include "sfu/backend.h"
#include "sfu/summary_table.h"

/* Chain-domain inputs on which each version's error of f is measured before
 * its chains are checked (sfu/truth.h). */
#define SFU_CHAIN_SAMPLES 4096
/* Chain geometries whose chain-domain error is kept per version. */
#define SFU_CHAIN_ERR_SLOTS 4
/* Special inputs and flush-to-zero probes of one function, at most. */
#define SFU_MAX_PROBED (SFU_MAX_SPECIAL + SFU_MAX_FTZ_PROBES)

typedef struct {
    unsigned funcs, versions, types, partition_funcs; /* bit sets */
    bool partition_given;                             /* "none" leaves partition_funcs at 0 */
    bool partition_named;                             /* given as names, not "all" or "none" */
    bool lambdas_given;
    uint64_t inputs;                                  /* accuracy inputs per domain */
    uint32_t ilp;
    uint32_t lambdas[SFU_PARTITION_UNITS + 1];        /* fast units of the partition sweep */
    size_t nlambdas;
    const sfu_backend *be;
} sfu_config;

/* The error of one version's chain kernel of one geometry on the chain
 * domain. */
typedef struct {
    uint32_t ilp;       /* 0: unused slot */
    uint64_t work_group;
    double err;         /* max |f_dev - f| */
} sfu_chain_err;

typedef struct {
    cr_session ses;
    sfu_config cfg;
    const sfu_backend *be;
    uint64_t lane_work_items, work_group, max_work_items, unit_size;
    cr_measure_ctx meas;
    double target_s;         /* the duration a timed chain run is calibrated to */
    sfu_summary_table summary;
    /* The function and type being measured. */
    sfu_func f;
    cr_dtype t;
    size_t n;                /* accuracy inputs */
    size_t cap;              /* room in got: n, the chain samples, the special inputs */
    size_t io_cap;           /* room in io_*: cap and the padding to whole work-groups of chains */
    double *typ_x, *typ_y;   /* the typical domain's inputs ... */
    sfu_exact_value *typ_ref;        /* ... and their exact values */
    double *wide_x, *wide_y; /* the same for the wide domain, drawn when first needed */
    sfu_exact_value *wide_ref;
    bool wide_ready;
    double *got;             /* eval results, room for n */
    void *io_x, *io_y, *io_out, *io_sum; /* the same in the kernel's type, and the chains' sums */
    double chain_x[SFU_CHAIN_SAMPLES], chain_y[SFU_CHAIN_SAMPLES];
    sfu_exact_value chain_ref[SFU_CHAIN_SAMPLES];
    bool chain_ref_ready;
    sfu_chain_err chain_err[SFU_NVERSIONS][SFU_CHAIN_ERR_SLOTS];
    uint64_t plateau_wi[SFU_NVERSIONS]; /* work-items of the best throughput; 0: not measured */
    sfu_chain timed[SFU_NVERSIONS];     /* the throughput row's ILP and work-group; work_group 0: none */
} sfu_state;

/* A row of the current function and type, valid until proven otherwise. */
void sfu_init_row(const sfu_state *s, cr_result *r, const char *variant, const char *sweep);
/* The same for version v, whose variant is "<function>/<version>". */
void sfu_init_version_row(const sfu_state *s, cr_result *r, sfu_version v, const char *sweep);

/* The kernel of version v of the current function and type, unpartitioned. */
sfu_kernel sfu_plain_kernel(const sfu_state *s, sfu_version v);

/* The specification's ulp bound of a version (OpenCL: the precise built-in's,
 * 8192 for half_), NaN where it sets none (native_, relaxed math). */
double sfu_bound_ulp(sfu_func f, cr_dtype t, sfu_version v);

/* Evaluates k on n inputs given as doubles (representable in k's type)
 * with the very chain kernel that runs k with like's ILP and work-group:
 * one iteration of x <- a*f(x, y) + b with a = 1 and b = -0, which give
 * f(x, y) back unchanged (-0 and +0 included), passed as arguments so that
 * the code is that of the timed runs. Results into out as doubles. */
cr_status sfu_eval_doubles(sfu_state *s, const sfu_kernel *k, const sfu_chain *like, const double *x,
                           const double *y, size_t n, double *out, char *err, size_t errlen);

/* The chain geometry whose kernel the errors of version v are measured
 * with: the throughput row's, or, before or without one, that of the
 * throughput sweep. */
sfu_chain sfu_accuracy_chain(const sfu_state *s, sfu_version v);

/* The kernel a chain of that geometry runs on, for the rows' params:
 * "scalar" or "vector<N>" (chain_width of the backend). */
const char *sfu_kernel_name(const sfu_state *s, const sfu_kernel *k, const sfu_chain *c, char *buf, size_t len);

/* The next seed of a chain of the current function, uniform over its chain
 * domain and representable in the current type (y = 0 for unary functions),
 * drawn from rng. */
void sfu_chain_seed(const sfu_state *s, uint64_t *rng, double *x, double *y);

#endif
