/* The work-items of an X-model f(k) sweep, the same for every benchmark
 * that measures one (stream's concurrency sweep, gesummv's): k = 1, 2, 4,
 * ... below the compute-unit count, then whole multiples of it, so that
 * every compute unit holds the same number, up to full occupancy. */
#ifndef CR_CONCURRENCY_H
#define CR_CONCURRENCY_H

#include "device.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A quick sweep stops at 64 work-items per compute unit. */
#define CR_CONCURRENCY_QUICK_PER_CU 64

/* Fills out[0..cap) with the ladder of device d and returns how many. */
size_t cr_concurrency_ladder(const cr_device_info *d, bool quick, uint64_t *out, size_t cap);

#endif
