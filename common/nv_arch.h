/* FP32 and FP64 FMA units per streaming multiprocessor of NVIDIA
 * architectures, from the CUDA programming guide's throughput table, for
 * the compute peak of a CUDA device or an OpenCL device that reports its
 * compute capability (cl_nv_device_attribute_query). */
#ifndef CR_NV_ARCH_H
#define CR_NV_ARCH_H

/* Fills lanes[0] (float) and lanes[1] (double) for compute capability
 * major.minor; returns 0, or -1 for an architecture the table lacks. */
int cr_nv_fma_lanes(int major, int minor, unsigned lanes[2]);

#endif
