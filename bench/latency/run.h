/* The state of one latency run, shared by the design's modules, and what
 * each offers the others: a chain walked and measured at one footprint
 * (walk_point.c), the level rows picked from the footprint rows
 * (level_rows.c), the footprints planned against the device and the host
 * (footprints.c). Backends never see it; they are reached through
 * lt_backend. */
#ifndef CR_LATENCY_RUN_H
#define CR_LATENCY_RUN_H

#include "latency/backend.h"

#include "latency/perm.h"
#include "latency/pieces.h"
#include "measure.h"
#include "options.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

#define LT_MIN_FOOTPRINT (UINT64_C(4) << 10)
#define LT_MAX_STEPS (UINT64_C(1) << 40)
/* The overhead row's chain: in L1 everywhere, so that the piece choice is
 * the only difference between its two walks, split into two pieces. */
#define LT_OVERHEAD_FOOTPRINT (UINT64_C(16) << 10)

typedef struct {
    cr_range footprint; /* all 0 until given */
    cr_host_ref host_ref;
    uint64_t seed;
    uint64_t piece_bytes; /* --piece-bytes; 0 until given */
} lt_config;

typedef struct {
    uint64_t footprint;
    lt_layout layout;
    bool measured;
    double cycles; /* per load, counted by the walker (cycles.h); NaN where it counts none */
    cr_result row;
} lt_point;

typedef struct {
    const lt_backend *be;
    cr_device_info info;
    cr_measure_ctx meas;
    lt_caches caches;
    lt_point *points;
    size_t npoints;
} lt_endpoint;

typedef struct {
    cr_session ses;
    lt_config cfg;
    lt_endpoint dev, host;
    bool use_host;
    unsigned line_bytes;   /* element stride of every chain */
    uint64_t one_alloc;    /* the largest device chain kept in one buffer */
    uint64_t piece_bytes;  /* the pieces of a larger one (0: never split) */
    bool pieces_used;      /* some footprint of the sweep is split */
    double target_s;       /* one measured run */
    double warm_budget_s;  /* the warm-up pass at most */
} lt_state;

/* ---- walk_point.c ---- */
void lt_init_row(cr_result *r, const lt_endpoint *ep, const char *variant, const char *sweep);
/* The cycles per load the walker counted, where it counts them. */
void lt_add_cycles(cr_result *r, double cycles, const lt_endpoint *ep);
void lt_add_pieces(cr_result *r, const lt_layout *l);
/* Measures the chain on ep and records the footprint row. Returns -1 when
 * the CSV cannot be written. */
int lt_measure_point(lt_state *s, lt_endpoint *ep, const lt_chain *chain, uint64_t footprint, double host_ns);
/* The cost of the piece choice per load (the overhead row). */
int lt_record_overhead(lt_state *s);

/* ---- level_rows.c ---- */
/* Each cache level's row, and main memory's, from the footprint row that
 * stands for it. */
int lt_record_levels(lt_state *s, lt_endpoint *ep);

/* ---- footprints.c ---- */
/* The cache levels of ep: the API's, a CPU device's from the host topology. */
void lt_find_caches(lt_state *s, lt_endpoint *ep);
/* What the footprint options need no device for: 0, else the exit status
 * of a refusal. */
int lt_check_options(lt_state *s);
/* The footprint sweep against the device and the host: 0 to go on, else
 * the exit status of a refusal. Fills the default sweep. */
int lt_check_footprints(lt_state *s);

#endif
