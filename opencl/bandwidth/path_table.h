/* The OpenCL bandwidth backend's paths, in the order they run. */
#ifndef CR_OPENCL_BANDWIDTH_PATH_TABLE_H
#define CR_OPENCL_BANDWIDTH_PATH_TABLE_H

#include "bandwidth/backend.h"

#include <stddef.h>

extern const bw_path bw_cl_paths[];
extern const size_t bw_cl_npaths;

#endif
