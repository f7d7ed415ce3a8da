#include "bandwidth_host.h"

#include "bandwidth.h"

#include <omp.h>
#include <string.h>

void bw_host_memcpy(void *dst, const void *src, uint64_t bytes) { memcpy(dst, src, (size_t)bytes); }

uint64_t bw_host_read(const void *src, uint64_t bytes)
{
    const uint32_t *w = src;
    uint64_t n = bytes / 4, sum = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
    for (uint64_t i = 0; i < n; ++i)
        sum += w[i];
    return sum;
}

void bw_host_write(void *dst, uint64_t bytes, uint32_t seed)
{
    uint32_t *w = dst;
    uint64_t n = bytes / 4;
#pragma omp parallel for simd schedule(static)
    for (uint64_t i = 0; i < n; ++i)
        w[i] = bw_pattern_word(i, seed);
}

int bw_host_threads(void) { return omp_get_max_threads(); }
