/* What the X-graph needs from one device's results directory: f(k) from the
 * stream concurrency sweep (triad), g_E(x) from the fma concurrency sweep,
 * the pointer chase's memory latency, the fixed-size triad, and from the
 * metadata the compute-unit count that turns launched threads into the
 * model's per-compute-unit concurrency. */
#ifndef CR_XGRAPH_DATA_H
#define CR_XGRAPH_DATA_H

#include "xgraph/fit.h"

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
    double bytes_per_thread; /* b: what one triad iteration moves */
    xg_point *f;             /* k (per compute unit), GB/s, sorted by k */
    size_t nf;
    /* size_bytes of the concurrency rows: one array's size (the triad
     * streams three of them); NaN where no row records one. */
    double array_bytes_min, array_bytes_max;
    double triad_fixed;      /* GB/s of the fixed sweep's triad, NaN if none */
    unsigned triad_line;
    /* The same rows' ref_ratio where the benchmark measured the host's own
     * triad limit with each point (CPU and APU devices; interleaved on an
     * APU, in its own phase with the device idle on a CPU device): the
     * bandwidth in units of what the host's memory gives. */
    xg_point *f_ref;         /* k, ratio */
    size_t nf_ref;
    double triad_fixed_ref;
    xg_ilp_series g[XG_MAX_ILP];
    size_t ng;               /* sorted by E */
    double fma_best;         /* the best Gflop/s of any fma row (median figure) */
    unsigned fma_best_line;
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
    /* The device's theoretical peaks from the stream run's metadata
     * (peak.*), NaN when unknown, and how each was obtained. */
    double peak_memory_gbs;
    double peak_gflops[XG_NDTYPES];
    char peak_memory_source[384], peak_compute_source[384];
    /* The benchmarks that give the X-model its memory side (f(k)), its
     * compute side (g(x)) and the chase's latency: their descriptors'
     * xmodel= ("" where none does). */
    char memory_bench[24], compute_bench[24], latency_bench[24];
    char stream_csv[4200], fma_csv[4200], latency_csv[4200];
    bool have_fma, have_latency;
    double l_chase_ns;      /* NaN when there is no usable row */
    char l_chase_note[320];
    xg_dtype_data dt[XG_NDTYPES];
} xg_data;

/* Loads DIR. backend picks stream-<backend>.csv when DIR holds several
 * (NULL: the only one there). Returns 0, or -1 with err naming the file
 * (and line) at fault: no stream CSV, a malformed CSV, a required column or
 * metadata key missing. A missing fma or latency CSV is no error: have_fma
 * and have_latency say so. */
int xg_data_load(xg_data *d, const char *dir, const char *backend, char *err, size_t errlen);

void xg_data_free(xg_data *d);

#endif
