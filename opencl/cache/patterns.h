/* The OpenCL pattern kernels, for the cache backend's `patterns`. */
#ifndef CR_OPENCL_CACHE_PATTERNS_H
#define CR_OPENCL_CACHE_PATTERNS_H

#include "cache/pattern_ops.h"

extern const cc_pattern_ops cc_opencl_patterns;

#endif
