/* The measurement loop every benchmark uses: warm-up repetitions are
 * discarded, then repetitions continue until the stop rule is satisfied.
 * Several series can be measured interleaved (one repetition of each in
 * turn), so that a device and the host reference it is compared with see
 * the same machine conditions, even where memory bandwidth drifts over
 * seconds as it does on shared machines. */
#ifndef CR_MEASURE_H
#define CR_MEASURE_H

#include "cr.h"
#include "energy.h"
#include "results.h"
#include "stats.h"
#include "timer.h"

/* Runs one repetition and reports its timing. */
typedef cr_status (*cr_rep_fn)(void *ctx, cr_timing *t, char *err, size_t errlen);

/* The sensor a device's points are measured with (the session's): its
 * static power, subtracted from every point, and the shortest window. */
typedef struct {
    cr_energy_meter *meter;
    double static_w;
    double window_s;
} cr_energy_ctx;

/* A point's energy: its repetitions run back to back, after the warm-up and
 * before the timed ones, until the sensor has counted over the window.
 * Whether the window says anything about the point is the row's gate's
 * call (cr_result_energy_per_unit): it takes the energy only where the
 * device was busy for most of the window. */
typedef struct {
    bool measured;
    double energy_j;   /* per repetition, static power subtracted */
    double power_w;    /* average power over the window, static power subtracted */
    double static_w;
    double window_s;   /* how long the energy was counted */
    uint64_t reps;     /* repetitions in the window */
    double busy;       /* the repetitions' device time (events, else host intervals) over window_s */
    double interval_s; /* the sensor's update interval */
    char sensor[48];
    char why[160];     /* a sensor was there but the point has no energy: why */
} cr_energy_point;

typedef struct {
    cr_summary stats;      /* seconds per repetition */
    cr_stop_reason stop;
    const char *timer;     /* "event", "host" or "host-fallback" */
    double resolution_s;   /* resolution of the timer that produced the samples */
    bool below_resolution; /* median under 20 timer ticks (STREAM's rule) */
    cr_energy_point energy; /* measured where the context has a sensor */
} cr_measurement;

/* Per timed endpoint (device, host): stop rule and timer policy. */
typedef struct {
    cr_stop_rule rule;
    unsigned warmup;
    cr_timer_state timer;
    double event_resolution_s; /* device timer resolution */
    double host_resolution_s;  /* measured host clock granularity */
    const cr_energy_ctx *energy; /* NULL: no energy for these series */
} cr_measure_ctx;

void cr_measure_init(cr_measure_ctx *m, const cr_stop_rule *rule, unsigned warmup, double event_resolution_s);

/* The row's timing columns (statistics, timer, stop) and energy columns
 * from a measurement; the per-byte and per-operation energies follow from
 * the row's bytes and operations when it is recorded. */
void cr_measurement_to_row(const cr_measurement *m, cr_result *r);

/* One series of an interleaved measurement. */
typedef struct {
    cr_measure_ctx *ctx;
    cr_rep_fn fn;
    void *arg;
    cr_measurement out;
    double *samples; /* optional: room for max_reps samples, filled in order */
} cr_series;

/* Measures count series interleaved: warm-up rounds (the most any series
 * asks for) and then measured rounds, each running every series once in
 * order; stops when every series satisfies the stop rule of the first (or a
 * cap is reached). A series whose timer gives up on events mid-way starts
 * again on the host clock, and so does every series timed through the same
 * context, so that no point mixes two clocks. Otherwise err says why, and
 * the status is the failing repetition's own (CR_UNSUPPORTED stays
 * CR_UNSUPPORTED). Where the series' context has a sensor, one round of
 * them (every series timed through a context with one, in order: the
 * phases of one operation) is repeated for the energy window. */
cr_status cr_measure_interleaved(cr_series *series, size_t count, char *err, size_t errlen);

/* The same for a sweep: the last `points` series (1 <= points <= count) are
 * points in their own right, the ones before them references measured
 * beside them. The references run first in every round, in order; the
 * points follow in an order that rotates by one each round, so that no
 * point owes its figure to its place in the round. The rule's time budget
 * holds per point: the group may spend `points` times it. Each point's
 * energy is its own; references with a sensor are measured as one round. */
cr_status cr_measure_sweep_interleaved(cr_series *series, size_t count, size_t points, char *err, size_t errlen);

/* One series on its own. */
cr_status cr_measure(cr_measure_ctx *m, cr_rep_fn fn, void *arg, cr_measurement *out, char *err, size_t errlen);

#endif
