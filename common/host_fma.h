/* The host's compute peak, measured alone: every core runs independent
 * chains of fused multiply-adds in the widest vector registers it was
 * built for, enough of them to keep every FMA pipe busy, float and double.
 * For a CPU device, the peak its FLOP rates are judged against (the way
 * the host's memory limit is its memory peak: common/host_limit.h). */
#ifndef CR_HOST_FMA_H
#define CR_HOST_FMA_H

#include <stddef.h>

typedef struct {
    double best_gflops[2], median_gflops[2]; /* float, double */
    /* One step of a single dependent FMA chain, run on every core right
     * after each timed repetition (the clock of that moment): seconds per
     * FMA latency, the median over cores and repetitions. */
    double chain_step_s;
    const char *isa; /* "AVX-512", "AVX2+FMA", or "scalar" where neither was built */
    unsigned lanes[2];
    int chains, threads, reps;
} cr_host_fma;

/* Measures reps timed repetitions of each type (after one untimed) and
 * checks every lane of every chain (x = x * 1 + 1, exact: the count of
 * steps taken). Returns 0, or -1 with err set (no memory, a wrong result). */
int cr_host_fma_measure(int reps, cr_host_fma *out, char *err, size_t errlen);

#endif
