/* The launch that puts a given concurrency on every compute unit of the
 * FMA benchmark's device: per_cu units (warps, or work-items on a CPU) on
 * each compute unit, in one work-group per compute unit where the
 * work-group limit allows, else in the fewest equal groups that fit; that
 * many times groups_per_cu (a CPU runs one group per core at a time). */
#ifndef CR_FMA_LAUNCH_H
#define CR_FMA_LAUNCH_H

#include "fma/backend.h"

#include <stddef.h>
#include <stdint.h>

/* Fills work_items and work_group (work_items a multiple of it). Returns 0,
 * or -1 with err set when per_cu units cannot be split into equal groups
 * within the work-group limit, or the count does not fit in 32-bit launch
 * dimensions. */
int fma_launch_shape(const fma_geometry *g, uint64_t per_cu, uint64_t *work_items, uint64_t *work_group, char *err,
                     size_t errlen);

#endif
