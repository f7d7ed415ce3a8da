/* The OpenCL bandwidth backend's state (state.h). */
#include "state.h"

const char *const bw_cl_kernel_names[N_KERNELS] = {
    "bw_read", "bw_write", "bw_copy", "bw_vector_add", "bw_reduce",
    "bw_local_v1", "bw_local_v2", "bw_local_v4", "bw_local_v8", "bw_local_v16"};

bw_cl_state bw_cl;
