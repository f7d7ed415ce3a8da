/* The OpenCL bandwidth backend's repetitions. */
#ifndef CR_OPENCL_BANDWIDTH_RUN_H
#define CR_OPENCL_BANDWIDTH_RUN_H

#include "state.h"

/* One phase of one repetition of the prepared path, timed. */
cr_status bw_cl_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen);

#endif
