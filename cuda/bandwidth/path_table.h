/* The CUDA bandwidth backend's paths: their keys, descriptions, kinds,
 * paths-matrix cells and the backend's own ids, in the order they run.
 * Plain C data, so that a test reads the table itself without a GPU. */
#ifndef CR_CUDA_BW_PATH_TABLE_H
#define CR_CUDA_BW_PATH_TABLE_H

#include "bandwidth/backend.h"
#include "transfer_plan.h"

#include <stddef.h>

typedef enum path_id {
    P_H2D_PAGEABLE, P_H2D_PAGEABLE_ASYNC, P_H2D_PINNED, P_H2D_PINNED_ASYNC, P_H2D_PINNED_WC,
    P_D2H_PAGEABLE, P_D2H_PAGEABLE_ASYNC, P_D2H_PINNED, P_D2H_PINNED_ASYNC,
    P_D2D_MEMCPY, P_D2D_KERNEL,
    P_KR_DEVICE, P_KW_DEVICE, P_KR_MAPPED, P_KW_MAPPED,
    P_KR_MANAGED, P_KW_MANAGED, P_KR_MANAGED_PREFETCH, P_KW_MANAGED_PREFETCH, P_KR_MALLOC, P_KW_MALLOC,
    P_CPU_WRITE_MANAGED, P_CPU_READ_MANAGED, P_CPU_WRITE_MAPPED, P_CPU_READ_MAPPED,
    P_LOCAL,
    P_TECHNIQUE, /* every technique path: which one is in its workload/technique fields */
    P_TRANSFERS, /* P_TRANSFERS + a bw_cuda_shape: transfers.cu runs them, by copy engines or kernels (engine) */
    P_END = P_TRANSFERS + BW_SHAPE_COUNT,
} path_id;

/* Not const: the malloc paths' descriptions name HMM or ATS once the
 * device is open. */
extern bw_path bw_cuda_paths[];
extern const size_t bw_cuda_npaths;

#endif
