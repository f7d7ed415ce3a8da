/* The plausibility gate: a figure is shown as a fact only when nothing
 * says it is an artifact. Every measured row passes through it before it is
 * written; each verdict adds a token to the row's flags column and its
 * reason, in words and with the numbers, to the row's note:
 *   unstable          the stopping rule was not met (the median's CI is wider than the target)
 *   bimodal           the best repetition took under CR_BIMODAL_RATIO of the median's time:
 *                     the repetitions fall into two groups, the median is one of them
 *   above-peak        the figure is above the device's theoretical peak by more than
 *                     CR_PEAK_MARGIN (memory rows only when they are not cache-resident;
 *                     local-memory rows against the local-memory peak; a memory row whose
 *                     host limit was measured in its own rounds against the higher of the
 *                     peak and that limit's best, with the spread allowed)
 *   cache             a memory figure whose working set is below CR_RESIDENT_FACTOR x the
 *                     last-level cache: it is the cache's bandwidth, not memory's
 *   above-host-limit  a figure compared with the host's own limit for the same work
 *                     (ref_is_limit) exceeds it, median to median or best to best, by more
 *                     than CR_PEAK_MARGIN and the two medians' spread (at most
 *                     CR_SPREAD_CAP) explain
 * and, on the energy cells alone, energy-idle and energy-below-static
 * (cr_result_energy_per_unit). */
#ifndef CR_PLAUSIBILITY_H
#define CR_PLAUSIBILITY_H

#include "results.h"

#include <stddef.h>
#include <stdint.h>

/* A few percent above a peak is clock and rounding slack, not a finding. */
#define CR_PEAK_MARGIN 1.05
/* The most of the measured spread a comparison with a limit allows for:
 * wider, the row is unstable (flagged so), and a larger allowance would let
 * a figure 30% too high through. */
#define CR_SPREAD_CAP 0.10
#define CR_BIMODAL_RATIO 0.6
/* STREAM's rule: arrays of at least 4x the last-level cache. */
#define CR_RESIDENT_FACTOR 4

typedef struct {
    double memory_gbs;          /* NaN: unknown */
    char memory_source[384];    /* how memory_gbs was obtained, or why it is unknown */
    double compute_gflops[2];   /* float, double; NaN: unknown */
    char compute_source[384];
    /* A CPU device's compute peak is measured on the host; beside it, the
     * peak its microarchitecture's table gives at the clock measured, as a
     * cross-check (common/peaks.c). NaN and "" elsewhere. */
    double compute_model_gflops[2];
    double host_clock_mhz;
    char compute_model_source[384];
    char compute_check[256];
    double local_gbs;           /* a work-group's local (CUDA: shared) memory, all compute units; NaN: unknown */
    char local_source[384];
    uint64_t llc_bytes;         /* the last-level cache the residency verdict uses; 0: unknown */
    double target_ci;           /* the stopping rule's target, quoted by the unstable verdict */
} cr_peaks;

/* Peaks nobody knows: every verdict that needs one is skipped. */
void cr_peaks_unknown(cr_peaks *p);

/* Adds one verdict: token to flags (';'-separated) and "token: why" to note
 * ("; "-separated), each cut where it does not fit. For every table that
 * carries flags and a note, so that all of them read alike. */
void cr_flag_add(char *flags, size_t flags_len, char *note, size_t note_len, const char *token, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same on x, anything with the char arrays flags and note. */
#define CR_FLAG(x, token, ...) \
    cr_flag_add((x)->flags, sizeof (x)->flags, (x)->note, sizeof (x)->note, token, __VA_ARGS__)

/* A point's energy is its own only where its repetitions keep the device
 * busy for this share of the energy window: microsecond kernels launched
 * one at a time leave it idle between them, and the window's energy is
 * then mostly the idle device's, less the static power measured apart. */
#define CR_ENERGY_MIN_BUSY 0.9

/* Energy per byte and per operation from the row's joules (where it has
 * bytes or operations), where the energy stands for the point. Otherwise
 * the row's energy, power and per-unit cells stay empty (the sensor, its
 * interval and the static power stay) and it is flagged with why:
 *   energy-idle          the device was busy under CR_ENERGY_MIN_BUSY of the
 *                        window (energy_busy)
 *   energy-below-static  the point drew less than the static power: a
 *                        sensor too coarse for the window, or a static
 *                        power measured in another power state
 * Energy is never written negative. */
void cr_result_energy_per_unit(cr_result *r);

/* Judges r (a row with a measurement: timer other than "none"); returns how
 * many verdicts it added. Rows without a measurement are left as they are. */
int cr_plausibility_check(const cr_peaks *p, cr_result *r);

#endif
