/* The pattern kernels' contract (pattern_ops.h). */
#include "cache/pattern_ops.h"

#include <stdio.h>

uint64_t cc_shape_bytes(const cc_pattern_shape *s) { return (uint64_t)s->buffers * s->words * 8; }

cr_status cc_shape_check_init(const cc_pattern_shape *s, uint64_t init_bytes, char *err, size_t errlen)
{
    if (s->buffers >= 1 && s->buffers <= 3 && init_bytes == cc_shape_bytes(s))
        return CR_OK;
    snprintf(err, errlen, "pattern of %u buffers of %llu elements with %llu B of contents", s->buffers,
             (unsigned long long)s->words, (unsigned long long)init_bytes);
    return CR_ERR;
}
