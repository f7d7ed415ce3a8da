/* The CUDA bandwidth backend's buffers: a path's, allocated and filled
 * (its destination zeroed) before its repetitions, and freed after. */
#ifndef CR_CUDA_BW_PREPARE_H
#define CR_CUDA_BW_PREPARE_H

#include "state.h"

cr_status cuda_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen);
cr_status cuda_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err, size_t errlen);
void cuda_release(const bw_path *p);

#endif
