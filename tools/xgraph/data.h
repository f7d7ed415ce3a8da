/* What the X-graph needs from one device's results directory, from the
 * benchmarks whose descriptors give them a part in the X-model (xmodel=):
 * f(k) from the memory part's rows and their fixed-size check, g_E(x) from
 * the compute part's, the memory latency from the latency part's, and from
 * the metadata the compute-unit count that turns launched threads into the
 * model's per-compute-unit concurrency. */
#ifndef CR_XGRAPH_DATA_H
#define CR_XGRAPH_DATA_H

#include "xgraph/fit.h"
#include "shared/descriptors.h"

#include <stdbool.h>
#include <stddef.h>

#define XG_MAX_ILP 16
#define XG_NDTYPES 2

typedef struct {
    int ilp;       /* E */
    xg_point *pts; /* x (per compute unit), Gflop/s */
    size_t n;
} xg_ilp_series;

typedef struct {
    const char *name;        /* "float", "double" */
    double element_bytes;
    double bytes_per_thread; /* b: what one iteration of the memory part's variant moves */
    xg_point *f;             /* k (per compute unit), GB/s, sorted by k */
    size_t nf;
    /* size_bytes of f's rows: one array's size (an iteration's accesses
     * each stream one array); NaN where no row records one. */
    double array_bytes_min, array_bytes_max;
    double fixed_figure;     /* GB/s of the fixed-size check's row, NaN if none */
    unsigned fixed_line;
    /* The same rows' ref_ratio where the benchmark measured the host's own
     * memory limit with each point (CPU and APU devices; interleaved on an
     * APU, in its own phase with the device idle on a CPU device): the
     * bandwidth in units of what the host's memory gives. */
    xg_point *f_ref;         /* k, ratio */
    size_t nf_ref;
    double fixed_ref;
    /* An application's own f(k) (xg_data_load_app): k per compute unit as
     * f's, GB/s, sorted by k. */
    xg_point *app_f;
    size_t napp;
    xg_ilp_series g[XG_MAX_ILP];
    size_t ng;               /* sorted by E */
    double compute_best;     /* the best Gflop/s of any compute row (median figure) */
    unsigned compute_best_line;
} xg_dtype_data;

typedef struct {
    char dir[4096];
    char backend[24];       /* "opencl", "cuda" */
    char device[512];
    bool is_cpu;
    char unit[24];          /* "work-items/CU" or "warps/SM" */
    double threads_per_unit; /* 1, or the warp size */
    double compute_units;
    double llc_bytes;       /* the larger of the metadata's llc_bytes (the host's last-level
                             * cache) and device.cache_bytes; NaN when neither is known */
    /* The device's theoretical peaks from the memory part's metadata
     * (peak.*), NaN when unknown, and how each was obtained. */
    double peak_memory_gbs;
    double peak_gflops[XG_NDTYPES];
    char peak_memory_source[384], peak_compute_source[384];
    /* The benchmarks that give the X-model its memory side (f(k)), its
     * compute side (g(x)) and the chase's latency: their descriptors'
     * xmodel= ("" where none does), and which of their rows (xmodel_*). */
    char memory_bench[24], compute_bench[24], latency_bench[24];
    cr_xmodel_rows memory_rows, compute_rows, latency_rows;
    /* The names of the fixed-size check's parameters: R_<variant>,
     * R_over_<variant>, R_<variant>_host_ratio. */
    char fixed_param[40], over_fixed_param[48], fixed_ratio_param[56];
    char memory_csv[4200], compute_csv[4200], latency_csv[4200];
    /* The application whose f(k) xg_data_load_app read ("" none), its rows, its CSV. */
    char app_bench[24];
    cr_xmodel_rows app_rows;
    char app_csv[4200];
    bool have_compute, have_latency;
    double l_chase_ns;      /* NaN when there is no usable row */
    char l_chase_note[320];
    xg_dtype_data dt[XG_NDTYPES];
} xg_data;

/* Loads DIR. backend picks the memory part's <bench>-<backend>.csv when DIR
 * holds several (NULL: the only one there). Returns 0, or -1 with err naming
 * the file (and line) at fault: no memory CSV, a malformed CSV, a required
 * column or metadata key missing. A missing compute or latency CSV is no
 * error: have_compute and have_latency say so. */
int xg_data_load(xg_data *d, const char *dir, const char *backend, char *err, size_t errlen);

/* Reads, into a loaded d, the f(k) of app, a benchmark whose descriptor
 * says xmodel=application: the valid rows of its sweep and variant in
 * DIR/<app>-<backend>.csv, k counted as f's. Returns 0, or -1 with err
 * naming the file (and line): no such file, a malformed row, no valid row
 * of that sweep. */
int xg_data_load_app(xg_data *d, const cr_descriptor *app, char *err, size_t errlen);

void xg_data_free(xg_data *d);

#endif
