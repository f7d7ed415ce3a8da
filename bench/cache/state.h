/* The cache benchmark's run, shared by its sweeps (sweep_*.c), the walk
 * that measures one chain (walk.c) and the detection (detect.c). */
#ifndef CR_CACHE_STATE_H
#define CR_CACHE_STATE_H

#include "cache/analysis.h"
#include "cache/backend.h"
#include "cache/chains.h"
#include "cache/geometry.h"
#include "cache/hostmem.h"
#include "cache/reference.h"
#include "measure.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

enum { CC_SWEEP_CAPACITY, CC_SWEEP_GRID, CC_SWEEP_LINE, CC_SWEEP_WAYS, CC_SWEEP_WRITE, CC_SWEEP_LOADS, CC_NSWEEPS };
extern const char *const cc_sweep_names[CC_NSWEEPS];

/* The largest span one chase may have: the set-conflict chase of the
 * last level spans addresses times its capacity. */
#define CC_MAX_SPAN (UINT64_C(1) << 30)

/* The grid's strides: 8 B (one chain word) doubling to 8 KiB. */
#define CC_GRID_MIN_STRIDE 8
#define CC_GRID_STRIDES 11
#define CC_MAX_LOAD_KINDS 4
/* The line sweep's odd stride, in units a miss fills. */
#define CC_ODD 3

typedef struct {
    unsigned sweeps;       /* bits of CC_SWEEP_*; 0 until given */
    uint64_t seed;
    uint64_t max_footprint; /* --max-footprint; 0 until given */
} cc_config;

/* A series of points of one sweep, as analysis takes them, with the row
 * each came from (for the evidence). */
typedef struct {
    cc_point *p;
    size_t n, cap;
} cc_series;

/* What each level's own sweeps found. */
typedef struct {
    cc_series pairs;       /* line: x = offset in bytes */
    uint64_t pair_span;
    cc_step unit;          /* the unit a miss fills, from the pairs */
    bool unit_plausible;   /* ... and its step is a miss's (cc_fill_step_plausible) */
    cc_series odd;         /* line: the odd-stride chase, x = footprint */
    uint64_t odd_stride;
    cc_series ways;        /* x = addresses */
    uint64_t ways_stride;
    double huge_share;     /* of the set-conflict chain's pages; -1 unknown */
    char ways_why[160];    /* where no set-conflict chase ran: why */
    char line_why[160];
    /* write: ns per load after evicting, loading, storing; ns per store
     * into a footprint that fits, and into one that does not */
    bool write_measured;
    double cold_ns, load_ns, store_ns, noise;
    double store_in_ns, store_out_ns;
    uint64_t write_footprint, store_out_footprint;
    char write_why[160];
    bool write_bad;        /* a store or chase failed verification */
} cc_level_data;

typedef struct {
    cr_session ses;
    cc_config cfg;
    const cc_backend *be;
    cr_measure_ctx meas;
    bool in_place;          /* chains the device reads from host memory in place */
    bool huge;              /* ... advised to be huge pages */
    char thp[16];           /* the kernel's transparent huge page mode */
    unsigned line0;         /* the line the API reports (or assumes): the capacity sweep's stride */
    uint64_t llc_hint;      /* the largest cache the API or the host reports; 0 none */
    uint64_t top;           /* the sweeps' largest footprint */
    double target_s;        /* one measured walk */
    double warm_budget_s;
    cc_host_words chain_mem; /* the prepared chain's words */
    cc_series capacity;
    cc_series grid[CC_GRID_STRIDES]; /* per stride, 8 B doubling: x = footprint */
    cc_series loads[CC_MAX_LOAD_KINDS]; /* per load kind: x = footprint */
    cc_levels levels;
    cc_level_data level[CC_MAX_LEVELS];
    cc_reference ref;       /* the host's caches, for a CPU device */
    cc_geometry geo;
} cc_state;

/* ---- walk.c ---- */

/* One chain prepared on the device, from its order; its words stay in
 * s->chain_mem. extra_words: room after the chain for the stores. */
cr_status cc_prepare_chain(cc_state *s, const cc_order *o, uint64_t extra_words, char *err, size_t errlen);

typedef struct {
    cc_state *s;
    const cc_order *o;
    unsigned kind;      /* load kind + 1 for be->run_kind; 0 the walker's own */
    uint64_t pos;       /* cycle position of the next walk */
    uint64_t steps;     /* of a measured walk */
    bool bad;
    char why[200];      /* the first mismatch */
} cc_walk;

/* Walks steps loads from the current position, checks where it ended and
 * moves on. */
cr_status cc_walk_run(cc_walk *w, uint64_t steps, cr_timing *t, char *err, size_t errlen);

/* Calibrates, warms (two passes or the warm budget) and measures the
 * prepared chain; the row's statistics, figure (ns per load) and validity
 * from it. */
cr_status cc_walk_measure(cc_walk *w, cr_result *row, char *err, size_t errlen);

/* Whether one chase may span bytes: at most CC_MAX_SPAN and the device's
 * largest allocation. */
bool cc_span_ok(const cc_state *s, uint64_t bytes);

/* A row of the cache benchmark, valid and unmeasured until filled. */
void cc_row_init(const cc_state *s, cr_result *r, const char *variant, const char *sweep);
/* A row whose measurement failed: invalid, with why; also on stderr. */
int cc_record_failed(cc_state *s, cr_result *row, const char *err);
/* Records a measured row; point appended to series (NULL: none). */
int cc_record_point(cc_state *s, cr_result *row, cc_series *series, double x);

/* Prepares and measures one chain into *row, unrecorded, with load kind
 * (cc_walk's kind: 0 the walker's own); a failed walk leaves an invalid
 * row saying why. Returns 0. */
int cc_measure_chain(cc_state *s, const cc_order *o, unsigned kind, cr_result *row);
/* Records a row cc_measure_chain filled, its point appended to series; a
 * failed walk also says why on stderr. 0, or -1 when it cannot be written. */
int cc_record_chase(cc_state *s, cr_result *row, cc_series *series, double x);
/* Measures one chain and records its row: the common path of every chase
 * sweep measured once. Returns 0, or -1 when a row cannot be written. */
int cc_chase_point(cc_state *s, const cc_order *o, cr_result *row, cc_series *series, double x, unsigned kind);

/* ---- passes.c ---- */

/* Measures a random cycle over footprint / stride elements stride bytes
 * apart; 0, or -1 without memory for the chain. */
int cc_measure_random(cc_state *s, uint64_t footprint, uint64_t stride, cr_result *row);

#define CC_MAX_PASSES 8
typedef struct {
    size_t n;         /* points */
    unsigned passes;  /* 1..CC_MAX_PASSES */
    /* Measures point i into *row, unrecorded, its x in *x; 0, or -1 when
     * the sweep cannot go on (no memory). */
    int (*measure)(cc_state *s, void *ctx, size_t i, cr_result *row, double *x);
    void *ctx;
    cc_series *series; /* the kept points go here */
} cc_passes;

/* Measures every point in each pass, up and down in turn, and records
 * per point the fastest pass's row (a failed one wherever a pass failed).
 * Returns 0, or -1 when a row cannot be written or memory runs out. */
int cc_measure_passes(cc_state *s, const cc_passes *ps);

int cc_series_add(cc_series *sr, double x, double ns, bool valid);
void cc_series_free(cc_series *sr);

/* ---- the sweeps ---- */
int cc_sweep_capacity(cc_state *s);
int cc_sweep_grid(cc_state *s);
int cc_sweep_line(cc_state *s);
int cc_sweep_ways(cc_state *s);
int cc_sweep_write(cc_state *s);
/* A pass of n loads: its time per load less the one-load walk's, median
 * from median and best from best, into row's figures. Where the pass took
 * no longer than the one load, the difference is noise, not a time: that
 * figure is left empty and the row flagged "unresolved", saying why. */
void cc_per_load_figures(cr_result *row, const cr_measurement *m, const cr_measurement *one, uint64_t n);
int cc_sweep_loads(cc_state *s);

/* ---- detect.c ---- */
/* The detection rows from what the sweeps found, and s->geo. */
int cc_detect(cc_state *s);
/* The level's name: "L1d" for a CPU's first (the chase reads data), else "L<k>". */
void cc_level_name(const cc_state *s, unsigned k, char *out, size_t len);

#endif
