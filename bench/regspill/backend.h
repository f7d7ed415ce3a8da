/* The register-spill benchmark's backend contract. The experiment design
 * (design.c) owns what is swept, verified and written; a backend
 * only builds the kernel for a number of live values (and, where the
 * toolchain allows, a register cap), launches it and times it.
 *
 * Kernel semantics (regspill/recurrence.h): work-item gid seeds
 * v[i] = RS_SEED(gid, i) for i < live, then runs `rounds` rounds of
 *     for i in 0..live-1:  v[i] = RS_STEP(v[i], v[(i + 1) % live])
 * in that order (so v[live-1] uses the new v[0]), and writes
 *     out[gid] = fold over i of  h = h * RS_FOLD + v[i]   (h starts at 0).
 * The loop over i is fully unrolled so that v lives in registers.
 *
 * A backend may run `lanes` copies per work-item as one vector (CPUs, whose
 * registers are vector registers): copy l of work-item g then computes
 * virtual work-item g * lanes + l, and out holds work_items * lanes values
 * in that order. */
#ifndef CR_REGSPILL_BACKEND_H
#define CR_REGSPILL_BACKEND_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "regspill/kernel_ids.h" /* the work-items a CUDA kernel tells apart */
#include "regspill/recurrence.h" /* the kernels' arithmetic (the includer defines RS_UINT) */
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Live-value counts a backend with ahead-of-time kernels must provide;
 * backends that compile at run time accept any count in [1, RS_LIVE_MAX]. */
#define RS_LIVE_MAX 1024u
extern const unsigned regspill_standard_live[];
extern const unsigned regspill_standard_live_count;

typedef struct {
    unsigned live;    /* live values per work-item */
    unsigned reg_cap; /* registers per thread cap; 0 = the compiler's default */
} regspill_variant;

/* What the toolchain and runtime say about one built kernel. Unknown
 * numbers are left at their initial values (see regspill_build_info_init). */
typedef struct {
    int registers;             /* registers per thread in use, -1 unknown */
    int64_t private_bytes;     /* per-thread private/local memory the runtime reports
                                  (CL_KERNEL_PRIVATE_MEM_SIZE, cudaFuncAttributes.localSizeBytes), -1 unknown */
    int64_t static_smem_bytes; /* shared memory the kernel declares, -1 unknown */
    int blocks_per_cu_api;     /* resident work-groups per compute unit by the runtime's occupancy API, -1 none */
    uint64_t max_work_group;   /* the most work-items a group of this kernel runs (the device's and its own
                                  limit: registers, private memory), 0 unknown */
    char log[8192];            /* the compiler's verbose log (ptxas format where it has one), may be empty */
} regspill_build_info;

void regspill_build_info_init(regspill_build_info *b);

typedef struct {
    cr_backend_base base;
    /* The architecture name the occupancy calculator knows ("sm_90"), or
     * NULL where registers are not the device's concurrency limiter (CPUs)
     * or the architecture is unknown. */
    const char *(*arch)(void);
    /* Whether build() honours reg_cap (NVIDIA toolchains). */
    bool (*can_cap_registers)(void);
    /* Builds the kernel for v (replacing the previous one) for launches of
     * work_group work-items per group, and reports what is known about it.
     * CR_UNSUPPORTED when this backend has no kernel for v.live. */
    cr_status (*build)(const regspill_variant *v, uint64_t work_group, regspill_build_info *info, char *err,
                       size_t errlen);
    /* Allocates the output of work_items work-items (replacing earlier ones). */
    cr_status (*prepare)(uint64_t work_items, char *err, size_t errlen);
    /* Runs the built kernel once, blocking, and reports its timing. */
    cr_status (*run)(uint64_t work_items, uint64_t work_group, uint32_t rounds, cr_timing *t, char *err,
                     size_t errlen);
    /* Copies the work_items * lanes output values to dst. */
    cr_status (*download)(uint32_t *dst, uint64_t work_items, char *err, size_t errlen);
    /* Copies per work-item (see above); NULL means 1. */
    unsigned (*lanes)(void);
    /* The work-group size for the sweeps and the work-items that fill the
     * device at that size (every compute unit busy, several groups each). */
    void (*geometry)(uint64_t *work_items, uint64_t *work_group);
    /* Compiles v offline for arch (no device needed) and returns the
     * compiler's verbose log; NULL when the backend has no offline compiler.
     * CR_UNSUPPORTED when the compiler cannot be found. */
    cr_status (*compile_offline)(const regspill_variant *v, const char *arch, char *log, size_t loglen, char *err,
                                 size_t errlen);
    /* Whether the backend has a kernel for live values (no device needed),
     * else false with why in err; NULL when it builds any count up to
     * RS_LIVE_MAX. */
    bool (*has_kernel)(unsigned live, char *err, size_t errlen);
    /* The most work-items a group runs on any device of this API, so that
     * a larger --work-group is refused without one (CUDA: 1024 threads a
     * block at every compute capability since 2.0); 0 where only the
     * device knows. */
    uint64_t any_device_max_group;
} regspill_backend;

/* Entry point shared by every regspill executable. */
int regspill_main(int argc, char **argv, const regspill_backend *backend);

#endif
