#define _POSIX_C_SOURCE 200809L
#include "bandwidth/host_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cr_status bw_alloc_host(void **out, uint64_t bytes, char *err, size_t errlen)
{
    /* Page-aligned, as a driver pins or maps it, so that no path pays for
     * an unaligned head. */
    if ((size_t)bytes != bytes || posix_memalign(out, 4096, (size_t)bytes) != 0) {
        *out = NULL;
        snprintf(err, errlen, "cannot allocate %llu bytes of host memory", (unsigned long long)bytes);
        return CR_ERR;
    }
    return CR_OK;
}

void bw_technique_output(bool vector_add, const void *out, uint64_t out_bytes, uint64_t partials, void *dst)
{
    if (vector_add) {
        memcpy(dst, out, (size_t)out_bytes);
        return;
    }
    double sum = 0;
    for (uint64_t i = 0; i < partials; ++i)
        sum += ((const double *)out)[i];
    memcpy(dst, &sum, sizeof sum);
}
