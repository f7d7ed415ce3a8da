/* The state of one gesummv run, shared by the design's modules: its
 * configuration, the matrices' order per type, the sweep's work-items, and
 * the host's arrays and gold. Backends never see it. */
#ifndef CR_GESUMMV_RUN_H
#define CR_GESUMMV_RUN_H

#include "gesummv/backend.h"

#include "measure.h"
#include "options.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

/* The rows of a matrix come in whole 128-byte lines of floats. */
#define GESUMMV_ORDER_STEP 32u

typedef struct {
    uint64_t size;        /* bytes of A and B together; 0 until given */
    cr_range concurrency; /* all 0 until given */
    unsigned dtypes;      /* bit per cr_dtype */
    uint64_t seed;
} gesummv_config;

typedef struct {
    cr_session ses;
    gesummv_config cfg;
    const gesummv_backend *be;
    cr_measure_ctx meas;
    uint64_t conc[64]; /* work-items of the sweep */
    size_t nconc;
    void *host[GESUMMV_NARRAYS]; /* A, B, x as uploaded; y as read back */
    void *ones;                  /* n*n ones: A's and B's in the coverage check */
    long double *gold, *scale;   /* per row (truth.h) */
    uint64_t matrix_bytes, vector_bytes, rows_max; /* the room of the host's arrays: the most of any type */
} gesummv_run;

/* The order of the matrices of type t at size bytes of A and B together:
 * the smallest multiple of GESUMMV_ORDER_STEP whose two matrices hold that
 * many bytes (0 where it would not fit 64 bits). */
uint64_t gesummv_order(uint64_t size, cr_dtype t);

/* The plan's checks (plan.c): 0, or the exit status of a refusal. What
 * needs no device, before it is opened; then the sizes against the device
 * and the host, and the work-items against the rows. */
int gesummv_check_options(gesummv_run *run);
int gesummv_plan(gesummv_run *run);

/* Point k's verification (verify.c): its row's note says what failed. */
bool gesummv_verify(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, cr_result *r);

/* Whether type t runs: chosen, and double only where the device has it. */
bool gesummv_dtype_runs(const gesummv_run *run, cr_dtype t);

#endif
