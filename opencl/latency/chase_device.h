/* The latency backend's OpenCL device and chain, for other benchmarks that
 * walk chains with its chase (the cache benchmark) and build kernels of
 * their own beside it on the same context and queue. */
#ifndef CR_OPENCL_LATENCY_CHASE_DEVICE_H
#define CR_OPENCL_LATENCY_CHASE_DEVICE_H

#include "cl_device.h"

#include <stdbool.h>
#include <stdint.h>

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
