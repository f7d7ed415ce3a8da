/* The kernel of the local-memory path: blocks rotate a device buffer
 * through shared memory (bench/bandwidth/elements.h). */
#ifndef CR_CUDA_BW_LOCAL_KERNEL_H
#define CR_CUDA_BW_LOCAL_KERNEL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

/* Enqueues the rotation of bytes (a multiple of 4) of in into out on s,
 * in blocks of BW_LOCAL_TILE threads; the launch's error. */
cudaError_t bw_launch_local(const void *in, void *out, uint64_t bytes, unsigned blocks, cudaStream_t s);

#endif
