/* The state of one stream run, shared by the design's modules: its
 * configuration, the device and the host reference it is compared with,
 * and the mirrors that hold what every array must hold. Backends never see
 * it; they are reached through the endpoints' contracts. */
#ifndef CR_STREAM_RUN_H
#define CR_STREAM_RUN_H

#include "stream/backend.h"

#include "measure.h"
#include "options.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

/* The scalar of mul and triad. */
#define STREAM_SCALAR 0.4

enum { STREAM_SWEEP_FOOTPRINT = 1, STREAM_SWEEP_FIXED = 2, STREAM_SWEEP_CONCURRENCY = 4 };

typedef struct {
    uint64_t size;          /* per-array bytes of the fixed and concurrency sweeps; 0 until given */
    cr_range footprint;     /* all 0 until given */
    cr_range concurrency;   /* all 0 until given */
    unsigned dtypes;        /* bit per cr_dtype */
    unsigned kernels;       /* bit per stream_kernel */
    unsigned sweeps;
    cr_host_ref host_ref;
    uint64_t seed;
} stream_config;

typedef struct {
    const stream_backend *be;
    cr_device_info info;
    bool open;
    cr_measure_ctx meas;
    const char *label; /* device column */
} stream_endpoint;

typedef struct {
    cr_session ses;
    stream_config cfg;
    stream_endpoint dev, host;
    bool use_host;
    uint64_t conc[64];   /* work-items of the concurrency sweep */
    size_t nconc;
    void *mirror[3]; /* expected contents of a, b, c */
    void *scratch;   /* downloaded output */
    uint64_t mirror_bytes;
    double window_s;    /* the concurrency windows' target (window.h); CROSSROOF_STREAM_WINDOW_S in tests */
} stream_run;

/* One device point of a measurement: its geometry and the sweep it is a
 * point of. */
typedef struct {
    stream_geometry g;
    const char *sweep;
} stream_point;

/* Verifies the output of kernel k on endpoint ep, run at geometry g over
 * arrays of n elements, against the mirrors; fills note where it fails
 * (verify.c). gold_dot is the dot over the whole arrays. */
bool stream_verify(stream_run *run, stream_endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n, double dot,
                   long double gold_dot, const stream_geometry *g, char *note, size_t notelen);

/* Measures kernel k at the device points pts[0..npts), with the host's
 * limit and (host_kernel) the same kernel on the host beside them, then
 * verifies and records every row (measure_points.c). 0, or -1 where a row
 * could not be written or the arrays not restored. */
int stream_measure_points(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n, const stream_point *pts,
                          size_t npts, long double gold_dot, bool host_kernel);

/* The checks of the sizes and of the concurrency sweep (sizes.c): 0, or
 * the exit status of a refusal. What needs no device, before it is
 * opened; then the plan's, against the device and the host. */
int stream_check_options(stream_run *run);
int stream_check_sizes(stream_run *run);
int stream_plan_concurrency(stream_run *run);

#endif
