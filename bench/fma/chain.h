/* One step of a chain and where a chain lives, written once for the OpenCL
 * C and CUDA kernels and the host truth (the OpenCL program gets this file
 * as source), so that all compute the same values in the same places. The
 * includer defines FMA_FUSED(x, a, b): its correctly rounded fused
 * multiply-add in the chains' type. */
#ifndef CR_FMA_CHAIN_H
#define CR_FMA_CHAIN_H

/* x = fma(x, a, b): the step every chain takes iters times. */
#define FMA_CHAIN_STEP(x, a, b) ((x) = FMA_FUSED((x), (a), (b)))

/* Chain j of work-item g, with n work-items in the launch: its seed's and
 * its result's index (in vectors of the lanes, where there are lanes). */
#define FMA_CHAIN_AT(j, g, n) ((j) * (n) + (g))

#endif
