/* The X-model's machine state (Li 2016, §3.2-3.3): n threads split into k in
 * the memory system (MS) and x = n - k in the computation system (CS); the
 * MS supplies f(k) bytes per unit time, the CS demands g(x)/Z of them (Z:
 * operations per byte). The state is where supply meets demand. Pure
 * functions: the tool draws and reports, this decides.
 *
 * Sign conventions. k grows to the right from one origin; x grows to the
 * left from a second origin n away (Li's reversed axis), so on the k axis the
 * demand h(k) = g(n - k)/Z falls where g rises: dh/dk = -(dg/dx)/Z. Let
 * D(k) = f(k) - h(k), the net flow of threads out of MS. Below a crossing
 * with D < 0, more threads enter MS than leave, so k grows; above it with
 * D > 0, k shrinks: the crossing is stable when D goes from negative to
 * positive, i.e. f'(k) + g'(x)/Z > 0. Because g' >= 0 this always holds
 * where f rises; where f descends (a cache thrashing) it reads
 * |dg/dx|/Z > |df/dk|, Li's Eq. 3.6 with both slopes in MS units. */
#ifndef CR_XGRAPH_MODEL_H
#define CR_XGRAPH_MODEL_H

#include "xgraph/fit.h"

#include <stddef.h>

/* f as a piecewise-linear curve through vertices sorted by strictly
 * increasing k >= 0: a straight line from the origin to the first vertex,
 * the vertices joined by straight lines, flat after the last one. The
 * roofline min(s·k, R) is the single vertex (R/s, R). */
typedef struct {
    const xg_point *v;
    size_t n;
} xg_curve;

double xg_curve_eval(const xg_curve *f, double k);

/* g(x) = min(slope·x, plateau), in operations per unit time. */
typedef struct {
    double slope, plateau;
} xg_roof;

typedef enum {
    XG_STABLE,   /* D crosses upwards: perturbations return */
    XG_UNSTABLE, /* D crosses downwards: Li's sigma, never observed */
    XG_TANGENT,  /* D touches zero without crossing: the edge of stability */
    XG_NEUTRAL,  /* the curves coincide over an interval */
} xg_stability;

typedef enum {
    XG_MEMORY_BOUND,   /* on the MS plateau: k >= delta */
    XG_COMPUTE_BOUND,  /* on the CS plateau: x >= pi */
    XG_BALANCED,       /* both at once: Li's machine balance */
    XG_CAPACITY_BOUND, /* both still rising: too few threads to saturate either */
    XG_THRASHING,      /* below delta on a descending part of f: the cache thrashes */
} xg_state;

typedef struct {
    double k, x;    /* threads in MS and in CS */
    double k_end;   /* NEUTRAL: the end of the coincident interval, else NaN */
    double ms;      /* MS throughput f(k) */
    double cs;      /* CS throughput Z·f(k) = g(x) */
    double dfdk;    /* slope of f at k (the segment on the left at a vertex) */
    double dgdx_ms; /* slope of g(x)/Z against x at x, >= 0 */
    xg_stability stability;
    xg_state state;
} xg_crossing;

typedef struct {
    xg_curve f;
    double delta; /* where f reaches its plateau (for the state) */
    xg_roof g;    /* g_E for the application's ILP E */
    double z;     /* operations per byte, > 0 */
    double n;     /* total threads, > 0 */
} xg_machine;

/* Every crossing of f(k) and g(n - k)/Z for k in [0, n], in increasing k,
 * at most cap of them. Returns their number, or -1 for bad input (a curve
 * not sorted, a non-positive Z, n, slope or plateau, a non-finite value). */
int xg_crossings(const xg_machine *m, xg_crossing *out, size_t cap);

const char *xg_stability_name(xg_stability s);
const char *xg_state_name(xg_state s);

#endif
