/* Incompressible buffer contents: splitmix64, reproducible from a seed. */
#ifndef CR_RANDOM_H
#define CR_RANDOM_H

#include "cr.h"

#include <stdint.h>
#include <string.h>

static inline uint64_t cr_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Fills bytes of dst with random bytes. */
static inline void cr_fill_random_bytes(void *dst, uint64_t bytes, uint64_t *state)
{
    unsigned char *p = dst;
    uint64_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t r = cr_splitmix64(state);
        memcpy(p + i, &r, 8);
    }
    if (i < bytes) {
        uint64_t r = cr_splitmix64(state);
        memcpy(p + i, &r, bytes - i);
    }
}

/* Fills n elements of type t with pseudo-random values in [1, 2) whose
 * mantissas are random (incompressible). *state is a splitmix64 state. */
static inline void cr_fill_random_unit(cr_dtype t, void *dst, uint64_t n, uint64_t *state)
{
    if (t == CR_DOUBLE) {
        double *d = dst;
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t bits = UINT64_C(0x3FF0000000000000) | (cr_splitmix64(state) >> 12);
            memcpy(&d[i], &bits, sizeof bits);
        }
    } else {
        float *f = dst;
        for (uint64_t i = 0; i < n; i += 2) {
            uint64_t r = cr_splitmix64(state);
            uint32_t lo = UINT32_C(0x3F800000) | (uint32_t)(r & 0x7FFFFF);
            memcpy(&f[i], &lo, sizeof lo);
            if (i + 1 < n) {
                uint32_t hi = UINT32_C(0x3F800000) | (uint32_t)((r >> 32) & 0x7FFFFF);
                memcpy(&f[i + 1], &hi, sizeof hi);
            }
        }
    }
}

#endif
