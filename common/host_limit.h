/* The host's memory limit, measured alone: a STREAM triad (a = b + s*c,
 * 24 bytes per element) and a read of two of its arrays (16 bytes per
 * element) with every core, while nothing else runs. For a device that
 * shares the host's memory (a CPU device, an APU) the faster of the two is
 * the memory peak its figures are judged against: a triad's store also
 * reads its line first, so a read-only kernel can outrun it. */
#ifndef CR_HOST_LIMIT_H
#define CR_HOST_LIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double best_gbs, median_gbs; /* per kernel: the fastest repetition, the median */
} cr_host_rate;

typedef struct {
    cr_host_rate triad, read;
    uint64_t array_bytes;
    int reps;
    int threads;
} cr_host_limit;

/* Measures reps timed repetitions of each kernel (after two untimed) on
 * arrays of array_bytes each, verifies every element and the read's sum, and
 * fills out. Returns 0, or -1 with err set (no memory, or a wrong result). */
int cr_host_limit_measure(uint64_t array_bytes, int reps, cr_host_limit *out, char *err, size_t errlen);

#endif
