/* The OpenCL bandwidth backend's buffers: a path's, allocated and filled
 * (its destination zeroed) before its repetitions, and freed after. */
#ifndef CR_OPENCL_BANDWIDTH_PREPARE_H
#define CR_OPENCL_BANDWIDTH_PREPARE_H

#include "state.h"

void bw_cl_release(const bw_path *p);
cr_status bw_cl_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen);
cr_status bw_cl_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err, size_t errlen);

/* CR_OK when the device runs local kernel k: work-groups of BW_LOCAL_GROUP
 * work-items and its two halves of local memory; else CR_UNSUPPORTED
 * saying why. */
cr_status bw_cl_local_kernel_fits(enum kernel_id k, char *why, size_t len);

#endif
