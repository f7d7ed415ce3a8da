/* The step of the SFU benchmark's chains (sfu/backend.h), shared verbatim by
 * the OpenCL kernels, the CUDA kernels and the host's replay (truth.c), so
 * that all three iterate the same map: x <- a*f(x, y) + b, then s += x.
 * fx is f of the chain's current x; it is evaluated once. Plain C
 * expressions only: OpenCL C, CUDA C++ and C include it alike. */
#ifndef CR_SFU_CHAIN_H
#define CR_SFU_CHAIN_H

#define SFU_CHAIN_STEP(x, s, fx, a, b) ((x) = (a) * (fx) + (b), (s) += (x))

#endif
