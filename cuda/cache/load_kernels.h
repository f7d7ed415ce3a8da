/* The cache benchmark's own CUDA kernels, launched on the shared walker's
 * chain (chase/walker.h): the chase with each cache operator,
 * and the store pass (bench/cache/store.h). */
#ifndef CR_CUDA_CACHE_LOAD_KERNELS_H
#define CR_CUDA_CACHE_LOAD_KERNELS_H

#include "cuda_device.h"

#include <cuda_runtime_api.h>

#include <stdint.h>

/* Load kinds, in the contract's order: cached in L1 first, L1 bypassed
 * second (cache/backend.h). */
enum { CC_LOAD_CA, CC_LOAD_CG, CC_LOAD_NC, CC_NLOADS };

struct cc_chase_out {
    unsigned long long end; /* the address the walk ended on */
};

/* Launches one thread walking steps loads of kind from address start. */
cudaError_t cc_launch_chase(int kind, unsigned long long start, unsigned long long steps, cc_chase_out *out);
/* Gives every kernel here the L1 carve-out the latency chase has
 * (cr_cuda_prefer_l1), so that all chases of the benchmark, and the stores
 * between them, see one cache configuration. */
cr_status cc_prefer_l1(char *err, size_t errlen);
/* Launches one thread storing value as cache/store.h says. */
cudaError_t cc_launch_store(unsigned long long *buf, uint64_t first, uint64_t count, uint64_t stride, uint64_t passes,
                            uint64_t value);

#endif
