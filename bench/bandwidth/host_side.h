/* What every bandwidth backend does alike on the host: plain (pageable)
 * host memory for a path's host side, and a technique's output as the
 * design verifies it. Part of the backend contract (backend.h). */
#ifndef CR_BANDWIDTH_HOST_SIDE_H
#define CR_BANDWIDTH_HOST_SIDE_H

#include "cr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bytes of page-aligned memory into *out; NULL and "cannot allocate N
 * bytes of host memory" where there is none. */
cr_status bw_alloc_host(void **out, uint64_t bytes, char *err, size_t errlen);

/* A technique's output into dst from what its kernel left in out: vector
 * add's c (out_bytes of it) as it is; reduce's partial sums (partials
 * doubles) summed into one double. */
void bw_technique_output(bool vector_add, const void *out, uint64_t out_bytes, uint64_t partials, void *dst);

#endif
