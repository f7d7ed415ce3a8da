/* The size of each pattern: which shape of it fits a footprint, how large
 * its buffers are and where the trace places them. */
#ifndef CR_CACHE_PATTERNS_SHAPE_H
#define CR_CACHE_PATTERNS_SHAPE_H

#include "cache/pattern_index.h"
#include "cache/pattern_ops.h"
#include "cr.h"

#include <stddef.h>
#include <stdint.h>

/* The names rows and trace files use, indexed by CC_STREAM... */
extern const char *const cc_pattern_names[CC_PATTERNS];

/* The stride pattern's step, in lines: past the next-line prefetch. */
#define CC_STRIDE_LINES 4u

/* The largest shape of pattern kind whose buffers together take at most
 * footprint bytes; line (a power of two, >= 8) is the first level's line:
 * the chase's element spacing, four of them the stride, and the side of a
 * matrix-multiply tile is one line of elements. 0, or -1 where the
 * footprint is too small for the pattern. */
int cc_shape_make(unsigned kind, uint64_t footprint, unsigned line, cc_pattern_shape *s);

/* The address of buffer b's element 0 in the trace: the buffers one after
 * another, each starting on a 4 KiB page, as an allocator places them. */
uint64_t cc_buffer_base(const cc_pattern_shape *s, unsigned b);

#endif
