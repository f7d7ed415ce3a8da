/* The capacity sweep: a random-order chase at the line's stride over
 * footprints from 1 KiB to the top, in steps of 1.25, 1.5, 1.75 and 2
 * times each power of two, so that a capacity is found to within a
 * quarter of its octave: "within one step" of a reference means that. The
 * order is random because a prefetcher follows any regular one, and then
 * footprints beyond a cache would still hit it.
 *
 * The sweep runs in CC_CAPACITY_PASSES passes (passes.c): another process
 * sharing a level makes it look smaller than it is for a while, and a
 * physically indexed level over pages placed at random fills some sets
 * early, differently in each pass's fresh memory. On a KVM guest's
 * 1-MiB L2, four passes read it within a step in every run, two missed it
 * one run in eight. */
#include "cache/state.h"

#include <inttypes.h>

#define CC_FIRST_FOOTPRINT (UINT64_C(1) << 10)
#define CC_CAPACITY_PASSES 4

/* The i-th footprint of the sweep: 2^(10 + i/4) x (1 + (i % 4) / 4). */
static uint64_t footprint_at(size_t i) { return (CC_FIRST_FOOTPRINT << (i / 4)) / 4 * (4 + i % 4); }

/* Measures the i-th footprint into *row (unrecorded); 0, or -1 without
 * memory for the chain. */
static int measure(cc_state *s, void *ctx, size_t i, cr_result *row, double *x)
{
    unsigned line = s->line0;
    uint64_t footprint = footprint_at(i + *(const size_t *)ctx) / line * line;
    cc_row_init(s, row, "random", "capacity");
    row->size_bytes = footprint;
    *x = (double)footprint;
    cr_result_add_param(row, "stride=%u;elements=%" PRIu64, line, footprint / line);
    return cc_measure_random(s, footprint, line, row);
}

int cc_sweep_capacity(cc_state *s)
{
    /* From the first footprint of four lines, a chain's least. */
    size_t first = 0, n = 0;
    while (footprint_at(first) / s->line0 < 4)
        ++first;
    while (footprint_at(first + n) / s->line0 * s->line0 <= s->top)
        ++n;
    cc_passes ps = {.n = n, .passes = CC_CAPACITY_PASSES, .measure = measure, .ctx = &first, .series = &s->capacity};
    int rc = cc_measure_passes(s, &ps);
    if (rc == 0)
        cc_find_levels(s->capacity.p, s->capacity.n, &s->levels);
    return rc;
}
