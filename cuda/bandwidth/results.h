/* What the CUDA bandwidth backend's paths delivered, for the design to
 * verify. */
#ifndef CR_CUDA_BW_RESULTS_H
#define CR_CUDA_BW_RESULTS_H

#include "state.h"

cr_status cuda_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen);
/* A path of several transfers delivers each one's destination. */
unsigned cuda_transfers(const bw_path *p);

#endif
