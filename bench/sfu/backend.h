/* The SFU benchmark's backend contract. The experiment design (design.c)
 * owns what is measured (accuracy over sampled inputs, special values and
 * flush-to-zero, latency of a dependent chain, throughput with independent
 * chains and concurrency raised to the plateau, the fast/precise partition
 * sweep), how the outputs are verified and what goes into the CSV and the
 * Table 6.4/6.5 analogue; a backend only allocates, launches and times.
 *
 * Kernel semantics. A kernel is one function f in one type, computed with
 * `version`, except that partition units u with (u % SFU_PARTITION_UNITS) <
 * fast_units compute it with `fast` (Li's warp partition, section 6.4). A
 * unit is a work-group (OpenCL) or a warp (CUDA): whole SIMD groups take one
 * path. fast_units = 0 is the plain version; SFU_PARTITION_UNITS is all fast.
 *
 *   chain  work-item g runs `ilp` independent chains j = 0..ilp-1, each
 *          from x = x0[g*ilp + j] with y = y0[g*ilp + j] fixed:
 *              for i in 0..iters-1: x = a * f(x, y) + b; s += x;  (s from 0)
 *          then xout[g*ilp + j] = x and sout[g*ilp + j] = s, both in the
 *          kernel's type. a and b are kernel arguments and x0 comes from
 *          memory, so nothing folds; y, fixed in value, reaches f in every
 *          iteration through a mask with the kernel argument zero = 0
 *          (SFU_CHAIN_FRESH_BITS, sfu/chain.h), so that no work on y alone
 *          is hoisted out of the loop; the sum makes every iteration
 *          count. Calls per run: work_items * ilp * iters.
 * The design also evaluates f with the chain kernels (one iteration, a = 1,
 * b = -0), so that every error it reports is the error of the very code it
 * times: there is no separate evaluation kernel to compile differently. */
#ifndef CR_SFU_BACKEND_H
#define CR_SFU_BACKEND_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "sfu/chain.h" /* the kernels' chain step */
#include "sfu/functions.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SFU_PARTITION_UNITS 64
#define SFU_MAX_ILP 8

typedef struct {
    sfu_func func;
    cr_dtype dtype;
    sfu_version version;
    sfu_version fast;    /* the path of the first fast_units of every SFU_PARTITION_UNITS units */
    uint32_t fast_units; /* 0..SFU_PARTITION_UNITS */
} sfu_kernel;

typedef struct {
    uint32_t ilp;        /* 1..SFU_MAX_ILP */
    uint32_t iters;
    uint64_t work_items; /* a multiple of work_group */
    uint64_t work_group;
    double a, b;
} sfu_chain;

typedef struct {
    cr_backend_base base;
    const char *unit_name;  /* "work-group" or "warp": the partition unit */
    /* The versions this backend has, in the order they are reported; the
     * first is the precise one, and `partition_fast` is the version the
     * partition sweep mixes with it. */
    const sfu_version *versions;
    size_t nversions;
    sfu_version partition_fast;
    /* CR_OK when f exists in type t and version v here (and the partition
     * kernel of f with partition_fast, for v = partition_fast); otherwise
     * CR_UNSUPPORTED with why in err (no fp64, no half_ for double, no
     * intrinsic for 1/x). */
    cr_status (*supports)(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen);
    /* The same whatever the device, asked before one is open: whether the
     * backend has f in type t and version v at all. */
    cr_status (*has)(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen);
    /* Whether version v of type t keeps subnormal inputs and results in
     * principle (OpenCL: CL_FP_DENORM of the device's fp config, and not a
     * relaxed program; CUDA: not a .ftz version). The design reports what
     * the probes show beside it. */
    bool (*keeps_subnormals)(cr_dtype t, sfu_version v);
    /* The vector width the chain kernel of k computes in for chain runs of
     * c's geometry (ILP and work-group): 1 for scalar code. */
    unsigned (*chain_width)(const sfu_kernel *k, const sfu_chain *c);
    /* Uploads the seeds of a chain run (work_items * ilp of k's type each),
     * replacing earlier ones. */
    cr_status (*chain_prepare)(const sfu_kernel *k, const sfu_chain *c, const void *x0, const void *y0, char *err,
                               size_t errlen);
    /* Runs the prepared chain once, blocking, and reports its timing. */
    cr_status (*chain_run)(const sfu_kernel *k, const sfu_chain *c, cr_timing *t, char *err, size_t errlen);
    /* The end values and sums of the last run, n = work_items * ilp. */
    cr_status (*chain_download)(void *xout, void *sout, uint64_t n, char *err, size_t errlen);
    /* The work-items that put one work-item on every SIMD lane of every
     * compute unit, the work-group size to use, and the most work-items
     * a run may have; unit_size: work-items per partition unit. */
    void (*geometry)(uint64_t *lane_work_items, uint64_t *work_group, uint64_t *max_work_items, uint64_t *unit_size);
    /* Registers per thread of k's chain kernel, -1 where the API does not
     * say (OpenCL). */
    int (*registers)(const sfu_kernel *k);
} sfu_backend;

int sfu_main(int argc, char **argv, const sfu_backend *backend);

#endif
