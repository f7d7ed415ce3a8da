/* Only the write pattern (elements.h) is shared with the kernels: nothing
 * here depends on the design. */
#include "bandwidth/host_ref.h"

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

#include <omp.h>
#include <stdbool.h>
#include <string.h>

#define LINE_BYTES 64

void bw_host_memcpy(void *dst, const void *src, uint64_t bytes) { memcpy(dst, src, (size_t)bytes); }

void bw_host_chunk(uint64_t bytes, uint64_t parts, uint64_t part, uint64_t *lo, uint64_t *hi)
{
    /* Whole lines shared out, the first lines % parts parts one line more;
     * the partial last line goes to the last part. Written so that nothing
     * overflows for any 64-bit size. */
    uint64_t lines = bytes / LINE_BYTES, each = lines / parts, extra = lines % parts;
    uint64_t first = part * each + (part < extra ? part : extra);
    uint64_t count = each + (part < extra);
    *lo = first * LINE_BYTES;
    *hi = part + 1 == parts ? bytes : (first + count) * LINE_BYTES;
}

void bw_host_memcpy_mt(void *dst, const void *src, uint64_t bytes)
{
#pragma omp parallel
    {
        uint64_t lo, hi;
        bw_host_chunk(bytes, (uint64_t)omp_get_num_threads(), (uint64_t)omp_get_thread_num(), &lo, &hi);
        if (hi > lo)
            memcpy((char *)dst + lo, (const char *)src + lo, (size_t)(hi - lo));
    }
}

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

const char *bw_host_bind_threads(cr_topology *t)
{
    if (omp_get_proc_bind() != omp_proc_bind_false)
        return "OMP_PROC_BIND";
    bool bound = cr_topo_cores(t) > 0;
    if (bound) {
#pragma omp parallel reduction(&& : bound)
        {
            int worker = omp_get_thread_num();
            if (worker > 0)
                bound = cr_topo_bind_thread_to_core(t, (unsigned)worker);
        }
    }
    return bound ? "hwloc-cores" : "none";
}
