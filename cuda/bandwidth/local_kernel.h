/* The kernels of the local-memory path: blocks stream tiles of a device
 * buffer through shared memory (bench/bandwidth/elements.h), one kernel
 * per vector width. */
#ifndef CR_CUDA_BW_LOCAL_KERNEL_H
#define CR_CUDA_BW_LOCAL_KERNEL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

/* Whether there is a kernel of vectors of v 32-bit words: 1, 2 and 4, the
 * widths of CUDA's shared-memory accesses (ld.shared.u32, .v2, .v4). */
bool bw_local_has_width(unsigned v);

/* Enqueues the rounds over bytes (whole tiles of BW_LOCAL_TILE_BYTES) of
 * in into out on s, one block of BW_LOCAL_GROUP threads per tile, in
 * vectors of v words; the launch's error (cudaErrorInvalidValue for a
 * width without a kernel or a grid the launch cannot take). */
cudaError_t bw_launch_local(const void *in, void *out, uint64_t bytes, unsigned v, cudaStream_t s);

#endif
