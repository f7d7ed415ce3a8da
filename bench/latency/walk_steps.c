#include "latency/walk_steps.h"

#include <inttypes.h>
#include <stdio.h>

void lt_walk_check_end(bool *bad, char *why, size_t whylen, uint64_t steps, uint64_t start, uint64_t end,
                       uint64_t want)
{
    if (end == want || *bad)
        return;
    *bad = true;
    snprintf(why, whylen,
             "verification: %" PRIu64 " loads from word %" PRIu64 " ended on word %" PRIu64 ", expected %" PRIu64,
             steps, start, end, want);
}

static cr_status timed_walk(lt_walk_fn walk, void *walker, const cr_timer_state *timer, uint64_t steps,
                            double *sec, char *err, size_t errlen)
{
    cr_timing t = {0};
    if (walk(walker, steps, &t, err, errlen) != CR_OK)
        return CR_ERR;
    cr_timer_state ts = *timer;
    cr_timer_kind kind;
    bool switched;
    *sec = cr_timer_pick(&ts, &t, &kind, &switched);
    return CR_OK;
}

cr_status lt_walk_calibrate(lt_walk_fn walk, void *walker, const cr_timer_state *timer, double target_s,
                            uint64_t max_steps, double *sec_per_step, char *err, size_t errlen)
{
    double sec;
    if (timed_walk(walk, walker, timer, 16, &sec, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t steps = 1024;
    for (;;) {
        if (timed_walk(walk, walker, timer, steps, &sec, err, errlen) != CR_OK)
            return CR_ERR;
        for (int again = 0; again < 2 && sec >= target_s / 8; ++again) {
            double t;
            if (timed_walk(walk, walker, timer, steps, &t, err, errlen) != CR_OK)
                return CR_ERR;
            sec = t < sec ? t : sec;
        }
        if (sec >= target_s / 8 || steps >= max_steps / 64)
            break;
        double grow = sec > 0 ? target_s / 8 / sec * 2 : 64;
        steps *= grow < 2 ? 2 : grow > 64 ? 64 : (uint64_t)grow;
    }
    *sec_per_step = (sec > 0 ? sec : 1e-9) / (double)steps;
    return CR_OK;
}
