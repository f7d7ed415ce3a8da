/* The stream benchmark's CUDA kernels, apart from the backend that
 * allocates and times them, so that their PTX can be made and checked on
 * its own (bench/stream/tests/test_stream_cuda_static.c). */
#ifndef CR_CUDA_STREAM_KERNELS_H
#define CR_CUDA_STREAM_KERNELS_H

extern "C" {
#include "stream/backend.h"
}

/* Enqueues kernel k on the default stream over the n elements of the
 * arrays a, b, c (already offset to the window) of type t, in blocks of
 * group threads. dot writes one double per block to partial, in device
 * memory; the host copies them after the timed interval. Launch errors are
 * left for cudaGetLastError. */
void stream_cuda_launch(stream_kernel k, cr_dtype t, unsigned blocks, unsigned group, void *a, void *b, void *c,
                        double scalar, uint64_t n, double *partial);

#endif
