/* The copy kernel of the bandwidth paths that copy with SMs (nvbandwidth's
 * "SM" copies): between device buffers, a peer's memory and mapped pinned
 * host memory alike, the pointers being those the running device sees. */
#ifndef CR_CUDA_BW_COPY_KERNEL_H
#define CR_CUDA_BW_COPY_KERNEL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

/* Enqueues a copy of bytes (a multiple of 4; in and out 16-byte aligned)
 * on s, of the current device, in blocks of BLOCK (grid.cuh) threads; the
 * launch's error. */
cudaError_t bw_launch_copy(const void *in, void *out, uint64_t bytes, unsigned blocks, cudaStream_t s);

#endif
