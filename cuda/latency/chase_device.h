/* The latency backend's CUDA device and chain, for other benchmarks that
 * walk its chains with kernels of their own (the cache benchmark's load
 * variants and store probe) on the same device, timer and allocation. */
#ifndef CR_CUDA_LATENCY_CHASE_DEVICE_H
#define CR_CUDA_LATENCY_CHASE_DEVICE_H

#include "cuda_device.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The open device and its timer; NULL while none is open. */
cr_cuda *lt_cuda_device(void);

/* The prepared chain: its allocation (NULL while there is none), its
 * words in *words and, in *global_base, the global-space address its
 * words' targets are counted from (address.h): each chain word holds
 * LT_WORD_ADDRESS(*global_base, target word). */
void *lt_cuda_chain(uint64_t *words, unsigned long long *global_base);

#ifdef __cplusplus
}
#endif

#endif
