/* The host's memory limit, measured alone: a STREAM triad (a = b + s*c,
 * 24 bytes per element) over three double arrays with every core, while
 * nothing else runs. For a device that shares the host's memory (a CPU
 * device, an APU) it is the memory peak its figures are judged against. */
#ifndef CR_HOST_LIMIT_H
#define CR_HOST_LIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double best_gbs;    /* the fastest repetition */
    double median_gbs;
    uint64_t array_bytes;
    int reps;
    int threads;
} cr_host_limit;

/* Measures reps timed repetitions (after two untimed) on arrays of
 * array_bytes each, verifies every element, and fills out. Returns 0, or -1
 * with err set (no memory, or a wrong element). */
int cr_host_limit_measure(uint64_t array_bytes, int reps, cr_host_limit *out, char *err, size_t errlen);

#endif
