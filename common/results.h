/* The one result schema every benchmark writes: one row per measured point.
 * The table is rewritten atomically after every row, so an interrupted run
 * keeps every point it completed. */
#ifndef CR_RESULTS_H
#define CR_RESULTS_H

#include "stats.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Which theoretical peak bounds a row's figure (common/plausibility.h). */
typedef enum {
    CR_PEAK_NONE = 0, /* no peak applies: latencies, ratios, counts */
    CR_PEAK_MEMORY,   /* bytes moved through memory: GB/s */
    CR_PEAK_COMPUTE,  /* floating-point operations of the row's dtype: Gop/s */
    CR_PEAK_LOCAL,    /* bytes moved through a work-group's local (CUDA: shared) memory: GB/s */
} cr_peak_kind;

typedef struct {
    char benchmark[32];  /* "stream" */
    char backend[24];    /* "opencl", "cuda", "host-openmp" */
    char device[160];
    char variant[48];    /* kernel or path: "triad", "h2d-pinned" */
    char dtype[16];      /* "float", "double", "" */
    char sweep[24];      /* "footprint", "concurrency", "fixed" */
    uint64_t size_bytes; /* per-array footprint or transfer size */
    uint64_t work_items; /* launched work-items / threads, 0 = n/a */
    uint64_t work_group; /* work-group / block size, 0 = n/a */
    char params[192];    /* benchmark-specific knobs, "key=value;key=value" */
    double bytes_per_rep;
    double ops_per_rep;
    cr_summary stats;    /* seconds per repetition */
    char timer[16];      /* "event", "host", "host-fallback" */
    char stop[16];       /* why repetition stopped: stable, max-reps, time-budget, out-of-reach */
    double figure;       /* derived from the median */
    double figure_best;  /* derived from the minimum (STREAM's best-of-N) */
    char unit[16];       /* "GB/s" (1e9 bytes), "Gop/s", "us" */
    double ref_ratio;    /* figure / host reference figure; NaN if none */
    bool valid;          /* verification passed */
    char flags[96];      /* the plausibility gate's verdicts, ';'-separated: "unstable;bimodal" */
    char note[480];
    /* The latency benchmark's cycles per load, counted by the core that
     * walked (CUDA's clock64). Empty where 0 (a row that never set it) or
     * NaN: other benchmarks, and backends that count no cycles. */
    double cycles;
    /* Energy of one repetition where a sensor covers the device
     * (common/energy.h): dynamic joules (static power subtracted), the
     * average dynamic power over the energy window, the static power,
     * picojoules per byte moved and per operation, the sensor and its update
     * interval. Empty where 0 or NaN: no sensor, or a row that moves nothing. */
    double energy_j, power_w, static_w, pj_per_byte, pj_per_op, energy_interval_s;
    char energy_sensor[48];
    /* Not columns: what the gate needs to judge the row. */
    cr_peak_kind peak_kind;
    uint64_t working_set_bytes; /* bytes a repetition touches; 0 = unknown (no residency verdict) */
    bool ref_is_limit;          /* ref_ratio compares with the host's own limit for the same work */
    /* With ref_is_limit, where the limit was measured in the same rounds as
     * the row: the limit's best figure, the row's best over it (best to
     * best, as ref_ratio is median to median), and the spread of the two
     * medians (their 95% CI half-widths, relative, combined). 0 or NaN:
     * not measured so. */
    double limit_best, ref_best_ratio, ref_spread;
    double energy_busy;         /* the device's busy share of the energy window (energy_j set only) */
} cr_result;

/* Starts a row: what it names (dtype and unit may be NULL for none), valid
 * until shown otherwise, its figures and reference ratio NaN until
 * measured; every other column empty. */
void cr_result_begin(cr_result *r, const char *benchmark, const char *backend, const char *device,
                     const char *variant, const char *dtype, const char *sweep, const char *unit);

/* Marks a row that carries no measurement (a failed run, a fit, an
 * unsupported path): statistics empty, timer "none". */
void cr_result_unmeasured(cr_result *r);

/* An infinite number in a row (a figure over a zero time, an error with no
 * bound) is no measurement, and no CSV reader takes one: each becomes
 * empty, the row invalid, and its note says which. Returns how many. */
int cr_result_refuse_infinities(cr_result *r);

/* A parameter whose value is a number that is not finite ("composed_ms=nan",
 * "max_ulp=inf": printf's %g of one) is no number for a CSV reader: it is
 * left out of params, and the note says which and whether it was infinite
 * or not a number. Returns how many. */
int cr_result_drop_nonfinite_params(cr_result *r);

/* Appends "key=value" (printf-style) to the row's params, ';'-separated;
 * what does not fit is cut. */
void cr_result_add_param(cr_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Column names in order; docs/measurement.md documents each. */
extern const char *const cr_result_columns[];
extern const size_t cr_result_ncolumns;

void cr_result_write_header(FILE *f);
void cr_result_write_row(FILE *f, const cr_result *r);

typedef struct {
    char path[4096]; /* empty: keep in memory only */
    cr_result *rows;
    size_t n, cap;
} cr_result_table;

/* Starts a table bound to path (created/replaced on the first add). */
void cr_table_init(cr_result_table *t, const char *path);
/* Appends and rewrites the file atomically. Returns 0, or -1 with err set. */
int cr_table_add(cr_result_table *t, const cr_result *r, char *err, size_t errlen);
/* Writes the (possibly empty) table so that a run with no rows leaves a
 * header-only file rather than nothing. */
int cr_table_flush(cr_result_table *t, char *err, size_t errlen);
void cr_table_free(cr_result_table *t);

#endif
