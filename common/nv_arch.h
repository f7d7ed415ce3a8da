/* FP32 and FP64 FMA units and shared-memory bytes per clock per streaming
 * multiprocessor of NVIDIA architectures, from the CUDA programming
 * guide, for the peaks of a CUDA device or an OpenCL device that reports
 * its compute capability (cl_nv_device_attribute_query). */
#ifndef CR_NV_ARCH_H
#define CR_NV_ARCH_H

#include <stddef.h>

/* Fills lanes[0] (float) and lanes[1] (double) for compute capability
 * major.minor; returns 0, or -1 for an architecture the table lacks. */
int cr_nv_fma_lanes(int major, int minor, unsigned lanes[2]);

/* Shared-memory bytes an SM serves per clock: 128 (32 banks of 4 bytes)
 * from compute capability 7.0 on; 0 before, where it differs by
 * architecture and the table does not guess. basis (len bytes) says which. */
unsigned cr_nv_shared_bytes_per_clock(int major, int minor, char *basis, size_t len);

#endif
