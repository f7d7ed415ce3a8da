/* The local-memory path's sweep (BW_KERNEL_LOCAL): one row per vector
 * width, sweep "local-width", each the local traffic of the rounds over
 * the kernel's time, verified against the host's replay (local_replay.h).
 * The buffer is the design's, sized to the device, not a transfer size:
 * the figure is the local memory's, whatever the buffer. */
#ifndef CR_BANDWIDTH_LOCAL_SWEEP_H
#define CR_BANDWIDTH_LOCAL_SWEEP_H

#include "bandwidth/backend.h"
#include "measure.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

/* What the sweep needs of the design's run. */
typedef struct {
    cr_session *ses;
    const bw_backend *be;
    cr_measure_ctx *meas; /* the device's */
    uint64_t bytes;       /* the buffer: bw_local_buffer_bytes */
    uint64_t seed;        /* of its random contents */
} bw_local_env;

/* The buffer the sweep streams on device d: tiles enough for every compute
 * unit (local_sweep.c says how many), fewer where the device's
 * allocation limit is lower, then *capped is set. */
uint64_t bw_local_buffer_bytes(const cr_device_info *d, bool *capped);

/* Measures path p at every vector width, each a row: measured (valid or
 * not, the note saying why) or not supported. *best is the verified row of
 * the highest figure and *best_width its width, 0 where no row verified.
 * Returns 0, or -1 where a row could not be recorded or the host's buffers
 * not allocated. */
int bw_local_sweep(const bw_local_env *env, const bw_path *p, cr_result *best, unsigned *best_width);

#endif
