/* Incompressible buffer contents: splitmix64, reproducible from a seed. */
#ifndef CR_RANDOM_H
#define CR_RANDOM_H

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

#endif
