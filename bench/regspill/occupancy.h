/* Occupancy and critical points of the register–concurrency trade-off
 * (Li, Eq. 4.1–4.5): how many blocks (work-groups) of a kernel fit on one
 * streaming multiprocessor for a given number of registers per thread, and
 * the register counts just before each drop in concurrency.
 *
 * Two register rules are implemented and every result says which it used:
 *  - OCC_RULE_PER_BLOCK: Eq. 4.3 as the thesis writes it; the registers of
 *    a whole block (32·w·r) are rounded up to the allocation unit.
 *  - OCC_RULE_PER_WARP: the hardware's rule as NVIDIA's occupancy calculator
 *    (cuda_occupancy.h) states it; each warp's registers (32·r) are rounded
 *    up to the allocation unit and warps are placed per scheduler
 *    partition. */
#ifndef CR_OCCUPANCY_H
#define CR_OCCUPANCY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { OCC_RULE_PER_BLOCK, OCC_RULE_PER_WARP } occ_rule;

typedef struct {
    const char *name;       /* "sm_50" */
    const char *family;     /* "Maxwell" */
    const char *example;    /* a representative GPU */
    unsigned regs_per_sm;   /* 32-bit registers per SM */
    unsigned regs_per_block;/* most registers one block may hold */
    unsigned max_regs_per_thread;
    unsigned reg_unit;      /* register allocation unit */
    unsigned partitions;    /* register file partitions (schedulers) warps are placed in */
    unsigned max_warps_per_sm;
    unsigned max_blocks_per_sm;
    unsigned max_threads_per_block;
    unsigned smem_per_sm;   /* bytes, largest shared-memory configuration */
    unsigned smem_per_block;/* bytes, most one block may use (opt-in where it applies) */
    unsigned smem_unit;     /* shared-memory allocation unit, bytes */
    unsigned smem_reserved; /* bytes the system reserves per block */
    unsigned compat_partitions; /* per-warp rule only, 0 when unused: a kernel must
                                 * also fit the same register file split into this
                                 * many partitions. NVIDIA's calculator refuses on
                                 * sm_60 (2 partitions) what could not launch on its
                                 * 4-partition Pascal siblings. */
} occ_arch;

extern const occ_arch occ_archs[];
extern const size_t occ_arch_count;

/* Finds an architecture by "sm_90", "compute_90", "90", "9.0" (prefixes and
 * family names are case-insensitive) or family name ("hopper": the first
 * architecture of that family). NULL when unknown. */
const occ_arch *occ_arch_find(const char *name);

typedef enum {
    OCC_LIMIT_NONE,      /* nothing fits: see the reason */
    OCC_LIMIT_BLOCKS,    /* the per-SM block cap */
    OCC_LIMIT_WARPS,     /* warp slots */
    OCC_LIMIT_REGISTERS,
    OCC_LIMIT_SMEM,
} occ_limiter;

const char *occ_limiter_name(occ_limiter l);
const char *occ_rule_name(occ_rule r); /* "per-block (Li Eq. 4.3)", "per-warp (NVIDIA)" */

typedef struct {
    unsigned threads_per_block;
    unsigned smem_per_block;  /* static + dynamic bytes, before the reserve */
    unsigned regs_per_thread;
} occ_kernel;

typedef struct {
    unsigned blocks_per_sm;
    unsigned warps_per_sm;
    double occupancy;         /* warps_per_sm / max_warps_per_sm */
    occ_limiter limiter;      /* the smallest of the limits (first in enum order on ties) */
    unsigned by_blocks, by_warps, by_regs, by_smem; /* each limit on its own; by_smem is
                              * OCC_UNLIMITED when a block allocates no shared memory */
} occ_result;

#define OCC_UNLIMITED 0xffffffffu /* a resource that sets no limit */

/* Blocks of k per SM of a under rule. Returns 0, or -1 with err naming the
 * bad input (block size 0 or above the architecture's, registers per thread
 * 0 or above the architecture's maximum, shared memory above the per-block
 * maximum). A kernel that passes these checks but cannot fit (a block's
 * registers exceed the register file) gives 0 blocks, limiter NONE. */
int occ_compute(const occ_arch *a, const occ_kernel *k, occ_rule rule, occ_result *out, char *err, size_t errlen);

/* One concurrency level: the register counts [r_lo, r_hi] that give the same
 * number of blocks per SM. r_hi is the level's critical point. */
typedef struct {
    unsigned r_lo, r_hi;
    occ_result at_cp;
} occ_level;

/* The concurrency levels of a kernel (threads and shared memory per block)
 * over registers per thread [r_min, r_max], highest concurrency first;
 * register counts that cannot launch at all (0 blocks) form no level.
 * Returns the number of levels (at most cap are stored; levels may be NULL
 * when cap is 0, to count them), or -1 with err set
 * (range empty or outside [1, max_regs_per_thread], bad kernel). */
int occ_critical_points(const occ_arch *a, unsigned threads_per_block, unsigned smem_per_block, unsigned r_min,
                        unsigned r_max, occ_rule rule, occ_level *levels, size_t cap, char *err, size_t errlen);

#endif
