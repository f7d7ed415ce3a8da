/* How a walk through a chain's order moves, for the tests of chains meant
 * to defeat a prefetcher: a stream or stride prefetcher follows steps to
 * nearby elements, which a random order makes rare. */
#ifndef CR_TESTS_ORDER_STEPS_H
#define CR_TESTS_ORDER_STEPS_H

#include <stdint.h>

/* The steps from order[k] to order[k + 1] (k + 1 < n) that move by lo to
 * hi elements, both included. */
static inline uint64_t order_steps_within(const uint64_t *order, uint64_t n, int64_t lo, int64_t hi)
{
    uint64_t steps = 0;
    for (uint64_t k = 0; k + 1 < n; ++k) {
        int64_t d = (int64_t)order[k + 1] - (int64_t)order[k];
        steps += d >= lo && d <= hi;
    }
    return steps;
}

#endif
