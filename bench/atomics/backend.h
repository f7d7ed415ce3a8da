/* The atomics benchmark's backend contract. The experiment design
 * (design.c) owns what is swept (stride, contention degree,
 * work-groups, operations, types, memory spaces), how the counters are
 * verified and what goes into the CSV; a backend only allocates, launches
 * and times. The host's C11 reference implements the same contract.
 *
 * Kernel semantics (addresses and operands: pattern.h, which the includer
 * reads with AT_U32 defined; the kinds and shape of a run: runs.h).
 * Every work-item g (global id; id = g for global memory, the local id for
 * local memory) performs `iters` operations j = 0..iters-1 on counter
 * AT_INDEX(AT_SLOT(id, degree), stride):
 *   add   atomic add of AT_ADD_VALUE(g)        inc   atomic increment
 *   xchg  atomic exchange with AT_XCHG_VALUE(g) (result discarded)
 *   cas   a compare-and-swap loop adding AT_ADD_VALUE(g)
 *   min   atomic min with AT_MINMAX_VALUE(g, j)  max  atomic max, same values
 *   read  atomic add of 0; the returned values are summed (wrapping, in the
 *         counter's type) into out[g]
 * float add (type AT_F32) adds (float)AT_ADD_VALUE(g), natively where the
 * device can and by a compare-and-swap loop otherwise (supports() says).
 * Global counters start as uploaded. Local counters start at the run's
 * `init` and, after the loop, each slot's counter is written to
 * counters[group * slots_per_group + slot] (slots_per_group =
 * ceil(work_group / degree)), without stride. */
#ifndef CR_ATOMICS_BACKEND_H
#define CR_ATOMICS_BACKEND_H

#include "atomics/pattern.h"
#include "atomics/runs.h"
#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    cr_backend_base base;
    /* CR_OK when (op, type, space) runs; CR_UNSUPPORTED with why in err.
     * how (may be NULL) gets "native" or "cas-loop" (float add). */
    cr_status (*supports)(at_op op, at_type type, at_space space, const char **how, char *err, size_t errlen);
    /* Allocates `counters` elements of type and `outs` 64-bit read sums
     * (replacing earlier ones). */
    cr_status (*prepare)(at_type type, uint64_t counters, uint64_t outs, char *err, size_t errlen);
    /* Copies the first n counters in (global runs) or out; elements of the
     * run's type, 4 or 8 bytes each. */
    cr_status (*upload)(const void *src, uint64_t n, char *err, size_t errlen);
    cr_status (*download)(void *dst, uint64_t n, char *err, size_t errlen);
    /* The read sums, one per work-item, widened to 64 bits. */
    cr_status (*download_out)(uint64_t *dst, uint64_t n, char *err, size_t errlen);
    /* Runs r once, blocking, and reports its timing. */
    cr_status (*run)(const at_run *r, cr_timing *t, char *err, size_t errlen);
    /* An empty kernel of one work-item: the time from enqueue to the start
     * of execution (device clock, CR_UNSUPPORTED where the API has no
     * queued timestamp) and the round trip enqueue..completion (host clock). */
    cr_status (*launch_empty)(double *enqueue_to_start_s, double *round_trip_s, char *err, size_t errlen);
    /* groups work-groups, one work-item each taking the lock, incrementing
     * a plain counter inside it and releasing it, iters times. The counter
     * ends in *counter (expected groups * iters). */
    cr_status (*run_lock)(at_lock kind, uint64_t groups, uint32_t iters, cr_timing *t, uint64_t *counter, char *err,
                          size_t errlen);
    /* The largest work-group, the work-items that fill the device (every
     * compute unit busy), and the work-group size for them; the host:
     * threads. */
    void (*geometry)(uint64_t *work_items, uint64_t *work_group, uint64_t *max_work_group);
} at_backend;

int atomics_main(int argc, char **argv, const at_backend *backend);

/* The host's own hardware limit: the same patterns with C11 atomics on
 * OpenMP threads (work-items = threads, work_group = 1). */
extern const at_backend at_host_backend;

#endif
