/* The launch geometry every bandwidth kernel shares: blocks of BLOCK
 * threads over grid-stride loops, bounded so that a full-occupancy grid
 * stays resident in one wave. */
#ifndef CR_CUDA_BW_GRID_CUH
#define CR_CUDA_BW_GRID_CUH

#include <cstdint>

#define BLOCK 256u

/* Enough blocks of BLOCK per SM for 2048 threads (sm_80, sm_90) caps
 * registers at 32 per thread, so the full-occupancy default grid stays
 * resident in one wave. */
#define RESIDENT __launch_bounds__(BLOCK, 2048 / BLOCK)

__device__ __forceinline__ uint64_t thread_index() { return (uint64_t)blockIdx.x * BLOCK + threadIdx.x; }
__device__ __forceinline__ uint64_t grid_threads() { return (uint64_t)gridDim.x * BLOCK; }

#endif
