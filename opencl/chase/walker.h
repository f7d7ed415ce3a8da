/* The OpenCL pointer-chase walker: the latency contract's backend
 * (latency/backend.h), which the latency benchmark measures with and the
 * cache benchmark chases with, building kernels of its own beside it on the
 * same context and queue (its stores, its patterns). */
#ifndef CR_OPENCL_CHASE_WALKER_H
#define CR_OPENCL_CHASE_WALKER_H

#include "cl_device.h"
#include "latency/backend.h"

#include <stdbool.h>
#include <stdint.h>

/* Uploads a chain, runs one work-item along it and times the walk. */
extern const lt_backend lt_opencl_walker;

/* The open device, its context and queue; NULL while none is open. */
cr_cl *lt_opencl_device(void);

/* The buffer of the prepared chain where it is one piece, else NULL. */
cl_mem lt_opencl_chain(void);

/* Prepares a chain of count words in one buffer that kernels may also
 * write (the chase reads only its chain words), replacing the earlier
 * chain. in_place: the device uses the caller's memory itself
 * (CL_MEM_USE_HOST_PTR), so that a CPU device walks the very pages the
 * caller chose (huge pages, say); the words must then outlive the chain.
 * Otherwise they are copied. */
cr_status lt_opencl_prepare_writable(uint64_t *words, uint64_t count, bool in_place, char *err, size_t errlen);

#endif
