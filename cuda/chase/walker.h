/* The CUDA pointer-chase walker: the latency contract's backend
 * (latency/backend.h), which the latency benchmark measures with and the
 * cache benchmark walks with kernels of its own (its load variants, store
 * probe and patterns) on the same device, timer and allocation. */
#ifndef CR_CUDA_CHASE_WALKER_H
#define CR_CUDA_CHASE_WALKER_H

#include "cuda_device.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "latency/backend.h"

/* Uploads a chain (as the addresses of its targets), runs one thread along
 * it, timed with events, and has that thread count its SM's cycles. */
extern const lt_backend lt_cuda_walker;

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
