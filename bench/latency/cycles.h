/* Latency in cycles. Where the backend counts the cycles of the core that
 * walked (lt_walk_out.cycles: CUDA's clock64), cycles per load come from
 * that count, whatever clock the API reports (CUDA 13 drivers may report
 * none). Elsewhere the nanoseconds can only be converted with the API's
 * nominal clock, which is not the clock the core ran at; that conversion
 * is kept apart, under a name that says so. */
#ifndef CR_LATENCY_CYCLES_H
#define CR_LATENCY_CYCLES_H

#include "latency/backend.h"

#include <stddef.h>
#include <stdint.h>

/* Cycles per load of a walk of `steps` loads that counted `cycles`; NaN
 * for a walk of no loads. */
double lt_cycles_per_access(uint64_t cycles, uint64_t steps);

/* ns per load at a nominal clock of clock_mhz; NaN where the clock is
 * unknown (0) or ns is NaN, never a zero or an infinity that would pass
 * for a figure. */
double lt_cycles_from_clock(double ns, unsigned clock_mhz);

/* The cycles per load of the latest walks. A measurement runs its warm-up
 * first and may start again from the beginning (common/measure.h): the
 * repetitions that count are the last stats.n it ran, so the log keeps the
 * latest values, as many as a measurement can count (max_reps). */
typedef struct {
    double *per_access; /* a ring of cap values; NaN for a walk without cycles */
    size_t cap;
    uint64_t count;     /* walks logged so far */
} lt_cycle_log;

/* Returns 0, or -1 (out of memory, or cap 0). */
int lt_cycle_log_init(lt_cycle_log *log, size_t cap);
void lt_cycle_log_free(lt_cycle_log *log);
void lt_cycle_log_add(lt_cycle_log *log, const lt_walk_out *out, uint64_t steps);

/* The median cycles per load of the last n walks logged; NaN where n is 0
 * or more than were logged or kept, or where one of them has no cycles. */
double lt_cycle_log_median(const lt_cycle_log *log, size_t n);

#endif
