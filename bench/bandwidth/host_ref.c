/* Only the write pattern (elements.h) is shared with the kernels: nothing
 * here depends on the design. */
#include "bandwidth/host_ref.h"

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

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
        w[i] = BW_PATTERN_WORD(i, seed);
}

int bw_host_threads(void) { return omp_get_max_threads(); }
