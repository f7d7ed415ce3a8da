/* The X-model's architecture parameters fitted from a results directory
 * (R, s, delta, L; m_E, M_E, pi_E, M), set beside what the same run
 * measured otherwise (the fixed-size triad, the best fma point, the pointer
 * chase), one row per parameter. */
#ifndef CR_XGRAPH_PARAMS_H
#define CR_XGRAPH_PARAMS_H

#include "xgraph/data.h"
#include "xgraph/fit.h"

#include <stdbool.h>
#include <stddef.h>

/* Agreement asked of two measurements of one quantity. */
#define XG_CONSISTENCY 0.10

/* How far Little's law at f's knee may lie from the pointer chase and still
 * be taken for the memory latency: a factor either way. */
#define XG_L_AGREEMENT 2.0

/* Little's law at the knee is the memory latency only if, at the knee, one
 * memory latency passes per delta x b bytes in flight. Where prefetchers and
 * vector loads keep more bytes in flight than the model counts, it comes out
 * far below any DRAM latency; so it stands for L only where the pointer
 * chase, which has one load in flight per thread, confirms it. */
typedef enum {
    XG_L_HOLDS,          /* within XG_L_AGREEMENT of the chase: L is Little's law */
    XG_L_FAILS,          /* farther from the chase: L is the chase's */
    XG_L_CACHE_RESIDENT, /* f was measured in a cache: its knee says nothing of memory */
    XG_L_NO_KNEE,        /* f has no knee (one concurrency measured) */
    XG_L_UNCHECKED,      /* no main-memory chase to check it against */
} xg_l_premise;

typedef struct {
    bool have_f;
    xg_roof_fit f;
    size_t ng;
    int ilp[XG_MAX_ILP];
    xg_roof_fit g[XG_MAX_ILP];
    int best;        /* index into g of the largest plateau, -1 if none */
    double m_peak;   /* M: that plateau, Gflop/s */
    double l_fit_ns; /* Little's law at the knee, whether or not its premise holds */
    int resident;    /* where f was measured: 1 a cache, 0 memory, -1 unknown */
    xg_l_premise l_premise;
    double l_ns;     /* the X-model's L: l_fit_ns where its premise holds, else the
                      * chase's (NaN: none); what everything downstream uses */
    bool have_peak;  /* f(k) rises to a peak and falls >= 10% into a valley */
    double peak_k, peak_y, valley_y;
    bool have_cache; /* Eq. 3.5 fitted to it */
    xg_cache_fit cache;
} xg_dtype_fit;

typedef struct {
    xg_dtype_fit dt[XG_NDTYPES];
} xg_fits;

void xg_fit_all(const xg_data *d, xg_fits *out);

typedef struct {
    char parameter[24];
    char dtype[8];
    int ilp;          /* 0: not per ILP (empty field) */
    double value;     /* NaN: not available (empty field), the note says why */
    char unit[40];
    double quality;   /* relative RMS deviation of the fit; NaN where no fit */
    char source[160];
    char flags[96];   /* the plausibility gate's verdicts, as in the benchmarks' CSVs */
    char note[640];
} xg_param;

typedef struct {
    xg_param *v;
    size_t n, cap;
} xg_param_list;

/* Appends every parameter row. Returns 0, or -1 out of memory. */
int xg_params_build(const xg_data *d, const xg_fits *fits, xg_param_list *out);

/* The row named parameter for dtype (ilp 0: any), or NULL. */
const xg_param *xg_params_find(const xg_param_list *l, const char *parameter, const char *dtype, int ilp);

/* Writes the rows as CSV (parameter,dtype,ilp,value,unit,fit_quality,
 * source,note) atomically. Returns 0 or -1 with err. */
int xg_params_write(const xg_param_list *l, const char *path, char *err, size_t errlen);

void xg_params_free(xg_param_list *l);

#endif
