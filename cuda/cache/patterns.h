/* The CUDA pattern kernel, for the cache backend's `patterns`. */
#ifndef CR_CUDA_CACHE_PATTERNS_H
#define CR_CUDA_CACHE_PATTERNS_H

#ifdef __cplusplus
extern "C" {
#endif

#include "cache/pattern_ops.h"

extern const cc_pattern_ops cc_cuda_patterns;

#ifdef __cplusplus
}
#endif

#endif
