/* What every walker over a chain shares, the latency benchmark's and the
 * cache benchmark's: the check of where a walk ended, and the number of
 * loads per walk that makes a launch's fixed cost a small part of it. */
#ifndef CR_LATENCY_WALK_STEPS_H
#define CR_LATENCY_WALK_STEPS_H

#include "cr.h"
#include "timer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compares the word a walk of steps loads from start ended on with the
 * word the cycle says it must; the first mismatch sets *bad and says so in
 * why, later ones leave that message alone. */
void lt_walk_check_end(bool *bad, char *why, size_t whylen, uint64_t steps, uint64_t start, uint64_t end,
                       uint64_t want);

/* One walk of steps loads from where the last one stopped. */
typedef cr_status (*lt_walk_fn)(void *walker, uint64_t steps, cr_timing *t, char *err, size_t errlen);

/* Seconds per load, from walks grown until one lasts an eighth of
 * target_s (at most max_steps / 64 loads): the fixed cost of a launch is
 * then a small part of it. The first walk is thrown away (a runtime may
 * compile or load the kernel there). A walk that seems long enough is
 * repeated twice and the fastest counts, growth going on if that falls
 * short: one walk delayed by the scheduler (a CPU device's worker thread
 * waiting for a core) would otherwise end the growth early, and the launch
 * cost would weigh on every measured walk. Each walk's seconds follow a
 * copy of timer (the measurement decides about insane events for itself). */
cr_status lt_walk_calibrate(lt_walk_fn walk, void *walker, const cr_timer_state *timer, double target_s,
                            uint64_t max_steps, double *sec_per_step, char *err, size_t errlen);

#endif
