/* Opening the CUDA bandwidth backend's device, its paths and what the
 * device supports of them. */
#ifndef CR_CUDA_BW_OPEN_H
#define CR_CUDA_BW_OPEN_H

#include "state.h"

cr_status cuda_open(const char *spec, cr_device_info *info, char *err, size_t errlen);
void cuda_close(void);
/* Lets the paths' managed allocations exceed the device memory free. */
void cuda_oversubscribe(void);
size_t cuda_paths(const bw_path **out);
cr_status cuda_supported(const bw_path *p, char *why, size_t len);

#endif
