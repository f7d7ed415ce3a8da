/* One chain configuration of the SFU benchmark run, measured and checked
 * (chain_run.c): what the latency, throughput and partition rows share.
 * Every run's end values and sums are checked against the host's replay
 * (sfu/truth.h). */
#ifndef CR_SFU_CHAIN_RUN_H
#define CR_SFU_CHAIN_RUN_H

#include "sfu/state.h"

#include <stdbool.h>
#include <stdint.h>

#define SFU_MAX_ITERS (UINT32_C(1) << 30)

/* The seeds of a run and the host's copies of the results, in one block. */
typedef struct {
    uint64_t n;          /* work_items * ilp */
    double *dx0, *dy0;   /* the seeds as doubles, for the replay */
    void *x0, *y0;       /* the same in the kernel's type */
    void *xout, *sout;
} sfu_chain_buffers;

void sfu_free_chain_buffers(sfu_chain_buffers *b);
/* Seeds drawn uniformly from the chain domain, reproducibly: 0, or -1 out
 * of memory (said on stderr). */
int sfu_make_seeds(const sfu_state *s, uint64_t n, uint64_t seed, sfu_chain_buffers *b);
/* Checks the last run: every end value and sum finite, and the replayed
 * sample within the bounds. Writes the first failure into note. */
bool sfu_verify_run(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, sfu_chain_buffers *b, char *note,
                    size_t notelen);
/* Prepares, calibrates (when c->iters is 0), measures and verifies one
 * chain configuration into row (stats, timer, stop, calls per run, note,
 * valid). Returns the median rate in calls per second (NaN when it did not
 * run), or sets *fatal. */
double sfu_chain_point(sfu_state *s, const sfu_kernel *k, sfu_chain *c, uint64_t seed, cr_result *row, bool *fatal);
/* The function's chain at that geometry, iterations to be calibrated. */
sfu_chain sfu_chain_of(const sfu_state *s, uint32_t ilp, uint64_t work_items, uint64_t work_group);
/* Names the kernel a timed row ran in its params. */
void sfu_add_kernel_param(const sfu_state *s, cr_result *row, const sfu_kernel *k, const sfu_chain *c);
/* A row of calls per second: bounded by the device's compute peak (a call
 * is at least one operation, and the peak counts two per FMA lane). */
void sfu_rate_row(cr_result *row);

#endif
