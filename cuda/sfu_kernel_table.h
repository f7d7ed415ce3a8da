/* Where the CUDA backend of the SFU benchmark finds its kernels. They live in
 * two translation units because -ftz is per compilation: the intrinsic
 * versions are compiled with -ftz=true, as Li used them (CUDA's intrinsics
 * flush subnormals only then), and everything else with -ftz=false, so that
 * the precise versions keep subnormals and the PTX versions flush only
 * where their own .ftz says so. */
#ifndef CR_SFU_KERNEL_TABLE_H
#define CR_SFU_KERNEL_TABLE_H

#ifdef __cplusplus
extern "C" {
#endif

#include "sfu.h"

/* The kernels of one version of one function in one type: host handles
 * for cudaLaunchKernel and cudaFuncGetAttributes. */
typedef struct {
    const void *eval;
    const void *chain[SFU_MAX_ILP]; /* [ilp - 1] */
} sfu_cuda_kernel_set;

/* SFU_PRECISE or SFU_PTX_APPROX of f in type t (cuda/sfu_kernels.cu); NULL
 * where there is none (double outside Li's div, rcp, sqrt, rsqrt). */
const sfu_cuda_kernel_set *sfu_cuda_plain_kernels(sfu_func f, cr_dtype t, sfu_version v);
/* The partition of SFU_PRECISE with SFU_PTX_APPROX (cuda/sfu_kernels.cu). */
const sfu_cuda_kernel_set *sfu_cuda_partition_kernels(sfu_func f, cr_dtype t);
/* SFU_INTRINSIC of f, float only (cuda/sfu_kernels_intrinsic.cu); NULL for
 * rcp and sqrt, which have no intrinsic. */
const sfu_cuda_kernel_set *sfu_cuda_intrinsic_kernels(sfu_func f);

#ifdef __cplusplus
}
#endif

#endif
