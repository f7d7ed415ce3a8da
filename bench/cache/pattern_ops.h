/* The pattern kernels' part of the cache benchmark's contract: what a
 * backend that has them gives the design (patterns.h runs them), the shape
 * they run (pattern_index.h, the element header of the kernels and the
 * host's replay) and the check of what prepare is handed. */
#ifndef CR_CACHE_PATTERN_OPS_H
#define CR_CACHE_PATTERN_OPS_H

#include "cache/pattern_index.h"
#include "cr.h"
#include "timer.h"

#include <stddef.h>
#include <stdint.h>

/* A backend's pattern kernels: one work-item runs one pattern's accesses
 * in order, each address depending on the value loaded before. */
typedef struct {
    /* Allocates the shape's buffers (shape->buffers of shape->words 64-bit
     * elements) and fills them from init: buffer after buffer, init_bytes
     * in all; replaces what an earlier prepare made. */
    cr_status (*prepare)(const cc_pattern_shape *shape, const void *init, uint64_t init_bytes, char *err,
                         size_t errlen);
    /* One run of the prepared pattern; *check is what the kernel computed
     * from the values it loaded, for the design to verify. */
    cr_status (*run)(cr_timing *t, uint64_t *check, char *err, size_t errlen);
    void (*release)(void);
} cc_pattern_ops;

/* Bytes of all the shape's buffers. */
uint64_t cc_shape_bytes(const cc_pattern_shape *s);

/* The check a backend's prepare makes: CR_ERR, with why in err, unless
 * the shape has 1 to 3 buffers and init_bytes is all of them. */
cr_status cc_shape_check_init(const cc_pattern_shape *s, uint64_t init_bytes, char *err, size_t errlen);

#endif
