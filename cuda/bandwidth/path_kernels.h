/* The kernels of the bandwidth paths that read or write one buffer, and
 * the workloads of Lee's techniques: grid-stride loops over uint4 (float4
 * for the workloads) in blocks of BLOCK (grid.cuh) threads, the element
 * operations those of the OpenCL twin (bench/bandwidth/elements.h). Each
 * launcher enqueues its kernel on s and returns the launch's error. */
#ifndef CR_CUDA_BW_PATH_KERNELS_H
#define CR_CUDA_BW_PATH_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

/* A read: every 32-bit word of in (bytes, a multiple of 4) summed mod
 * 2^64, one partial per block. */
cudaError_t bw_launch_read(const void *in, uint64_t *partial, uint64_t bytes, unsigned blocks, cudaStream_t s);

/* A write: bw_pattern_word(i, seed) into every 32-bit word i of out. */
cudaError_t bw_launch_write(void *out, uint64_t bytes, uint32_t seed, unsigned blocks, cudaStream_t s);

/* Vector add: c = a + b, bytes of floats each. */
cudaError_t bw_launch_vector_add(const void *a, const void *b, void *c, uint64_t bytes, unsigned blocks,
                                 cudaStream_t s);

/* Reduce: the floats of in (bytes) summed in double, one partial per block. */
cudaError_t bw_launch_reduce(const void *in, double *partial, uint64_t bytes, unsigned blocks, cudaStream_t s);

#endif
