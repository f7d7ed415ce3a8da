/* The list of the SFU benchmark's CUDA kernels: for every function and
 * version, the host handles of its chain kernels. They live in two kinds
 * of translation unit because -ftz is per compilation: the intrinsic versions
 * are compiled with -ftz=true, as Li used them (CUDA's intrinsics flush
 * subnormals only then), and everything else with -ftz=false, so that the
 * precise versions keep subnormals and the PTX versions flush only where
 * their own .ftz says so. */
#ifndef CR_SFU_KERNEL_LIST_H
#define CR_SFU_KERNEL_LIST_H

#ifdef __cplusplus
extern "C" {
#endif

#include "sfu/backend.h"

/* The kernels of one version of one function in one type: host handles
 * for cudaLaunchKernel and cudaFuncGetAttributes. */
typedef struct {
    const void *chain[SFU_MAX_ILP]; /* [ilp - 1] */
} sfu_kernel_list_entry;

/* SFU_PRECISE or SFU_PTX_APPROX of f in type t (kernels_plain.cu); NULL where
 * there is none (double outside Li's div, rcp, sqrt, rsqrt). */
const sfu_kernel_list_entry *sfu_kernel_list_plain(sfu_func f, cr_dtype t, sfu_version v);
/* The partition of SFU_PRECISE with SFU_PTX_APPROX (kernels_partition.cu). */
const sfu_kernel_list_entry *sfu_kernel_list_partition(sfu_func f, cr_dtype t);
/* SFU_INTRINSIC of f, float only (kernels_intrinsic.cu); NULL for rcp and
 * sqrt, which have no intrinsic. */
const sfu_kernel_list_entry *sfu_kernel_list_intrinsic(sfu_func f);

#ifdef __cplusplus
}
#endif

#endif
