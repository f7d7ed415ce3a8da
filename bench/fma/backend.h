/* The FMA benchmark's backend contract: the compute side g(x) of Li's
 * X-model (ch. 3), measured the way Volkov does, with E independent chains
 * of fused multiply-adds per work-item and the concurrency per compute unit
 * swept from one unit to full occupancy. The experiment design
 * (design.c) owns what is swept, how every run is verified and what goes
 * into the CSV; a backend only allocates, launches and times.
 *
 * Kernel semantics. A run has work_items work-items in groups of
 * work_group, `ilp` chains per work-item and `lanes` copies of them per
 * work-item (lanes(dtype): a CPU backend runs one SIMD vector per chain;
 * GPU backends 1). Chain c = (j * work_items + g) * lanes + l, for chain
 * j < ilp of work-item g in lane l, starts from seeds[c] and takes `iters`
 * steps
 *     x = fma(x, a, b)
 * (correctly rounded, in the run's type), and out[c] is its last value.
 * a and b are kernel arguments and the seeds come from memory, so nothing
 * folds; the chains of a work-item stay separate dependency chains. */
#ifndef CR_FMA_H
#define CR_FMA_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "fma/chain.h" /* the kernels' chain step (the includer defines FMA_FUSED) */
#include "timer.h"

#include <stdint.h>
#include <stdio.h>

/* The most chains a work-item runs. */
#define FMA_MAX_ILP 8u

/* What the sweep's concurrency is counted in. */
typedef struct {
    unsigned compute_units;
    uint64_t unit_items;       /* work-items per concurrency unit: a warp or wavefront, 1 on a CPU */
    const char *unit_name;     /* "warps" or "work-items", for the CSV */
    uint64_t max_units_per_cu; /* resident units per compute unit at full occupancy; 0 = no such limit (CPUs) */
    uint64_t max_work_group;   /* work-items */
    /* Work-groups launched per compute unit. A GPU: 1, as more would raise
     * residency. A CPU core runs one group at a time, so several per core
     * keep its concurrency and let a core that finishes early take another
     * group instead of idling: with one group per core, a repetition on
     * which two groups share one core takes twice as long. */
    unsigned groups_per_cu;
} fma_geometry;

typedef struct {
    cr_backend_base base;
    /* CR_OK when the kernels run in dtype, else CR_UNSUPPORTED with why. */
    cr_status (*supports)(cr_dtype dtype, char *err, size_t errlen);
    /* Copies of every chain per work-item in dtype (>= 1). */
    unsigned (*lanes)(cr_dtype dtype);
    /* How the work-items of a group are scheduled against each other, one
     * line for the metadata ("hardware warps", "a work-group barrier every
     * 32 steps"). */
    const char *(*schedule)(void);
    /* Allocates seeds and outputs for work_items * ilp * lanes chains of
     * dtype (replacing earlier ones) and uploads the seeds. */
    cr_status (*prepare)(cr_dtype dtype, uint64_t work_items, unsigned ilp, const void *seeds, char *err,
                         size_t errlen);
    /* Runs work_items * ilp * lanes chains once, blocking, and reports its
     * timing: the first ones of the prepared chains, which may be more (the
     * points of a sweep share one set, prepared for the largest). a and b
     * are converted to dtype (they are exact in float). */
    cr_status (*run)(cr_dtype dtype, unsigned ilp, uint32_t iters, uint64_t work_items, uint64_t work_group, double a,
                     double b, cr_timing *t, char *err, size_t errlen);
    /* Copies the first n chains' end values (dtype elements) to dst. */
    cr_status (*download)(void *dst, uint64_t n, char *err, size_t errlen);
    /* The device's geometry; its max_work_group is the device's limit. */
    void (*geometry)(fma_geometry *g);
    /* The largest work-group the kernel of dtype with ilp chains runs with:
     * the device's limit and the kernel's own (its registers, its local
     * memory). */
    cr_status (*work_group_limit)(cr_dtype dtype, unsigned ilp, uint64_t *limit, char *err, size_t errlen);
} fma_backend;

/* Entry point shared by every fma executable. */
int fma_main(int argc, char **argv, const fma_backend *backend);

#endif
