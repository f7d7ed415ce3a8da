#include "latency/cycles.h"

#include "stats.h"

#include <math.h>
#include <stdlib.h>

double lt_cycles_per_access(uint64_t cycles, uint64_t steps)
{
    return steps ? (double)cycles / (double)steps : NAN;
}

double lt_cycles_from_clock(double ns, unsigned clock_mhz)
{
    return clock_mhz && !isnan(ns) ? ns * clock_mhz * 1e-3 : NAN;
}

int lt_cycle_log_init(lt_cycle_log *log, size_t cap)
{
    *log = (lt_cycle_log){0};
    if (cap == 0 || !(log->per_access = malloc(cap * sizeof *log->per_access)))
        return -1;
    log->cap = cap;
    return 0;
}

void lt_cycle_log_free(lt_cycle_log *log)
{
    free(log->per_access);
    *log = (lt_cycle_log){0};
}

void lt_cycle_log_add(lt_cycle_log *log, const lt_walk_out *out, uint64_t steps)
{
    log->per_access[log->count++ % log->cap] = out->has_cycles ? lt_cycles_per_access(out->cycles, steps) : NAN;
}

double lt_cycle_log_median(const lt_cycle_log *log, size_t n)
{
    if (n == 0 || n > log->count || n > log->cap)
        return NAN;
    double *last = malloc(n * sizeof *last);
    if (!last)
        return NAN;
    for (size_t i = 0; i < n; ++i) {
        last[i] = log->per_access[(log->count - n + i) % log->cap];
        if (isnan(last[i])) {
            free(last);
            return NAN;
        }
    }
    cr_summary s;
    cr_summarize(last, n, &s);
    free(last);
    return s.median;
}
