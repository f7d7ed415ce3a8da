/* The host's memory limit, measured alone: a STREAM triad (a = b + s*c,
 * 24 bytes per element counted), the same triad with non-temporal stores,
 * and a read of two of its arrays (16 bytes per element), with every core,
 * while nothing else runs. For a device that shares the host's memory (a
 * CPU device, an APU) the fastest of the three is the memory peak its
 * figures are judged against: an ordinary triad's store also reads its line
 * first, traffic it is not counted for, so a read-only kernel, or one whose
 * stores skip that read, can outrun it. */
#ifndef CR_HOST_LIMIT_H
#define CR_HOST_LIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double best_gbs, median_gbs; /* per kernel: the fastest repetition, the median */
} cr_host_rate;

typedef struct {
    cr_host_rate triad, streamed, read;
    /* The vector ISA of the streamed triad's non-temporal stores; NULL where
     * the build has none: that triad then ran with ordinary stores and is
     * counted with their write-allocate read, 32 bytes per element. */
    const char *streamed_isa;
    uint64_t array_bytes;
    int reps;
    int threads;
} cr_host_limit;

/* Measures reps timed repetitions of each kernel (after two untimed) on
 * arrays of array_bytes each, verifies every element and the read's sum, and
 * fills out. Returns 0, or -1 with err set (no memory, or a wrong result). */
int cr_host_limit_measure(uint64_t array_bytes, int reps, cr_host_limit *out, char *err, size_t errlen);

#endif
