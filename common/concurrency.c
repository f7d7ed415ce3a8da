/* The work-items of an f(k) sweep (concurrency.h). */
#include "concurrency.h"

size_t cr_concurrency_ladder(const cr_device_info *d, bool quick, uint64_t *out, size_t cap)
{
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    uint64_t per_cu_max = d->max_threads_per_cu ? d->max_threads_per_cu : 1;
    if (quick && per_cu_max > CR_CONCURRENCY_QUICK_PER_CU)
        per_cu_max = CR_CONCURRENCY_QUICK_PER_CU;
    size_t n = 0;
    for (uint64_t k = 1; k < cus && n < cap; k *= 2)
        out[n++] = k;
    for (uint64_t per = 1; per <= per_cu_max && n < cap; per *= 2)
        out[n++] = per * cus;
    return n;
}
